"""Terrain Effects (3.6): what each feature or obstacle does to movement, the assault move, cover and
spotting, as the chart's Terrain Effects table writes it (one text cell a feature, read into TerrainEffects)."""

import re
from dataclasses import dataclass
from enum import StrEnum

from republic.rules.chart import Chart, KeyedSpec, Span
from republic.rules.results import CellUse, Explained, Mechanic
from republic.rules.troops import Cover, UnitKind


class TerrainFeature(StrEnum):
    """The rows of the Terrain Effects table (3.6): features first, then obstacles."""

    LIGHT_BUILDINGS = "light_buildings"
    MEDIUM_BUILDINGS = "medium_buildings"
    HEAVY_BUILDINGS = "heavy_buildings"
    LIGHT_FOREST = "light_forest"
    MEDIUM_FOREST = "medium_forest"
    HEAVY_FOREST = "heavy_forest"
    MARSHLAND = "marshland"
    VINEYARD = "vineyard"
    STEEP_ROCKY_GROUND = "steep_rocky_ground"
    FORD = "ford"
    RIVER_BANK = "river_bank"
    STREAM_BANK = "stream_bank"
    STONE_WALL = "stone_wall"
    ENTRENCHMENT = "entrenchment"
    TREELINE = "treeline"
    HEDGE = "hedge"

    @property
    def obstacle(self) -> bool:
        """Obstacles are crossed and charge their penalty once; features charge theirs while within."""
        return list(TerrainFeature).index(self) >= list(TerrainFeature).index(TerrainFeature.RIVER_BANK)

    @property
    def title(self) -> str:  # type: ignore[override]  # the display name deliberately shadows str.title()
        return _TITLES.get(self, self.value.replace("_", " ").capitalize())


_TITLES = {
    TerrainFeature.LIGHT_BUILDINGS: "Light buildings (light stone, medium wood)",
    TerrainFeature.MEDIUM_BUILDINGS: "Medium buildings (medium stone, heavy wood)",
    TerrainFeature.HEAVY_BUILDINGS: "Heavy buildings (heavy stone & masonry)",
    TerrainFeature.LIGHT_FOREST: "Light forest, orchard, grove",
    TerrainFeature.STEEP_ROCKY_GROUND: "Steep, rocky ground",
    TerrainFeature.RIVER_BANK: "River bank, cliff",
    TerrainFeature.STREAM_BANK: "Stream bank, ravine",
    TerrainFeature.ENTRENCHMENT: "Entrenchment, embankment",
}


class Going(StrEnum):
    """The Terrain Effects movement column."""

    CLEAR = "clear"  # printed "-"
    ROUGH = "rough"
    DOUBLE_ROUGH = "double_rough"
    IMPASSABLE = "impassable"
    CROSSING = "crossing"  # printed '-3"': inches paid to cross


class AssaultMove(StrEnum):
    """The Terrain Effects assault move column: who may use the charge bonus in or across the feature."""

    FOOT_ONLY = "foot_only"
    NOT_ALLOWED = "not_allowed"  # printed "N/A"


class Arm(StrEnum):
    """The classes of the Terrain Effects 'impassable to' column."""

    ARTILLERY = "artillery"
    HORSE = "horse"


_INCHES = re.compile(r'^(-?\d+)\s*"?$')
_GOING = {"-": Going.CLEAR, "rough": Going.ROUGH, "double rough": Going.DOUBLE_ROUGH, "impassable": Going.IMPASSABLE}
_ASSAULT = {"foot only": AssaultMove.FOOT_ONLY, "n/a": AssaultMove.NOT_ALLOWED}
_COVER = {"-": Cover.NONE, "light": Cover.LIGHT, "medium": Cover.MEDIUM, "heavy": Cover.HEAVY}
_COLUMNS = "movement | assault move | impassable to | cover | spotting depth"
_CROSSING = Span("a crossing cost in inches", 1, 100)
_DEPTH = Span("a spotting depth in inches", 0, 100)


