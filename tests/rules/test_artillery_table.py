"""The Artillery table (4.2-4.6): each row and column in order, the range brackets, the drift bands, and the
column and die modifiers as the rules state them."""

from itertools import pairwise

import pytest

from republic.charts import shipped_chart
from republic.rules.artillery import COLUMNS, RANGE_COLUMNS, SHIFT_COLUMNS
from republic.rules.hits import Hits
from republic.rules.troops import BatteryType
from tests.rules.artillery_cells import at_least, cell

TYPES = [b.value for b in BatteryType]
LIMITS = {name: shipped_chart().entry("artillery_ranges", name)[0] for name in RANGE_COLUMNS}


# --- the Artillery table -----------------------------------------------------------------------------


@pytest.mark.parametrize("battery", TYPES)
def test_each_row_never_weakens_to_the_left(chart, battery):
    row = [cell(chart, battery, c) for c in COLUMNS]
    for closer, farther in pairwise(row):
        assert at_least(closer, farther), (battery, row)


@pytest.mark.parametrize("battery", TYPES)
def test_nulls_only_end_a_row_and_never_fall_left_of_two_inches(chart, battery):
    row = [cell(chart, battery, c) for c in COLUMNS]
    reach = [v is not None for v in row]
    assert reach == sorted(reach, reverse=True)
    assert all(cell(chart, battery, c) is not None for c in (*SHIFT_COLUMNS, "r1"))


@pytest.mark.parametrize("column", COLUMNS)
@pytest.mark.parametrize(("heavier", "lighter"), [("h_rifle", "m_rifle"), ("m_sb", "l_sb")])
def test_heavier_guns_of_a_kind_never_do_worse(chart, column, heavier, lighter):
    assert at_least(cell(chart, heavier, column), cell(chart, lighter, column))


@pytest.mark.parametrize("column", [*SHIFT_COLUMNS, "r1", "r2", "r3"])
def test_smoothbores_are_at_least_as_strong_as_rifles_of_their_weight_close_in(chart, column):
    assert at_least(cell(chart, "m_sb", column), cell(chart, "m_rifle", column))


@pytest.mark.parametrize("column", [name for name in RANGE_COLUMNS if LIMITS[name] >= 10])
def test_rifles_are_at_least_as_strong_as_smoothbores_of_their_weight_far_out(chart, column):
    assert at_least(cell(chart, "m_rifle", column), cell(chart, "m_sb", column))


def test_rifles_reach_further_than_smoothbores_and_heavier_further_than_lighter(chart):
    def reach(battery):
        return max(LIMITS[c] for c in RANGE_COLUMNS if cell(chart, battery, c) is not None)

    assert reach("h_rifle") > reach("m_rifle") > reach("m_sb") > reach("l_sb")


def test_the_range_brackets_include_the_known_ones():
    """2" and 4" are the first two brackets (R:1099-1101); 8" and 10" are brackets (R:1056-1060)."""
    limits = list(LIMITS.values())
    assert limits[:2] == [2, 4]
    assert 8 in limits and 10 in limits
    assert limits == sorted(set(limits))


def test_a_basic_result_of_2m_exists(chart):
    assert any(cell(chart, b, c) == Hits(m=2) for b in TYPES for c in RANGE_COLUMNS)


def test_shifts_can_reach_4m_and_3b(chart):
    """The tandem example (R:1255-1262) has a main target taking 4M and 3B."""
    assert any(at_least(cell(chart, b, COLUMNS[0]), Hits(m=4, b=3)) for b in TYPES)


# --- drift and modifiers -----------------------------------------------------------------------------

DRIFT = {10: -2, 9: -1, 8: 0, 5: 0, 3: 0, 2: 1, 1: 2}


@pytest.mark.parametrize("modified", range(-15, 25))
def test_every_modified_roll_lands_in_exactly_one_drift_band(chart, modified):
    bands = chart.tables["artillery_drift"].bands
    assert sum(band.holds(modified) for band in bands) == 1


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("deep_target", -1),
        ("square", -1),
        ("saved_fire", -1),
        ("joint_fire_per_base", -1),
        ("moving_cavalry", 1),
        ("medium_cover", 1),
        ("heavy_cover", 2),
    ],
)
def test_range_column_modifiers_are_the_rules(chart, key, value):
    assert chart.entry("artillery_column_modifiers", key)[0] == value


@pytest.mark.parametrize(
    ("key", "value"),
    [("enfilade", 3), ("battery_hit", -1), ("packed_skirmishers", -2), ("open_order", -2), ("passing_fire", -2)],
)
def test_die_modifiers_are_the_rules(chart, key, value):
    assert chart.entry("artillery_die_modifiers", key)[0] == value
