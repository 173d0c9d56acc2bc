"""The assault tables (5.1-5.4): every difference in one band, the three columns ordered against each other,
the modifier tables, the notation of an outcome, and the order a whole round keeps as the attacker's roll
rises."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_sides import OUTNUMBERING_STEPS, AssaultSide, AssaultUnit, Contact
from republic.rules.assault_table import AssaultColumn, AssaultOutcome, OutcomeAction, OutcomeSide, hits_weight
from republic.rules.dice import d10
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.troops import Cover, Grade, UnitKind
from tests.rules.assault_inputs import AA, ART, DA, PB

GRADES = list(Grade)  # best first
COLUMN_TABLES = [column.table for column in AssaultColumn]
DIFFERENCES = range(-40, 41)


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
