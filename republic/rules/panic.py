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
from republic.rules.results import CellUse, Explained, Mechanic
from republic.rules.troops import Grade

PANIC_LEVELS = ("p1", "p2", "p3", "p4")
MAX_PANIC_LEVEL = 4

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


@dataclass(frozen=True)
class PanicResult(Explained):
    level: int
    move: ForcedMove
    loss: int


def resolve_panic(chart: Chart, inputs: PanicInput) -> PanicResult:
    cell, use = panic_response(chart, inputs.grade, inputs.panic_hits)
    level = panic_level_read(inputs.panic_hits)
    notes = []
    if inputs.panic_hits > MAX_PANIC_LEVEL:
        notes.append(f"{inputs.panic_hits} P hits are read as Panic 4")
    return PanicResult(level=level, move=cell.move, loss=cell.loss, cells=(use,), notes=tuple(notes))


MECHANICS = (
    Mechanic("panic", "5.5", "Panic Index: forced move and loss number for a unit's P hits", PanicInput,
             resolve_panic),
)
