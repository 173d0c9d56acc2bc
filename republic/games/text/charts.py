"""Words about a chart as a whole: where a cell is, why a chart file is refused, which worked example it
contradicts."""

from republic.games.text.terms import cell, chart_key
from republic.rules.catalog import TABLE_SPECS
from republic.rules.chart import ChartError
from republic.rules.worked_examples import Contradiction

_SPECS = {spec.name: spec for spec in TABLE_SPECS}


def table_title(name: str) -> str:
    """'Panic Index (5.5, 6.1)'; a table no mechanic reads keeps the name it was given."""
    spec = _SPECS.get(name)
    return f"{spec.title} ({spec.section})" if spec else name


def chart_problem(exc: ChartError) -> str:
    """A refused chart file in the words of the chart: 'Rally Table (2.3), row Green, cell Rattled: expected a
    whole number, got 'x'', with where it sits in the file for the one who edits it."""
    where = [table_title(exc.table)] if exc.table else []
    if exc.row:
        where.append(f"row {chart_key(exc.row)}")
    if exc.cell:
        where.append(f"cell {chart_key(exc.cell)}")
    path = " › ".join(part for part in (exc.table, exc.row, exc.cell) if part)
    in_file = f" (in the file: {path})" if path else ""
    return f"{', '.join(where)}{in_file}: {exc.problem}" if where else f"The chart file: {exc.problem}"


def contradiction(found: Contradiction) -> str:
    """'Worked example T18 (R:1714-1719): a veteran unit takes 2 panic hits; the rules: it withdraws, with no
    bases lost; this chart: retreat, 0 taken prisoner. It rests on Panic Index: Veteran, Panic 2 = Re.'"""
    cells = "; ".join(cell(use) for use in found.finding.cells)
    return found.sentence() + (f" It rests on {cells}." if cells else "")
