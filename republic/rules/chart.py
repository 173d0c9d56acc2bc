"""The combat chart as data: tables of cells, each cell with its provenance.

A chart file (YAML, one file per chart version) is parsed here and checked against the specs that the
mechanics declare for the tables they read. Three shapes of table exist:

- grid: named rows x named columns (rally: grade x condition);
- keyed: named entries (natural-roll points per grade);
- bands: integer ranges -> value, covering every integer exactly once (assault difference -> result).

A cell is written either as a plain value, taking the table's default provenance, or as a mapping
``{value: ..., provenance: confirmed|derived|provisional, source: "R:540-550", note: "why"}``.
Each table's spec declares what its cells hold; a number is checked against the Span its table declares (a 1D10
score, a distance, a die modifier, ...), so what a cell may be is data beside the table, not a test in the code
that reads it. A table holds no key but its own. Any problem is a ChartError that names the table, row and cell,
so a club editing its own chart file can find the mistake.
"""

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

import yaml

from republic.rules.results import FILE_PROVENANCES, CellUse, Provenance

ValueType = Callable[[object], Any]
"""Turns a raw cell value into an engine value, raising ValueError with a readable message."""


class ChartError(ValueError):
    def __init__(self, problem: str, table: str = "", row: str = "", cell: str = ""):
        self.table, self.row, self.cell, self.problem = table, row, cell, problem
        where = []
        if table:
            where.append(f"table '{table}'")
        if row:
            where.append(f"row '{row}'")
        if cell:
            where.append(f"cell '{cell}'")
        super().__init__(f"chart {', '.join(where)}: {problem}" if where else f"chart: {problem}")


# --- value types shared by many tables -------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """The numbers a table's cells may hold, declared with the table: what such a number is (for the refusal),
    its least and greatest value, whether the least itself is allowed (a distance is above 0, not 0), whether
    it is a whole number, and whether a cell may be empty (null) where the chart prints no entry. A cell that
    is not a finite number in its span is refused, so nothing the engine reads can be NaN, infinite, or a
    number no table of the rules could print."""

    what: str
    low: int | float
    high: int | float
    above_low: bool = False
    whole: bool = True
    blank: bool = False

    def __call__(self, raw: object) -> Any:
        if raw is None and self.blank:
            return None
        refused = ValueError(f"expected {self.what}, {self.words()}, got {raw!r}")
        if isinstance(raw, bool) or not isinstance(raw, int | float) or (self.whole and isinstance(raw, float)):
            raise refused
        if isinstance(raw, float) and not math.isfinite(raw):  # NaN compares false with every bound
            raise refused
        if raw < self.low or (self.above_low and raw == self.low) or raw > self.high:
            raise refused
        return raw if self.whole else float(raw)

    def words(self) -> str:
        """'a whole number from 1 to 10', 'a number above 0 and at most 100', '... or null'."""
        kind = "a whole number" if self.whole else "a number"
        span = (
            f"above {self.low:g} and at most {self.high:g}" if self.above_low else f"from {self.low:g} to {self.high:g}"
        )
        return f"{kind} {span}" + (" or null" if self.blank else "")


D10_SCORE = Span("a 1D10 score", 1, 10)
"""The number a 1D10 roll is compared with: the faces run 1 to 10."""

DIE_MODIFIER = Span("a die roll modifier", -10, 10)
"""A modifier to a 1D10 roll (negative ones subtract): one beyond the die's own span would decide every roll
alone, which no modifier of the rules does (the largest, an attack in the rear, is -7)."""

DISTANCE = Span("a distance in inches", 0, 100, above_low=True, whole=False)
"""Chart inches at the medium scale; 100" is beyond any table a club plays on."""


def one_of(*choices: str) -> ValueType:
    def parse(raw: object) -> str:
        if not isinstance(raw, str) or raw not in choices:  # only a str can equal one of the choices
            raise ValueError(f"expected one of {', '.join(choices)}, got {raw!r}")
        return raw

    return parse


