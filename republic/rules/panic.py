"""Panic (4.7, 5.5, 6): the Panic Index, panic responses and divisional panic tests.

The Panic Index is one table read two ways: a unit's panic level (P1-P4) and grade give a forced move
and a loss number (bases taken prisoner in an assault, deserters in a panic test), and the Panic 4
section gives each grade's pass number for the division panic test.

A division panic test (6.1, 6.3) rolls 1D10 against the pass number of the division's average grade;
the panic phase (6.2) runs those tests in simultaneous rounds, internal panic first, then adjoining
panic spreading from each division that failed. The demoralized panic test (4.7) is the panic move of a
demoralized unit whose excess M from fire became P hits.
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from republic.rules.chart import Chart, GridSpec, KeyedSpec, integer
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, resolve_forced_move
from republic.rules.morale import Condition, MoraleCause, apply_morale_hits
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, total
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind

PANIC_LEVELS = ("p1", "p2", "p3", "p4")
MAX_PANIC_LEVEL = 4

LOSS_CONDITIONS = ("out_of_town", "across_bridge_or_ford", "away_from_rear_assault")

_RESULT = re.compile(r"^(D|W|F|Re|Rt)(?:\s+(\d+))?$")


@dataclass(frozen=True)
class PanicCell:
    """A Panic Index cell: the forced move and the loss number to its right (0 when none is shown)."""

    move: ForcedMove
    loss: int = 0

    @classmethod
    def parse(cls, raw) -> "PanicCell":
        match = _RESULT.match(str(raw).strip()) if isinstance(raw, str) else None
        if not match:
            raise ValueError(f"a panic result is D, W, F, Re or Rt with an optional loss number, got {raw!r}")
        return cls(ForcedMove(match[1]), int(match[2] or 0))

    def __str__(self) -> str:
        return f"{self.move.value} {self.loss}" if self.loss else self.move.value


TABLES = (
    GridSpec("panic_index", "5.5, 6.1", "Panic Index", tuple(g.value for g in Grade), PANIC_LEVELS,
             PanicCell.parse),
    KeyedSpec("panic_pass", "6.1", "Panic 4 pass numbers", tuple(g.value for g in Grade), integer),
    KeyedSpec("panic_loss_modifiers", "6.3", "Panic base hit modifiers (retreat or rout)", LOSS_CONDITIONS, integer),
    KeyedSpec("division_panic_modifiers", "6.3", "Panic die roll modifiers", ("unshaken", "each_demoralized_unit"),
              integer),
)


def panic_level_read(panic_hits: int) -> int:
    """The Panic Index column for a number of P hits. Levels run 1-4; more P hits than four are read as
    Panic 4 (the index has no column beyond it)."""
    if panic_hits < 1:
        raise RulesInputError("panic_hits", f"a panic response needs at least 1 P hit, got {panic_hits}")
    return min(panic_hits, MAX_PANIC_LEVEL)


def panic_response(chart: Chart, grade: Grade, panic_hits: int) -> tuple[PanicCell, CellUse]:
    level = panic_level_read(panic_hits)
    return chart.cell("panic_index", grade.value, f"p{level}")


@dataclass(frozen=True)
class PanicInput:
    grade: Grade
    panic_hits: int
    out_of_town: bool = False
    across_bridge_or_ford: bool = False
    away_from_rear_assault: bool = False


@dataclass(frozen=True)
class PanicResult(Explained):
    level: int
    move: ForcedMove
    loss: int


def resolve_panic(chart: Chart, inputs: PanicInput) -> PanicResult:
    """A unit's panic response; the loss number grows by the base hit modifiers (6.3) when it retreats or
    routs out of town, across a bridge or ford, or away from an assault in its rear. The rules' example
    (R:1891-1895) applies them to prisoners in an assault, so they serve both uses of the index."""
    cell, use = panic_response(chart, inputs.grade, inputs.panic_hits)
    level = panic_level_read(inputs.panic_hits)
    notes = []
    if inputs.panic_hits > MAX_PANIC_LEVEL:
        notes.append(f"{inputs.panic_hits} P hits are read as Panic 4")
    modifiers, cells = loss_modifiers(
        chart,
        cell.move,
        out_of_town=inputs.out_of_town,
        across_bridge_or_ford=inputs.across_bridge_or_ford,
        away_from_rear_assault=inputs.away_from_rear_assault,
    )
    return PanicResult(
        level=level,
        move=cell.move,
        loss=cell.loss + total(modifiers),
        modifiers=modifiers,
        cells=(use, *cells),
        notes=tuple(notes),
    )


_LOSS_LABELS = {
    "out_of_town": "retreating or routing out of town terrain",
    "across_bridge_or_ford": "retreating or routing across a bridge or fordable stream",
    "away_from_rear_assault": "retreating or routing away from an assault in the rear",
}


def loss_modifiers(chart: Chart, move: ForcedMove, **conditions: bool) -> tuple[tuple[Modifier, ...], list[CellUse]]:
    """Extra bases lost by a unit that retreats or routs under each condition (6.3); they add up."""
    if move not in (ForcedMove.RETREAT, ForcedMove.ROUT):
        return (), []
    modifiers, cells = [], []
    for condition in LOSS_CONDITIONS:
        if conditions.get(condition):
            value, use = chart.entry("panic_loss_modifiers", condition)
            modifiers.append(Modifier(_LOSS_LABELS[condition], value, "6.3"))
            cells.append(use)
    return tuple(modifiers), cells


# --- P4 events (6.2) -------------------------------------------------------------------------------


def had_p4_event(round_panic_hits: Iterable[int]) -> bool:
    """Whether a unit had a P4 event, from the P hits it took in each round (P hits are totalled at the
    end of each assault round, 5.5). Only a round that reaches Panic 4 counts: P hits from several rounds
    that add up to five or more do not (6.2). A round of more than four P hits is read as Panic 4."""
    levels = tuple(round_panic_hits)
    for index, hits in enumerate(levels):
        if isinstance(hits, bool) or not isinstance(hits, int) or hits < 0:
            raise RulesInputError(f"round_panic_hits[{index}]", f"P hits are a whole number, 0 or more, got {hits!r}")
    return any(hits >= MAX_PANIC_LEVEL for hits in levels)


# --- the division panic test (6.1, 6.3) ------------------------------------------------------------


class PanicTrigger(StrEnum):
    INTERNAL = "internal"  # a unit of the division had a P4 event this turn, even if it is gone (6.2)
    ADJOINING = "adjoining"  # a division within 3" (or line of sight, if less) panicked this phase (6.2)


@dataclass(frozen=True)
class DivisionUnit:
    """A unit of a testing division. A unit with no bases left was destroyed, deserted or surrendered
    this turn: it makes no move, but its last condition still counts for the die modifiers (6.3).
    `already_moved` is the forced move it already made this turn, if any (6.1)."""

    id: str
    grade: Grade
    bases: int
    condition: Condition = Condition.FORMED
    kind: UnitKind = UnitKind.INFANTRY
    already_moved: ForcedMove | None = None

    def __post_init__(self):
        if not self.id.strip():
            raise RulesInputError("id", "a unit needs a name")
        if self.bases < 0:
            raise RulesInputError("bases", f"bases cannot be negative, got {self.bases}")

    @property
    def present(self) -> bool:
        return self.bases > 0


def check_units(units: tuple[DivisionUnit, ...]) -> None:
    if not units:
        raise RulesInputError("units", "a division needs at least one unit")
    seen = set()
    for index, unit in enumerate(units):
        if unit.id in seen:
            raise RulesInputError(f"units[{index}].id", f"two units are named {unit.id!r}")
        seen.add(unit.id)
    if not any(unit.present for unit in units):
        raise RulesInputError("units", "no unit of the division has bases left, so there is nothing to test")


def average_grade(units: Iterable[DivisionUnit]) -> Grade:
    """The division's average troop grade (6.1): the mean grade of the bases still present (each unit's
    grade weighted by its bases), rounded to the nearest grade. The rules give no rounding; a tie goes to
    the worse grade, so a division is never rated above the grade of half of its bases."""
    present = [unit for unit in units if unit.present]
    if not present:
        raise RulesInputError("units", "no unit of the division has bases left, so it has no average grade")
    bases = sum(unit.bases for unit in present)
    weighted = sum(unit.grade.rank * unit.bases for unit in present)
    return list(Grade)[(2 * weighted + bases) // (2 * bases)]


def is_unshaken(units: Iterable[DivisionUnit]) -> bool:
    """Unshaken (6.3): no unit of the division is Shaken or Demoralized, counting units gone this turn by
    their last condition. The rules do not define the word; Shaken is the ladder's own name for the step
    it negates (2.3)."""
    return all(unit.condition.m_hits < Condition.SHAKEN.m_hits for unit in units)


def panic_die_modifiers(chart: Chart, units: tuple[DivisionUnit, ...]) -> tuple[tuple[Modifier, ...], list[CellUse]]:
    """+2 for an unshaken division, -2 for each demoralized unit present, gone units that were last
    demoralized included (6.3). The heading says "each extra demoralized unit" but its text counts each
    one present; the engine counts each one."""
    modifiers, cells = [], []
    if is_unshaken(units):
        value, use = chart.entry("division_panic_modifiers", "unshaken")
        modifiers.append(Modifier("rolling division is unshaken", value, "6.3"))
        cells.append(use)
    demoralized = sum(1 for unit in units if unit.condition is Condition.DEMORALIZED)
    if demoralized:
        each, use = chart.entry("division_panic_modifiers", "each_demoralized_unit")
        modifiers.append(Modifier(f"each demoralized unit present ({demoralized})", each * demoralized, "6.3"))
        cells.append(use)
    return tuple(modifiers), cells


def allocate_deserters(units: Iterable[DivisionUnit], count: int) -> tuple[dict[str, int], int]:
    """Deserters (6.1) come from the lowest grade present first, then from each higher grade in turn.
    Within a grade the rules take them at random; the engine takes one base from each unit of that grade
    in turn, in the order the units are listed, so one brigade is not stripped while its neighbours stay
    whole. Returns the bases taken per unit and the deserters left over when the division runs out."""
    present = [unit for unit in units if unit.present]
    taken = dict.fromkeys((unit.id for unit in present), 0)
    remaining = count
    for grade in reversed(Grade):
        group = [unit for unit in present if unit.grade is grade]
        while remaining and any(taken[unit.id] < unit.bases for unit in group):
            for unit in group:
                if remaining and taken[unit.id] < unit.bases:
                    taken[unit.id] += 1
                    remaining -= 1
    return {uid: n for uid, n in taken.items() if n}, remaining


def _battery_notes(kind: UnitKind, move: ForcedMove | None) -> list[str]:
    if kind is not UnitKind.ARTILLERY:
        return []
    if move is ForcedMove.RETREAT:
        return ["a battery may limber to retreat, taking 1 damage (5.5)"]
    if move is ForcedMove.ROUT:
        return ["a battery required to rout is abandoned (5.5)"]
    return []


@dataclass(frozen=True)
class TriggerRoll:
    trigger: PanicTrigger
    roll: Roll
    modified: int


@dataclass(frozen=True)
class UnitPanicOutcome:
    """What one unit of a panicked division does: its move (None when it already moved as far this
    turn), the bases that desert, and the M hit of a division rout."""

    id: str
    move: ForcedMove | None
    distance: float
    instruction: str
    deserters: int
    bases_after: int
    m_hits: int
    condition_after: Condition
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class DivisionPanicResult(Explained):
    average_grade: Grade
    unshaken: bool
    pass_number: int
    rolls: tuple[TriggerRoll, ...]
    trigger: PanicTrigger
    modified_roll: int
    held: bool
    move: ForcedMove | None
    loss_number: int
    deserters: int
    units: tuple[UnitPanicOutcome, ...]
    orders_reset_to_defend: bool

    @property
    def panicked(self) -> bool:
        return not self.held


def _unit_outcome(
    chart: Chart, unit: DivisionUnit, move: ForcedMove, scale: GroundScale, deserters: int
) -> tuple[UnitPanicOutcome, tuple[CellUse, ...]]:
    notes: list[str] = []
    if unit.already_moved is not None and unit.already_moved.severity >= move.severity:
        made, distance, cells = None, 0.0, ()
        instruction = f"Already made a {unit.already_moved.title} this turn: no further move (6.1)"
    else:
        forced = resolve_forced_move(
            chart, ForcedMoveInput(move, horse=unit.kind.horse, scale=scale, already_moved=unit.already_moved)
        )
        made, distance, cells, instruction = move, forced.distance, forced.cells, forced.instruction
        notes.extend(forced.notes)
    notes.extend(_battery_notes(unit.kind, made))
    m_hits, condition = 0, unit.condition
    if move is ForcedMove.ROUT:
        morale = apply_morale_hits(unit.condition.m_hits, 1, MoraleCause.DIVISION_ROUT)
        m_hits, condition = morale.m_after - morale.m_before, morale.condition_after
        notes.append(
            "1M at the end of the division's rout (6.1)" if m_hits
            else "already demoralized: no further M or P for the division's rout (6.1)"
        )
    bases_after = unit.bases - deserters
    if deserters:
        notes.append(f"{deserters} base{'s' if deserters > 1 else ''} desert (6.1)")
    if deserters and not bases_after:
        notes.append("every base of the unit has deserted")
    outcome = UnitPanicOutcome(
        id=unit.id,
        move=made,
        distance=distance,
        instruction=instruction,
        deserters=deserters,
        bases_after=bases_after,
        m_hits=m_hits,
        condition_after=condition,
        notes=tuple(notes),
    )
    return outcome, tuple(cells)


def division_panic_test(
    chart: Chart,
    units: tuple[DivisionUnit, ...],
    rolls: Mapping[PanicTrigger, Roll],
    scale: GroundScale = GroundScale.MEDIUM,
    *,
    out_of_town: bool = False,
    across_bridge_or_ford: bool = False,
    away_from_rear_assault: bool = False,
) -> DivisionPanicResult:
    """A division's panic test (6.1): 1D10 plus the die modifiers, equal to or above the pass number of
    its average grade, holds. Otherwise every unit present makes the Panic 4 move of that grade's row,
    the loss number's bases desert, a rout gives each unit 1M, and the division's orders reset to Defend.
    With both triggers at once, one roll each and the worse stands (6.2). The loss conditions hold when the
    division retreats or routs out of town, across a bridge or ford, or away from an assault in its rear;
    each adds its +1B once to the division's loss number (6.3)."""
    check_units(units)
    if not rolls:
        raise RulesInputError("rolls", "a panic test needs a roll")
    grade = average_grade(units)
    pass_number, pass_cell = chart.entry("panic_pass", grade.value)
    die_modifiers, cells = panic_die_modifiers(chart, units)
    cells = [pass_cell, *cells]
    tried = tuple(
        TriggerRoll(trigger, roll, single(roll, f"{trigger}_roll") + total(die_modifiers))
        for trigger, roll in sorted(rolls.items(), key=lambda item: list(PanicTrigger).index(item[0]))
    )
    taken = min(tried, key=lambda t: t.modified)
    held = taken.modified >= pass_number
    notes = []
    if len(tried) > 1:
        shown = ", ".join(f"{t.trigger} {t.modified}" for t in tried)
        notes.append(f"both conditions at once ({shown}): the worse, {taken.trigger}, stands (6.2)")
    notes.append(
        f"{taken.modified} against {pass_number}: the division "
        + ("holds" if held else "panics; once its units have moved it counts as holding (6.1)")
    )
    common = {
        "average_grade": grade,
        "unshaken": is_unshaken(units),
        "pass_number": pass_number,
        "rolls": tried,
        "trigger": taken.trigger,
        "modified_roll": taken.modified,
        "held": held,
    }
    if held:
        return DivisionPanicResult(
            **common, move=None, loss_number=0, deserters=0, units=(), orders_reset_to_defend=False,
            modifiers=die_modifiers, cells=tuple(cells), notes=tuple(notes),
        )
    result, index_cell = chart.cell("panic_index", grade.value, "p4")
    cells.append(index_cell)
    loss_mods, loss_cells = loss_modifiers(
        chart, result.move, out_of_town=out_of_town, across_bridge_or_ford=across_bridge_or_ford,
        away_from_rear_assault=away_from_rear_assault,
    )
    cells.extend(loss_cells)
    loss_number = result.loss + total(loss_mods)
    taken_bases, short = allocate_deserters(units, loss_number)
    if short:
        notes.append(f"{short} deserter{'s' if short > 1 else ''} more than the division has bases")
    outcomes = []
    for unit in units:
        if not unit.present:
            continue
        outcome, unit_cells = _unit_outcome(chart, unit, result.move, scale, taken_bases.get(unit.id, 0))
        outcomes.append(outcome)
        cells.extend(unit_cells)
    return DivisionPanicResult(
        **common,
        move=result.move,
        loss_number=loss_number,
        deserters=loss_number - short,
        units=tuple(outcomes),
        orders_reset_to_defend=True,
        modifiers=(*die_modifiers, *(Modifier(f"loss number: {m.label}", m.value, m.section) for m in loss_mods)),
        cells=tuple(dict.fromkeys(cells)),
        notes=(*notes, "panicked division's orders reset to Defend (6.1)"),
    )


