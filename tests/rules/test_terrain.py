"""Terrain Effects (3.6): crossing obstacles and what they bar, the Terrain Effects table and its cover
agreeing with the cover points (5.2), and the effects a feature has on a unit."""

import pytest

from republic.rules.codec import decode, encode
from republic.rules.errors import RulesInputError
from republic.rules.movement import movement_allowance
from republic.rules.results import Provenance
from republic.rules.terrain import (
    Arm,
    AssaultMove,
    Going,
    TerrainEffects,
    TerrainFeature,
    TerrainInput,
    resolve_terrain,
)
from republic.rules.troops import Cover, Grade, UnitKind

T = TerrainFeature
OBSTACLES = [f for f in TerrainFeature if f.obstacle]
FEATURES = [f for f in TerrainFeature if not f.obstacle]


# --- obstacles --------------------------------------------------------------------------------------


def test_crossing_obstacles_costs_their_inches_each_time(chart):
    """Terrain Effects (R:929-934, 947-958): stream bank -3", treeline and hedge -1"."""
    result = movement_allowance(
        chart, UnitKind.INFANTRY, Grade.VETERAN, obstacles_crossed=(T.STREAM_BANK, T.HEDGE, T.STREAM_BANK, T.STONE_WALL)
    )
    assert result.allowance == 10 - 3 - 1 - 3
    assert {m.label: m.value for m in result.modifiers} == {
        "Crossing stream bank, ravine (x2)": -6,
        "Crossing hedge": -1,
    }
    assert all(m.section == "3.6" for m in result.modifiers)


@pytest.mark.parametrize(
    ("kind", "obstacle"),
    [
        (UnitKind.INFANTRY, T.RIVER_BANK),
        (UnitKind.CAVALRY_MOUNTED, T.RIVER_BANK),
        (UnitKind.CAVALRY_MOUNTED, T.STONE_WALL),
        (UnitKind.MOUNTED_INFANTRY_MOUNTED, T.HEDGE),
        (UnitKind.ARTILLERY, T.STREAM_BANK),
        (UnitKind.ARTILLERY, T.ENTRENCHMENT),
    ],
)
def test_an_obstacle_impassable_to_the_unit_is_refused(chart, kind, obstacle):
    with pytest.raises(RulesInputError) as err:
        movement_allowance(chart, kind, Grade.VETERAN, obstacles_crossed=(T.TREELINE, obstacle))
    assert err.value.field == "obstacles_crossed[1]"


def test_dismounted_cavalry_crosses_a_stone_wall_on_foot(chart):
    result = movement_allowance(chart, UnitKind.CAVALRY_DISMOUNTED, Grade.VETERAN, obstacles_crossed=(T.STONE_WALL,))
    assert result.allowance == 10


def test_charge_bonus_is_barred_in_and_across_features_marked_n_a_and_for_cavalry_in_foot_only(chart):
    """Terrain Effects note 2 (R:961-962)."""
    infantry = movement_allowance(
        chart,
        UnitKind.INFANTRY,
        Grade.VETERAN,
        charge_bonus=True,
        obstacles_crossed=(T.HEDGE, T.TREELINE),
        terrain_within=(T.LIGHT_FOREST,),
    )
    assert infantry.charge_bonus == 4
    assert infantry.charge_bonus_barred_in == (T.HEDGE,)
    assert any("may not be used in or across: hedge" in note for note in infantry.notes)
    cavalry = movement_allowance(
        chart,
        UnitKind.CAVALRY_MOUNTED,
        Grade.VETERAN,
        charge_bonus=True,
        obstacles_crossed=(T.TREELINE,),
        terrain_within=(T.LIGHT_FOREST,),
    )
    assert set(cavalry.charge_bonus_barred_in) == {T.TREELINE, T.LIGHT_FOREST}


# --- tables -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("feature", list(TerrainFeature))
def test_every_terrain_row_is_confirmed_and_cites_the_printed_table(chart, feature):
    effects, use = chart.entry("terrain", feature.value)
    assert isinstance(effects, TerrainEffects)
    assert use.provenance is Provenance.CONFIRMED
    start = int(use.source.removeprefix("R:").split("-")[0])
    assert 859 <= start <= 958


@pytest.mark.parametrize("feature", FEATURES)
def test_features_cost_while_within_and_never_to_cross(chart, feature):
    effects = chart.entry("terrain", feature.value)[0]
    assert effects.going in (Going.CLEAR, Going.ROUGH, Going.DOUBLE_ROUGH)
    assert effects.crossing_cost == 0


@pytest.mark.parametrize("feature", OBSTACLES)
def test_obstacles_cost_to_cross_and_never_while_within(chart, feature):
    effects = chart.entry("terrain", feature.value)[0]
    assert effects.going in (Going.CLEAR, Going.CROSSING, Going.IMPASSABLE)
    assert (effects.crossing_cost > 0) == (effects.going is Going.CROSSING)


