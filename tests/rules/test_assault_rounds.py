"""One assault round (5.1, 5.2, 5.4): the rules' worked examples, the hits each side takes from the table and
the natural roll, the all-out bonus, break off, roll again, overrun, the round from JSON, and bad input."""

import math

import pytest

from republic.rules.assault import AssaultRoundInput, overrun_waits_for, round_waits_for
from republic.rules.assault_sides import AssaultSide, AssaultType, AssaultUnit, Contact, natural_morale_hits
from republic.rules.assault_table import AssaultColumn, AssaultColumnInput, AssaultOutcome, OutcomeAction, OutcomeSide
from republic.rules.catalog import mechanic
from republic.rules.codec import decode, encode
from republic.rules.dice import Roll, d10
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.troops import Grade
from tests.rules.assault_inputs import AA, ART, CAV, DCAV, INF, PB, fight, side, unit

# --- worked examples ------------------------------------------------------------------------------


def test_veteran_eight_against_average_three_in_the_open_inflicts_three_panic_and_two_morale_hits(chart):
    """T14 and T15 (R:1410-1419): Pitched Battle, modified 9 to 3, +6 -> 3P; lost the natural roll by 5 -> 2M."""
    result = fight(8, 3, [unit(Grade.VETERAN)], [unit(Grade.AVERAGE)], chart=chart)
    assert result.column is AssaultColumn.PITCHED_BATTLE
    assert (result.attacker.modified, result.defender.modified, result.difference) == (9, 3, 6)
    assert result.outcome == AssaultOutcome(OutcomeSide.DEFENDER, Hits(p=3))
    assert result.defender.natural_m == 2
    assert result.defender.hits == Hits(m=2, p=3)
    assert result.attacker.hits == Hits()
    assert not result.provisional


def test_average_unit_losing_the_natural_roll_by_three_takes_one_morale_hit(chart):
    """T15 (R:1417-1419)."""
    result = fight(8, 5, [unit(Grade.VETERAN)], [unit(Grade.AVERAGE)], chart=chart)
    assert result.natural_difference == 3
    assert result.defender.natural_m == 1
    assert natural_morale_hits(chart, Grade.AVERAGE, 5)[0] == 2


@pytest.mark.parametrize("lost_by", [1, 2])
def test_veteran_losing_the_natural_roll_by_one_or_two_still_takes_one_morale_hit(chart, lost_by):
    """T16 (R:1385-1387): M hits round up."""
    assert natural_morale_hits(chart, Grade.VETERAN, lost_by)[0] == 1
    result = fight(5, 5 + lost_by, [unit(Grade.VETERAN)], [unit(Grade.VETERAN)], chart=chart)
    assert result.natural_loser is OutcomeSide.ATTACKER
    assert result.attacker.natural_m == 1


def test_demoralized_defender_beaten_by_six_and_losing_the_natural_roll_by_two_takes_three_panic_and_one_morale(chart):
    """T17 (R:1659-1665): this round gives 3P and 1M; assault_results turns the 1M on a demoralized unit into P4."""
    result = fight(5, 3, [unit()], [unit(m_hits=4)], chart=chart, column=AssaultColumn.PITCHED_BATTLE)
    assert result.defender.condition is Condition.DEMORALIZED
    assert result.difference == 6
    assert result.defender.hits == Hits(m=1, p=3)


# --- one round: hits and follow-ups -----------------------------------------------------------------


def test_all_out_win_win_adds_one_morale_hit_and_the_c_bonus(chart):
    result = fight(8, 3, [unit(Grade.VETERAN, contact=Contact.ALL_OUT)], column=PB, chart=chart)
    assert result.assault_type is AssaultType.ALL_OUT and result.win_win
    assert result.defender.hits == Hits(m=2 + 1, p=3)
    assert (result.defender.table_hits, result.defender.natural_m, result.defender.all_out_extra_m) == (Hits(p=3), 2, 1)
    assert result.next_round_tactical_bonus


def test_mixed_assault_keeps_the_extra_morale_hit_but_not_the_bonus(chart):
    """5.2 (R:1426-1431)."""
    attackers = [unit(Grade.VETERAN, 3, contact=Contact.ALL_OUT), unit(Grade.VETERAN, 3, contact=Contact.GENERAL)]
    result = fight(8, 3, attackers, column=PB, chart=chart)
    assert result.assault_type is AssaultType.MIXED
    assert result.defender.hits == Hits(m=3, p=3)
    assert not result.next_round_tactical_bonus


