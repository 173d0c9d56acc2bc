"""Movement (3.1, 3.4, 3.5): allowances and their deductions, what an inch costs in rough ground, how far a
leader moves, and cavalry mounting and dismounting. Terrain Effects (3.6) are read from terrain.py.

Allowances, bonuses and deductions are Movement Box values in chart inches (the medium ground scale).
Modifiers stay in chart inches; the distances a result offers are scaled by the game's ratio (1.2).

Double rough: the Terrain Effects table calls heavy forest, marshland and fords "double rough" without
defining it. It is read as double the rough cost (4x, a provisional Movement Box entry), and artillery,
which pays "double the normal rough movement cost" (3.4), pays double that again (8x) in double rough
ground it can enter at all (heavy forest, ford; marshland is impassable to it).

A holding division's units "may not move more than half" (5.2, R:1441-1442), and a division that panicked is
"considered to be in a holding state for purposes of movement and maneuver" (6.1, R:1830-1832). The rules give
no worked example, and "half" may be of the Movement Box allowance or of what the deductions leave of it; the
allowance after every deduction is halved, which is the longest move that is not more than half by either
reading (10" less a 1" formation change: 4.5", within both 5" and half of 9"). The assault move bonus is halved
too, and what an inch costs in rough ground follows from the halved allowance.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from republic.rules.chart import Chart, KeyedSpec, Span
from republic.rules.errors import RulesInputError
from republic.rules.morale import Restriction, condition_for, forbidden
from republic.rules.results import CellUse, Explained, Mechanic, Modifier
from republic.rules.scale import GroundScale, scale_ratio, scaled
from republic.rules.terrain import Going, TerrainEffects, TerrainFeature, terrain
from republic.rules.troops import DivisionOrders, Grade, UnitKind
from republic.rules.units import UnitState, restricted


class Ground(StrEnum):
    OPEN = "open"
    ROUGH = "rough"
    DOUBLE_ROUGH = "double_rough"


BOX_KEYS = (
    "foot",
    "horse",
    "charge_bonus_infantry",
    "charge_bonus_cavalry",
    "leader",
    "rally_step_leader",
    "formation_change_trained",
    "formation_change_untrained",
    "formation_change_in_rough",
    "battery_damage_percent",
    "prolong",
    "rough_cost",
    "double_rough_cost",
    "wheeled_rough_factor",
)

_ALLOWANCE = Span("a move in inches", 0, 100, above_low=True)
_INCHES = Span("a distance in inches", 0, 100)  # a bonus or deduction the chart may set to none
_COST = Span("a cost in times the open ground's", 1, 10)
_BOX_VALUES = {
    **dict.fromkeys(
        (
            "charge_bonus_infantry",
            "charge_bonus_cavalry",
            "formation_change_trained",
            "formation_change_untrained",
            "formation_change_in_rough",
            "prolong",
        ),
        _INCHES,
    ),
    "battery_damage_percent": Span("a percentage", 0, 100),
    **dict.fromkeys(("rough_cost", "double_rough_cost", "wheeled_rough_factor"), _COST),
}

TABLES = (
    KeyedSpec("movement_box", "3.1, 3.4", "Movement Box, chart inches", BOX_KEYS, _ALLOWANCE, values=_BOX_VALUES),
)

HOLDING_SHARE = 0.5
"""What a holding division's units may move of their movement: "not more than half" (5.2, R:1441-1442)."""


def holding(orders: DivisionOrders | None, panicked: bool) -> str:
    """Why a unit's division holds it to half its movement this turn, or "": its orders are Hold (5.2,
    R:1441-1442), or it panicked, which counts as holding for movement and maneuver (6.1, R:1830-1832). A division
    is marked panicked from its failed test to the end of the player turn (6.1, R:1849-1852), after the turn's
    move step: only a move made again after the game master goes back meets the mark."""
    if panicked:
        return "its division panicked: it counts as holding, so its units move no more than half (6.1, 5.2)"
    if orders is DivisionOrders.HOLD:
        return "its division holds: its units move no more than half (5.2)"
    return ""


