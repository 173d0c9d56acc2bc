"""Panic (4.7, 5.5, 6): the Panic Index, panic responses and divisional panic tests.

The Panic Index is one table read two ways: a unit's panic level (P1-P4) and grade give a forced move
and a loss number (bases taken prisoner in an assault, deserters in a panic test), and the Panic 4
section gives each grade's pass number for the division panic test.
"""

import re
from dataclasses import dataclass

from republic.rules.chart import Chart, GridSpec, KeyedSpec, integer
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, total
from republic.rules.troops import Grade

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


MECHANICS = (
    Mechanic("panic", "5.5", "Panic Index: forced move and loss number for a unit's P hits", PanicInput,
             resolve_panic),
)
