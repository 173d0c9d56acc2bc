"""The panic phase's division tests (6.1-6.3) as the game decides them: which divisions take part, which must
test in the next round and why, whose adjoining divisions the table must name first, and what a test changes.

The phase is its divisions and what was recorded: the engine says who tests in which round (``next_tests``), and
the rounds already played are rebuilt from the recorded tests, so the table is asked for exactly the dice of the
next round. A division that panicked tests no more and its own test is the only thing in the phase that changes
its units, so a test reads only its division as it stood when it tested; the tests of a round may be entered in
any order for the same end."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.dice import Roll
from republic.rules.division_panic import (
    DivisionPanicResult,
    DivisionUnit,
    PanicTrigger,
    after_division_panic,
    division_panic_test,
)
from republic.rules.panic_phase import (
    DivisionPair,
    PanicPhaseInput,
    PanicRound,
    PendingTest,
    PhaseDivision,
    PhaseTest,
    adjoining_choices,
    next_tests,
)
from republic.rules.scale import GroundScale
from republic.rules.units import UnitState


def taking_part(
    divisions: Iterable[tuple[str, str]],
    now: Mapping[str, Sequence[DivisionUnit]],
    then: Mapping[str, tuple[DivisionUnit, ...]],
    internal: Iterable[str],
) -> tuple[dict[str, PhaseDivision], list[str]]:
    """The divisions (id, side) that take part, by id, and those with a Panic 4 event but nothing left to test. A
    division takes part as it stood when it first tested (``then``: its own panic may have emptied it), else as
    it stands (``now``), and only with a unit present."""
    inside = set(internal)
    phase, empty = {}, []
    for key, side in divisions:
        units = then.get(key) or tuple(now.get(key, ()))
        if any(u.present for u in units):
            phase[key] = PhaseDivision(key, units, internal=key in inside, side=side)
        elif key in inside:
            empty.append(key)
    return phase, empty


@dataclass(frozen=True)
class PanicProgress:
    """The rounds played, the tests of the next round still to roll, and the divisions that panicked in the last
    round whose adjoining divisions the table must name before the next round is known."""

    rounds: tuple[PanicRound, ...]
    lacking: tuple[PendingTest, ...]
    undeclared: tuple[str, ...]

    @property
    def round_number(self) -> int:
        return len(self.rounds) + 1


def progress(
    phase: Mapping[str, PhaseDivision],
    declared: Mapping[str, Sequence[str]],
    recorded: Mapping[tuple[str, PanicTrigger], DivisionPanicResult],
    scale: GroundScale,
) -> PanicProgress:
    """Where the phase stands: its rounds rebuilt from the tests recorded (by division and trigger) and the
    adjoining divisions the table named (by the division that panicked), up to the first round not whole."""
    pairs = tuple(
        DivisionPair(first, second)
        for first, others in declared.items()
        for second in others
        if first in phase and second in phase and first != second
    )
    inputs = PanicPhaseInput(divisions=tuple(phase.values()), adjoining=pairs, scale=scale)
    rounds: tuple[PanicRound, ...] = ()
    while True:
        if rounds:
            undeclared = tuple(t.division for t in rounds[-1].tests if t.panicked and t.division not in declared)
            if undeclared:
                return PanicProgress(rounds, (), undeclared)
        pending = next_tests(inputs, rounds)
        if not pending:
            return PanicProgress(rounds, (), ())
        lacking = tuple(t for t in pending if any((t.division, tr) not in recorded for tr in t.triggers))
        if lacking:
            return PanicProgress(rounds, lacking, ())
        played = tuple(PhaseTest(t.division, t.triggers, recorded[(t.division, t.triggers[0])]) for t in pending)
        rounds = (*rounds, PanicRound(len(rounds) + 1, played))


def lacking_test(now: PanicProgress, division: str) -> PendingTest | None:
    """The division's test of the next round, if it has one still to roll."""
    return next((t for t in now.lacking if t.division == division), None)


@dataclass(frozen=True)
class Tested:
    """A division's test rolled: the one it made, its units as they stood for it, the result, and the app's own
    reading when the table read a printed chart."""

    test: PendingTest
    units: tuple[DivisionUnit, ...]
    result: DivisionPanicResult
    app: DivisionPanicResult | None


def panic_test(
    chart: Chart,
    now: PanicProgress,
    phase: Mapping[str, PhaseDivision],
    division: str,
    name: str,
    triggers: tuple[PanicTrigger, ...],
    rolls: Mapping[PanicTrigger, Roll],
    scale: GroundScale,
    conditions: Mapping[str, bool],
    readings: Mapping[str, object],
) -> Tested:
    """A division's test: refused unless it has one to roll now, and for the triggers it tests for now (the form
    was drawn for others); the result is the engine's on the chart with the table's printed ``readings``."""
    test = lacking_test(now, division)
    if test is None:
        raise Refused(f"{name} has no panic test to roll now.")
    if test.triggers != triggers:
        raise Refused(
            f"{name} now tests for {' and '.join(t.value for t in test.triggers)} "
            "panic: nothing was changed. Here is the form again."
        )
    units = phase[division].units
    result = division_panic_test(chart.overlay(readings), units, rolls, scale, **conditions)
    app = division_panic_test(chart, units, rolls, scale, **conditions) if readings else None
    return Tested(test, units, result, app)


def after_test(result: DivisionPanicResult, units: Mapping[str, UnitState]) -> dict[str, UnitState]:
    """What a test changes: nothing if the division held; else each unit after its move, deserters and a rout's
    M (``units``: the division's, by id)."""
    if not result.panicked:
        return {}
    return {o.id: after_division_panic(units[o.id], o) for o in result.units}


def may_adjoin(phase: Mapping[str, PhaseDivision], division: str) -> tuple[str, ...]:
    """The divisions the table may name as adjoining one that panicked: its own side's others taking part."""
    return adjoining_choices(tuple(phase.values()), division)


def declare(
    now: PanicProgress, phase: Mapping[str, PhaseDivision], division: str, name: str, named: Iterable[str]
) -> tuple[str, ...]:
    """The divisions the table names as adjoining one that panicked, those it may name alone, in the phase's
    order: refused unless that division waits for them now."""
    if division not in now.undeclared:
        raise Refused(f"{name} has no adjoining divisions to name now.")
    chosen = set(named)
    return tuple(key for key in may_adjoin(phase, division) if key in chosen)