# --- movement allowance ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MovementInput:
    kind: UnitKind
    grade: Grade
    horse_artillery: bool = False
    formation_changes: int = 0
    formation_changes_in_rough: int = 0  # of formation_changes, those made in rough ground
    charge_bonus: bool = False
    battery_damage: int = 0
    passages_of_lines: int = 0
    obstacles_crossed: tuple[TerrainFeature, ...] = ()
    terrain_within: tuple[TerrainFeature, ...] = ()  # features the unit will move in
    scale: GroundScale = GroundScale.MEDIUM
    division_orders: DivisionOrders | None = None  # None: a unit no division's orders bind
    division_panicked: bool = False  # its division panicked in this player turn's panic phase

    @classmethod
    def of(
        cls,
        unit: UnitState,
        *,
        formation_changes: int = 0,
        formation_changes_in_rough: int = 0,
        charge_bonus: bool = False,
        passages_of_lines: int = 0,
        obstacles_crossed: tuple[TerrainFeature, ...] = (),
        terrain_within: tuple[TerrainFeature, ...] = (),
        scale: GroundScale = GroundScale.MEDIUM,
        division_orders: DivisionOrders | None = None,
        division_panicked: bool = False,
    ) -> "MovementInput":
        """A unit's move as it stands, under its division's orders; formation changes are refused to a unit whose
        condition forbids them (2.3)."""
        if formation_changes:
            refused = restricted(unit, Restriction.CHANGE_FORMATION)
            if refused:
                raise RulesInputError("formation_changes", refused)
        return cls(
            unit.kind,
            unit.grade,
            horse_artillery=unit.battery and unit.horse,
            formation_changes=formation_changes,
            formation_changes_in_rough=formation_changes_in_rough,
            charge_bonus=charge_bonus,
            battery_damage=unit.damage if unit.battery else 0,
            passages_of_lines=passages_of_lines,
            obstacles_crossed=obstacles_crossed,
            terrain_within=terrain_within,
            scale=scale,
            division_orders=division_orders,
            division_panicked=division_panicked,
        )

    def __post_init__(self) -> None:
        for name in ("formation_changes", "formation_changes_in_rough", "battery_damage", "passages_of_lines"):
            if getattr(self, name) < 0:
                raise RulesInputError(name, f"cannot be negative, got {getattr(self, name)}")
        if self.formation_changes_in_rough > self.formation_changes:
            raise RulesInputError(
                "formation_changes_in_rough",
                f"{self.formation_changes_in_rough} changes in rough but only {self.formation_changes} changes",
            )
        artillery = self.kind is UnitKind.ARTILLERY
        if self.horse_artillery and not artillery:
            raise RulesInputError("horse_artillery", f"only artillery is horse or foot artillery, not {self.kind}")
        if self.battery_damage and not artillery:
            raise RulesInputError("battery_damage", "only an artillery battery takes damage that slows it")
        if self.charge_bonus and artillery:
            raise RulesInputError("charge_bonus", "artillery may not use the assault move bonus (3.1)")
        for i, feature in enumerate(self.obstacles_crossed):
            if not feature.obstacle:
                raise RulesInputError(
                    f"obstacles_crossed[{i}]", f"{feature.title} is not an obstacle; list it in terrain_within"
                )
        for i, feature in enumerate(self.terrain_within):
            if feature.obstacle:
                raise RulesInputError(
                    f"terrain_within[{i}]", f"{feature.title} is an obstacle; list it in obstacles_crossed"
                )

    @property
    def horse(self) -> bool:
        return self.kind.horse or self.horse_artillery


@dataclass(frozen=True)
class GroundReach:
    """What an inch moved costs in one kind of ground, and how far the allowance goes there alone."""

    ground: Ground
    cost: int  # inches of allowance per inch moved
    reach: float  # game scale, without the charge bonus


@dataclass(frozen=True)
class MovementResult(Explained):
    normal: float  # the Movement Box allowance, game scale
    allowance: float  # after every deduction, game scale
    charge_bonus: float  # usable assault move bonus, game scale; 0 when not wanted or not allowed
    charge_bonus_refused: str
    charge_bonus_barred_in: tuple[TerrainFeature, ...]
    with_charge: float  # allowance plus the usable charge bonus
    ground: tuple[GroundReach, ...]


