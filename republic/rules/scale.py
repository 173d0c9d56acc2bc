"""Ground scale (1.2) and distances read against the chart.

The rules give distances for the medium (15mm) scale; a game at another scale multiplies every distance
by its scale ratio. Range brackets (artillery, skirmish fire) are chart tables of upper limits in inches at
the medium scale, so a club can set them from its printed chart.
"""

from enum import StrEnum

from republic.rules.chart import Chart, KeyedSpec, Span
from republic.rules.results import CellUse


class GroundScale(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"


_RATIO = Span("a scale ratio", 0, 10, above_low=True, whole=False)

TABLES = (KeyedSpec("ground_scale", "1.2", "Scale ratios", tuple(s.value for s in GroundScale), _RATIO),)


def scale_ratio(chart: Chart, scale: GroundScale) -> tuple[float, CellUse]:
    ratio: float
    ratio, use = chart.entry("ground_scale", scale.value)
    return ratio, use


def scaled(inches: float, ratio: float) -> float:
    """A distance in the game's scale, to the quarter inch a tape measure shows."""
    return round(inches * ratio * 4) / 4


def bracket(
    chart: Chart, table: str, keys: tuple[str, ...], distance: float, scale: GroundScale
) -> tuple[str | None, float, tuple[CellUse, ...]]:
    """The first bracket of a range table that holds a distance measured at the game's scale (None beyond
    the last), the last bracket's reach at that scale, and the cells read."""
    ratio, ratio_use = scale_ratio(chart, scale)
    reach: float
    reach, reach_use = chart.entry(table, keys[-1])
    for key in keys:
        limit: float
        limit, use = chart.entry(table, key)
        if distance <= scaled(limit, ratio):
            return key, scaled(reach, ratio), (ratio_use, use)
    return None, scaled(reach, ratio), (ratio_use, reach_use)


MECHANICS = ()
