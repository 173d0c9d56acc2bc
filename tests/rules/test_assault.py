"""Assault resolution (5.1-5.4): column choice, modifiers, the assault tables and one round's hits."""

import math
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_sides import (
    OUTNUMBERING_STEPS,
    AssaultSide,
    AssaultType,
    AssaultUnit,
    Contact,
    natural_morale_hits,
    side_condition,
    side_cover,
    side_grade,
)
from republic.rules.assault_table import (
    AssaultColumn,
    AssaultColumnInput,
    AssaultOutcome,
    OutcomeAction,
    OutcomeSide,
    Struck,
    assault_column,
    hits_weight,
    resolve_assault_column,
)
from republic.rules.catalog import mechanic
from republic.rules.codec import decode, encode
from republic.rules.dice import Roll, d10
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.troops import Cover, Grade, UnitKind

GRADES = list(Grade)  # best first
COLUMN_TABLES = [column.table for column in AssaultColumn]
DIFFERENCES = range(-40, 41)


def unit(grade=Grade.AVERAGE, bases=6, **kw) -> AssaultUnit:
    return AssaultUnit(grade, bases, **kw)


def side(roll, *units, **facts) -> AssaultSide:
    return AssaultSide(d10(roll), units or (unit(),), **facts)


def fight(
    attacker_roll,
    defender_roll,
    attackers=(),
    defenders=(),
    column=None,
    attacker_facts=None,
    defender_facts=None,
    chart=None,
    **kw,
):
    return resolve_assault_round(
        chart,
        AssaultRoundInput(
            side(attacker_roll, *attackers, **(attacker_facts or {})),
            side(defender_roll, *defenders, **(defender_facts or {})),
            column=column,
            **kw,
        ),
    )


def modifier(result_side, words):
    found = [m for m in result_side.modifiers if words in m.label]
    assert len(found) <= 1, found
    return found[0].value if found else 0


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


def test_infantry_in_the_open_against_dismounted_cavalry_in_cover_cancels_to_pitched_battle():
    """The rules' cancellation example (R:1548-1552)."""
    result = assault_column(UnitKind.INFANTRY, UnitKind.CAVALRY_DISMOUNTED, defender_in_cover=True)
    assert result.column is AssaultColumn.PITCHED_BATTLE
    assert result.for_attacker == ("infantry assaulting dismounted cavalry",)
    assert result.for_defender == ("troops in the open assaulting troops in cover",)
    assert any("cancel" in note for note in result.notes)


# --- column ----------------------------------------------------------------------------------------

INF, CAV, DCAV = UnitKind.INFANTRY, UnitKind.CAVALRY_MOUNTED, UnitKind.CAVALRY_DISMOUNTED
MI, DMI, ART = UnitKind.MOUNTED_INFANTRY_MOUNTED, UnitKind.MOUNTED_INFANTRY_DISMOUNTED, UnitKind.ARTILLERY
AA, PB, DA = AssaultColumn.ATTACKER_ADVANTAGE, AssaultColumn.PITCHED_BATTLE, AssaultColumn.DEFENDER_ADVANTAGE


@pytest.mark.parametrize(
    ("attacker", "defender", "struck", "expected"),
    [
        (CAV, INF, Struck.FLANK, AA),  # 5.3 AA 1
        (CAV, INF, Struck.REAR, AA),
        (CAV, DCAV, Struck.FLANK, AA),  # other foot troops like dismounted cavalry
        (CAV, MI, Struck.FRONT, AA),  # AA 2
        (CAV, ART, Struck.FRONT, AA),  # AA 3
        (INF, DCAV, Struck.FRONT, AA),  # AA 4
        (DMI, DCAV, Struck.FRONT, AA),
        (INF, INF, Struck.FRONT, PB),  # same vs same
        (CAV, CAV, Struck.FRONT, PB),
        (INF, INF, Struck.FLANK, PB),  # only cavalry gains from a flank in the column
        (INF, ART, Struck.FRONT, PB),  # other
        (CAV, INF, Struck.FRONT, DA),  # DA 2
        (CAV, DMI, Struck.FRONT, DA),
        (MI, INF, Struck.FRONT, DA),  # DA 3, any direction
        (MI, INF, Struck.REAR, DA),
        (MI, CAV, Struck.FLANK, DA),
    ],
)
def test_column_follows_the_combinations_listed_in_5_3(attacker, defender, struck, expected):
    assert assault_column(attacker, defender, struck).column is expected


def test_troops_in_the_open_assaulting_troops_in_cover_use_defender_advantage():
    assert assault_column(INF, INF, defender_in_cover=True).column is DA
    assert assault_column(INF, INF, attacker_in_cover=True, defender_in_cover=True).column is PB


