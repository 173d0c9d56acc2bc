"""What every resolution returns besides its outcome: the modifiers it summed and the chart cells it read.

One shape for all mechanics, so the phone, the dashboard and the printed log can explain any result the
same way, and so any result can say whether it rests on a provisional chart cell.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast


class Provenance(StrEnum):
    CONFIRMED = "confirmed"  # the rules text states it
    DERIVED = "derived"  # a worked example of the rules pins it
    PROVISIONAL = "provisional"  # designed to fit every known value; replace with a printed chart
    PRINTED = "printed"  # read from the players' own printed chart at the table, for this one result


FILE_PROVENANCES = (Provenance.CONFIRMED, Provenance.DERIVED, Provenance.PROVISIONAL)
"""What a chart file may say of a cell; "printed" comes only from the table, one result at a time."""


@dataclass(frozen=True)
class Modifier:
    """One term of a sum: die points, or inches for movement (which can be fractional)."""

    label: str
    value: int | float
    section: str

    def __str__(self) -> str:
        return f"{self.value:+g} {self.label} ({self.section})"


@dataclass(frozen=True)
class CellUse:
    """One chart cell a result read."""

    table: str
    key: str
    value: str
    provenance: Provenance
    source: str = ""

    def __str__(self) -> str:
        return f"{self.table}[{self.key}] = {self.value} ({self.provenance})"


@dataclass(frozen=True, kw_only=True)
class Explained:
    """Base of every result: its reasons."""

    modifiers: tuple[Modifier, ...] = ()
    cells: tuple[CellUse, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def provisional(self) -> bool:
        return any(cell.provenance is Provenance.PROVISIONAL for cell in self.cells)

    @property
    def printed(self) -> bool:
        """A reading from the players' printed chart decided this result."""
        return any(cell.provenance is Provenance.PRINTED for cell in self.cells)

    @property
    def modifier_total(self) -> int | float:
        """Die points are whole numbers; movement's inches can be fractional (battery damage)."""
        return sum(m.value for m in self.modifiers)


def total(modifiers: Iterable[Modifier]) -> int:
    """The sum of die-point modifiers, which are whole numbers (movement sums its inches itself)."""
    # Modifier.value is int | float only for movement's inches, which never come here: every caller adds die points.
    return cast(int, sum(m.value for m in modifiers))


def present(*candidates: Modifier | None) -> tuple[Modifier, ...]:
    """The modifiers that apply: drops the ones a condition switched off (None) and the zero ones."""
    return tuple(m for m in candidates if m is not None and m.value != 0)


@dataclass(frozen=True)
class Mechanic:
    """One resolvable mechanic, as offered to scripts and the table: name, rule section, inputs, function."""

    name: str
    section: str
    summary: str
    inputs: type
    resolve: Callable[[Any, Any], Explained]