# --- specs: what the code expects of each table ---------------------------------------------------


@dataclass(frozen=True)
class GridSpec:
    name: str
    section: str
    title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    value: ValueType


@dataclass(frozen=True)
class KeyedSpec:
    name: str
    section: str
    title: str
    keys: tuple[str, ...]
    value: ValueType
    increasing: bool = False  # values must rise in key order (range brackets)
    values: Mapping[str, ValueType] = field(default_factory=dict, hash=False)  # entries of another kind

    def value_of(self, key: str) -> ValueType:
        return self.values.get(key, self.value)


@dataclass(frozen=True)
class BandSpec:
    """Integer ranges that together cover every integer exactly once, best or highest first."""

    name: str
    section: str
    title: str
    value: ValueType


TableSpec = GridSpec | KeyedSpec | BandSpec


# --- loaded chart ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    value: Any
    provenance: Provenance
    source: str = ""
    note: str = ""
    raw: object = None

    def shown(self) -> str:
        return "—" if self.raw is None else str(self.raw)


@dataclass(frozen=True)
class Band:
    low: int | None  # None: no lower end
    high: int | None  # None: no upper end
    cell: Cell

    def holds(self, n: int) -> bool:
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)

    def label(self) -> str:
        if self.low is None and self.high is None:
            return "any number"
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low} or more"
        return str(self.low) if self.low == self.high else f"{self.low} to {self.high}"


@dataclass(frozen=True)
class ChartTable:
    spec: TableSpec
    cells: Mapping[tuple[str, str], Cell] = field(default_factory=dict)  # grid and keyed (column "")
    bands: tuple[Band, ...] = ()
    note: str = ""

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass(frozen=True)
class Chart:
    name: str
    version: str
    tables: Mapping[str, ChartTable]
    note: str = ""

    def _table(self, name: str) -> ChartTable:
        try:
            return self.tables[name]
        except KeyError:
            raise ChartError("this chart has no such table", table=name) from None

    def cell(self, table: str, row: str, column: str) -> tuple[Any, CellUse]:
        """A grid cell's value and the record of having read it."""
        found = self._table(table).cells.get((str(row), str(column)))
        if found is None:
            raise ChartError("no such cell", table=table, row=str(row), cell=str(column))
        return found.value, _use(table, f"{row}, {column}", found)

    def entry(self, table: str, key: str) -> tuple[Any, CellUse]:
        found = self._table(table).cells.get((str(key), ""))
        if found is None:
            raise ChartError("no such entry", table=table, row=str(key))
        return found.value, _use(table, str(key), found)

    def band(self, table: str, n: int) -> tuple[Any, CellUse]:
        """The value of the one band that holds n."""
        for band in self._table(table).bands:
            if band.holds(n):
                return band.cell.value, _use(table, band.label(), band.cell)
        raise ChartError(f"no band holds {n}", table=table)  # unreachable for a validated chart

    def overlay(self, readings: Mapping[str, object]) -> "Chart":
        """This chart with each named table reading, wherever it is looked up, the value the players read off
        their own printed chart for the result at hand. The engine then works out everything that follows
        from it exactly as from a stored cell, and every use of it says "printed". A value is written as in a
        chart file and checked the same way, so a bad one is refused naming its table."""
        tables = dict(self.tables)
        for name, raw in readings.items():
            table = self._table(name)
            try:
                value = table.spec.value(raw)
            except (ValueError, TypeError) as exc:
                raise ChartError(str(exc), table=name) from None
            cell = Cell(value, Provenance.PRINTED, PRINTED_SOURCE, raw=raw)
            if isinstance(table.spec, BandSpec):
                tables[name] = replace(table, bands=(Band(None, None, cell),))
            else:
                tables[name] = replace(table, cells=dict.fromkeys(table.cells, cell))
        return replace(self, tables=tables)


PRINTED_SOURCE = "the players' printed chart"