def test_general_assault_gains_nothing_extra(chart):
    result = fight(8, 3, [unit(Grade.VETERAN)], column=PB, chart=chart)
    assert result.assault_type is AssaultType.GENERAL and result.win_win
    assert result.defender.hits == Hits(m=2, p=3) and not result.next_round_tactical_bonus


def test_winning_the_modified_roll_but_losing_the_natural_is_no_win_win(chart):
    """Lose/Win: the natural loser still takes M (R:1388-1390)."""
    result = fight(
        4, 6, [unit(contact=Contact.ALL_OUT)], column=PB, chart=chart, attacker_facts={"leaders_within_2": 8}
    )
    assert result.difference == 6 and not result.win_win
    assert result.attacker.hits == Hits(m=1)
    assert result.defender.hits == Hits(p=3)


def test_break_off_leaves_its_morale_hit_to_the_break_off_mechanic(chart):
    """R:1771-1773: assault_results' break_off applies the 1M with the move; the round gives the natural M."""
    result = fight(3, 5, column=PB, chart=chart)
    assert result.outcome == AssaultOutcome(OutcomeSide.ATTACKER, Hits(), OutcomeAction.BREAK_OFF)
    assert result.attacker.hits == Hits(m=1)  # the natural roll lost by 2
    assert any("break-off M" in note for note in result.notes)


def test_pitched_battle_tie_gives_both_sides_morale_hits_and_a_roll_again(chart):
    result = fight(5, 5, column=PB, chart=chart)
    assert result.outcome.action is OutcomeAction.ROLL_AGAIN
    assert result.attacker.hits.m >= 1 and result.defender.hits.m >= 1
    assert result.natural_loser is OutcomeSide.NONE


def test_roll_again_names_the_side_that_lost_both_rolls(chart):
    result = fight(4, 5, column=PB, chart=chart)
    assert result.difference == -1 and result.outcome.action is OutcomeAction.ROLL_AGAIN
    assert result.attacker.natural_m == 1
    assert any("the attacker lost both rolls and takes its 1M now" in note for note in result.notes)


def test_overrun_is_for_mounted_cavalry_other_attackers_must_break_through(chart):
    cavalry = fight(10, 1, [unit(kind=CAV)], [unit(kind=ART, bases=1)], chart=chart)
    assert cavalry.column is AA and cavalry.outcome.action is OutcomeAction.OVERRUN
    infantry = fight(10, 1, [unit()], [unit(kind=DCAV)], chart=chart)
    assert infantry.column is AA and infantry.outcome.action is OutcomeAction.MUST_BREAKTHROUGH
    assert any("must break through" in note for note in infantry.notes)
    assert any(c.table == AA.table and c.value.endswith("overrun") for c in infantry.cells)


def test_mixed_arms_overrun_keeps_the_overrun_and_says_who_breaks_through(chart):
    result = fight(10, 1, [unit(kind=CAV), unit()], [unit(kind=ART, bases=1)], column=AA, chart=chart)
    assert result.outcome.action is OutcomeAction.OVERRUN
    assert any("other attacking units must break through" in note for note in result.notes)


def test_mixed_grades_give_each_unit_its_own_natural_morale_hits(chart):
    result = fight(9, 2, [unit()], [unit(Grade.AVERAGE, 6), unit(Grade.CRACK, 2)], column=PB, chart=chart)
    crack_k = chart.entry("assault_natural_points", "crack")[0]
    assert result.defender.natural_m == 3
    assert result.defender.natural_m_by_unit == (3, math.ceil(7 / crack_k))
    assert result.attacker.natural_m_by_unit == (0,)


def test_a_provisional_cell_marks_the_round_provisional(chart):
    assert fight(5, 5, [unit(Grade.GREEN)], column=PB, chart=chart).provisional


def test_round_resolves_through_the_catalog_from_json(chart):
    entry = mechanic("assault_round")
    inputs = decode(
        entry.inputs,
        {
            "attacker": {"roll": 8, "units": [{"grade": "veteran", "bases": 6}]},
            "defender": {"roll": 3, "units": [{"grade": "average", "bases": 6}]},
        },
    )
    data = encode(entry.resolve(chart, inputs))
    assert data["outcome"] == {"to": "defender", "hits": "3P", "action": "none"}
    assert decode(AssaultOutcome, data["outcome"]) == AssaultOutcome(OutcomeSide.DEFENDER, Hits(p=3))
    assert data["defender"]["hits"] == "2M 3P"
    assert data["provisional"] is False
    assert mechanic("assault_column").inputs is AssaultColumnInput


