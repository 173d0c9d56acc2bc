"""The panic phase's division tests (6.1-6.3) without a database: which divisions take part, who must test in the
next round and why, whose adjoining divisions the table must name first, and what a test changes."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from republic.play.panic import (
    PanicProgress,
    after_test,
    declare,
    lacking_test,
    may_adjoin,
    panic_test,
    progress,
    taking_part,
)
from republic.play.refusal import Refused
from republic.rules.dice import d10
from republic.rules.division_panic import after_division_panic, division_panic_test
from republic.rules.morale import Condition
from republic.rules.panic_phase import DivisionPair, PanicPhaseInput, PhaseDivision, PhaseRoll, resolve_panic_phase
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade
from tests.rules.division_units import ADJOINING, INTERNAL, unit
from tests.rules.unit_states import brigade

SCALE = GroundScale.MEDIUM
STEADY = (unit("s", Grade.VETERAN, 4),)
BROKEN = (unit("b", Grade.VETERAN, 4, condition=Condition.DEMORALIZED),)
NONE = {"out_of_town": False, "across_bridge_or_ford": False, "away_from_rear_assault": False}


def divisions(*found):
    return {d: PhaseDivision(d, units, internal=internal) for d, units, internal in found}


def rolled(chart, phase, division, trigger, face):
    return division_panic_test(chart, phase[division].units, {trigger: d10(face)}, SCALE)


def test_a_division_takes_part_with_a_unit_present_and_as_it_stood_when_it_tested():
    gone = (unit("g", Grade.AVERAGE, 0),)
    now = {"1": STEADY, "2": gone, "3": gone, "4": gone}
    then = {"3": BROKEN}
    phase, empty = taking_part([("1", "N"), ("2", "N"), ("3", "S"), ("4", "S")], now, then, {"1", "3", "4"})
    assert list(phase) == ["1", "3"]
    assert phase["1"] == PhaseDivision("1", STEADY, internal=True, side="N")
    assert phase["3"].units == BROKEN
    assert empty == ["4"]


def test_no_panic_4_event_means_no_test():
    assert progress(divisions(("1", STEADY, False)), {}, {}, SCALE) == PanicProgress((), (), ())


def test_every_division_with_a_panic_4_event_tests_internal_panic_in_round_one():
    now = progress(divisions(("1", BROKEN, True), ("2", STEADY, False), ("3", STEADY, True)), {}, {}, SCALE)
    assert [(t.division, t.triggers) for t in now.lacking] == [("1", (INTERNAL,)), ("3", (INTERNAL,))]
    assert now.round_number == 1


def test_a_division_that_panicked_waits_for_its_adjoining_divisions_before_the_next_round(chart):
    phase = divisions(("1", BROKEN, True), ("2", STEADY, False))
    recorded = {("1", INTERNAL): rolled(chart, phase, "1", INTERNAL, 1)}
    assert recorded["1", INTERNAL].panicked
    waiting = progress(phase, {}, recorded, SCALE)
    assert waiting.undeclared == ("1",) and waiting.lacking == () and len(waiting.rounds) == 1
    named = progress(phase, {"1": ["2"]}, recorded, SCALE)
    assert [(t.division, t.triggers) for t in named.lacking] == [("2", (ADJOINING,))]
    assert named.round_number == 2
    assert progress(phase, {"1": []}, recorded, SCALE) == PanicProgress(named.rounds, (), ())


def test_a_test_not_owed_or_for_other_triggers_is_refused(chart):
    phase = divisions(("1", BROKEN, True), ("2", STEADY, False))
    now = progress(phase, {}, {}, SCALE)
    with pytest.raises(Refused, match="Second has no panic test to roll now"):
        panic_test(chart, now, phase, "2", "Second", (INTERNAL,), {INTERNAL: d10(5)}, SCALE, NONE, {})
    with pytest.raises(Refused, match="First now tests for internal panic: nothing was changed"):
        panic_test(chart, now, phase, "1", "First", (ADJOINING,), {ADJOINING: d10(5)}, SCALE, NONE, {})


def test_a_test_is_the_engines_and_a_printed_reading_keeps_the_apps_own_beside_it(chart):
    phase = divisions(("1", BROKEN, True))
    now = progress(phase, {}, {}, SCALE)
    done = panic_test(chart, now, phase, "1", "First", (INTERNAL,), {INTERNAL: d10(5)}, SCALE, NONE, {})
    assert done.result == rolled(chart, phase, "1", INTERNAL, 5) and done.app is None
    assert lacking_test(now, "1") == done.test and done.units == BROKEN
    printed = panic_test(
        chart, now, phase, "1", "First", (INTERNAL,), {INTERNAL: d10(5)}, SCALE, NONE, {"panic_pass": 1}
    )
    assert printed.result.held and printed.app == done.result


def test_a_division_that_held_changes_nothing_and_one_that_panicked_moves_each_unit(chart):
    states = {"b": brigade("b", grade=Grade.VETERAN, bases=4, m_hits=4)}
    phase = divisions(("1", BROKEN, True))
    held = division_panic_test(chart.overlay({"panic_pass": 1}), phase["1"].units, {INTERNAL: d10(5)}, SCALE)
    assert after_test(held, states) == {}
    broke = rolled(chart, phase, "1", INTERNAL, 1)
    assert not broke.held
    changed = after_test(broke, states)
    assert changed == {o.id: after_division_panic(states[o.id], o) for o in broke.units}
    assert changed["b"] != states["b"]


# --- entered a test at a time, the phase ends where the engine's whole phase does --------------------------

IDS = ["d0", "d1", "d2", "d3", "d4"]


@st.composite
def phases(draw):
    ids = IDS[: draw(st.integers(1, len(IDS)))]
    phase = divisions(*((d, draw(st.sampled_from([STEADY, BROKEN])), draw(st.booleans())) for d in ids))
    pairs = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda p: p[0] != p[1])))
    faces = {(d, trigger): draw(st.integers(1, 10)) for d in ids for trigger in (INTERNAL, ADJOINING)}
    return phase, pairs, faces


def played(chart, phase, pairs, faces, rng) -> tuple[PanicProgress, dict]:
    """The phase as a table enters it: the tests of a round in the order ``rng`` picks, and the adjoining
    divisions of each that panicked named when the app asks."""
    recorded, declared = {}, {}
    now = progress(phase, declared, recorded, SCALE)
    while now.lacking or now.undeclared:
        for division in now.undeclared:
            declared[division] = [b if a == division else a for a, b in pairs if division in (a, b)]
        if now.lacking:
            test = rng.choice(now.lacking)
            rolls = {trigger: d10(faces[test.division, trigger]) for trigger in test.triggers}
            done = panic_test(chart, now, phase, test.division, test.division, test.triggers, rolls, SCALE, NONE, {})
            recorded |= {(test.division, trigger): done.result for trigger in test.triggers}
        now = progress(phase, declared, recorded, SCALE)
    return now, recorded


@given(phases(), st.randoms(use_true_random=False), st.randoms(use_true_random=False))
@settings(max_examples=150, deadline=None)
def test_whatever_order_the_tests_are_entered_in_the_phase_ends_as_the_engine_resolves_it(chart, drawn, one, other):
    phase, pairs, faces = drawn
    first, first_recorded = played(chart, phase, pairs, faces, one)
    second, second_recorded = played(chart, phase, pairs, faces, other)
    assert (first, first_recorded) == (second, second_recorded)
    whole = resolve_panic_phase(
        chart,
        PanicPhaseInput(
            divisions=tuple(phase.values()),
            adjoining=tuple(DivisionPair(a, b) for a, b in pairs),
            rolls=tuple(PhaseRoll(d, trigger, d10(face)) for (d, trigger), face in faces.items()),
            scale=SCALE,
        ),
    )
    assert first.rounds == whole.rounds


def test_only_the_panicked_divisions_own_side_may_be_named_adjoining_it_in_the_phases_order(chart):
    phase = {
        "1": PhaseDivision("1", BROKEN, internal=True, side="N"),
        "2": PhaseDivision("2", STEADY, side="S"),
        "3": PhaseDivision("3", STEADY, side="N"),
        "4": PhaseDivision("4", STEADY, side="N"),
    }
    assert may_adjoin(phase, "1") == ("3", "4")
    now = progress(phase, {}, {("1", INTERNAL): rolled(chart, phase, "1", INTERNAL, 1)}, SCALE)
    assert declare(now, phase, "1", "First", ["4", "2", "9", "3"]) == ("3", "4")
    assert declare(now, phase, "1", "First", []) == ()


def test_adjoining_divisions_are_named_only_for_a_division_waiting_for_them(chart):
    phase = divisions(("1", BROKEN, True), ("2", STEADY, False))
    with pytest.raises(Refused, match="First has no adjoining divisions to name now"):
        declare(progress(phase, {}, {}, SCALE), phase, "1", "First", ["2"])
    recorded = {("1", INTERNAL): rolled(chart, phase, "1", INTERNAL, 1)}
    with pytest.raises(Refused, match="First has no adjoining divisions to name now"):
        declare(progress(phase, {"1": []}, recorded, SCALE), phase, "1", "First", ["2"])
