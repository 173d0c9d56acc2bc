"""The panic phase (6.2): simultaneous rounds of division panic tests, internal panic first, then adjoining
panic spreading from each division that failed, until a round makes no division panic next to one still to
test.

Reading chosen where the rules leave room: adjoining panic is contagion among a side's own divisions. "A
division will roll on the panic level four column if any adjoining division within 3" becomes panicked"
(R:1870-1874) does not say whose; the section's own example (R:1875-1881) is of a division's neighbour in
the line failing "a similar test", and a division's panic is the "division near to it panics" (R:1853-1855)
that its own troops see run. An enemy division routing from in front of it is no cause for panic, and every
assault in contact would otherwise make the winner test. So only divisions of the same side adjoin
(``adjoining_choices``).
"""

from dataclasses import dataclass

from republic.rules.chart import Chart
from republic.rules.dice import Roll, single
from republic.rules.division_panic import (
    DivisionPanicResult,
    DivisionUnit,
    PanicTrigger,
    check_units,
    division_panic_test,
)
from republic.rules.errors import RulesInputError
from republic.rules.results import Explained, Mechanic
from republic.rules.scale import GroundScale
from republic.rules.troops import DivisionOrders

TABLES = ()


@dataclass(frozen=True)
class PhaseDivision:
    """A division in the panic phase. `internal`: one of its units had a P4 event this turn, even if that
    unit is gone (6.2; see had_p4_event)."""

    id: str
    units: tuple[DivisionUnit, ...]
    internal: bool = False
    out_of_town: bool = False
    across_bridge_or_ford: bool = False
    away_from_rear_assault: bool = False
    side: str = ""  # its side, when the table's app knows it: only a side's own divisions adjoin

    def __post_init__(self) -> None:
        if not self.id.strip():
            raise RulesInputError("id", "a division needs a name")
        check_units(self.units)


@dataclass(frozen=True)
class DivisionPair:
    """Two adjoining divisions: the closest points of their closest units are within 3", or within line
    of sight if that is less (6.2)."""

    first: str
    second: str


def adjoining_choices(divisions: "tuple[PhaseDivision, ...] | list[PhaseDivision]", division: str) -> tuple[str, ...]:
    """The divisions that may adjoin ``division`` for adjoining panic (6.2): the other divisions of its own side
    (see the module's reading), in the given order; which of them are within 3" is the table's to say."""
    found = next((d for d in divisions if d.id == division), None)
    if found is None:
        raise RulesInputError("division", f"no division {division!r}")
    return tuple(d.id for d in divisions if d.id != division and d.side == found.side)


@dataclass(frozen=True)
class PhaseRoll:
    division: str
    trigger: PanicTrigger
    roll: Roll


@dataclass(frozen=True)
class PanicPhaseInput:
    divisions: tuple[PhaseDivision, ...]
    adjoining: tuple[DivisionPair, ...] = ()
    rolls: tuple[PhaseRoll, ...] = ()
    scale: GroundScale = GroundScale.MEDIUM

    def __post_init__(self) -> None:
        ids = set()
        for index, division in enumerate(self.divisions):
            if division.id in ids:
                raise RulesInputError(f"divisions[{index}].id", f"two divisions are named {division.id!r}")
            ids.add(division.id)
        for index, pair in enumerate(self.adjoining):
            for name in ("first", "second"):
                if getattr(pair, name) not in ids:
                    raise RulesInputError(f"adjoining[{index}].{name}", f"no division {getattr(pair, name)!r}")
            if pair.first == pair.second:
                raise RulesInputError(f"adjoining[{index}]", "a division does not adjoin itself")
        keys = set()
        for index, given in enumerate(self.rolls):
            if given.division not in ids:
                raise RulesInputError(f"rolls[{index}].division", f"no division {given.division!r}")
            if (given.division, given.trigger) in keys:
                raise RulesInputError(f"rolls[{index}]", f"two {given.trigger} rolls for {given.division!r}")
            keys.add((given.division, given.trigger))
            single(given.roll, f"rolls[{index}].roll")

    def neighbours(self, division: str) -> set[str]:
        return {
            pair.second if pair.first == division else pair.first
            for pair in self.adjoining
            if division in (pair.first, pair.second)
        }

    def roll_for(self, division: str, trigger: PanicTrigger) -> Roll | None:
        return next((r.roll for r in self.rolls if (r.division, r.trigger) == (division, trigger)), None)


@dataclass(frozen=True)
class PendingTest:
    """A test the next round needs: the division and the conditions it rolls for, one die each."""

    division: str
    triggers: tuple[PanicTrigger, ...]

    @property
    def roll_fields(self) -> tuple[str, ...]:
        return tuple(f"rolls.{self.division}.{trigger}" for trigger in self.triggers)


@dataclass(frozen=True)
class PhaseTest:
    division: str
    triggers: tuple[PanicTrigger, ...]
    result: DivisionPanicResult

    @property
    def panicked(self) -> bool:
        return self.result.panicked


@dataclass(frozen=True)
class PanicRound:
    number: int
    tests: tuple[PhaseTest, ...]


