"""The divisional panic test (6.1, 6.3): 1D10 against the pass number of the division's average grade,
and what every unit of a division that panics does. The panic phase's rounds are in panic_phase.py.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict

from republic.rules.chart import D10_SCORE, DIE_MODIFIER, Chart, KeyedSpec
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, resolve_forced_move
from republic.rules.morale import Condition, MoraleCause, apply_morale_hits
from republic.rules.panic import PanicCell, battery_fate, loss_modifiers
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, total
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind
from republic.rules.units import UnitState, after_bases_lost, after_move, with_morale

TABLES = (
    KeyedSpec("panic_pass", "6.1", "Panic 4 pass numbers", tuple(g.value for g in Grade), D10_SCORE),
    KeyedSpec(
        "division_panic_modifiers",
        "6.3",
        "Panic die roll modifiers",
        ("unshaken", "each_demoralized_unit"),
        DIE_MODIFIER,
    ),
)


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

    def __post_init__(self) -> None:
        if not self.id.strip():
            raise RulesInputError("id", "a unit needs a name")
        if self.bases < 0:
            raise RulesInputError("bases", f"bases cannot be negative, got {self.bases}")

    @property
    def present(self) -> bool:
        return self.bases > 0

    @classmethod
    def of(cls, unit: UnitState) -> "DivisionUnit":
        return cls.standing(
            unit.id, unit.grade, unit.bases, unit.condition, unit.kind, unit.forced_move, in_play=not unit.out_of_play
        )

    @classmethod
    def standing(
        cls,
        id: str,
        grade: Grade,
        bases: int,
        condition: Condition,
        kind: UnitKind,
        moved: ForcedMove | None,
        *,
        in_play: bool,
    ) -> "DivisionUnit":
        """A unit as the test sees it: one out of play has no bases left but keeps its last condition."""
        return cls(id, grade, bases if in_play else 0, condition, kind, moved)


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
        value: int
        value, use = chart.entry("division_panic_modifiers", "unshaken")
        modifiers.append(Modifier("rolling division is unshaken", value, "6.3"))
        cells.append(use)
    demoralized = sum(1 for unit in units if unit.condition is Condition.DEMORALIZED)
    if demoralized:
        each: int
        each, use = chart.entry("division_panic_modifiers", "each_demoralized_unit")
        # the modifier's value is the total for them all; its words say the count and the chart's value for each
        units_present = "units" if demoralized > 1 else "unit"
        label = f"demoralized {units_present} present ({demoralized} × {each})"
        modifiers.append(Modifier(label, each * demoralized, "6.3"))
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
    abandoned: bool = False
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
    cells: tuple[CellUse, ...]
    if unit.already_moved is not None and unit.already_moved.severity >= move.severity:
        made, distance, cells = None, 0.0, ()
        instruction = f"Already made a {unit.already_moved.title} this turn: no further move (6.1)"
    else:
        forced = resolve_forced_move(
            chart, ForcedMoveInput(move, horse=unit.kind.horse, scale=scale, already_moved=unit.already_moved)
        )
        made, distance, cells, instruction = move, forced.distance, forced.cells, forced.instruction
        notes.extend(forced.notes)
    abandoned, battery_notes, battery_cells = battery_fate(chart, unit.kind, made)
    notes.extend(battery_notes)
    m_hits, condition = 0, unit.condition
    if move is ForcedMove.ROUT:
        morale = apply_morale_hits(unit.condition.m_hits, 1, MoraleCause.DIVISION_ROUT)
        m_hits, condition = morale.m_after - morale.m_before, morale.condition_after
        notes.append(
            "1M at the end of the division's rout (6.1)"
            if m_hits
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
        abandoned=abandoned,
        notes=tuple(notes),
    )
    return outcome, (*cells, *battery_cells)


class _CommonFields(TypedDict):
    """The fields of a DivisionPanicResult that a held and a panicked division share."""

    average_grade: Grade
    unshaken: bool
    pass_number: int
    rolls: tuple[TriggerRoll, ...]
    trigger: PanicTrigger
    modified_roll: int
    held: bool


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
    the loss number's bases desert, a rout gives each unit 1M, and the division's orders reset to Defend once the
    panic phase ends (``panic_phase.orders_after_panic_phase``).
    With both triggers at once, one roll each and the worse stands (6.2). The loss conditions hold when the
    division retreats or routs out of town, across a bridge or ford, or away from an assault in its rear;
    each adds its +1B once to the division's loss number (6.3)."""
    check_units(units)
    if not rolls:
        raise RulesInputError("rolls", "a panic test needs a roll")
    grade = average_grade(units)
    pass_number: int
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
    common: _CommonFields = {
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
            **common,
            move=None,
            loss_number=0,
            deserters=0,
            units=(),
            orders_reset_to_defend=False,
            modifiers=die_modifiers,
            cells=tuple(cells),
            notes=tuple(notes),
        )
    result: PanicCell
    result, index_cell = chart.cell("panic_index", grade.value, "p4")
    cells.append(index_cell)
    loss_mods, loss_cells = loss_modifiers(
        chart,
        result.move,
        out_of_town=out_of_town,
        across_bridge_or_ford=across_bridge_or_ford,
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
        notes=(*notes, "its orders are reset to Defend when the panic phase ends (6.1)"),
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

    def __post_init__(self) -> None:
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
        chart,
        inputs.units,
        inputs.rolls,
        inputs.scale,
        out_of_town=inputs.out_of_town,
        across_bridge_or_ford=inputs.across_bridge_or_ford,
        away_from_rear_assault=inputs.away_from_rear_assault,
    )


def after_division_panic(unit: UnitState, outcome: UnitPanicOutcome) -> UnitState:
    """A unit of a division that panicked, after its move, its deserters and a rout's M (6.1)."""
    after = after_move(after_bases_lost(unit, outcome.deserters), outcome.move, abandoned=outcome.abandoned)
    return with_morale(after, outcome.condition_after.m_hits)


MECHANICS = (
    Mechanic(
        "division_panic_test",
        "6.1, 6.3",
        "A division's panic test: units (grade, bases, condition), internal and/or adjoining roll",
        DivisionPanicInput,
        resolve_division_panic,
    ),
)
