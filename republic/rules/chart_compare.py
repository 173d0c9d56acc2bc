"""Where one chart differs from another, cell by cell: what a club's chart changes of the shipped one.

Grid and keyed cells are compared by their place and their value as the engine reads it (so 'Rt 1' and
'Rt  1' are the same cell). A band table may cut its numbers into other bands: a band differs unless the other
chart has the same band with the same value, and what the other chart gives over that band's numbers is shown
beside it.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from republic.rules.chart import Band, Cell, Chart, ChartTable


@dataclass(frozen=True)
class Difference:
    """A cell of one chart that the other does not have as it is: where it is and what the other gives."""

    table: str
    row: str  # a grid's row, a keyed table's key, or a band's label
    column: str  # a grid's column; "" for a keyed table or a band
    other: str


def differences(chart: Chart, other: Chart) -> tuple[Difference, ...]:
    found: list[Difference] = []
    for name, table in chart.tables.items():
        theirs = other.tables.get(name)
        if theirs is None:
            continue
        if table.bands:
            found.extend(_band_differences(name, table.bands, theirs.bands))
        else:
            found.extend(_cell_differences(name, table, theirs.cells))
    return tuple(found)


def _cell_differences(name: str, table: ChartTable, theirs: Mapping[tuple[str, str], Cell]) -> list[Difference]:
    found = []
    for (row, column), cell in table.cells.items():
        other = theirs.get((row, column))
        if other is None or other.value != cell.value:
            found.append(Difference(name, row, column, other.shown() if other else "—"))
    return found


def _band_differences(name: str, bands: tuple[Band, ...], theirs: tuple[Band, ...]) -> list[Difference]:
    found = []
    for band in bands:
        same = any(o.low == band.low and o.high == band.high and o.cell.value == band.cell.value for o in theirs)
        if not same:
            over = [o for o in theirs if _overlap(band, o)]
            shown = "; ".join(f"{o.label()}: {o.cell.shown()}" for o in over) if len(over) > 1 else ""
            found.append(Difference(name, band.label(), "", shown or (over[0].cell.shown() if over else "—")))
    return found


def _overlap(one: Band, two: Band) -> bool:
    low_ok = one.high is None or two.low is None or two.low <= one.high
    high_ok = one.low is None or two.high is None or two.high >= one.low
    return low_ok and high_ok
