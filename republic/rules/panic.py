"""A unit's panic (4.7, 5.5, 6.3): the Panic Index, panic responses and the demoralized panic test.

The Panic Index is one table read two ways: a unit's panic level (P1-P4) and grade give a forced move
and a loss number (bases taken prisoner in an assault, deserters in a panic test), and its Panic 4
section gives each grade's pass number for the division panic test (division_panic.py). The
demoralized panic test (4.7) is the panic move of a demoralized unit whose excess M from fire became
P hits.

Reading chosen where the text is open: Group Surrender (5.5, R:1673-1678) reaches the demoralized panic
test. Its moves are "involuntary movements as a result of panic hits", and R:1318 treats them "as with other
panic hits suffered outside of the assault phase", changing only what becomes of the bases lost (deserters,
not prisoners). Group Surrender is a rule of panic hit movement, not of the assault table: "a unit which is
unable to execute its panic hit movement without passing through an enemy formation" surrenders. As in an
assault (assault_results), Republic has no Elite grade, so every such unit surrenders.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from republic.rules.chart import Chart, GridSpec, KeyedSpec, Span
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import (
    BatteryAction,
    ForcedMove,
    ForcedMoveInput,
    battery_response,
    resolve_forced_move,
)
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, total
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind
from republic.rules.units import UnitState, after_bases_lost, after_move, after_p4_event, after_surrender

PANIC_LEVELS = ("p1", "p2", "p3", "p4")
MAX_PANIC_LEVEL = 4

LOSS_CONDITIONS = ("out_of_town", "across_bridge_or_ford", "away_from_rear_assault")

_RESULT = re.compile(r"^(D|W|F|Re|Rt)(?:\s+(\d+))?$")
_LOSS = Span("a loss number", 0, 20)  # bases lost: a brigade has fewer than 20


@dataclass(frozen=True)
class PanicCell:
    """A Panic Index cell: the forced move and the loss number to its right (0 when none is shown)."""

    move: ForcedMove
    loss: int = 0

    @classmethod
    def parse(cls, raw: object) -> "PanicCell":
        match = _RESULT.match(str(raw).strip()) if isinstance(raw, str) else None
        if not match:
            raise ValueError(f"a panic result is D, W, F, Re or Rt with an optional loss number, got {raw!r}")
        return cls(ForcedMove(match[1]), _LOSS(int(match[2] or 0)))

    def __str__(self) -> str:
        return f"{self.move.value} {self.loss}" if self.loss else self.move.value


TABLES = (
    GridSpec("panic_index", "5.5, 6.1", "Panic Index", tuple(g.value for g in Grade), PANIC_LEVELS, PanicCell.parse),
    KeyedSpec(
        "panic_loss_modifiers",
        "6.3",
        "Panic base hit modifiers (retreat or rout)",
        LOSS_CONDITIONS,
        Span("a number of bases added to the loss", 0, 10),  # each adds "+1B" (R:1895-1899): never takes away
    ),
)


def panic_level_read(panic_hits: int) -> int:
    """The Panic Index column for a number of P hits. Levels run 1-4; more P hits than four are read as
    Panic 4 (the index has no column beyond it)."""
    if panic_hits < 1:
        raise RulesInputError("panic_hits", f"a panic response needs at least 1 P hit, got {panic_hits}")
    return min(panic_hits, MAX_PANIC_LEVEL)


def panic_response(chart: Chart, grade: Grade, panic_hits: int) -> tuple[PanicCell, CellUse]:
    level = panic_level_read(panic_hits)
    cell: PanicCell
    cell, use = chart.cell("panic_index", grade.value, f"p{level}")
    return cell, use


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
            value: int
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


# --- a battery's forced move (5.5) ----------------------------------------------------------------


def battery_fate(chart: Chart, kind: UnitKind, move: ForcedMove | None) -> tuple[bool, list[str], list[CellUse]]:
    """Whether a panic move abandons a battery, as the chart's battery forced moves say (5.5), with the
    note for the table. Outside an assault, limbering to retreat is the battery's choice: a note only."""
    if kind is not UnitKind.ARTILLERY or move is None:
        return False, [], []
    response, use = battery_response(chart, move)
    if response.action is BatteryAction.ABANDONED:
        return True, [f"a battery required to {move.title} is abandoned (5.5)"], [use]
    if response.damage:
        return False, [f"a battery may limber to {move.title}, taking {response.damage} damage (5.5)"], [use]
    return False, [], []


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
    retreat_blocked: bool = False  # its panic move would pass through an enemy formation (5.5 Group Surrender)

    def __post_init__(self) -> None:
        panic_level_read(self.panic_hits)
        if self.bases < 1:
            raise RulesInputError("bases", f"only a unit with bases left takes the test, got {self.bases}")

    @classmethod
    def of(
        cls,
        unit: UnitState,
        scale: GroundScale = GroundScale.MEDIUM,
        *,
        out_of_town: bool = False,
        across_bridge_or_ford: bool = False,
        away_from_rear_assault: bool = False,
        retreat_blocked: bool = False,
    ) -> "DemoralizedPanicInput":
        """The test of a unit as it stands: its P hits of this turn are its excess M from fire (4.6)."""
        return cls(
            unit.grade,
            unit.p_hits_turn,
            unit.bases,
            unit.kind,
            scale,
            out_of_town=out_of_town,
            across_bridge_or_ford=across_bridge_or_ford,
            away_from_rear_assault=away_from_rear_assault,
            retreat_blocked=retreat_blocked,
        )


