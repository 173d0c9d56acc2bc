"""Artillery fire (4.2-4.6): the fire table, its column and die modifiers, drift, targets and saved fire.

A battery type's line on the Artillery table is one ordered row of cells, strongest on the left. The range
gives the basic cell; range-column modifiers and then the drift of the modified roll move along the row
(R:1023-1034). Left of the 2" column the row holds three more cells that only shifts reach; a shift
beyond the leftmost cell stays on it. A shift to the right past the last cell within the battery's reach
(a null cell, or off the table) is no effect: modifiers weaken fire that was in range, they never put a
target out of reach. Column shifts are signed: negative is to the left (stronger), positive to the right.

Damage to batteries and all hits take effect at the end of the artillery phase; fire in the phase is
simultaneous (R:1040-1042). A battery that prolonged this turn is the exception: enemy artillery hits it before
it fires (3.5, ``battery_functions.prolonged``).

Passing fire (R:1229-1237) is a defending battery's fire at an enemy unit about to leave its arc of fire, during
the attacker's move: the same table and modifiers, -2 on the die (R:1161-1163), its saved fire used when it has
one. Readings: its hits take effect at once, not at the end of the artillery phase, because the simultaneity of
R:1040-1042 is that of "standard artillery fire conducted during the Artillery Phase", and passing fire is fired
in the movement phase, at a unit still moving; and a battery fires it alone, never in a joint group, because the
unit leaves each battery's own arc of fire at its own moment ("the firing battery's arc-of-fire"). It is the
battery's one fire of the player turn (R:1037-1038): it may not fire in that turn's artillery phase and gains no
saved fire from missing it (R:1235-1237).
"""

import math
from dataclasses import dataclass, replace

from republic.rules.chart import DIE_MODIFIER, DISTANCE, BandSpec, Chart, GridSpec, KeyedSpec, Span
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import Condition, condition_for
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, total
from republic.rules.scale import GroundScale, bracket, scale_ratio, scaled
from republic.rules.troops import BatteryType, Cover, Formation
from republic.rules.units import UnitState

SHIFT_COLUMNS = ("left3", "left2", "left1")
"""Cells left of the 2" column, strongest first, reached only by shifts."""

RANGE_COLUMNS = tuple(f"r{n}" for n in range(1, 11))
"""The range brackets, nearest first; their upper limits are the chart table artillery_ranges."""

COLUMNS = SHIFT_COLUMNS + RANGE_COLUMNS

COLUMN_MODIFIERS = (
    "deep_target",
    "square",
    "saved_fire",
    "joint_fire_per_base",
    "moving_cavalry",
    "medium_cover",
    "heavy_cover",
)
DIE_MODIFIERS = ("enfilade", "battery_hit", "packed_skirmishers", "open_order", "passing_fire")


