"""The demoralized panic test's decisions (1.7, 4.7) without a database: which units must test and what a test
changes."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.demoralized_panic import DemoralizedStep, due, panic_test
from republic.play.refusal import Refused
from republic.rules.morale import MAX_M_HITS
from republic.rules.panic import DemoralizedPanicInput, after_demoralized_panic, resolve_demoralized_panic
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade
from tests.rules.unit_states import battery, brigade

SCALE = GroundScale.MEDIUM
NONE = {"out_of_town": False, "across_bridge_or_ford": False, "retreat_blocked": False}
BROKEN = {"m_hits": MAX_M_HITS}


def ids(units) -> list[str]:
    return [u.id for u in units]


def test_every_demoralized_unit_with_panic_hits_this_turn_and_bases_left_in_play_is_due_in_the_order_read():
    step = DemoralizedStep(
        (
            brigade("a", p_hits_turn=2, **BROKEN),
            brigade("b", p_hits_turn=2, m_hits=MAX_M_HITS - 1),
            brigade("c", **BROKEN),
            battery("d", p_hits_turn=1, **BROKEN),
            brigade("e", p_hits_turn=3, surrendered=True, **BROKEN),
            brigade("f", p_hits_turn=1, bases=0, bases_start=4, **BROKEN),
        )
    )
    assert ids(due(step)) == ["a", "d"]


def test_a_unit_tested_this_step_is_no_longer_due():
    step = DemoralizedStep(
        (brigade("a", p_hits_turn=2, **BROKEN), brigade("b", p_hits_turn=1, **BROKEN)), frozenset({"a"})
    )
    assert ids(due(step)) == ["b"]


def test_a_test_gives_the_unit_the_engines_move_and_marks_it_tested(chart):
    unit = brigade("a", p_hits_turn=3, grade=Grade.GREEN, **BROKEN)
    done = panic_test(chart, DemoralizedStep((unit,)), "a", SCALE, NONE, {}, "no test")
    inputs = DemoralizedPanicInput.of(unit, SCALE)
    assert done.inputs == inputs
    assert done.result == resolve_demoralized_panic(chart, inputs)
    assert done.unit == after_demoralized_panic(unit, done.result) != unit
    assert done.step.units == (done.unit,) and done.step.tested == {"a"} and due(done.step) == ()


def test_the_tables_answers_and_printed_reading_go_to_the_engine(chart):
    unit = brigade("a", p_hits_turn=3, **BROKEN)
    answers = {"out_of_town": True, "across_bridge_or_ford": False, "retreat_blocked": True}
    done = panic_test(chart, DemoralizedStep((unit,)), "a", SCALE, answers, {"panic_index": "F"}, "no test")
    assert done.inputs == DemoralizedPanicInput.of(unit, SCALE, out_of_town=True, retreat_blocked=True)
    assert done.result == resolve_demoralized_panic(chart.overlay({"panic_index": "F"}), done.inputs)


@pytest.mark.parametrize(
    "step",
    [
        DemoralizedStep((brigade("a", p_hits_turn=2, **BROKEN),), frozenset({"a"})),
        DemoralizedStep((brigade("a", p_hits_turn=0, **BROKEN),)),
        DemoralizedStep((brigade("z", p_hits_turn=2, **BROKEN),)),
    ],
)
def test_a_unit_not_due_has_its_test_refused(chart, step):
    with pytest.raises(Refused, match="a has no test"):
        panic_test(chart, step, "a", SCALE, NONE, {}, "a has no test")


UNITS = st.lists(
    st.builds(
        lambda m, p, grade, bases: brigade(grade=grade, bases=bases, m_hits=m, p_hits_turn=p),
        st.sampled_from([MAX_M_HITS - 1, MAX_M_HITS]),
        st.integers(0, 6),
        st.sampled_from(list(Grade)),
        st.integers(1, 8),
    ),
    min_size=1,
    max_size=6,
).map(lambda units: tuple(replace(u, id=f"u{i}") for i, u in enumerate(units)))


@given(UNITS, st.randoms(use_true_random=False))
def test_whatever_order_the_tests_are_entered_in_the_step_ends_the_same(chart, units, rng):
    def enter(order):
        step = DemoralizedStep(units)
        for unit in order:
            step = panic_test(chart, step, unit, SCALE, NONE, {}, "refused").step
        return step

    owed = ids(due(DemoralizedStep(units)))
    shuffled = list(owed)
    rng.shuffle(shuffled)
    first, second = enter(owed), enter(shuffled)
    assert first == second
    assert due(first) == ()
