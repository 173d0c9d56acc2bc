"""The rules' worked examples that pin chart cells (republic/rules/worked_examples.py): each holds on the shipped
chart, each is broken by changing a cell it pins and names that cell, and a chart is compared cell by cell with
another (what a club's chart changes)."""

import pytest

from republic.rules.catalog import load_chart
from republic.rules.chart_compare import Difference, differences
from republic.rules.worked_examples import EXAMPLES_BY_KEY, WORKED_EXAMPLES, contradictions
from tests.chart_files import BREAKS, SHIPPED_TEXT, band, cell, chart_text

KEYS = [example.key for example in WORKED_EXAMPLES]


@pytest.mark.parametrize("key", KEYS)
def test_each_worked_example_holds_on_the_shipped_chart(chart, key):
    finding = EXAMPLES_BY_KEY[key].on(chart)
    assert finding.holds, finding.found
    assert finding.cells, "an example here pins at least one cell"


def test_the_shipped_chart_contradicts_no_worked_example(chart):
    assert contradictions(chart) == ()


def test_every_example_has_a_cell_change_that_breaks_it():
    assert sorted(BREAKS) == sorted(KEYS)


@pytest.mark.parametrize("key", KEYS)
def test_changing_a_cell_an_example_pins_contradicts_it_and_names_the_cell(key):
    edit, (table, place) = BREAKS[key]
    found = {c.example.key: c.finding for c in contradictions(load_chart(chart_text(edit)))}
    assert key in found
    assert (table, place) in {(use.table, use.key) for use in found[key].cells}
    assert not found[key].holds and found[key].found


@pytest.mark.parametrize(("unformed", "broken"), [(12, ["T3"]), (13, []), (14, []), (15, ["T2"])])
def test_example_one_holds_green_unformed_to_thirteen_or_fourteen(unformed, broken):
    """T2 and T3 (R:540-547): 14 (the sum) reaches Unformed, 12 does not; the text's own 13 is one of the two."""
    chart = load_chart(chart_text(cell("rally", "green", "unformed", unformed)))
    assert [c.example.key for c in contradictions(chart)] == broken


def test_an_average_rout_at_another_panic_level_still_holds_example_twenty():
    """T20 (R:1891-1895) does not say at which level the average rout stands: a rout at Panic 3 with loss 1 is
    as good as the shipped Panic 4."""
    chart = load_chart(chart_text(cell("panic_index", "average", "p3", "Rt 1")))
    assert contradictions(chart) == ()


def test_an_average_line_without_a_rout_contradicts_example_twenty():
    chart = load_chart(chart_text(cell("panic_index", "average", "p4", "Re 1")))
    (found,) = contradictions(chart)
    assert found.example.key == "T20" and "no rout" in found.finding.found


# --- comparing two charts -------------------------------------------------------------------------------


def test_a_chart_has_no_difference_from_itself(chart):
    assert differences(chart, chart) == ()
    assert differences(load_chart(SHIPPED_TEXT), chart) == ()


def test_a_changed_grid_cell_and_keyed_entry_are_each_one_difference_with_the_other_value(chart):
    club = load_chart(chart_text(cell("rally", "average", "rattled", 12), cell("panic_pass", "green", "", 8)))
    assert set(differences(club, chart)) == {
        Difference("panic_pass", "green", "", "7"),
        Difference("rally", "average", "rattled", "10"),
    }


def test_the_same_value_written_otherwise_is_no_difference(chart):
    assert differences(load_chart(chart_text(cell("panic_index", "green", "p3", "Re  1"))), chart) == ()


def test_a_changed_band_shows_the_other_charts_value_over_its_numbers(chart):
    club = load_chart(chart_text(band("assault_pitched_battle", 6, "defender 3P 1B")))
    (found,) = differences(club, chart)
    assert (found.table, found.row, found.other) == ("assault_pitched_battle", "6", "defender 3P")
