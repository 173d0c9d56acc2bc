"""The chart as data: the shipped file loads, every table is whole, and a broken file names its fault."""

import pytest
import yaml

from republic.charts import DEFAULT_CHART, chart_path
from republic.rules.catalog import TABLE_SPECS, load_chart
from republic.rules.chart import BandSpec, ChartError, GridSpec, KeyedSpec
from republic.rules.results import Provenance

SHIPPED = chart_path(DEFAULT_CHART).read_text(encoding="utf-8")
BAND_TABLES = [spec.name for spec in TABLE_SPECS if isinstance(spec, BandSpec)]


def test_the_shipped_chart_holds_every_table_the_mechanics_read(chart):
    assert set(chart.tables) == {spec.name for spec in TABLE_SPECS}
    assert chart.name == "Republic 1.0 (provisional)"


def test_every_cell_of_the_shipped_chart_has_a_provenance_and_non_provisional_ones_a_source(chart):
    for table in chart.tables.values():
        cells = [band.cell for band in table.bands] or list(table.cells.values())
        assert cells, table.name
        for cell in cells:
            assert cell.provenance in Provenance
            if cell.provenance is not Provenance.PROVISIONAL:
                assert cell.source, f"{table.name}: {cell.raw}"


def test_every_provisional_table_explains_its_design(chart):
    for table in chart.tables.values():
        cells = [band.cell for band in table.bands] or list(table.cells.values())
        if any(c.provenance is Provenance.PROVISIONAL for c in cells):
            assert table.note or all(c.note for c in cells if c.provenance is Provenance.PROVISIONAL), table.name


@pytest.mark.parametrize("table", BAND_TABLES)
def test_every_number_lands_in_exactly_one_band(chart, table):
    bands = chart.tables[table].bands
    for n in range(-60, 61):
        assert sum(band.holds(n) for band in bands) == 1, (table, n)


def broken(edit) -> str:
    data = yaml.safe_load(SHIPPED)
    edit(data["tables"])
    return yaml.safe_dump(data, sort_keys=False)


def first(kind):
    return next(spec for spec in TABLE_SPECS if isinstance(spec, kind))


def test_a_malformed_cell_is_refused_naming_table_row_and_cell():
    spec = first(GridSpec)
    row, column = spec.rows[0], spec.columns[-1]

    def edit(tables):
        tables[spec.name]["rows"][row][column] = {"value": [1, 2], "provenance": "provisional"}

    with pytest.raises(ChartError) as err:
        load_chart(broken(edit))
    assert (err.value.table, err.value.row, err.value.cell) == (spec.name, row, column)
    assert f"table '{spec.name}', row '{row}', cell '{column}'" in str(err.value)


def test_a_missing_table_is_named():
    spec = first(KeyedSpec)
    with pytest.raises(ChartError, match=f"table '{spec.name}': the table is missing"):
        load_chart(broken(lambda tables: tables.pop(spec.name)))


def test_an_unknown_table_is_named():
    with pytest.raises(ChartError, match="table 'volley_fire'"):
        load_chart(broken(lambda tables: tables.update(volley_fire={"entries": {}})))


def test_a_missing_row_and_a_missing_cell_are_named():
    spec = first(GridSpec)
    with pytest.raises(ChartError, match=f"row '{spec.rows[1]}': the row is missing"):
        load_chart(broken(lambda tables: tables[spec.name]["rows"].pop(spec.rows[1])))
    with pytest.raises(ChartError, match=f"row '{spec.rows[0]}', cell '{spec.columns[0]}': the cell is missing"):
        load_chart(broken(lambda tables: tables[spec.name]["rows"][spec.rows[0]].pop(spec.columns[0])))


def test_a_cell_with_an_unknown_provenance_is_refused():
    spec = first(KeyedSpec)
    key = spec.keys[0]

    def edit(tables):
        tables[spec.name]["entries"][key] = {"value": 1, "provenance": "guessed"}

    with pytest.raises(ChartError, match="provenance must be confirmed, derived or provisional"):
        load_chart(broken(edit))


def test_a_confirmed_cell_without_a_source_is_refused():
    spec = first(KeyedSpec)
    key = spec.keys[0]
    value = load_chart(SHIPPED).tables[spec.name].cells[(key, "")].raw

    def edit(tables):
        tables[spec.name]["entries"][key] = {"value": value, "provenance": "confirmed"}

    with pytest.raises(ChartError, match="must name its source"):
        load_chart(broken(edit))


@pytest.mark.parametrize("table", BAND_TABLES)
def test_a_gap_between_bands_is_refused(table):
    def edit(tables):
        bands = tables[table]["bands"]
        bands[1]["to"] = bands[1]["to"] - 1 if bands[1]["to"] is not None else None
        bands[1]["from"] = bands[1]["from"] - 1 if bands[1]["from"] is not None else None

    with pytest.raises(ChartError, match=f"table '{table}', row 'band"):
        load_chart(broken(edit))


def test_a_chart_that_is_not_yaml_says_where():
    with pytest.raises(ChartError, match="not readable YAML at line 2"):
        load_chart("name: x\n  bad: [\n")


def test_a_chart_without_a_name_is_refused():
    with pytest.raises(ChartError, match="'name' is missing"):
        load_chart("version: 1\ntables: {}\n")


def test_range_brackets_out_of_order_are_refused():
    def edit(tables):
        tables["artillery_ranges"]["entries"]["r6"] = 9

    with pytest.raises(ChartError, match="table 'artillery_ranges', row 'r6': must be above 'r5'"):
        load_chart(broken(edit))
