"""Assault modifiers (5.2, 5.4): grade, cover and morale read for the side, repeaters, leaders, batteries,
saved fire, recent losses, skirmishers, flank and rear, and outnumbering."""

import pytest

from republic.rules.assault_sides import side_condition, side_cover, side_grade
from republic.rules.morale import Condition
from republic.rules.troops import Cover, Grade
from tests.rules.assault_inputs import ART, CAV, PB, fight, modifier, unit

# --- modifiers --------------------------------------------------------------------------------------


def test_grade_and_cover_are_read_for_the_greatest_share_of_bases_ties_going_the_sides_way(chart):
    assert side_grade((unit(Grade.GREEN, 4), unit(Grade.VETERAN, 5))) is Grade.VETERAN
    assert side_grade((unit(Grade.GREEN, 5), unit(Grade.VETERAN, 4))) is Grade.GREEN
    assert side_grade((unit(Grade.GREEN, 4), unit(Grade.VETERAN, 4))) is Grade.VETERAN
    assert side_cover((unit(cover=Cover.HEAVY, bases=3), unit(bases=3))) is Cover.HEAVY
    result = fight(5, 5, [unit()], [unit(cover=Cover.HEAVY, bases=3), unit(bases=3)], column=PB, chart=chart)
    assert modifier(result.defender, "cover points") == 3


def test_morale_modifier_reads_the_units_with_hits_when_they_hold_over_half_the_bases():
    """5.4 (R:1561-1564)."""
    formed, unformed, shaken = unit(bases=3), unit(bases=2, m_hits=1), unit(bases=2, m_hits=3)
    assert side_condition((formed, unformed, shaken)) is Condition.UNFORMED  # 4 of 7 hit; tie goes the better way
    assert side_condition((unit(bases=4), unit(bases=4, m_hits=2))) is Condition.FORMED  # exactly half is not over
    assert side_condition((unit(bases=2), unit(bases=5, m_hits=2))) is Condition.RATTLED


def test_morale_hits_lower_the_modified_roll(chart):
    result = fight(5, 5, [unit(m_hits=2)], [unit()], column=PB, chart=chart)
    assert modifier(result.attacker, "morale hits: rattled") < 0
    assert result.attacker.modified < 5


def test_repeaters_count_when_half_or_more_of_the_bases_carry_them(chart):
    half = fight(5, 5, [unit(bases=3, repeaters=True), unit(bases=3)], column=PB, chart=chart)
    assert modifier(half.attacker, "repeater") == 4
    less = fight(5, 5, [unit(bases=2, repeaters=True), unit(bases=3)], column=PB, chart=chart)
    assert modifier(less.attacker, "repeater") == 0


def test_leaders_fresh_batteries_saved_fire_and_the_c_bonus_add(chart):
    result = fight(
        5,
        5,
        [unit()],
        [unit(), unit(kind=ART, bases=2)],
        column=PB,
        chart=chart,
        attacker_facts={"leaders_within_2": 2, "tactical_bonus": True},
        defender_facts={"fresh_batteries": 2, "saved_fire_batteries": 1, "leaders_within_2": 1},
    )
    assert modifier(result.attacker, "E or P leader") == 2
    assert modifier(result.attacker, 'tactical bonus "C"') == 1
    assert modifier(result.defender, "fresh artillery") == 2
    assert modifier(result.defender, "saved fire") == chart.entry("assault_tactical_bonuses", "saved_fire")[0]
    assert modifier(result.defender, "E or P leader") == 1


def test_recent_losses_subtract_one_per_base_and_per_panic_hit_on_the_worst_unit(chart):
    result = fight(5, 5, [unit()], column=PB, chart=chart, attacker_facts={"bases_lost": 3, "worst_panic": 2})
    assert modifier(result.attacker, "base lost") == -3
    assert modifier(result.attacker, "worst single unit") == -2


def test_skirmishers_out_cost_one_per_quarter_when_their_units_hold_half_the_bases(chart):
    """R:1595-1599."""
    skirmishing = unit(bases=4, skirmishers_deployed=2, skirmishers_available=2)
    holding = unit(bases=4, skirmishers_available=2)
    result = fight(5, 5, [skirmishing, holding], column=PB, chart=chart)
    assert modifier(result.attacker, "skirmishers") == -2  # 2 of 4 markers out: two quarters
    fewer = fight(
        5, 5, [unit(bases=3, skirmishers_deployed=2, skirmishers_available=2), unit(bases=4)], column=PB, chart=chart
    )
    assert modifier(fewer.attacker, "skirmishers") == 0


def test_a_defender_hit_in_the_rear_takes_minus_seven_not_also_the_flank(chart):
    result = fight(5, 5, [unit()], column=PB, chart=chart, defender_facts={"outflanked": True, "rear": True})
    assert modifier(result.defender, "attacked in rear") == -7
    assert modifier(result.defender, "outflanked") == 0
    flank = fight(5, 5, [unit()], column=PB, chart=chart, defender_facts={"outflanked": True})
    assert modifier(flank.defender, "outflanked") == -4


@pytest.mark.parametrize(
    ("attacker_bases", "defender_bases", "step"),
    [
        (6, 6, None),
        (6, 8, None),
        (6, 9, "3:2"),
        (6, 11, "3:2"),
        (6, 12, "2:1"),
        (4, 12, "3:1"),
        (3, 12, "4:1"),
        (1, 30, "4:1"),
    ],
)
def test_the_side_with_fewer_bases_subtracts_for_the_largest_ratio_it_reaches(
    chart, attacker_bases, defender_bases, step
):
    result = fight(5, 5, [unit(bases=attacker_bases)], [unit(bases=defender_bases)], column=PB, chart=chart)
    expected = chart.entry("assault_outnumbering", step)[0] if step else 0
    assert modifier(result.attacker, "outnumbered") == expected
    assert modifier(result.defender, "outnumbered") == 0
    mirrored = fight(5, 5, [unit(bases=defender_bases)], [unit(bases=attacker_bases)], column=PB, chart=chart)
    assert modifier(mirrored.defender, "outnumbered") == expected


def test_defenders_struck_in_flank_or_rear_inflict_no_outnumbered_modifier(chart):
    result = fight(5, 5, [unit(bases=4)], [unit(bases=12)], column=PB, chart=chart, defender_facts={"outflanked": True})
    assert modifier(result.attacker, "outnumbered") == 0
    assert any("flank or rear" in note for note in result.notes)


def test_infantry_in_square_against_cavalry_alone_suffers_at_most_the_three_to_two_modifier(chart):
    result = fight(
        5, 5, [unit(kind=CAV, bases=12)], [unit(bases=3)], column=PB, chart=chart, square_vs_solo_cavalry=True
    )
    assert modifier(result.defender, "outnumbered") == chart.entry("assault_outnumbering", "3:2")[0]