def test_two_advantages_outweigh_one():
    """Cavalry charging the front of infantry in cover: two defender advantages."""
    result = assault_column(CAV, INF, defender_in_cover=True)
    assert result.column is DA and len(result.for_defender) == 2


def test_open_order_defender_against_close_order_gives_attacker_advantage_regardless_of_cover():
    """5.2 (R:1490-1496)."""
    result = assault_column(INF, INF, defender_in_cover=True, defender_open_order=True)
    assert result.column is AA
    assert result.rules_column is AA


def test_open_order_attacker_against_close_order_gives_defender_advantage_even_for_cavalry_on_a_flank():
    assert assault_column(CAV, INF, Struck.FLANK, attacker_open_order=True).column is DA


def test_open_order_is_not_disadvantaged_against_artillery():
    """5.2 (R:1496-1499)."""
    assert assault_column(INF, ART, defender_open_order=False, attacker_open_order=True).column is PB
    assert assault_column(CAV, ART, attacker_open_order=True).column is AA


def test_both_sides_in_open_order_leave_the_usual_column():
    assert assault_column(INF, INF, attacker_open_order=True, defender_open_order=True).column is PB


def test_the_table_may_override_the_column_and_the_result_says_so(chart):
    result = resolve_assault_column(chart, AssaultColumnInput(INF, INF, override=DA))
    assert result.column is DA and result.rules_column is PB
    assert any("the table chose Defender Advantage over Pitched Battle" in note for note in result.notes)


def test_round_derives_its_column_from_the_units_and_facts(chart):
    flank = fight(5, 5, [unit(kind=CAV)], [unit()], defender_facts={"outflanked": True}, chart=chart)
    assert flank.column is AA
    cover = fight(5, 5, [unit()], [unit(cover=Cover.MEDIUM)], chart=chart)
    assert cover.column is DA
    named = fight(5, 5, [unit()], [unit(cover=Cover.MEDIUM)], column=PB, chart=chart)
    assert named.column is PB and any("named by the table" in note for note in named.notes)


# --- assault tables --------------------------------------------------------------------------------


def table_outcomes(chart, table):
    return [chart.band(table, n)[0] for n in DIFFERENCES]


def break_off_m(outcome: AssaultOutcome) -> int:
    """The 1M a break off costs the attacker (R:1771-1773), applied with the move by assault_results."""
    return 1 if outcome.action is OutcomeAction.BREAK_OFF else 0


def attacker_weight(outcome: AssaultOutcome) -> int:
    own = hits_weight(outcome.hits) if outcome.to in (OutcomeSide.ATTACKER, OutcomeSide.BOTH) else 0
    return own + break_off_m(outcome)


def defender_weight(outcome: AssaultOutcome) -> int:
    return hits_weight(outcome.hits) if outcome.to in (OutcomeSide.DEFENDER, OutcomeSide.BOTH) else 0


@pytest.mark.parametrize("table", COLUMN_TABLES)
def test_every_difference_lands_in_exactly_one_band(chart, table):
    bands = chart.tables[table].bands
    for n in DIFFERENCES:
        assert sum(band.holds(n) for band in bands) == 1, n


@pytest.mark.parametrize("table", COLUMN_TABLES)
def test_a_bigger_attacker_margin_is_never_better_for_the_defender(chart, table):
    outcomes = table_outcomes(chart, table)
    for lower, higher in pairwise(outcomes):
        assert higher.severity >= lower.severity, (lower, higher)
        assert defender_weight(higher) >= defender_weight(lower), (lower, higher)
        assert attacker_weight(higher) <= attacker_weight(lower), (lower, higher)


@pytest.mark.parametrize("table", COLUMN_TABLES)
def test_winners_are_above_the_zero_line_and_the_middle_breaks_off_or_rolls_again(chart, table):
    for n in DIFFERENCES:
        outcome = chart.band(table, n)[0]
        if outcome.to is OutcomeSide.DEFENDER and outcome.action is not OutcomeAction.ROLL_AGAIN:
            assert n > 0, (n, outcome)
        if outcome.to is OutcomeSide.ATTACKER and outcome.action not in (
            OutcomeAction.ROLL_AGAIN,
            OutcomeAction.BREAK_OFF,
        ):
            assert n < 0, (n, outcome)
    assert chart.band(table, 0)[0].action in (OutcomeAction.ROLL_AGAIN, OutcomeAction.BREAK_OFF)


@pytest.mark.parametrize("n", DIFFERENCES)
def test_attacker_advantage_is_never_kinder_to_the_defender_than_pitched_battle_nor_defender_advantage_harsher(
    chart, n
):
    aa, pb, da = (chart.band(column.table, n)[0].severity for column in (AA, PB, DA))
    assert aa >= pb >= da


