"""The report's charts as geometry the templates draw as SVG: a line a side over the turns (bases, batteries) and a
stacked bar a moment for one side's brigades by state. Everything is laid out in a fixed viewBox and scaled by the
page, so one drawing serves a 360 px phone and a printed page; the numbers are in a table beside each chart, and
each line or state is told by more than its colour (a marker's shape and a dashed line; a pattern, the stacking
order and a legend)."""

import math
from dataclasses import dataclass, replace

from republic.games.report.walk import Moment
from republic.games.text import report_words as said

WIDTH = 400
HEIGHT = 240
LEFT = 34  # room for the y axis' numbers
TOP = 14
LEGEND_TOP = 46  # a line chart names its lines above the plot, one row a side: a name at a line's end is cut short
BOTTOM = HEIGHT - 40  # the x axis; its labels and title below
MOST_X_LABELS = 10  # beyond this many moments, every other one (or fewer) is labelled: 360 px holds no more


@dataclass(frozen=True)
class Tick:
    x: float
    y: float
    text: str


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: int

    @property
    def corner(self) -> tuple[float, float]:
        """Where a square marker centred on the point starts."""
        return round(self.x - 4, 1), round(self.y - 4, 1)


# each side's line is told by its colour, its dash and its markers' shape together (dark enough on white to read)
SIDE_LOOKS = (("#8c2d19", "", "circle"), ("#1f3a5f", "7 4", "square"))


@dataclass(frozen=True)
class Series:
    name: str
    colour: str
    dash: str
    marker: str
    points: tuple[Point, ...]
    label_y: float
    legend_y: float

    @property
    def legend_marker(self) -> Point:
        return Point(LEFT + 13, self.legend_y - 4, 0)

    @property
    def path(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def last(self) -> Point:
        return self.points[-1]


@dataclass(frozen=True)
class LineChart:
    title: str
    y_title: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    right: float
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = LEGEND_TOP
    bottom: int = BOTTOM


@dataclass(frozen=True)
class Segment:
    state: str
    label: str
    y: float
    height: float
    count: int
    show_count: bool
    box_x: float = 0  # the white box the count is written in, so it reads over any colour and pattern
    box_width: float = 0

    @property
    def middle(self) -> float:
        return round(self.y + self.height / 2, 1)

    @property
    def box_y(self) -> float:
        return round(self.middle - 6.5, 1)


@dataclass(frozen=True)
class Bar:
    x: float
    width: float
    label_x: float
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class StackChart:
    title: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    bars: tuple[Bar, ...]
    right: float
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom: int = BOTTOM


def nice_top(value: int) -> tuple[int, int]:
    """The axis' top and its step: a round number at or above the largest value, in four or five steps."""
    if value <= 4:
        return max(value, 1), 1
    raw = value / 4
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    return step * math.ceil(value / step), step


def _y_ticks(top: int, step: int, plot_top: int = TOP) -> tuple[Tick, ...]:
    return tuple(Tick(LEFT - 4, _y(v, top, plot_top), str(v)) for v in range(0, top + 1, step))


def _y(value: float, top: int, plot_top: int = TOP) -> float:
    return round(BOTTOM - (BOTTOM - plot_top) * value / top, 1)


def _xs(count: int, right: float, pad: float) -> list[float]:
    """Where each moment stands, ``pad`` in from the plot's edges (a marker, half a bar)."""
    inner_left, inner_right = LEFT + pad, right - pad
    if count == 1:
        return [(inner_left + inner_right) / 2]
    return [inner_left + (inner_right - inner_left) * i / (count - 1) for i in range(count)]


def _x_ticks(moments: tuple[Moment, ...], xs: list[float]) -> tuple[Tick, ...]:
    every = math.ceil(len(moments) / MOST_X_LABELS)
    shown = [i for i in range(len(moments)) if i % every == 0 or i == len(moments) - 1]
    if len(shown) > 1 and shown[-1] - shown[-2] < every:
        del shown[-2]  # the last moment is always labelled; the one before it would touch it
    return tuple(Tick(round(xs[i], 1), BOTTOM + 16, moments[i].short) for i in shown)


def line_chart(title: str, y_title: str, sides: tuple[str, ...], moments: tuple[Moment, ...], field: str) -> LineChart:
    """Each side's ``field`` (bases, batteries) at every moment, a line a side, its last value at its end."""
    right = WIDTH - 34  # room for each line's last value
    values = [[getattr(m.sides[i], field) for m in moments] for i in range(len(sides))]
    top, step = nice_top(max((v for line in values for v in line), default=1))
    xs = _xs(len(moments), right, 10)
    series = []
    for i, name in enumerate(sides):
        points = tuple(Point(round(x, 1), _y(v, top, LEGEND_TOP), v) for x, v in zip(xs, values[i], strict=True))
        series.append(Series(name, *SIDE_LOOKS[i % 2], points, points[-1].y + 4, 14 + 16 * i))
    # the last values at the lines' ends are kept a line apart
    if len(series) == 2 and abs(series[0].label_y - series[1].label_y) < 14:
        upper, lower = sorted(series, key=lambda s: s.label_y)
        middle = (upper.label_y + lower.label_y) / 2
        series = [replace(s, label_y=round(middle - 7 if s is upper else middle + 7, 1)) for s in series]
    ticks = _y_ticks(top, step, LEGEND_TOP)
    return LineChart(title, y_title, _x_ticks(moments, xs), ticks, tuple(series), right)


def stack_chart(title: str, side: int, moments: tuple[Moment, ...]) -> StackChart:
    """One side's brigades at every moment, a bar each, stacked by state from Formed at the bottom."""
    right = WIDTH - 8
    totals = [sum(m.sides[side].brigades.values()) for m in moments]
    top, step = nice_top(max(totals, default=1))
    gap = (right - LEFT) / max(len(moments), 1)
    width = min(30.0, gap * 0.7)
    xs = _xs(len(moments), right, width / 2 + 6)
    bars = []
    for x, m in zip(xs, moments, strict=True):
        segments, below = [], 0
        for state in said.BRIGADE_STATES:
            count = m.sides[side].brigades[state]
            if not count:
                continue
            y_top = _y(below + count, top)
            height = _y(below, top) - y_top
            # a count is written in its segment when a box of one line of text fits in it
            box = 5 + 6.5 * len(str(count))
            fits = height >= 14 and width >= box + 2
            segments.append(
                Segment(
                    state, said.STATE_LABELS[state], y_top, round(height, 1), count, fits, round(x - box / 2, 1), box
                )
            )
            below += count
        bars.append(Bar(round(x - width / 2, 1), round(width, 1), round(x, 1), tuple(segments)))
    return StackChart(title, _x_ticks(moments, xs), _y_ticks(top, step), tuple(bars), right)