@dataclass(frozen=True)
class DivisionPanicInput:
    units: tuple[DivisionUnit, ...]
    internal_roll: Roll | None = None
    adjoining_roll: Roll | None = None
    scale: GroundScale = GroundScale.MEDIUM
    out_of_town: bool = False
    across_bridge_or_ford: bool = False
    away_from_rear_assault: bool = False

    def __post_init__(self):
        check_units(self.units)
        if self.internal_roll is None and self.adjoining_roll is None:
            raise RulesInputError("internal_roll", "give the roll of the internal test, the adjoining test, or both")
        for name in ("internal_roll", "adjoining_roll"):
            roll = getattr(self, name)
            if roll is not None:
                single(roll, name)

    @property
    def rolls(self) -> dict[PanicTrigger, Roll]:
        given = {PanicTrigger.INTERNAL: self.internal_roll, PanicTrigger.ADJOINING: self.adjoining_roll}
        return {trigger: roll for trigger, roll in given.items() if roll is not None}


def resolve_division_panic(chart: Chart, inputs: DivisionPanicInput) -> DivisionPanicResult:
    return division_panic_test(
        chart, inputs.units, inputs.rolls, inputs.scale, out_of_town=inputs.out_of_town,
        across_bridge_or_ford=inputs.across_bridge_or_ford, away_from_rear_assault=inputs.away_from_rear_assault,
    )