def fire_result(raw: object) -> Hits | None:
    """An Artillery table cell: M and B hits, '-' for no effect, null beyond the battery's reach."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise ValueError(f"an artillery result is written like '2M 1B' or '-', got {raw!r}")
    hits = Hits.parse(raw)
    if hits.p:
        raise ValueError(f"artillery fire scores M and B hits, not P; got {raw!r}")
    return hits


_SHIFT = Span("a column shift", -len(COLUMNS), len(COLUMNS))
"""Columns left (negative) or right: a shift across the whole table and beyond says all a bigger one would."""

TABLES = (
    KeyedSpec(
        "artillery_ranges",
        "4.2",
        "Artillery range brackets: upper limit in inches (medium scale)",
        RANGE_COLUMNS,
        DISTANCE,
        increasing=True,
    ),
    GridSpec(
        "artillery",
        "4.2",
        "Artillery table: battery type x range column",
        tuple(b.value for b in BatteryType),
        COLUMNS,
        fire_result,
    ),
    BandSpec("artillery_drift", "4.2", "Range column drift by modified 1D10 (negative: columns left)", _SHIFT),
    KeyedSpec(
        "artillery_column_modifiers", "4.3", "Range column modifiers (negative: columns left)", COLUMN_MODIFIERS, _SHIFT
    ),
    KeyedSpec("artillery_die_modifiers", "4.4", "Artillery die roll modifiers", DIE_MODIFIERS, DIE_MODIFIER),
)

_COLUMN_LABELS = {
    "deep_target": 'Deep Target: three or more bases within 4" depth',
    "square": "Deep Target: infantry in square",
    "saved_fire": "Saved Fire",
    "joint_fire_per_base": "Joint Battery Fire (per base)",
    "moving_cavalry": "At moving cavalry",
    "medium_cover": "At Medium Cover",
    "heavy_cover": "At Heavy Cover",
}
_DIE_LABELS = {
    "enfilade": "Enfilade Fire",
    "battery_hit": "Each battery M and B hit",
    "packed_skirmishers": "At packed skirmishers",
    "open_order": "At open order",
    "passing_fire": "Passing Fire",
}


def _check_count(value: int, field: str, low: int = 0) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise RulesInputError(field, f"expected a whole number from {low}, got {value!r}")


# --- fire --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArtilleryFireInput:
    """One battery's fire, or one joint group's (joint_bases > 1: the group's range, its most-hit battery's
    M and B; the group fires as one roll and the rules do not say whose hits count, and adding them up would
    punish a group for its size). Target flags describe the main target. ``deep_range``: at point blank, the range
    to where the fire enters the third deep base (R:1099-1104). ``uncovered_bases``: the fire is at that many
    uncovered bases of a unit otherwise in cover, without its cover modifiers (R:1132-1136). ``waived``: the
    modifiers a compound target does not take, the battery taking those most favourable to it (R:1199-1201)."""

    battery: BatteryType
    range: float
    roll: Roll
    scale: GroundScale = GroundScale.MEDIUM
    joint_bases: int = 1
    saved_fire: bool = False
    m_hits: int = 0
    damage: int = 0
    deep_target: bool = False
    square: bool = False
    moving_cavalry: bool = False
    cover: Cover = Cover.NONE
    enfilade: bool = False
    packed_skirmishers: bool = False
    open_order: bool = False
    passing_fire: bool = False
    packed_battery: bool = False
    deep_range: float | None = None
    uncovered_bases: int | None = None
    waived: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("range", "deep_range"):
            value = getattr(self, name)
            if name == "deep_range" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise RulesInputError(name, f"a range is a number of inches, got {value!r}")
            if value < 0:
                raise RulesInputError(name, f"a range cannot be negative, got {value}")
        if self.deep_range is not None and self.deep_range < self.range:
            raise RulesInputError("deep_range", "the third deep base lies beyond the target's front, not nearer")
        if self.uncovered_bases is not None:
            _check_count(self.uncovered_bases, "uncovered_bases", 1)
        single(self.roll, "roll")
        _check_count(self.joint_bases, "joint_bases", 1)
        _check_count(self.damage, "damage")
        if condition_for(self.m_hits) is Condition.DEMORALIZED:
            raise RulesInputError(
                "m_hits",
                "the battery is demoralized: unlimbered artillery that is demoralized "
                "is silenced and cannot fire (2.3)",
            )
        if self.saved_fire and self.joint_bases > 1:
            raise RulesInputError(
                "saved_fire", "a mass battery block (joint battery fire) may not use saved fire (4.2, 4.3)"
            )
        if self.deep_target and self.cover_applied is not Cover.NONE:
            raise RulesInputError(
                "deep_target",
                "the deep target bases must all be in open terrain; it does not "
                "apply to targets in woods, buildings or behind obstacles (4.3)",
            )
        kinds = [
            name for name in ("square", "open_order", "packed_skirmishers", "packed_battery") if getattr(self, name)
        ]
        if len(kinds) > 1:
            raise RulesInputError(kinds[1], f"a main target cannot be both {kinds[0]} and {kinds[1]}")
        if self.moving_cavalry and kinds and kinds[0] != "open_order":
            raise RulesInputError("moving_cavalry", f"a {kinds[0].replace('_', ' ')} target is not moving cavalry")

    @property
    def cover_applied(self) -> Cover:
        """The cover the fire's modifiers read: none when it is at the uncovered bases of a covered unit."""
        return Cover.NONE if self.uncovered_bases is not None else self.cover

    @classmethod
    def of(
        cls,
        battery: UnitState,
        joined: tuple[UnitState, ...],
        target: UnitState,
        *,
        range: float,
        roll: Roll,
        scale: GroundScale = GroundScale.MEDIUM,
        deep_target: bool = False,
        square: bool = False,
        moving_cavalry: bool = False,
        cover: Cover = Cover.NONE,
        enfilade: bool = False,
        packed_skirmishers: bool = False,
        open_order: bool = False,
        passing_fire: bool = False,
        deep_range: float | None = None,
        uncovered_bases: int | None = None,
        secondary: tuple[UnitState, ...] = (),
    ) -> "ArtilleryFireInput":
        """The fire of a battery, with the batteries that join it, at a unit as they stand. A joint group
        fires with its most hit battery's M and damage and no saved fire (4.2); a brigade in open order is an
        open-order target; only a brigade with markers out has packed skirmishers, only mounted troops are
        moving cavalry.

        With ``secondary`` targets (tandem, adjacent, a compound battery) of another kind, the fire takes the
        modifiers most favourable to the battery (R:1199-1201): the open order modifier only when every target
        is a brigade in open order, the moving cavalry one only when every target is mounted. The rules' word
        "unit types" is read to take in the open order formation, because its die modifier is about what the
        target is, as the cavalry's column shift is."""
        if packed_skirmishers and (target.battery or not target.skirmishers_deployed):
            raise RulesInputError("packed_skirmishers", "the target has no skirmish markers out")
        if moving_cavalry and not target.kind.horse:
            raise RulesInputError("moving_cavalry", "the target is not mounted cavalry")
        group = (battery, *joined)
        worst = max(group, key=lambda b: b.m_hits + b.damage)
        in_open_order = not target.battery and not packed_skirmishers and target.formation is Formation.OPEN_ORDER
        if battery.battery_type is None:
            raise RulesInputError("battery", "only a battery fires on the Artillery table")
        opened = open_order or in_open_order
        waived = ("open_order",) * (
            opened and not all(not s.battery and s.formation is Formation.OPEN_ORDER for s in secondary)
        ) + ("moving_cavalry",) * (moving_cavalry and not all(s.kind.horse for s in secondary))
        return cls(
            battery=battery.battery_type,
            range=range,
            roll=roll,
            scale=scale,
            joint_bases=sum(b.bases for b in group),
            saved_fire=battery.saved_fire and not joined,
            m_hits=worst.m_hits,
            damage=worst.damage,
            deep_target=deep_target,
            square=square,
            moving_cavalry=moving_cavalry and "moving_cavalry" not in waived,
            cover=cover,
            enfilade=enfilade,
            packed_skirmishers=packed_skirmishers,
            open_order=opened and "open_order" not in waived,
            passing_fire=passing_fire,
            packed_battery=target.battery and target.packed,
            deep_range=deep_range,
            uncovered_bases=uncovered_bases,
            waived=waived,
        )