def resolve_movement_allowance(chart: Chart, inputs: MovementInput) -> MovementResult:
    """A unit's movement for the turn.

    Battery damage takes 25% of the normal allowance per damage (3.4: "its total available movement", the
    same words the formation change deductions use), so two damage and a formation change leave a foot
    battery 10 - 5 - 1 = 4". Passage of lines (3.5): a trained unit's first pass is free, a second or third
    bars the assault move bonus for the turn; an untrained unit pays rough cost while passing any unit.
    """
    cells: list[CellUse] = []

    def box(key: str) -> int:
        value: int
        value, use = chart.entry("movement_box", key)
        cells.append(use)
        return value

    kind = inputs.kind
    normal = box("horse" if inputs.horse else "foot")
    modifiers, notes = [], []
    if inputs.formation_changes:
        key = "formation_change_trained" if inputs.grade.trained else "formation_change_untrained"
        who = "Trained" if inputs.grade.trained else "Untrained"
        modifiers.append(_each(f"{who} formation change", -box(key), inputs.formation_changes))
    if inputs.formation_changes_in_rough:
        modifiers.append(
            _each("Formation change in rough", -box("formation_change_in_rough"), inputs.formation_changes_in_rough)
        )
    crossed = _read_terrain(chart, "obstacles_crossed", inputs.obstacles_crossed, kind, cells)
    for feature, effects in crossed:
        if effects.crossing_cost:
            count = inputs.obstacles_crossed.count(feature)
            modifiers.append(_each(f"Crossing {feature.title.lower()}", -effects.crossing_cost, count, "3.6"))
    within = _read_terrain(chart, "terrain_within", inputs.terrain_within, kind, cells)
    barred = [feature for feature, effects in (*within, *crossed) if not effects.charge_bonus_for(kind)]

    if inputs.battery_damage:
        percent = box("battery_damage_percent")
        damage = min(normal, normal * percent * inputs.battery_damage / 100)
        modifiers.append(
            Modifier(f'Battery damage: {percent}% of {normal:g}" each, x {inputs.battery_damage}', -damage, "3.4")
        )

    ratio, ratio_use = scale_ratio(chart, inputs.scale)
    cells.append(ratio_use)
    remaining = normal + sum(m.value for m in modifiers)  # inches: battery damage can be fractional
    held = holding(inputs.division_orders, inputs.division_panicked)
    share = HOLDING_SHARE if held else 1.0
    if held:
        notes.append(held)
        if remaining > 0:
            section = "5.2, 6.1" if inputs.division_panicked else "5.2"
            modifiers.append(Modifier("Holding division: no more than half", -remaining * (1 - share), section))
            remaining *= share
    if remaining <= 0:
        notes.append("the deductions use up the whole allowance: no movement is left this turn")
    allowance = scaled(max(0.0, remaining), ratio)

    bonus, refused = 0.0, ""
    if inputs.charge_bonus:
        if inputs.grade.trained and inputs.passages_of_lines >= 2:
            refused = "passing through a second (or third) unit bars the assault move bonus this turn (3.5)"
        else:
            bonus = scaled(box("charge_bonus_cavalry" if kind.horse else "charge_bonus_infantry") * share, ratio)
            notes.append("using any of the assault move bonus costs 1M at the end of the turn (3.1, 5.6)")
            if barred:
                notes.append(
                    "the assault move bonus may not be used in or across: " + ", ".join(f.title.lower() for f in barred)
                )
    if not inputs.grade.trained and inputs.passages_of_lines:
        notes.append("untrained: moving through another unit counts as rough movement (3.5)")
    if inputs.grade.trained and inputs.passages_of_lines >= 2 and not inputs.charge_bonus:
        notes.append("a second (or third) passage of lines bars the assault move bonus this turn (3.5)")

    ground = _ground(box, kind, allowance, any(e.going is Going.DOUBLE_ROUGH for _, e in within))
    for feature, effects in within:
        if effects.going in (Going.ROUGH, Going.DOUBLE_ROUGH):
            notes.append(f"{feature.title}: {effects.going.value.replace('_', ' ')} while any base is within (3.6)")
    return MovementResult(
        normal=scaled(normal, ratio),
        allowance=allowance,
        charge_bonus=bonus,
        charge_bonus_refused=refused,
        charge_bonus_barred_in=tuple(barred),
        with_charge=allowance + bonus,
        ground=ground,
        modifiers=tuple(modifiers),
        cells=tuple(cells),
        notes=tuple(notes),
    )