# --- the panic phase (6.2) -------------------------------------------------------------------------


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

    def __post_init__(self):
        if not self.id.strip():
            raise RulesInputError("id", "a division needs a name")
        check_units(self.units)


@dataclass(frozen=True)
class DivisionPair:
    """Two adjoining divisions: the closest points of their closest units are within 3", or within line
    of sight if that is less (6.2)."""

    first: str
    second: str


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

    def __post_init__(self):
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
        return {pair.second if pair.first == division else pair.first
                for pair in self.adjoining if division in (pair.first, pair.second)}

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
            rolls = {trigger: inputs.roll_for(division.id, trigger) for trigger in test.triggers}
            result = division_panic_test(
                chart, division.units, rolls, inputs.scale, out_of_town=division.out_of_town,
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
    notes = [f"unused {r.trigger} roll for {r.division}: it never had to test"
             for r in inputs.rolls if (r.division, r.trigger) not in used]
    notes.append("once every round is over, remove all panic markers (6.1)" if rounds
                 else "no division had a P4 event this turn: no panic tests")
    cells = (cell for r in rounds for t in r.tests for cell in t.result.cells)
    return PanicPhaseResult(
        rounds=rounds,
        panicked=tuple(t.division for r in rounds for t in r.tests if t.panicked),
        cells=tuple(dict.fromkeys(cells)),
        notes=tuple(notes),
    )


# --- the demoralized panic test (4.7) --------------------------------------------------------------


@dataclass(frozen=True)
class DemoralizedPanicInput:
    """A demoralized unit whose excess M from skirmish or artillery fire became P hits (4.6, 4.7)."""

    grade: Grade
    panic_hits: int
    bases: int
    kind: UnitKind = UnitKind.INFANTRY
    scale: GroundScale = GroundScale.MEDIUM
    out_of_town: bool = False
    across_bridge_or_ford: bool = False
    away_from_rear_assault: bool = False

    def __post_init__(self):
        panic_level_read(self.panic_hits)
        if self.bases < 1:
            raise RulesInputError("bases", f"only a unit with bases left takes the test, got {self.bases}")


@dataclass(frozen=True)
class DemoralizedPanicResult(Explained):
    level: int
    move: ForcedMove
    distance: float
    instruction: str
    deserters: int
    bases_after: int
    p4_event: bool


def resolve_demoralized_panic(chart: Chart, inputs: DemoralizedPanicInput) -> DemoralizedPanicResult:
    """The panic move of a demoralized unit after fire (4.7): its Panic Index response. Lost bases desert
    and are removed at once. The text names the Panic 4 event; the engine treats a loss number at any
    level the same way, since outside an assault no enemy takes prisoners. No division test follows now;
    a P4 event still makes the division test for internal panic in the panic phase (6.1 counts P4 events
    "during the course of the player turn")."""
    response = resolve_panic(
        chart,
        PanicInput(inputs.grade, inputs.panic_hits, out_of_town=inputs.out_of_town,
                   across_bridge_or_ford=inputs.across_bridge_or_ford,
                   away_from_rear_assault=inputs.away_from_rear_assault),
    )
    forced = resolve_forced_move(chart, ForcedMoveInput(response.move, horse=inputs.kind.horse, scale=inputs.scale))
    deserters = min(response.loss, inputs.bases)
    notes = [*response.notes, *_battery_notes(inputs.kind, response.move)]
    if response.move is ForcedMove.ROUT:
        notes.append("routing leaves a demoralized unit demoralized, with no further hit (5.5)")
    if deserters:
        notes.append(f"{deserters} base{'s' if deserters > 1 else ''} desert and are removed at once (4.7)")
    p4 = response.level == MAX_PANIC_LEVEL
    notes.append("no divisional or inter-divisional panic test now (4.7)")
    if p4:
        notes.append("this P4 event makes the division test for internal panic in the panic phase (6.1)")
    return DemoralizedPanicResult(
        level=response.level,
        move=response.move,
        distance=forced.distance,
        instruction=forced.instruction,
        deserters=deserters,
        bases_after=inputs.bases - deserters,
        p4_event=p4,
        modifiers=response.modifiers,
        cells=(*response.cells, *forced.cells),
        notes=tuple(notes),
    )


MECHANICS = (
    Mechanic("panic", "5.5", "Panic Index: forced move and loss number for a unit's P hits", PanicInput,
             resolve_panic),
    Mechanic("division_panic_test", "6.1, 6.3",
             "A division's panic test: units (grade, bases, condition), internal and/or adjoining roll",
             DivisionPanicInput, resolve_division_panic),
    Mechanic("panic_phase", "6.2",
             "The panic phase in rounds: divisions (units, internal P4 event), adjoining pairs, rolls",
             PanicPhaseInput, resolve_panic_phase),
    Mechanic("demoralized_panic_test", "4.7",
             "Panic move of a demoralized unit whose excess M from fire became P: grade, P hits, bases",
             DemoralizedPanicInput, resolve_demoralized_panic),
)
