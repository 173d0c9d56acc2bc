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
from republic.rules.troops import BatteryFunction, BatteryType, Cover, Formation
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
    punish a group for its size). Target flags describe the main target."""

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

    def __post_init__(self) -> None:
        if isinstance(self.range, bool) or not isinstance(self.range, int | float) or not math.isfinite(self.range):
            raise RulesInputError("range", f"a range is a number of inches, got {self.range!r}")
        if self.range < 0:
            raise RulesInputError("range", f"a range cannot be negative, got {self.range}")
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
        if self.deep_target and self.cover is not Cover.NONE:
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
    ) -> "ArtilleryFireInput":
        """The fire of a battery, with the batteries that join it, at a unit as they stand. A joint group
        fires with its most hit battery's M and damage and no saved fire (4.2); a brigade in open order is an
        open-order target; only a brigade with markers out has packed skirmishers, only mounted troops are
        moving cavalry."""
        if packed_skirmishers and (target.battery or not target.skirmishers_deployed):
            raise RulesInputError("packed_skirmishers", "the target has no skirmish markers out")
        if moving_cavalry and not target.kind.horse:
            raise RulesInputError("moving_cavalry", "the target is not mounted cavalry")
        group = (battery, *joined)
        worst = max(group, key=lambda b: b.m_hits + b.damage)
        in_open_order = not target.battery and not packed_skirmishers and target.formation is Formation.OPEN_ORDER
        if battery.battery_type is None:
            raise RulesInputError("battery", "only a battery fires on the Artillery table")
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
            moving_cavalry=moving_cavalry,
            cover=cover,
            enfilade=enfilade,
            packed_skirmishers=packed_skirmishers,
            open_order=open_order or in_open_order,
            passing_fire=passing_fire,
            packed_battery=target.battery and target.packed,
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


def column_shifts(chart: Chart, inputs: ArtilleryFireInput) -> tuple[tuple[Modifier, ...], list[CellUse]]:
    """The range-column modifiers that apply, each as its own shift (4.3); they are all cumulative."""
    wanted = [
        ("deep_target", inputs.deep_target, 1),
        ("square", inputs.square, 1),
        ("saved_fire", inputs.saved_fire, 1),
        ("joint_fire_per_base", inputs.joint_bases > 1, inputs.joint_bases),
        ("moving_cavalry", inputs.moving_cavalry, 1),
        ("medium_cover", inputs.cover is Cover.MEDIUM, 1),
        ("heavy_cover", inputs.cover is Cover.HEAVY, 1),
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
    shifts, shift_cells = column_shifts(chart, inputs)
    modifiers, die_cells = die_modifiers(chart, inputs)
    face = single(inputs.roll)
    modified = face + total(modifiers)
    drift: int
    drift, drift_use = chart.band("artillery_drift", modified)
    cells = [*range_cells, basic_use, *shift_cells, *die_cells, drift_use]
    notes = []
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


# --- saved fire --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SavedFireInput:
    moved_this_turn: bool = False
    fired_this_phase: bool = False
    m_hits: int = 0
    mass_battery: bool = False
    in_command_radius: bool = True
    passing_fire_this_turn: bool = False

    def __post_init__(self) -> None:
        condition_for(self.m_hits)

    @classmethod
    def of(
        cls,
        battery: UnitState,
        *,
        moved_this_turn: bool = False,
        in_command_radius: bool = True,
        passing_fire_this_turn: bool = False,
    ) -> "SavedFireInput":
        """The battery's own record says whether it moved or fired this turn; the table may know it moved too.
        Its fire this turn was passing fire when the record of the enemy's move says so: then it did not fire in
        this artillery phase, it missed it (R:1235-1237)."""
        moved = moved_this_turn or bool({BatteryFunction.MOVE, BatteryFunction.PROLONG} & set(battery.functions_used))
        return cls(
            moved_this_turn=moved,
            fired_this_phase=battery.fired_this_turn and not passing_fire_this_turn,
            m_hits=battery.m_hits,
            in_command_radius=in_command_radius,
            passing_fire_this_turn=passing_fire_this_turn,
        )


@dataclass(frozen=True)
class SavedFireResult(Explained):
    allowed: bool
    reason: str | None


def may_save_fire(
    *,
    moved_this_turn: bool = False,
    fired_this_phase: bool = False,
    m_hits: int = 0,
    mass_battery: bool = False,
    in_command_radius: bool = True,
    passing_fire_this_turn: bool = False,
) -> str | None:
    """The first reason a battery may not save fire (4.2), or None when it may."""
    condition = condition_for(m_hits)
    reasons = (
        (moved_this_turn, "the battery moved this player turn (R:1067-1069)"),
        (fired_this_phase, "the battery fired in this artillery phase (R:1068-1069)"),
        (
            passing_fire_this_turn,
            "a battery that made passing fire gains no saved fire from the missed phase (R:1235-1237)",
        ),
        (
            condition.m_hits >= Condition.RATTLED.m_hits,
            f"the battery is {condition}: rattled or worse may not save fire (R:1080-1081)",
        ),
        (mass_battery, "mass battery blocks may not save fire (R:1066-1067)"),
        (not in_command_radius, "artillery out of command radius may not save fire (R:1077)"),
    )
    return next((reason for applies, reason in reasons if applies), None)


def resolve_saved_fire(chart: Chart, inputs: SavedFireInput) -> SavedFireResult:
    reason = may_save_fire(
        moved_this_turn=inputs.moved_this_turn,
        fired_this_phase=inputs.fired_this_phase,
        m_hits=inputs.m_hits,
        mass_battery=inputs.mass_battery,
        in_command_radius=inputs.in_command_radius,
        passing_fire_this_turn=inputs.passing_fire_this_turn,
    )
    notes = (
        ()
        if reason
        else (
            "place a saved fire marker; the next fire moves 1 column left, and any movement (facing, prolonging) "
            "loses it; one marker at most (4.2)",
        )
    )
    return SavedFireResult(allowed=reason is None, reason=reason, notes=notes)


AFTER_PASSING_FIRE = (
    "it made passing fire during the enemy's move, so it may not fire in this artillery phase (R:1235-1237)"
)
"""Why a battery that made passing fire this player turn is not offered fire in its artillery phase."""


def after_firing(battery: UnitState) -> UnitState:
    """A battery that fired: once a player turn, and any saved fire is used up (4.2)."""
    return replace(battery, fired_this_turn=True, saved_fire=False)


def after_saving_fire(battery: UnitState) -> UnitState:
    """A battery that saves its fire holds one marker at most (4.2)."""
    return replace(battery, saved_fire=True)


MECHANICS = (
    Mechanic(
        "artillery_fire",
        "4.2-4.4, 4.6",
        "One battery's or joint group's fire: the hits it scores",
        ArtilleryFireInput,
        resolve_artillery_fire,
    ),
    Mechanic("saved_fire", "4.2", "May a battery save its fire this phase", SavedFireInput, resolve_saved_fire),
)