def test_pitched_battle_six_is_the_derived_three_panic_cell_and_a_tie_costs_morale(chart):
    outcome, use = chart.band("assault_pitched_battle", 6)
    assert outcome == AssaultOutcome(OutcomeSide.DEFENDER, Hits(p=3)) and use.provenance == "derived"
    tie = chart.band("assault_pitched_battle", 0)[0]
    assert tie.hits.m >= 1 and tie.to is OutcomeSide.BOTH


def test_only_the_attacker_and_defender_advantage_columns_overrun(chart):
    overruns = {
        column: any(chart.band(column.table, n)[0].action is OutcomeAction.OVERRUN for n in DIFFERENCES)
        for column in AssaultColumn
    }
    assert overruns == {AA: True, PB: False, DA: True}
    first_aa = min(n for n in DIFFERENCES if chart.band(AA.table, n)[0].action is OutcomeAction.OVERRUN)
    first_da = min(n for n in DIFFERENCES if chart.band(DA.table, n)[0].action is OutcomeAction.OVERRUN)
    assert first_aa < first_da


def test_defender_advantage_lets_a_beaten_defender_be_driven_away(chart):
    actions = {chart.band(DA.table, n)[0].action for n in range(1, 11)}
    assert OutcomeAction.DRIVE_AWAY in actions and OutcomeAction.CARRY not in actions


@pytest.mark.parametrize("table", COLUMN_TABLES)
def test_every_cell_writes_back_as_it_reads(chart, table):
    for band in chart.tables[table].bands:
        outcome = band.cell.value
        assert AssaultOutcome.parse(str(outcome)) == outcome


def test_grade_modifiers_never_favour_a_worse_grade(chart):
    values = [chart.entry("assault_grade_modifiers", g.value)[0] for g in GRADES]
    assert values == sorted(values, reverse=True)
    assert values[GRADES.index(Grade.VETERAN)] == 1 and values[GRADES.index(Grade.AVERAGE)] == 0


def test_morale_modifiers_never_favour_a_worse_condition(chart):
    values = [chart.entry("assault_condition_modifiers", c.value)[0] for c in Condition]
    assert values[0] == 0
    assert values == sorted(values, reverse=True)
    assert all(v < 0 for v in values[1:])


def test_better_grades_need_at_least_as_many_natural_points_per_morale_hit(chart):
    values = [chart.entry("assault_natural_points", g.value)[0] for g in GRADES]
    assert values == sorted(values, reverse=True)
    assert min(values) >= 1
    assert values[GRADES.index(Grade.VETERAN)] == values[GRADES.index(Grade.AVERAGE)] == 3


def test_each_outnumbering_step_costs_at_least_as_much_as_the_one_before(chart):
    values = [chart.entry("assault_outnumbering", step)[0] for step in OUTNUMBERING_STEPS]
    assert all(v < 0 for v in values)
    assert values == sorted(values, reverse=True)


def test_cover_points_are_one_two_three(chart):
    """R:1500-1516."""
    assert [chart.entry("assault_cover_points", c.value)[0] for c in Cover] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("repeaters", 4),
        ("leader_within_2", 1),
        ("fresh_battery", 1),
        ("base_lost", -1),
        ("worst_panic_hit", -1),
        ("skirmish_quarter", -1),
        ("outflanked", -4),
        ("rear", -7),
    ],
)
def test_assault_modifiers_are_the_ones_the_rules_state(chart, key, value):
    """R:1565-1612."""
    found, use = chart.entry("assault_modifiers", key)
    assert found == value and use.provenance == "confirmed"


def test_all_out_win_bonus_is_plus_one(chart):
    """R:1429-1431."""
    assert chart.entry("assault_tactical_bonuses", "all_out_win")[0] == 1