@dataclass(frozen=True)
class ArtilleryFireResult(Explained):
    range_column: str
    basic: Hits
    shifts: tuple[Modifier, ...]  # range-column modifiers; negative is to the left
    roll: int
    modified_roll: int
    drift: int
    final_column: str
    result: Hits  # the table's result for the whole fire: what artillery_hits shares out
    on_target: Hits  # the result as a lone main target suffers it (doubled on a packed battery)


def range_column(chart: Chart, range_: float, scale: GroundScale) -> tuple[str, tuple[CellUse, ...]]:
    """The range bracket that holds a distance measured in the game's scale."""
    column, reach, cells = bracket(chart, "artillery_ranges", RANGE_COLUMNS, range_, scale)
    if column is None:
        raise RulesInputError(
            "range", f'no battery reaches beyond {reach:g}" at the {scale} scale; the target is {range_:g}" away'
        )
    return column, cells


def _reach(chart: Chart, battery: BatteryType, ratio: float) -> float:
    reach = 0.0
    for name in RANGE_COLUMNS:
        cell: Hits | None = chart.cell("artillery", battery.value, name)[0]
        if cell is not None:
            limit: float = chart.entry("artillery_ranges", name)[0]
            reach = scaled(limit, ratio)
    return reach


def point_blank_limits(chart: Chart, scale: GroundScale) -> tuple[tuple[float, float], ...]:
    """The point blank brackets at the game's scale (the first two, R:1099-1104), each as its upper limit and the
    limit of the next bracket out, within which the three deep bases must line up."""
    ratio = scale_ratio(chart, scale)[0]
    limits = [scaled(chart.entry("artillery_ranges", name)[0], ratio) for name in RANGE_COLUMNS[:3]]
    return (limits[0], limits[1]), (limits[1], limits[2])