@dataclass(frozen=True)
class DemoralizedPanicResult(Explained):
    level: int
    move: ForcedMove
    distance: float
    instruction: str
    deserters: int
    bases_after: int
    p4_event: bool
    abandoned: bool
    surrendered: bool = False  # its panic move was blocked by the enemy: every base is taken (5.5)


def resolve_demoralized_panic(chart: Chart, inputs: DemoralizedPanicInput) -> DemoralizedPanicResult:
    """The panic move of a demoralized unit after fire (4.7): its Panic Index response. Lost bases desert
    and are removed at once. The text names the Panic 4 event; the engine treats a loss number at any
    level the same way, since outside an assault no enemy takes prisoners. No division test follows now;
    a P4 event still makes the division test for internal panic in the panic phase (6.1 counts P4 events
    "during the course of the player turn")."""
    response = resolve_panic(
        chart,
        PanicInput(
            inputs.grade,
            inputs.panic_hits,
            out_of_town=inputs.out_of_town,
            across_bridge_or_ford=inputs.across_bridge_or_ford,
            away_from_rear_assault=inputs.away_from_rear_assault,
        ),
    )
    forced = resolve_forced_move(chart, ForcedMoveInput(response.move, horse=inputs.kind.horse, scale=inputs.scale))
    p4 = response.level == MAX_PANIC_LEVEL
    if inputs.retreat_blocked:
        notes = [
            *response.notes,
            f"its {response.move.title} is blocked by the enemy: it surrenders, all {inputs.bases} base"
            f"{'s' if inputs.bases > 1 else ''} taken (5.5 Group Surrender)",
        ]
        if p4:
            notes.append("this P4 event makes the division test for internal panic in the panic phase (6.1)")
        return DemoralizedPanicResult(
            level=response.level,
            move=response.move,
            distance=0,
            instruction=f"surrenders: its {response.move.title} would pass through an enemy formation",
            deserters=0,
            bases_after=0,
            p4_event=p4,
            abandoned=inputs.kind is UnitKind.ARTILLERY,
            surrendered=True,
            modifiers=response.modifiers,
            cells=(*response.cells, *forced.cells),
            notes=tuple(notes),
        )
    deserters = min(response.loss, inputs.bases)
    abandoned, battery_notes, battery_cells = battery_fate(chart, inputs.kind, response.move)
    notes = [*response.notes, *battery_notes]
    if response.move is ForcedMove.ROUT:
        notes.append("routing leaves a demoralized unit demoralized, with no further hit (5.5)")
    if deserters:
        notes.append(f"{deserters} base{'s' if deserters > 1 else ''} desert and are removed at once (4.7)")
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
        abandoned=abandoned,
        modifiers=response.modifiers,
        cells=(*response.cells, *forced.cells, *battery_cells),
        notes=tuple(notes),
    )


def after_demoralized_panic(unit: UnitState, result: DemoralizedPanicResult) -> UnitState:
    """The unit after its panic move: deserters gone at once, the move remembered, a Panic 4 event marked; or
    taken whole when its move was blocked by the enemy."""
    if result.surrendered:
        after = after_surrender(unit)
    else:
        after = after_move(after_bases_lost(unit, result.deserters), result.move, abandoned=result.abandoned)
    return after_p4_event(after) if result.p4_event else after


MECHANICS = (
    Mechanic("panic", "5.5", "Panic Index: forced move and loss number for a unit's P hits", PanicInput, resolve_panic),
    Mechanic(
        "demoralized_panic_test",
        "4.7",
        "Panic move of a demoralized unit whose excess M from fire became P: grade, P hits, bases",
        DemoralizedPanicInput,
        resolve_demoralized_panic,
    ),
)