# --- outcome notation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("defender 3P carry", AssaultOutcome(OutcomeSide.DEFENDER, Hits(p=3), OutcomeAction.CARRY)),
        (
            "Defender 2P 1B may breakthrough",
            AssaultOutcome(OutcomeSide.DEFENDER, Hits(b=1, p=2), OutcomeAction.MAY_BREAKTHROUGH),
        ),
        ("defender 1P carry position", AssaultOutcome(OutcomeSide.DEFENDER, Hits(p=1), OutcomeAction.CARRY)),
        ("attacker 2P break off", AssaultOutcome(OutcomeSide.ATTACKER, Hits(p=2), OutcomeAction.BREAK_OFF)),
        ("attacker break_off", AssaultOutcome(OutcomeSide.ATTACKER, Hits(), OutcomeAction.BREAK_OFF)),
        ("roll again", AssaultOutcome(OutcomeSide.NONE, Hits(), OutcomeAction.ROLL_AGAIN)),
        ("both 1M roll again", AssaultOutcome(OutcomeSide.BOTH, Hits(m=1), OutcomeAction.ROLL_AGAIN)),
        ("defender 4P 2B overrun", AssaultOutcome(OutcomeSide.DEFENDER, Hits(b=2, p=4), OutcomeAction.OVERRUN)),
        ("defender 2P surrender", AssaultOutcome(OutcomeSide.DEFENDER, Hits(p=2), OutcomeAction.SURRENDER)),
        ("-", AssaultOutcome(OutcomeSide.NONE)),
    ],
)
def test_outcome_notation_reads(text, expected):
    assert AssaultOutcome.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("3P carry", "who takes the hits"),
        ("defender", "nothing happens"),
        ("attacker 2P carry", "follows a defender loss"),
        ("defender break off", "only the attacker breaks off"),
        ("both 1M overrun", "follows a defender loss"),
        ("defender 3P charge", "unknown assault action"),
        ("defender 3X", "unknown assault action"),
        (6, "written like"),
    ],
)
def test_outcome_notation_refuses_what_it_cannot_mean(text, problem):
    with pytest.raises(ValueError, match=problem):
        AssaultOutcome.parse(text)


def test_severity_orders_outcomes_from_the_defenders_side():
    worse = [
        AssaultOutcome.parse(t)
        for t in (
            "attacker 4P 2B",
            "attacker 1P",
            "attacker break off",
            "attacker 1M roll again",
            "roll again",
            "defender 1M roll again",
            "defender 1P",
            "defender 1P carry",
            "defender 3P 1B may breakthrough",
            "defender 3P 1B overrun",
            "defender 3P surrender",
        )
    ]
    severities = [o.severity for o in worse]
    assert severities == sorted(severities)


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


# --- properties -------------------------------------------------------------------------------------

KINDS = list(UnitKind)


@st.composite
def units(draw, attacker: bool):
    kind = draw(st.sampled_from([k for k in KINDS if k is not ART] if attacker else KINDS))
    available = draw(st.integers(0, 4))
    return AssaultUnit(
        grade=draw(st.sampled_from(GRADES)),
        bases=draw(st.integers(1, 12)),
        m_hits=draw(st.integers(0, 4)),
        kind=kind,
        contact=draw(st.sampled_from(list(Contact))),
        cover=draw(st.sampled_from(list(Cover))),
        open_order=kind is not ART and draw(st.booleans()),
        repeaters=draw(st.booleans()),
        skirmishers_deployed=draw(st.integers(0, available)),
        skirmishers_available=available,
    )


@st.composite
def rounds(draw):
    attackers = tuple(draw(st.lists(units(True), min_size=1, max_size=3)))
    defenders = tuple(draw(st.lists(units(False), min_size=1, max_size=3)))
    batteries = sum(u.bases for u in defenders if u.kind is ART)
    facts = {
        "leaders_within_2": draw(st.integers(0, 3)),
        "bases_lost": draw(st.integers(0, 3)),
        "worst_panic": draw(st.integers(0, 4)),
        "tactical_bonus": draw(st.booleans()),
    }
    defender = AssaultSide(
        d10(draw(st.integers(1, 10))),
        defenders,
        **facts,
        fresh_batteries=draw(st.integers(0, batteries)),
        outflanked=draw(st.booleans()),
        rear=draw(st.booleans()),
    )
    column = draw(st.none() | st.sampled_from(list(AssaultColumn)))
    low = draw(st.integers(1, 9))
    high = draw(st.integers(low + 1, 10))
    return [
        AssaultRoundInput(AssaultSide(d10(roll), attackers, **facts), defender, column=column) for roll in (low, high)
    ]


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_a_higher_attacker_roll_never_leaves_the_defender_better_off(chart, pair):
    lower, higher = (resolve_assault_round(chart, inputs) for inputs in pair)
    assert higher.outcome.severity >= lower.outcome.severity
    assert hits_weight(higher.defender.hits) >= hits_weight(lower.defender.hits)
    burden = [hits_weight(r.attacker.hits) + break_off_m(r.outcome) for r in (lower, higher)]
    assert burden[1] <= burden[0]


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_natural_morale_hits_are_never_negative_and_fall_only_on_the_natural_loser(chart, pair):
    for result in (resolve_assault_round(chart, inputs) for inputs in pair):
        for name in ("attacker", "defender"):
            part = getattr(result, name)
            assert part.natural_m >= 0 and all(m >= 0 for m in part.natural_m_by_unit)
            assert len(part.natural_m_by_unit) == len(getattr(pair[0], name).units)
            assert part.hits == part.table_hits + Hits(m=part.natural_m + part.all_out_extra_m)
            if result.natural_loser.value != name:
                assert part.natural_m == 0 and not any(part.natural_m_by_unit)
            else:
                assert part.natural_m >= 1


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