def _use(table: str, key: str, cell: Cell) -> CellUse:
    return CellUse(table=table, key=key, value=cell.shown(), provenance=cell.provenance, source=cell.source)


# --- parsing and validation ------------------------------------------------------------------------


def parse_chart(text: str, specs: tuple[TableSpec, ...]) -> Chart:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ChartError(f"not readable YAML{where}: {getattr(exc, 'problem', exc)}") from None
    return build_chart(data, specs)


def build_chart(data: object, specs: tuple[TableSpec, ...]) -> Chart:
    if not isinstance(data, dict):
        raise ChartError("a chart file is a mapping with 'name', 'version' and 'tables'")
    for key in ("name", "version"):
        if not isinstance(data.get(key), str | int | float) or not str(data.get(key)).strip():
            raise ChartError(f"'{key}' is missing")
    raw_tables = data.get("tables")
    if not isinstance(raw_tables, dict):
        raise ChartError("'tables' is missing or not a mapping")
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(raw_tables) - set(known))
    if unknown:
        raise ChartError("no mechanic reads this table; check its name", table=str(unknown[0]))
    missing = [name for name in known if name not in raw_tables]
    if missing:
        raise ChartError("the table is missing", table=missing[0])
    tables = {name: _build_table(spec, raw_tables[name]) for name, spec in known.items()}
    return Chart(name=str(data["name"]), version=str(data["version"]), tables=tables, note=str(data.get("note", "")))


_TABLE_KEYS = {GridSpec: "rows", KeyedSpec: "entries", BandSpec: "bands"}


def _build_table(spec: TableSpec, raw: object) -> ChartTable:
    if not isinstance(raw, dict):
        raise ChartError("a table is a mapping", table=spec.name)
    allowed = ("provenance", "note", _TABLE_KEYS[type(spec)])
    extra = [key for key in raw if key not in allowed]
    if extra:
        raise ChartError(f"unexpected key '{extra[0]}'; a table holds {', '.join(allowed)}", table=spec.name)
    default = raw.get("provenance")
    if default is not None:
        default = _provenance(default, spec.name, "", "")
    note = str(raw.get("note", ""))
    if isinstance(spec, GridSpec):
        return ChartTable(spec, cells=_grid_cells(spec, raw, default), note=note)
    if isinstance(spec, KeyedSpec):
        return ChartTable(spec, cells=_keyed_cells(spec, raw, default), note=note)
    return ChartTable(spec, bands=_bands(spec, raw, default), note=note)


def _grid_cells(
    spec: GridSpec, raw: Mapping[object, object], default: Provenance | None
) -> dict[tuple[str, str], Cell]:
    rows = raw.get("rows")
    if not isinstance(rows, dict):
        raise ChartError("a grid table needs 'rows'", table=spec.name)
    _same_names(spec.name, "row", spec.rows, rows, "")
    cells = {}
    for row in spec.rows:
        columns = rows[row]
        if not isinstance(columns, dict):
            raise ChartError("a row is a mapping of columns", table=spec.name, row=row)
        _same_names(spec.name, "cell", spec.columns, columns, row)
        for column in spec.columns:
            cells[(row, column)] = _cell(spec.value, spec.name, columns[column], default, row, column)
    return cells


def _keyed_cells(
    spec: KeyedSpec, raw: Mapping[object, object], default: Provenance | None
) -> dict[tuple[str, str], Cell]:
    entries = raw.get("entries")
    if not isinstance(entries, dict):
        raise ChartError("a keyed table needs 'entries'", table=spec.name)
    _same_names(spec.name, "row", spec.keys, entries, "")
    cells = {(key, ""): _cell(spec.value_of(key), spec.name, entries[key], default, key, "") for key in spec.keys}
    if spec.increasing:
        for lower, upper in pairwise(spec.keys):
            if not cells[(upper, "")].value > cells[(lower, "")].value:
                raise ChartError(
                    f"must be above '{lower}' ({cells[(lower, '')].raw}): the values rise in order",
                    table=spec.name,
                    row=upper,
                )
    return cells


