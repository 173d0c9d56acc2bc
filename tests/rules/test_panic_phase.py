"""The panic phase (6.2): what is a P4 event, the rounds of division panic tests with each division testing
each condition once, the dice the table is asked for, and bad input to the phase."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from republic.rules.codec import decode
from republic.rules.dice import d10
from republic.rules.division_panic import PanicTrigger
from republic.rules.errors import RulesInputError
from republic.rules.morale import Condition, MoraleCause, apply_morale_hits
from republic.rules.panic import had_p4_event
from republic.rules.panic_phase import (
    DivisionPair,
    PanicPhaseInput,
    PhaseDivision,
    PhaseRoll,
    adjoining_choices,
    next_tests,
    pending_tests,
    resolve_panic_phase,
)
from republic.rules.troops import Grade
from tests.rules.division_units import ADJOINING, INTERNAL, unit

# --- P4 events (6.2) -------------------------------------------------------------------------------


def test_panic_hits_totalling_five_over_rounds_without_a_p4_are_no_p4_event():
    """R:1868-1869."""
    assert not had_p4_event([2, 3])
    assert not had_p4_event([1, 1, 1, 1, 1])


def test_demoralized_brigade_taking_three_p_and_one_m_in_a_round_has_a_p4_event():
    """T17 (R:1659-1665): the 1M on a demoralized unit becomes a P, so the round totals P4."""
    converted = apply_morale_hits(4, 1, MoraleCause.ASSAULT).panic_hits
    assert had_p4_event([3 + converted])
    assert had_p4_event([0, 6])


def test_p4_event_refuses_negative_hits():
    with pytest.raises(RulesInputError) as err:
        had_p4_event([1, -1])
    assert err.value.field == "round_panic_hits[1]"


# --- the panic phase -------------------------------------------------------------------------------

STEADY = (unit("s", Grade.VETERAN, 4),)
BROKEN = (unit("b", Grade.VETERAN, 4, condition=Condition.DEMORALIZED),)


def phase(divisions, pairs=(), rolls=()):
    return PanicPhaseInput(
        divisions=tuple(PhaseDivision(d, units, internal=internal) for d, units, internal in divisions),
        adjoining=tuple(DivisionPair(a, b) for a, b in pairs),
        rolls=tuple(PhaseRoll(d, trigger, d10(face)) for d, trigger, face in rolls),
    )


def test_a_division_tests_each_condition_once_per_phase(chart):
    """6.2 example (R:1876-1881): A passes its internal test and then an adjoining test when B panics;
    C panics in that same round, but A does not test adjoining panic again."""
    inputs = phase(
        [("A", STEADY, True), ("B", BROKEN, True), ("C", BROKEN, False)],
        pairs=[("A", "B"), ("B", "C"), ("A", "C")],
        rolls=[("A", INTERNAL, 10), ("B", INTERNAL, 1), ("A", ADJOINING, 10), ("C", ADJOINING, 1)],
    )
    result = resolve_panic_phase(chart, inputs)
    assert [[(t.division, t.triggers) for t in r.tests] for r in result.rounds] == [
        [("A", (INTERNAL,)), ("B", (INTERNAL,))],
        [("A", (ADJOINING,)), ("C", (ADJOINING,))],
    ]
    assert result.panicked == ("B", "C")
    assert next_tests(inputs, result.rounds) == ()


def test_missing_roll_is_named_so_the_table_can_ask_for_it(chart):
    inputs = phase(
        [("1st", BROKEN, True), ("2nd-division", STEADY, False)],
        pairs=[("1st", "2nd-division")],
        rolls=[("1st", INTERNAL, 1)],
    )
    with pytest.raises(RulesInputError) as err:
        resolve_panic_phase(chart, inputs)
    assert err.value.field == "rolls.2nd-division.adjoining"
    pending = pending_tests(chart, inputs)
    assert [(p.division, p.triggers) for p in pending] == [("2nd-division", (ADJOINING,))]
    assert pending[0].roll_fields == ("rolls.2nd-division.adjoining",)


def test_the_table_is_asked_for_round_one_dice_first(chart):
    inputs = phase([("1st", BROKEN, True), ("2nd", STEADY, True), ("3rd", STEADY, False)], pairs=[("1st", "3rd")])
    assert [p.division for p in pending_tests(chart, inputs)] == ["1st", "2nd"]


def test_a_holding_division_spreads_no_panic(chart):
    inputs = phase(
        [("1st", STEADY, True), ("2nd", STEADY, False)],
        pairs=[("1st", "2nd")],
        rolls=[("1st", INTERNAL, 10), ("2nd", ADJOINING, 1)],
    )
    result = resolve_panic_phase(chart, inputs)
    assert len(result.rounds) == 1 and result.panicked == ()
    assert any("unused adjoining roll for 2nd" in note for note in result.notes)


def test_no_p4_event_means_no_tests(chart):
    result = resolve_panic_phase(chart, phase([("1st", STEADY, False)]))
    assert result.rounds == () and pending_tests(chart, phase([("1st", STEADY, False)])) == ()


@st.composite
def phases(draw):
    n = draw(st.integers(1, 6))
    ids = [f"d{i}" for i in range(n)]
    divisions = [(d, draw(st.sampled_from([STEADY, BROKEN])), draw(st.booleans())) for d in ids]
    pairs = draw(
        st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda p: p[0] != p[1]), max_size=n * 2)
    )
    rolls = [(d, trigger, draw(st.integers(1, 10))) for d in ids for trigger in PanicTrigger]
    return phase(divisions, pairs, rolls)


@given(phases())
@settings(max_examples=150)
def test_panic_phase_ends_within_two_rounds_per_division_and_tests_no_condition_twice(chart, inputs):
    result = resolve_panic_phase(chart, inputs)
    assert len(result.rounds) <= 2 * len(inputs.divisions)
    tested = [(t.division, trigger) for r in result.rounds for t in r.tests for trigger in t.triggers]
    assert len(tested) == len(set(tested))
    panicked_before: set[str] = set()
    for index, rnd in enumerate(result.rounds):
        assert rnd.tests
        for t in rnd.tests:
            assert t.division not in panicked_before
            if index == 0:
                assert t.triggers == (INTERNAL,)
            else:
                last = {x.division for x in result.rounds[index - 1].tests if x.panicked}
                assert t.triggers == (ADJOINING,) and inputs.neighbours(t.division) & last
        panicked_before |= {t.division for t in rnd.tests if t.panicked}
    assert next_tests(inputs, result.rounds) == ()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            {"divisions": [{"id": "a", "units": [{"id": "u", "grade": "green", "bases": -1}]}]},
            "divisions[0].units[0].bases",
        ),
        (
            {
                "divisions": [
                    {"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]},
                    {"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]},
                ]
            },
            "divisions[1].id",
        ),
        (
            {
                "divisions": [{"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]}],
                "adjoining": [{"first": "a", "second": "z"}],
            },
            "adjoining[0].second",
        ),
        (
            {
                "divisions": [{"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]}],
                "adjoining": [{"first": "a", "second": "a"}],
            },
            "adjoining[0]",
        ),
        (
            {
                "divisions": [{"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]}],
                "rolls": [{"division": "z", "trigger": "internal", "roll": 3}],
            },
            "rolls[0].division",
        ),
        (
            {
                "divisions": [{"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]}],
                "rolls": [
                    {"division": "a", "trigger": "internal", "roll": 3},
                    {"division": "a", "trigger": "internal", "roll": 4},
                ],
            },
            "rolls[1]",
        ),
        (
            {
                "divisions": [{"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]}],
                "rolls": [{"division": "a", "trigger": "internal", "roll": [3, 3]}],
            },
            "rolls[0].roll",
        ),
        (
            {
                "divisions": [{"id": "a", "units": [{"id": "u", "grade": "green", "bases": 1}]}],
                "rolls": [{"division": "a", "trigger": "sideways", "roll": 3}],
            },
            "rolls[0].trigger",
        ),
    ],
)
def test_bad_panic_phase_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(PanicPhaseInput, data)
    assert err.value.field == field


def test_only_a_sides_own_divisions_adjoin_for_adjoining_panic():
    """R:1870-1874 read as contagion among a side's own divisions: with one Confederate division and two Union
    ones, the Confederate has none to adjoin it, and each Union division only the other."""
    divisions = [
        PhaseDivision("heth", STEADY, side="Confederate"),
        PhaseDivision("wadsworth", STEADY, side="Union"),
        PhaseDivision("buford", STEADY, side="Union"),
    ]
    assert adjoining_choices(divisions, "heth") == ()
    assert adjoining_choices(divisions, "wadsworth") == ("buford",)
    assert adjoining_choices(divisions, "buford") == ("wadsworth",)
    with pytest.raises(RulesInputError) as err:
        adjoining_choices(divisions, "pender")
    assert err.value.field == "division"
