"""Every chart cell is a finite number in the span its table declares: NaN, infinities, booleans, fractions of a
whole number and numbers out of the table's span are refused naming the table, row and cell; so is a key a table
does not hold. A chart the engine fails on in any way contradicts the worked examples rather than raising."""

import copy
import math
from dataclasses import replace

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from republic.rules.catalog import TABLE_SPECS, load_chart
from republic.rules.chart import BandSpec, Cell, Chart, ChartError, GridSpec, KeyedSpec, Span, build_chart
from republic.rules.results import Provenance
from republic.rules.worked_examples import WORKED_EXAMPLES, contradictions
from tests.chart_files import BAD_CELLS, SHIPPED_TEXT, chart_text


def _places() -> list[tuple[str, str, str]]:
    """Every cell of every table whose cells are numbers, as (table, row, cell)."""
    places = []
    for spec in TABLE_SPECS:
        if isinstance(spec, GridSpec) and isinstance(spec.value, Span):
            places += [(spec.name, row, column) for row in spec.rows for column in spec.columns]
        elif isinstance(spec, KeyedSpec):
            places += [(spec.name, key, "") for key in spec.keys if isinstance(spec.value_of(key), Span)]
        elif isinstance(spec, BandSpec) and isinstance(spec.value, Span):
            bands = yaml.safe_load(SHIPPED_TEXT)["tables"][spec.name]["bands"]
            places += [(spec.name, f"band {n}", "value") for n in range(1, len(bands) + 1)]
    return places


NUMBER_CELLS = _places()
SHIPPED_DATA = yaml.safe_load(SHIPPED_TEXT)


def _with(place: tuple[str, str, str], value: object) -> Chart:
    """The shipped chart's data with one cell changed, checked as a file's data is (YAML reads .nan, .inf and
    -.inf as the floats they are)."""
    data = copy.deepcopy(SHIPPED_DATA)
    _set(data, place, value)
    return build_chart(data, TABLE_SPECS)


def _set(data: dict, place: tuple[str, str, str], value: object) -> None:
    table, row, column = place
    found = data["tables"][table]
    if row.startswith("band "):
        found["bands"][int(row.split()[1]) - 1].update(value=value, provenance="provisional")
    elif column:
        found["rows"][row][column] = {"value": value, "provenance": "provisional"}
    else:
        found["entries"][row] = {"value": value, "provenance": "provisional"}


def test_the_number_cells_cover_every_kind_of_numeric_table():
    assert {table for table, _, _ in NUMBER_CELLS} >= {"rally", "maneuver", "movement_box", "artillery_drift"}
    assert len(NUMBER_CELLS) > 150


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, True, "7", [7]], ids=repr)
def test_no_number_cell_takes_a_non_number_or_one_not_finite(value):
    for place in NUMBER_CELLS:
        with pytest.raises(ChartError) as err:
            _with(place, value)
        assert (err.value.table, err.value.row, err.value.cell) == place, place
        assert "expected " in err.value.problem, place


@pytest.mark.parametrize(("kind"), list(BAD_CELLS))
def test_each_kind_of_bad_cell_is_refused_naming_its_table_row_and_cell(kind):
    edit, place = BAD_CELLS[kind]
    with pytest.raises(ChartError) as err:
        load_chart(chart_text(edit))
    assert (err.value.table, err.value.row, err.value.cell) == place


def test_a_cell_out_of_its_span_says_the_span():
    with pytest.raises(ChartError, match=r"expected a 1D10 score, a whole number from 1 to 10, got 11"):
        load_chart(chart_text(BAD_CELLS["die-score-above-10"][0]))
    with pytest.raises(ChartError, match=r"expected a distance in inches, a number above 0 and at most 100, got inf"):
        load_chart(chart_text(BAD_CELLS["inf-range"][0]))


def test_a_key_a_table_does_not_hold_is_refused():
    with pytest.raises(ChartError, match="table 'rally': unexpected key 'colour'; a table holds provenance, note"):
        load_chart(chart_text(BAD_CELLS["unknown-key-in-a-table"][0]))


def test_a_key_a_band_does_not_hold_is_refused():
    def edit(data):
        data["tables"]["rally_losses"]["bands"][0]["colour"] = "red"

    with pytest.raises(ChartError, match="row 'band 1', cell 'value': unexpected key 'colour' in cell"):
        load_chart(chart_text(edit))


def test_a_span_that_allows_none_takes_null_and_its_ends(chart):
    assert chart.entry("skirmish_flee", "crack")[0] is None
    flee = next(s for s in TABLE_SPECS if s.name == "skirmish_flee")
    assert isinstance(flee, KeyedSpec) and flee.value(1) == 1 and flee.value(10) == 10


def test_a_chart_the_engine_fails_on_contradicts_the_examples_rather_than_raising(chart):
    """A chart not read from a file (a club chart kept before its cells were checked): an infinite range bracket
    makes the engine's arithmetic fail, which is a contradiction like any other."""
    ranges = chart.tables["artillery_ranges"]
    broken = Cell(math.inf, Provenance.PROVISIONAL, raw=math.inf)
    tables = {**chart.tables, "artillery_ranges": replace(ranges, cells={**ranges.cells, ("r10", ""): broken})}
    found = contradictions(replace(chart, tables=tables))
    assert found and all("cannot be worked out on this chart" in c.finding.found for c in found)


CELL_VALUES = (
    st.floats(allow_nan=True, allow_infinity=True)
    | st.integers(-(10**30), 10**30)
    | st.integers(-3, 40)
    | st.booleans()
    | st.none()
    | st.text(max_size=4)
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=st.sampled_from(NUMBER_CELLS), value=CELL_VALUES)
def test_any_cell_is_refused_or_every_worked_example_can_be_worked_out_on_the_chart(place, value):
    try:
        chart = _with(place, value)
    except ChartError as exc:
        assert exc.table == place[0]  # the cell, or its neighbour where the two are out of order
        return
    for example in WORKED_EXAMPLES:
        example.check(chart)  # holds or not, but never fails: a game on the chart reads the same cells