def _each(label: str, value: int, count: int, section: str = "3.4") -> Modifier:
    return Modifier(label if count == 1 else f"{label} (x{count})", value * count, section)


def _read_terrain(
    chart: Chart, field: str, features: tuple[TerrainFeature, ...], kind: UnitKind, cells: list[CellUse]
) -> list[tuple[TerrainFeature, TerrainEffects]]:
    """Each feature once, in the order given; one the unit cannot enter is refused by its field."""
    read = []
    for feature in dict.fromkeys(features):
        effects, use = terrain(chart, feature)
        cells.append(use)
        if effects.impassable_for(kind):
            index = features.index(feature)
            raise RulesInputError(f"{field}[{index}]", f"{feature.title} is impassable to {_who(kind)}")
        read.append((feature, effects))
    return read


def _who(kind: UnitKind) -> str:
    return "artillery" if kind is UnitKind.ARTILLERY else ("horse" if kind.horse else "foot")


def _ground(box: Callable[[str], int], kind: UnitKind, allowance: float, double_rough: bool) -> tuple[GroundReach, ...]:
    """Open and rough always; double rough, whose cost is provisional, only when the unit will be in it,
    so that a plain move does not read as provisional."""
    wheeled = box("wheeled_rough_factor") if kind is UnitKind.ARTILLERY else 1
    costs = [(Ground.OPEN, 1), (Ground.ROUGH, box("rough_cost") * wheeled)]
    if double_rough:
        costs.append((Ground.DOUBLE_ROUGH, box("double_rough_cost") * wheeled))
    return tuple(GroundReach(g, cost, _reach(allowance, cost)) for g, cost in costs)


def _reach(allowance: float, cost: int) -> float:
    """Rounded down to the quarter inch: a unit may not overspend its allowance."""
    return int(allowance / cost * 4) / 4 if cost else allowance


def movement_allowance(chart: Chart, kind: UnitKind, grade: Grade, **options: Any) -> MovementResult:
    return resolve_movement_allowance(chart, MovementInput(kind, grade, **options))


# --- leaders ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderMoveInput:
    """A leader's move: only the allowance when ``moved`` is 0, or a move the table measured (game scale) after
    the leader's earlier moves in the same step (``moved_before``): the allowance is for the whole step."""

    rally_step: bool = False
    scale: GroundScale = GroundScale.MEDIUM
    moved: float = 0.0
    moved_before: float = 0.0

    def __post_init__(self) -> None:
        for name in ("moved", "moved_before"):
            if getattr(self, name) < 0:
                raise RulesInputError(name, f"a distance moved cannot be negative, got {getattr(self, name):g}")


@dataclass(frozen=True)
class LeaderMoveResult(Explained):
    distance: float  # the allowance for the step, game scale
    left: float = 0.0  # what is left of it after this move and the earlier ones


def resolve_leader_move(chart: Chart, inputs: LeaderMoveInput) -> LeaderMoveResult:
    """Leader bases move at charging cavalry speed (3.1, R:616); in the rally step only up to 2" (1.7, R:352-354).
    A move beyond what is left of the allowance is refused by its field."""
    distance: int
    distance, use = chart.entry("movement_box", "rally_step_leader" if inputs.rally_step else "leader")
    ratio, ratio_use = scale_ratio(chart, inputs.scale)
    allowance = scaled(distance, ratio)
    left = round(max(0.0, allowance - inputs.moved_before), 2)  # to the hundredth a form takes, not a float's dust
    if inputs.moved > left:
        where = "in the rally step" if inputs.rally_step else "in a turn"
        earlier = f', and {left:g}" of it is left after the earlier moves' if inputs.moved_before else ""
        raise RulesInputError(
            "moved", f'{inputs.moved:g}" is too far: a leader moves at most {allowance:g}" {where}{earlier}'
        )
    return LeaderMoveResult(distance=allowance, left=round(left - inputs.moved, 2), cells=(use, ratio_use))


# --- mounting and dismounting (3.5) ------------------------------------------------------------------------