@dataclass(frozen=True)
class TerrainEffects:
    """One row of the Terrain Effects table, written as printed: 'rough | n/a | artillery | light | 2"'."""

    going: Going
    crossing_cost: int  # inches, for Going.CROSSING
    assault_move: AssaultMove
    impassable_to: tuple[Arm, ...]
    cover: Cover
    spotting_depth: int | None  # inches; None where the table shows "-"

    @classmethod
    def parse(cls, raw: object) -> "TerrainEffects":
        parts = [p.strip().lower() for p in raw.split("|")] if isinstance(raw, str) else []
        if len(parts) != 5:
            raise ValueError(f"a terrain row is written '{_COLUMNS}', got {raw!r}")
        movement, assault, impassable, cover, depth = parts
        going, crossing = _going(movement)
        if assault not in _ASSAULT:
            raise ValueError(f"assault move is 'foot only' or 'n/a', got {assault!r}")
        if cover not in _COVER:
            raise ValueError(f"cover is -, light, medium or heavy, got {cover!r}")
        return cls(going, crossing, _ASSAULT[assault], _arms(impassable), _COVER[cover], _depth(depth))

    def impassable_for(self, kind: UnitKind) -> bool:
        """River bank and cliff read 'Impassable' in the movement column: impassable to every unit, the
        'artillery, horse' beside it notwithstanding."""
        return self.going is Going.IMPASSABLE or bool(set(self.impassable_to) & _arms_of(kind))

    def charge_bonus_for(self, kind: UnitKind) -> bool:
        return self.assault_move is AssaultMove.FOOT_ONLY and not kind.horse and kind is not UnitKind.ARTILLERY


def _going(text: str) -> tuple[Going, int]:
    if text in _GOING:
        return _GOING[text], 0
    match = _INCHES.match(text)
    if match and int(match[1]) < 0:
        return Going.CROSSING, _CROSSING(-int(match[1]))
    raise ValueError(f'movement is -, rough, double rough, impassable or a crossing cost like -3", got {text!r}')


def _arms(text: str) -> tuple[Arm, ...]:
    if text == "-":
        return ()
    arms = []
    for name in (p.strip() for p in text.split(",")):
        if name not in {a.value for a in Arm}:
            raise ValueError(f"impassable to lists artillery and/or horse, got {name!r}")
        arms.append(Arm(name))
    return tuple(arms)


def _depth(text: str) -> int | None:
    if text == "-":
        return None
    match = _INCHES.match(text)
    if not match or int(match[1]) < 0:
        raise ValueError(f'spotting depth is - or inches like 2", got {text!r}')
    depth: int = _DEPTH(int(match[1]))
    return depth


def _arms_of(kind: UnitKind) -> set[Arm]:
    if kind is UnitKind.ARTILLERY:
        return {Arm.ARTILLERY}
    return {Arm.HORSE} if kind.horse else set()


TABLES = (KeyedSpec("terrain", "3.6", "Terrain Effects", tuple(f.value for f in TerrainFeature), TerrainEffects.parse),)


def terrain(chart: Chart, feature: TerrainFeature) -> tuple[TerrainEffects, CellUse]:
    effects: TerrainEffects
    effects, use = chart.entry("terrain", feature.value)
    return effects, use


@dataclass(frozen=True)
class TerrainInput:
    feature: TerrainFeature
    kind: UnitKind | None = None  # when given, the result also says what the feature does to this unit


@dataclass(frozen=True)
class TerrainResult(Explained):
    feature: TerrainFeature
    title: str
    obstacle: bool
    effects: TerrainEffects
    passable: bool | None  # for the unit kind given
    charge_bonus: bool | None  # may the unit kind given use the assault move bonus in or across it


def resolve_terrain(chart: Chart, inputs: TerrainInput) -> TerrainResult:
    effects, use = terrain(chart, inputs.feature)
    kind = inputs.kind
    notes = []
    if effects.spotting_depth is not None:
        notes.append(
            f'units more than {effects.spotting_depth}" inside cannot be spotted or fired on by '
            "skirmishers or artillery"
        )
    return TerrainResult(
        feature=inputs.feature,
        title=inputs.feature.title,
        obstacle=inputs.feature.obstacle,
        effects=effects,
        passable=None if kind is None else not effects.impassable_for(kind),
        charge_bonus=None if kind is None else effects.charge_bonus_for(kind),
        cells=(use,),
        notes=tuple(notes),
    )


MECHANICS = (
    Mechanic(
        "terrain_effects",
        "3.6",
        "Terrain Effects: movement, assault move, impassability, cover, spotting",
        TerrainInput,
        resolve_terrain,
    ),
)