@dataclass(frozen=True)
class PanicPhaseResult(Explained):
    rounds: tuple[PanicRound, ...]
    panicked: tuple[str, ...]


def next_tests(inputs: PanicPhaseInput, rounds: tuple[PanicRound, ...]) -> tuple[PendingTest, ...]:
    """The tests of the round after `rounds` (6.2), empty when the phase is over. Each condition is tested
    at most once per division: internal for divisions with a P4 event, adjoining for divisions next to one
    that panicked in the previous round. A division that has already panicked this phase tests no more: it
    is in the panicked state already, and a second failure would only repeat its move (the rules'
    example is of a division that passed)."""
    tested = {(t.division, trigger) for r in rounds for t in r.tests for trigger in t.triggers}
    panicked = {t.division for r in rounds for t in r.tests if t.panicked}
    spreading = {t.division for t in rounds[-1].tests if t.panicked} if rounds else set()
    pending = []
    for division in inputs.divisions:
        if division.id in panicked:
            continue
        triggers = []
        if division.internal and (division.id, PanicTrigger.INTERNAL) not in tested:
            triggers.append(PanicTrigger.INTERNAL)
        if inputs.neighbours(division.id) & spreading and (division.id, PanicTrigger.ADJOINING) not in tested:
            triggers.append(PanicTrigger.ADJOINING)
        if triggers:
            pending.append(PendingTest(division.id, tuple(triggers)))
    return tuple(pending)


def _missing(inputs: PanicPhaseInput, pending: tuple[PendingTest, ...]) -> tuple[PendingTest, ...]:
    out = []
    for test in pending:
        lacking = tuple(t for t in test.triggers if inputs.roll_for(test.division, t) is None)
        if lacking:
            out.append(PendingTest(test.division, lacking))
    return tuple(out)


def _run_rounds(chart: Chart, inputs: PanicPhaseInput) -> tuple[tuple[PanicRound, ...], tuple[PendingTest, ...]]:
    """The rounds the given rolls settle, and the tests still lacking a roll (empty when the phase is over)."""
    divisions = {division.id: division for division in inputs.divisions}
    rounds: tuple[PanicRound, ...] = ()
    while pending := next_tests(inputs, rounds):
        lacking = _missing(inputs, pending)
        if lacking:
            return rounds, lacking
        tests = []
        for test in pending:
            division = divisions[test.division]
            # every roll is there: _missing found none lacking
            rolls = {
                trigger: roll
                for trigger in test.triggers
                if (roll := inputs.roll_for(division.id, trigger)) is not None
            }
            result = division_panic_test(
                chart,
                division.units,
                rolls,
                inputs.scale,
                out_of_town=division.out_of_town,
                across_bridge_or_ford=division.across_bridge_or_ford,
                away_from_rear_assault=division.away_from_rear_assault,
            )
            tests.append(PhaseTest(division.id, test.triggers, result))
        rounds = (*rounds, PanicRound(len(rounds) + 1, tuple(tests)))
    return rounds, ()


def pending_tests(chart: Chart, inputs: PanicPhaseInput) -> tuple[PendingTest, ...]:
    """The tests whose dice the table must roll next, after settling every round the given rolls allow;
    empty when the phase is over. The table asks for these one round at a time."""
    return _run_rounds(chart, inputs)[1]


def resolve_panic_phase(chart: Chart, inputs: PanicPhaseInput) -> PanicPhaseResult:
    """The panic phase (6.2): rounds of simultaneous tests until a round makes no division panic next to
    a division still to test. A missing roll raises RulesInputError naming it (rolls.<division>.<trigger>)."""
    rounds, lacking = _run_rounds(chart, inputs)
    if lacking:
        field = lacking[0].roll_fields[0]
        raise RulesInputError(field, f"round {len(rounds) + 1} needs this 1D10 roll")
    used = {(t.division, trigger) for r in rounds for t in r.tests for trigger in t.triggers}
    notes = [
        f"unused {r.trigger} roll for {r.division}: it never had to test"
        for r in inputs.rolls
        if (r.division, r.trigger) not in used
    ]
    notes.append(
        "once every round is over, remove all panic markers (6.1)"
        if rounds
        else "no division had a P4 event this turn: no panic tests"
    )
    cells = (cell for r in rounds for t in r.tests for cell in t.result.cells)
    return PanicPhaseResult(
        rounds=rounds,
        panicked=tuple(t.division for r in rounds for t in r.tests if t.panicked),
        cells=tuple(dict.fromkeys(cells)),
        notes=tuple(notes),
    )


def orders_after_panic_phase(orders: DivisionOrders, panicked: bool) -> DivisionOrders:
    """A division's orders once the panic phase is over: "Once all panic test rounds have been resolved, all panic
    markers are removed from affected divisions, panicked division orders are reset to Defend status" (6.1,
    R:1849-1852). Until then a division that panicked keeps its orders and counts as holding (R:1830-1832)."""
    return DivisionOrders.DEFEND if panicked else orders


MECHANICS = (
    Mechanic(
        "panic_phase",
        "6.2",
        "The panic phase in rounds: divisions (units, internal P4 event), adjoining pairs, rolls",
        PanicPhaseInput,
        resolve_panic_phase,
    ),
)