def deep_at_range(
    chart: Chart, inputs: ArtilleryFireInput, column: str
) -> tuple[bool, tuple[str, ...], tuple[CellUse, ...]]:
    """Whether the three-base deep target counts at the range of the fire (4.3). At point blank, the first or second
    bracket, it counts only when the three bases line up inside the next bracket out (R:1099-1104): the rule's
    example, 1½" to the front, counts them within 4", not 5½". The table gives the range to where the fire enters
    the third base; "less than 4"" is read strictly."""
    if not inputs.deep_target or column not in RANGE_COLUMNS[:2]:
        return inputs.deep_target, (), ()
    ratio, ratio_use = scale_ratio(chart, inputs.scale)
    raw: float
    raw, use = chart.entry("artillery_ranges", RANGE_COLUMNS[RANGE_COLUMNS.index(column) + 1])
    limit, cells = scaled(raw, ratio), (ratio_use, use)
    if inputs.deep_range is None:
        raise RulesInputError(
            "deep_range",
            f'at point blank ({inputs.range:g}") the deep target counts only if the three bases line up within '
            f'{limit:g}": give the range to where the fire enters the third base',
        )
    if inputs.deep_range < limit:
        return True, (f'point blank: the three bases line up within {limit:g}", the deep target counts (4.3)',), cells
    why = f'point blank: the third base is {inputs.deep_range:g}" away, not within {limit:g}": no deep target (4.3)'
    return False, (why,), cells


def column_shifts(chart: Chart, inputs: ArtilleryFireInput, deep: bool) -> tuple[tuple[Modifier, ...], list[CellUse]]:
    """The range-column modifiers that apply, each as its own shift (4.3); they are all cumulative. ``deep``: whether
    the three-base deep target counts at this range (``deep_at_range``)."""
    wanted = [
        ("deep_target", deep, 1),
        ("square", inputs.square, 1),
        ("saved_fire", inputs.saved_fire, 1),
        ("joint_fire_per_base", inputs.joint_bases > 1, inputs.joint_bases),
        ("moving_cavalry", inputs.moving_cavalry, 1),
        ("medium_cover", inputs.cover_applied is Cover.MEDIUM, 1),
        ("heavy_cover", inputs.cover_applied is Cover.HEAVY, 1),
    ]
    shifts, cells = [], []
    for key, applies, times in wanted:
        if applies:
            value: int
            value, use = chart.entry("artillery_column_modifiers", key)
            label = _COLUMN_LABELS[key] + (f" x {times}" if times > 1 else "")
            shifts.append(Modifier(label, value * times, "4.3"))
            cells.append(use)
    return tuple(shifts), cells


def die_modifiers(chart: Chart, inputs: ArtilleryFireInput) -> tuple[tuple[Modifier, ...], list[CellUse]]:
    """The die roll modifiers that apply (4.4); squares count as enfilade targets (R:1094-1096)."""
    battery_hits = inputs.m_hits + inputs.damage
    wanted = [
        ("enfilade", inputs.enfilade or inputs.square, 1),
        ("battery_hit", battery_hits > 0, battery_hits),
        ("packed_skirmishers", inputs.packed_skirmishers, 1),
        ("open_order", inputs.open_order, 1),
        ("passing_fire", inputs.passing_fire, 1),
    ]
    modifiers, cells = [], []
    for key, applies, times in wanted:
        if applies:
            value: int
            value, use = chart.entry("artillery_die_modifiers", key)
            label = _DIE_LABELS[key] + (f" x {times}" if times > 1 else "")
            if key == "enfilade" and inputs.square and not inputs.enfilade:
                label += " (squares are enfilade targets)"
            modifiers.append(Modifier(label, value * times, "4.4"))
            cells.append(use)
    return tuple(modifiers), cells