# --- bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: AssaultSide(d10(5), ()), "units"),
        (lambda: AssaultUnit(Grade.AVERAGE, 0), "bases"),
        (lambda: AssaultUnit(Grade.AVERAGE, 4, m_hits=5), "m_hits"),
        (lambda: AssaultUnit(Grade.AVERAGE, 4, m_hits=-1), "m_hits"),
        (lambda: AssaultSide(Roll((5, 5)), (unit(),)), "roll"),
        (
            lambda: AssaultUnit(Grade.AVERAGE, 4, skirmishers_deployed=3, skirmishers_available=2),
            "skirmishers_deployed",
        ),
        (lambda: AssaultUnit(Grade.AVERAGE, 1, kind=ART, open_order=True), "open_order"),
        (lambda: AssaultSide(d10(5), (unit(),), fresh_batteries=1), "fresh_batteries"),
        (lambda: AssaultSide(d10(5), (unit(),), leaders_within_2=-1), "leaders_within_2"),
        (lambda: AssaultRoundInput(side(5, unit(kind=ART, bases=1)), side(5)), "attacker.units"),
        (
            lambda: AssaultRoundInput(side(5, unit(), unit(kind=ART, bases=1), fresh_batteries=1), side(5)),
            "attacker.fresh_batteries",
        ),
        (lambda: AssaultRoundInput(side(5, outflanked=True), side(5)), "attacker.outflanked"),
        (lambda: AssaultRoundInput(side(5, rear=True), side(5)), "attacker.rear"),
        (lambda: AssaultRoundInput(side(5), side(5), square_vs_solo_cavalry=True), "square_vs_solo_cavalry"),
        (lambda: AssaultColumnInput(ART, INF, attacker_open_order=True), "attacker_open_order"),
    ],
)
def test_bad_input_is_refused_naming_the_field(build, field):
    with pytest.raises(RulesInputError) as err:
        build()
    assert err.value.field == field


def test_bad_input_from_json_names_the_nested_field():
    with pytest.raises(RulesInputError) as err:
        decode(
            AssaultRoundInput,
            {
                "attacker": {"roll": 5, "units": [{"grade": "average", "bases": 4}]},
                "defender": {"roll": 5, "units": [{"grade": "average", "bases": 4}, {"grade": "green", "bases": 0}]},
            },
        )
    assert err.value.field == "defender.units[1].bases"
    with pytest.raises(RulesInputError) as err:
        decode(
            AssaultRoundInput,
            {
                "attacker": {"roll": [4, 6], "units": [{"grade": "average", "bases": 4}]},
                "defender": {"roll": 5, "units": [{"grade": "average", "bases": 4}]},
            },
        )
    assert err.value.field == "attacker.roll"


def test_natural_morale_hits_refuse_a_negative_difference(chart):
    with pytest.raises(RulesInputError) as err:
        natural_morale_hits(chart, Grade.AVERAGE, -1)
    assert err.value.field == "points_lost"


def test_a_second_round_waits_for_every_other_assaults_first_round():
    """R:1376-1377: "All initial assault rounds must be resolved before re-rolls and breakthrough overruns are
    carried out." A first round never waits; a later one waits while another assault has no first round."""
    assert round_waits_for(1, [2, 3]) == ""
    assert round_waits_for(2, []) == round_waits_for(3, ()) == ""
    assert round_waits_for(2, [2]).startswith("Round 2 waits: resolve the first round of assault 2 first.")
    assert "the first round of assaults 2, 3 and 4 first" in round_waits_for(3, [2, 3, 4])
    with pytest.raises(RulesInputError):
        round_waits_for(0, [])


def test_a_breakthrough_is_marked_and_carried_out_once_every_first_round_is_fought():
    assert overrun_waits_for([]) == ""
    assert overrun_waits_for([2]).startswith(
        "Mark where the attackers break through now, and move them once assault 2 has"
    )
    assert "once assaults 2 and 3 have fought a first round" in overrun_waits_for((2, 3))