COVER_POINTS = {  # 5.2 Cover Points (R:1500-1516)
    Cover.HEAVY: {T.HEAVY_BUILDINGS, T.ENTRENCHMENT},
    Cover.MEDIUM: {T.MEDIUM_BUILDINGS, T.HEAVY_FOREST, T.STONE_WALL, T.STEEP_ROCKY_GROUND},
    Cover.LIGHT: {T.LIGHT_BUILDINGS, T.MEDIUM_FOREST, T.VINEYARD, T.HEDGE, T.TREELINE},
}


@pytest.mark.parametrize("feature", list(TerrainFeature))
def test_terrain_cover_agrees_with_the_cover_points_table(chart, feature):
    expected = next((cover for cover, features in COVER_POINTS.items() if feature in features), Cover.NONE)
    assert chart.entry("terrain", feature.value)[0].cover is expected


@pytest.mark.parametrize(
    ("feature", "going", "assault", "impassable", "depth"),
    [
        (T.LIGHT_BUILDINGS, Going.CLEAR, AssaultMove.FOOT_ONLY, (), 2),
        (T.HEAVY_FOREST, Going.DOUBLE_ROUGH, AssaultMove.NOT_ALLOWED, (), 1),
        (T.MARSHLAND, Going.DOUBLE_ROUGH, AssaultMove.NOT_ALLOWED, (Arm.ARTILLERY,), None),
        (T.VINEYARD, Going.ROUGH, AssaultMove.NOT_ALLOWED, (Arm.ARTILLERY,), 2),
        (T.RIVER_BANK, Going.IMPASSABLE, AssaultMove.NOT_ALLOWED, (Arm.ARTILLERY, Arm.HORSE), None),
        (T.STREAM_BANK, Going.CROSSING, AssaultMove.NOT_ALLOWED, (Arm.ARTILLERY,), None),
        (T.STONE_WALL, Going.CLEAR, AssaultMove.FOOT_ONLY, (Arm.ARTILLERY, Arm.HORSE), None),
    ],
)
def test_terrain_rows_read_as_printed(chart, feature, going, assault, impassable, depth):
    """Terrain Effects (R:847-961)."""
    effects = chart.entry("terrain", feature.value)[0]
    assert (effects.going, effects.assault_move, effects.impassable_to, effects.spotting_depth) == (
        going,
        assault,
        impassable,
        depth,
    )


@pytest.mark.parametrize(
    "raw",
    [
        "rough | n/a | - | light",
        'swampy | n/a | - | light | 1"',
        'rough | sometimes | - | light | 1"',
        'rough | n/a | infantry | light | 1"',
        'rough | n/a | - | 2 | 1"',
        "rough | n/a | - | light | deep",
        '+3" | n/a | - | light | 1"',
        3,
    ],
)
def test_a_malformed_terrain_row_is_refused(raw):
    with pytest.raises(ValueError):
        TerrainEffects.parse(raw)


# --- terrain lookup ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("feature", "kind", "passable", "charge"),
    [
        (T.LIGHT_BUILDINGS, UnitKind.INFANTRY, True, True),
        (T.LIGHT_BUILDINGS, UnitKind.CAVALRY_MOUNTED, True, False),
        (T.HEDGE, UnitKind.INFANTRY, True, False),
        (T.HEDGE, UnitKind.CAVALRY_MOUNTED, False, False),
        (T.RIVER_BANK, UnitKind.INFANTRY, False, False),
        (T.MARSHLAND, UnitKind.ARTILLERY, False, False),
        (T.FORD, UnitKind.ARTILLERY, True, False),
        (T.ENTRENCHMENT, UnitKind.CAVALRY_DISMOUNTED, True, True),
    ],
)
def test_terrain_effects_say_what_a_feature_does_to_a_unit(chart, feature, kind, passable, charge):
    result = resolve_terrain(chart, TerrainInput(feature, kind))
    assert (result.passable, result.charge_bonus) == (passable, charge)
    assert result.obstacle is feature.obstacle
    assert len(result.cells) == 1 and not result.provisional


def test_terrain_effects_without_a_unit_give_the_row_and_its_spotting_depth(chart):
    data = encode(resolve_terrain(chart, decode(TerrainInput, {"feature": "heavy_buildings"})))
    assert data["effects"]["cover"] == "heavy" and data["passable"] is None
    assert data["title"] == "Heavy buildings (heavy stone & masonry)"
    assert any('2"' in note for note in data["notes"])


# --- bad input --------------------------------------------------------------------------------------


def test_unknown_terrain_feature_is_refused_naming_the_field():
    with pytest.raises(RulesInputError) as err:
        decode(TerrainInput, {"feature": "swamp"})
    assert err.value.field == "feature"