_DISMOUNTED = {
    UnitKind.CAVALRY_MOUNTED: UnitKind.CAVALRY_DISMOUNTED,
    UnitKind.MOUNTED_INFANTRY_MOUNTED: UnitKind.MOUNTED_INFANTRY_DISMOUNTED,
}
_MOUNTED = {foot: horse for horse, foot in _DISMOUNTED.items()}


@dataclass(frozen=True)
class MountInput:
    """A brigade that would mount (``mount``) or dismount."""

    kind: UnitKind
    mount: bool
    m_hits: int = 0
    reacting: bool = False  # cavalry reacting to the enemy's move (3.5, R:804-816)

    def __post_init__(self) -> None:
        condition_for(self.m_hits)

    @classmethod
    def of(cls, unit: UnitState, mount: bool, reacting: bool = False) -> "MountInput":
        return cls(unit.kind, mount, unit.m_hits, reacting)


@dataclass(frozen=True)
class MountResult(Explained):
    kind: UnitKind  # what the brigade is after it: its own kind when refused
    refused: str  # why it may not, "" when it may

    @property
    def allowed(self) -> bool:
        return not self.refused


def resolve_mount(chart: Chart, inputs: MountInput) -> MountResult:
    """Cavalry mounting and dismounting (3.5, R:817-825): mounted cavalry may dismount and operate as foot troops,
    dismounted cavalry may remount, and each "counts as a standard formation change", so a brigade whose morale
    condition forbids changing formation (Unformed or worse, 2.3, R:494-502) may do neither. Mounted infantry,
    which the assault tables know "while mounted" and "dismounted" (5.3, R:1545), are read to mount and dismount
    as cavalry do.

    What it becomes decides the rest: a brigade on horse moves at horse speed with the cavalry charge bonus (3.1),
    makes double forced moves (5.5), forms an assault column as cavalry and may overrun (5.3, 5.5); on foot it
    does all of these as infantry. The brigade is recorded mounted or dismounted as a whole: a brigade partly
    dismounted (1.4, R:208-209) is the table's to track. The defender's cavalry reacting to enemy units coming
    within 6" of its front in their move "may dismount (if able)" (R:804-816): if its morale allows a formation
    change, since dismounting is one; its moves, pro-rated with the enemy's, are the table's to measure."""
    wanted = _MOUNTED if inputs.mount else _DISMOUNTED
    verb = "mount" if inputs.mount else "dismount"
    after = wanted.get(inputs.kind)
    if not inputs.kind.mounts:
        return MountResult(kind=inputs.kind, refused="only cavalry and mounted infantry mount and dismount (3.5)")
    if inputs.reacting and inputs.mount:
        refusal = "cavalry reacting to the enemy's move may dismount, not mount (3.5)"
        return MountResult(kind=inputs.kind, refused=refusal)
    if after is None:
        already = "mounted" if inputs.mount else "dismounted"
        return MountResult(kind=inputs.kind, refused=f"it is already {already}")
    refused = forbidden(condition_for(inputs.m_hits), Restriction.CHANGE_FORMATION)
    if refused:
        return MountResult(kind=inputs.kind, refused=f"{refused}, and to {verb} is one (3.5)")
    notes = (
        "counts as a formation change: its deduction comes off this turn's movement (3.4, 3.5)",
        "mid-move: pro-rate the movement left, and take the formation change's deduction from the dismounted "
        "allowance (3.5, R:822-825)",
    )
    return MountResult(kind=after, refused="", notes=notes)


def after_mounting(unit: UnitState, result: MountResult) -> UnitState:
    """The brigade on its new footing; a refused mount or dismount is refused by the field that asked for it."""
    if result.refused:
        raise RulesInputError("mount", result.refused)
    return replace(unit, kind=result.kind)


MECHANICS = (
    Mechanic(
        "movement_allowance",
        "3.1, 3.4, 3.5",
        "A unit's movement for the turn after deductions, its charge bonus and what an inch costs in rough ground",
        MovementInput,
        resolve_movement_allowance,
    ),
    Mechanic(
        "leader_move",
        "1.7, 3.1",
        "How far a leader base moves, in the maneuver or the rally step",
        LeaderMoveInput,
        resolve_leader_move,
    ),
    Mechanic(
        "mount",
        "3.5",
        "Whether a cavalry or mounted infantry brigade may mount or dismount, and what it becomes",
        MountInput,
        resolve_mount,
    ),
)