def _bands(spec: BandSpec, raw: Mapping[object, object], default: Provenance | None) -> tuple[Band, ...]:
    items = raw.get("bands")
    if not isinstance(items, list) or not items:
        raise ChartError("a band table needs a list of 'bands'", table=spec.name)
    bands = []
    for index, item in enumerate(items, start=1):
        row = f"band {index}"
        if not isinstance(item, dict) or "value" not in item:
            raise ChartError("a band is a mapping with 'from', 'to' and 'value'", table=spec.name, row=row)
        low, high = item.get("from"), item.get("to")
        for end, name in ((low, "from"), (high, "to")):
            if end is not None and (isinstance(end, bool) or not isinstance(end, int)):
                raise ChartError(f"'{name}' must be a whole number or null, got {end!r}", table=spec.name, row=row)
        if low is not None and high is not None and low > high:
            raise ChartError(f"'from' {low} is above 'to' {high}", table=spec.name, row=row)
        cell_raw = {k: v for k, v in item.items() if k not in ("from", "to")}
        cell = _cell(spec.value, spec.name, cell_raw, default, row, "value")
        bands.append(Band(low, high, cell))
    _check_coverage(spec.name, bands)
    return tuple(bands)


def _check_coverage(table: str, bands: list[Band]) -> None:
    """Bands run from the highest down, without gap or overlap, open at both ends."""
    if bands[0].high is not None:
        raise ChartError("the first band must be open upwards ('to: null')", table=table, row="band 1")
    if bands[-1].low is not None:
        raise ChartError("the last band must be open downwards ('from: null')", table=table, row=f"band {len(bands)}")
    for index, (upper, lower) in enumerate(pairwise(bands), start=1):
        if upper.low is None or lower.high is None or lower.high != upper.low - 1:
            raise ChartError(
                f"band {index + 1} must end at {upper.low - 1 if upper.low is not None else '?'} "
                f"so that every number lands in exactly one band",
                table=table,
                row=f"band {index + 1}",
            )


def _same_names(table: str, what: str, expected: tuple[str, ...], given: Mapping[object, object], row: str) -> None:
    for name in given:
        if name not in expected:
            where = {"row": "" if what == "row" else row}
            raise ChartError(f"unexpected {what} '{name}'; expected {', '.join(expected)}", table=table, **where)
    for name in expected:
        if name not in given:
            if what == "row":
                raise ChartError("the row is missing", table=table, row=name)
            raise ChartError("the cell is missing", table=table, row=row, cell=name)


def _cell(parse: ValueType, table: str, raw: object, default: Provenance | None, row: str, column: str) -> Cell:
    where = {"table": table, "row": row, "cell": column}
    if isinstance(raw, dict):
        if "value" not in raw:
            raise ChartError("a cell written as a mapping needs 'value'", **where)
        extra = set(raw) - {"value", "provenance", "source", "note"}
        if extra:
            raise ChartError(f"unexpected key '{sorted(extra)[0]}' in cell", **where)
        value, source, note = raw["value"], str(raw.get("source", "")), str(raw.get("note", ""))
        provenance = _provenance(raw["provenance"], **where) if "provenance" in raw else default
    else:
        value, source, note, provenance = raw, "", "", default
    if provenance is None:
        raise ChartError("no provenance: give the cell one or the table a default", **where)
    if provenance is not Provenance.PROVISIONAL and not source:
        raise ChartError(f"a {provenance} cell must name its source", **where)
    try:
        parsed = parse(value)
    except (ValueError, TypeError) as exc:
        raise ChartError(str(exc), **where) from None
    return Cell(value=parsed, provenance=provenance, source=source, note=note, raw=value)


def _provenance(raw: object, table: str, row: str, cell: str) -> Provenance:
    found = next((p for p in FILE_PROVENANCES if p.value == raw), None)
    if found is None:
        raise ChartError(
            f"provenance must be confirmed, derived or provisional, got {raw!r}", table=table, row=row, cell=cell
        )
    return found