def _fire_notes(inputs: ArtilleryFireInput) -> list[str]:
    """What the fire's target changed in the modifiers read: uncovered bases fired at, a compound target."""
    notes = []
    if inputs.uncovered_bases is not None and inputs.cover is not Cover.NONE:
        notes.append(
            f"at {inputs.uncovered_bases} uncovered bases of a unit in {inputs.cover} cover: no cover modifier"
        )
    waived = [(_COLUMN_LABELS | _DIE_LABELS)[key] for key in inputs.waived]
    if waived:
        notes.append(f"compound target: {' and '.join(waived)} not taken, the modifiers most favourable to the battery")
    return notes


def resolve_artillery_fire(chart: Chart, inputs: ArtilleryFireInput) -> ArtilleryFireResult:
    """Steps 1-4 of 4.2: basic cell by range, column modifiers, modified 1D10, drift. For joint fire the
    result is all the damage the whole group does (R:1050-1054)."""
    column, range_cells = range_column(chart, inputs.range, inputs.scale)
    basic: Hits | None
    basic, basic_use = chart.cell("artillery", inputs.battery.value, column)
    if basic is None:
        reach = _reach(chart, inputs.battery, scale_ratio(chart, inputs.scale)[0])
        raise RulesInputError(
            "range",
            f'a {inputs.battery} battery reaches {reach:g}" at the {inputs.scale} '
            f'scale; the target is {inputs.range:g}" away, out of range',
        )
    deep, deep_notes, deep_cells = deep_at_range(chart, inputs, column)
    shifts, shift_cells = column_shifts(chart, inputs, deep)
    modifiers, die_cells = die_modifiers(chart, inputs)
    face = single(inputs.roll)
    modified = face + total(modifiers)
    drift: int
    drift, drift_use = chart.band("artillery_drift", modified)
    cells = [*range_cells, basic_use, *deep_cells, *shift_cells, *die_cells, drift_use]
    notes = [*deep_notes, *_fire_notes(inputs)]
    index = COLUMNS.index(column) + total(shifts) + drift
    if index < 0:
        notes.append(f"shifted {-index} beyond the leftmost cell: the result stays at {COLUMNS[0]}")
        index = 0
    if index >= len(COLUMNS):
        final_column, result = f"beyond {COLUMNS[-1]}", Hits()
        notes.append("shifted off the right of the table: no effect")
    else:
        final_column = COLUMNS[index]
        value: Hits | None
        value, final_use = chart.cell("artillery", inputs.battery.value, final_column)
        if final_use != basic_use:
            cells.append(final_use)
        if value is None:
            notes.append(f"shifted past the battery's reach ({final_column}): no effect")
        result = value or Hits()
    on_target = result
    if inputs.packed_battery and result:
        on_target = result.doubled()
        notes.append(f"packed battery target: all hits doubled, {result} becomes {on_target} (4.6)")
    if inputs.passing_fire:
        notes.append("passing fire, during the enemy's move: its hits take effect at once (R:1229-1237)")
    else:
        notes.append("hits and battery damage take effect at the end of the artillery phase (4.2)")
    return ArtilleryFireResult(
        range_column=column,
        basic=basic,
        shifts=shifts,
        roll=face,
        modified_roll=modified,
        drift=drift,
        final_column=final_column,
        result=result,
        on_target=on_target,
        modifiers=modifiers,
        cells=tuple(cells),
        notes=tuple(notes),
    )


AFTER_PASSING_FIRE = (
    "it made passing fire during the enemy's move, so it may not fire in this artillery phase (R:1235-1237)"
)
"""Why a battery that made passing fire this player turn is not offered fire in its artillery phase."""


def after_firing(battery: UnitState) -> UnitState:
    """A battery that fired: once a player turn, and any saved fire is used up (4.2)."""
    return replace(battery, fired_this_turn=True, saved_fire=False)


MECHANICS = (
    Mechanic(
        "artillery_fire",
        "4.2-4.4, 4.6",
        "One battery's or joint group's fire: the hits it scores",
        ArtilleryFireInput,
        resolve_artillery_fire,
    ),
)
