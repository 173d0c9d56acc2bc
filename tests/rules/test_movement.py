"""Movement (3.1, 3.4, 3.5, 3.6): allowances, charge bonus, rough ground, battery functions, terrain."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.battery_functions import BatteryFunctionsInput, resolve_battery_functions
from republic.rules.codec import decode, encode
from republic.rules.errors import RulesInputError
from republic.rules.movement import (
    BOX_KEYS,
    Ground,
    LeaderMoveInput,
    MovementInput,
    movement_allowance,
    resolve_leader_move,
    resolve_movement_allowance,
)
from republic.rules.results import Provenance
from republic.rules.scale import GroundScale
from republic.rules.terrain import (
    Arm,
    AssaultMove,
    Going,
    TerrainEffects,
    TerrainFeature,
    TerrainInput,
    resolve_terrain,
)
from republic.rules.troops import BatteryFunction, Cover, Grade, UnitKind

T = TerrainFeature
F = BatteryFunction
OBSTACLES = [f for f in TerrainFeature if f.obstacle]
FEATURES = [f for f in TerrainFeature if not f.obstacle]


def reach(result, ground):
    return next(g for g in result.ground if g.ground is ground)


# --- movement box -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "horse_artillery", "normal", "bonus"),
    [
        (UnitKind.INFANTRY, False, 10, 4),
        (UnitKind.CAVALRY_DISMOUNTED, False, 10, 4),
        (UnitKind.MOUNTED_INFANTRY_DISMOUNTED, False, 10, 4),
        (UnitKind.CAVALRY_MOUNTED, False, 18, 7),
        (UnitKind.MOUNTED_INFANTRY_MOUNTED, False, 18, 7),
        (UnitKind.ARTILLERY, False, 10, None),
        (UnitKind.ARTILLERY, True, 18, None),
    ],
)
def test_foot_moves_ten_and_horse_eighteen_with_their_charge_bonus(chart, kind, horse_artillery, normal, bonus):
    """3.1 (R:605-610): foot 10", horse 18"; charge bonus infantry 4", cavalry 7"; none for artillery."""
    result = movement_allowance(
        chart, kind, Grade.VETERAN, horse_artillery=horse_artillery, charge_bonus=bonus is not None
    )
    assert result.normal == result.allowance == normal
    assert result.charge_bonus == (bonus or 0)
    assert result.with_charge == normal + (bonus or 0)
    assert not result.provisional


def test_using_the_charge_bonus_warns_of_the_end_of_turn_morale_hit(chart):
    """3.1 (R:611-613)."""
    result = movement_allowance(chart, UnitKind.INFANTRY, Grade.GREEN, charge_bonus=True)
    assert any("costs 1M at the end of the turn" in note for note in result.notes)
    quiet = movement_allowance(chart, UnitKind.INFANTRY, Grade.GREEN)
    assert quiet.charge_bonus == 0 and not any("1M" in note for note in quiet.notes)


@pytest.mark.parametrize(
    ("grade", "changes", "in_rough", "left"),
    [
        (Grade.VETERAN, 1, 0, 9),
        (Grade.GREEN, 3, 0, 7),
        (Grade.AVERAGE, 2, 1, 6),
        (Grade.UNTRAINED, 1, 0, 6),
        (Grade.UNTRAINED, 2, 1, 0),
        (Grade.UNTRAINED, 3, 0, 0),
    ],
)
def test_formation_changes_cost_one_inch_trained_four_untrained_and_two_more_in_rough(
    chart, grade, changes, in_rough, left
):
    """3.4 (R:719-720, 727-735)."""
    result = movement_allowance(
        chart, UnitKind.INFANTRY, grade, formation_changes=changes, formation_changes_in_rough=in_rough
    )
    assert result.allowance == left
    assert all(m.section == "3.4" for m in result.modifiers)


def test_formation_change_deductions_are_named_in_the_rules_words(chart):
    result = movement_allowance(
        chart, UnitKind.INFANTRY, Grade.UNTRAINED, formation_changes=2, formation_changes_in_rough=1
    )
    assert {m.label: m.value for m in result.modifiers} == {
        "Untrained formation change (x2)": -8,
        "Formation change in rough": -2,
    }


def test_deductions_beyond_the_allowance_leave_nothing_and_say_so(chart):
    result = movement_allowance(chart, UnitKind.INFANTRY, Grade.UNTRAINED, formation_changes=3)
    assert result.allowance == 0
    assert any("no movement is left" in note for note in result.notes)


@pytest.mark.parametrize(
    ("damage", "horse", "changes", "left"),
    [(1, False, 0, 7.5), (2, False, 1, 4), (4, False, 0, 0), (1, True, 0, 13.5), (3, True, 0, 4.5)],
)
def test_each_battery_damage_takes_a_quarter_of_the_normal_allowance(chart, damage, horse, changes, left):
    """3.4 (R:730-732)."""
    result = movement_allowance(
        chart,
        UnitKind.ARTILLERY,
        Grade.VETERAN,
        horse_artillery=horse,
        battery_damage=damage,
        formation_changes=changes,
    )
    assert result.allowance == left
    normal = 18 if horse else 10
    damage_term = next(m for m in result.modifiers if m.label.startswith("Battery damage"))
    assert damage_term.value == -min(normal, normal * damage / 4)


@pytest.mark.parametrize(
    ("scale", "normal", "bonus"), [(GroundScale.SMALL, 7.5, 3), (GroundScale.MEDIUM, 10, 4), (GroundScale.LARGE, 15, 6)]
)
def test_distances_follow_the_ground_scale(chart, scale, normal, bonus):
    """1.2 (R:112-118)."""
    result = movement_allowance(chart, UnitKind.INFANTRY, Grade.GREEN, charge_bonus=True, scale=scale)
    assert (result.allowance, result.charge_bonus) == (normal, bonus)


def test_modifiers_stay_in_chart_inches_while_the_allowance_is_scaled(chart):
    result = movement_allowance(chart, UnitKind.INFANTRY, Grade.GREEN, formation_changes=2, scale=GroundScale.LARGE)
    assert result.modifier_total == -2
    assert result.allowance == 12  # (10 - 2) x 1.5


# --- rough ground -----------------------------------------------------------------------------------


def test_rough_ground_costs_double_for_troops_and_quadruple_for_artillery(chart):
    """3.4 (R:715-725)."""
    infantry = movement_allowance(chart, UnitKind.INFANTRY, Grade.GREEN)
    assert (reach(infantry, Ground.ROUGH).cost, reach(infantry, Ground.ROUGH).reach) == (2, 5)
    guns = movement_allowance(chart, UnitKind.ARTILLERY, Grade.GREEN)
    assert (reach(guns, Ground.ROUGH).cost, reach(guns, Ground.ROUGH).reach) == (4, 2.5)
    assert reach(guns, Ground.OPEN).reach == 10


def test_double_rough_is_double_the_rough_cost_and_double_again_for_artillery(chart):
    infantry = movement_allowance(chart, UnitKind.INFANTRY, Grade.GREEN, terrain_within=(T.HEAVY_FOREST,))
    assert reach(infantry, Ground.DOUBLE_ROUGH).cost == 4
    guns = movement_allowance(chart, UnitKind.ARTILLERY, Grade.GREEN, terrain_within=(T.FORD,))
    assert (reach(guns, Ground.DOUBLE_ROUGH).cost, reach(guns, Ground.DOUBLE_ROUGH).reach) == (8, 1.25)
    assert infantry.provisional and guns.provisional


def test_a_move_without_double_rough_does_not_read_its_provisional_cost(chart):
    result = movement_allowance(chart, UnitKind.CAVALRY_MOUNTED, Grade.GREEN, terrain_within=(T.MEDIUM_FOREST,))
    assert [g.ground for g in result.ground] == [Ground.OPEN, Ground.ROUGH]
    assert not result.provisional
    assert any("Medium forest: rough while any base is within" in note for note in result.notes)


def test_reach_is_rounded_down_to_the_quarter_inch(chart):
    result = movement_allowance(chart, UnitKind.ARTILLERY, Grade.GREEN, horse_artillery=True, battery_damage=1)
    assert result.allowance == 13.5
    assert reach(result, Ground.ROUGH).reach == 3.25  # 13.5 / 4 = 3.375


def test_marshland_is_impassable_to_artillery(chart):
    with pytest.raises(RulesInputError) as err:
        movement_allowance(chart, UnitKind.ARTILLERY, Grade.GREEN, terrain_within=(T.MEDIUM_FOREST, T.MARSHLAND))
    assert err.value.field == "terrain_within[1]"


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


# --- passage of lines -------------------------------------------------------------------------------


@pytest.mark.parametrize(("passages", "bonus"), [(0, 4), (1, 4), (2, 0), (3, 0)])
def test_trained_units_pass_one_unit_free_and_a_second_bars_the_charge_bonus(chart, passages, bonus):
    """3.5 (R:768-771)."""
    result = movement_allowance(chart, UnitKind.INFANTRY, Grade.AVERAGE, charge_bonus=True, passages_of_lines=passages)
    assert result.charge_bonus == bonus
    assert bool(result.charge_bonus_refused) == (bonus == 0)
    assert result.allowance == 10


def test_untrained_passing_any_unit_moves_as_in_rough(chart):
    """3.5 (R:771-772)."""
    result = movement_allowance(chart, UnitKind.INFANTRY, Grade.UNTRAINED, charge_bonus=True, passages_of_lines=2)
    assert result.charge_bonus == 4
    assert any("counts as rough movement" in note for note in result.notes)


# --- invariants -------------------------------------------------------------------------------------


@given(
    kind=st.sampled_from([k for k in UnitKind if k is not UnitKind.ARTILLERY]),
    grade=st.sampled_from(list(Grade)),
    changes=st.integers(0, 6),
    obstacles=st.lists(st.sampled_from([T.TREELINE, T.STREAM_BANK]), max_size=3),
)
def test_one_more_formation_change_never_leaves_more_movement(chart, kind, grade, changes, obstacles):
    base = movement_allowance(chart, kind, grade, formation_changes=changes, obstacles_crossed=tuple(obstacles))
    more = movement_allowance(chart, kind, grade, formation_changes=changes + 1, obstacles_crossed=tuple(obstacles))
    assert 0 <= more.allowance <= base.allowance <= base.normal
    assert all(g.reach <= base.allowance for g in base.ground)


@given(damage=st.integers(0, 6), horse=st.booleans())
def test_more_battery_damage_never_leaves_more_movement(chart, damage, horse):
    less = movement_allowance(chart, UnitKind.ARTILLERY, Grade.GREEN, horse_artillery=horse, battery_damage=damage)
    more = movement_allowance(chart, UnitKind.ARTILLERY, Grade.GREEN, horse_artillery=horse, battery_damage=damage + 1)
    assert 0 <= more.allowance <= less.allowance


# --- tables -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", BOX_KEYS)
def test_movement_box_entries_are_confirmed_with_a_source_except_the_two_designed_ones(chart, key):
    value, use = chart.entry("movement_box", key)
    assert value >= 0
    if key in ("prolong", "double_rough_cost"):
        assert use.provenance is Provenance.PROVISIONAL
    else:
        assert use.provenance is Provenance.CONFIRMED and use.source.startswith("R:")


def test_artillery_in_rough_pays_quadruple_as_the_rules_say(chart):
    """3.4 (R:721-725): 'double the normal rough movement cost, which is quadruple cost'."""
    rough = chart.entry("movement_box", "rough_cost")[0]
    wheeled = chart.entry("movement_box", "wheeled_rough_factor")[0]
    assert rough == 2 and rough * wheeled == 4


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


# --- artillery functions ----------------------------------------------------------------------------


def check(chart, *functions, **options):
    return resolve_battery_functions(chart, BatteryFunctionsInput(tuple(functions), **options))


def test_foot_battery_that_moves_and_unlimbers_may_not_fire(chart):
    """3.5 (R:835-837): it has run out of its two functions."""
    result = check(chart, F.MOVE, F.UNLIMBER, F.FIRE)
    assert not result.allowed and result.function is F.FIRE
    assert "2 functions" in result.problem


def test_foot_battery_that_unlimbers_in_place_may_fire(chart):
    """3.5 (R:837-838)."""
    result = check(chart, F.UNLIMBER, F.FIRE)
    assert result.allowed and not result.limbered_after and result.problem == ""


def test_horse_battery_may_move_unlimber_and_fire(chart):
    """3.5 (R:834-835): three functions."""
    result = check(chart, F.MOVE, F.UNLIMBER, F.FIRE, horse_artillery=True)
    assert result.allowed and result.functions_available == 3


@pytest.mark.parametrize(
    ("functions", "options", "function", "words"),
    [
        ((F.UNLIMBER, F.LIMBER, F.UNLIMBER), {"horse_artillery": True}, F.UNLIMBER, "twice"),
        ((F.FIRE,), {}, F.FIRE, "limbered"),
        ((F.MOVE,), {"limbered": False}, F.MOVE, "must limber"),
        ((F.PROLONG,), {}, F.PROLONG, "must unlimber"),
        ((F.LIMBER,), {}, F.LIMBER, "must unlimber"),
        ((F.UNLIMBER,), {"m_hits": 4}, F.UNLIMBER, "demoralized"),
        ((F.FIRE,), {"limbered": False, "m_hits": 4}, F.FIRE, "silenced"),
        ((F.MOVE,), {"m_hits": 3, "toward_enemy": True}, F.MOVE, "shaken"),
        ((F.PROLONG,), {"limbered": False, "m_hits": 3, "toward_enemy": True}, F.PROLONG, "shaken"),
        ((F.LIMBER, F.MOVE), {"limbered": False, "m_hits": 4, "toward_enemy": True}, F.MOVE, "demoralized"),
        ((F.FIRE, F.PROLONG), {"limbered": False}, F.FIRE, "last"),
    ],
)
def test_a_plan_that_breaks_a_rule_names_the_first_function_at_fault(chart, functions, options, function, words):
    result = check(chart, *functions, **options)
    assert not result.allowed
    assert result.function is function
    assert words in result.problem


@pytest.mark.parametrize(
    ("functions", "options"),
    [
        ((F.MOVE,), {"m_hits": 3}),
        ((F.LIMBER, F.MOVE), {"limbered": False, "m_hits": 4}),
        ((F.PROLONG, F.FIRE), {"limbered": False, "m_hits": 2, "toward_enemy": True}),
        ((F.LIMBER, F.MOVE, F.UNLIMBER), {"limbered": False, "horse_artillery": True}),
        ((), {}),
    ],
)
def test_plans_within_the_rules_are_allowed(chart, functions, options):
    assert check(chart, *functions, **options).allowed


def test_prolonging_gives_the_provisional_distance_and_its_fire_penalty(chart):
    result = check(chart, F.PROLONG, F.FIRE, limbered=False, scale=GroundScale.LARGE)
    assert result.prolong_distance == 1.5 * chart.entry("movement_box", "prolong")[0]
    assert result.provisional
    assert any("loses simultaneous fire" in note for note in result.notes)
    assert check(chart, F.UNLIMBER, F.FIRE).prolong_distance is None


# --- leaders ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rally_step", "scale", "distance"),
    [(False, GroundScale.MEDIUM, 25), (True, GroundScale.MEDIUM, 2), (False, GroundScale.SMALL, 18.75)],
)
def test_leaders_move_twenty_five_inches_or_two_in_the_rally_step(chart, rally_step, scale, distance):
    """3.1 (R:616), 1.7 (R:353-354)."""
    assert resolve_leader_move(chart, LeaderMoveInput(rally_step, scale)).distance == distance


# --- bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "options", "field"),
    [
        (UnitKind.INFANTRY, {"formation_changes": -1}, "formation_changes"),
        (UnitKind.INFANTRY, {"formation_changes": 1, "formation_changes_in_rough": -1}, "formation_changes_in_rough"),
        (UnitKind.INFANTRY, {"formation_changes": 1, "formation_changes_in_rough": 2}, "formation_changes_in_rough"),
        (UnitKind.ARTILLERY, {"battery_damage": -1}, "battery_damage"),
        (UnitKind.INFANTRY, {"passages_of_lines": -1}, "passages_of_lines"),
        (UnitKind.ARTILLERY, {"charge_bonus": True}, "charge_bonus"),
        (UnitKind.INFANTRY, {"horse_artillery": True}, "horse_artillery"),
        (UnitKind.CAVALRY_MOUNTED, {"battery_damage": 1}, "battery_damage"),
        (UnitKind.INFANTRY, {"obstacles_crossed": (T.HEDGE, T.VINEYARD)}, "obstacles_crossed[1]"),
        (UnitKind.INFANTRY, {"terrain_within": (T.HEDGE,)}, "terrain_within[0]"),
    ],
)
def test_bad_movement_input_is_refused_naming_the_field(kind, options, field):
    with pytest.raises(RulesInputError) as err:
        MovementInput(kind, Grade.GREEN, **options)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "infantry", "grade": "green", "obstacles_crossed": ["moat"]}, "obstacles_crossed[0]"),
        ({"kind": "infantry", "grade": "green", "terrain_within": ["jungle"]}, "terrain_within[0]"),
        ({"kind": "tank", "grade": "green"}, "kind"),
        ({"kind": "infantry", "grade": "green", "scale": "huge"}, "scale"),
    ],
)
def test_decoding_bad_movement_json_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(MovementInput, data)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"functions": ["move", "dance"]}, "functions[1]"),
        ({"functions": ["move"], "m_hits": 5}, "m_hits"),
        ({"functions": "move"}, "functions"),
    ],
)
def test_decoding_bad_battery_json_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(BatteryFunctionsInput, data)
    assert err.value.field == field


def test_unknown_terrain_feature_is_refused_naming_the_field():
    with pytest.raises(RulesInputError) as err:
        decode(TerrainInput, {"feature": "swamp"})
    assert err.value.field == "feature"


def test_the_movement_mechanic_resolves_from_json(chart):
    inputs = decode(
        MovementInput,
        {
            "kind": "cavalry_mounted",
            "grade": "veteran",
            "charge_bonus": True,
            "obstacles_crossed": ["treeline"],
            "scale": "large",
        },
    )
    data = encode(resolve_movement_allowance(chart, inputs))
    assert (data["allowance"], data["charge_bonus"], data["with_charge"]) == (25.5, 10.5, 36)
    assert data["charge_bonus_barred_in"] == ["treeline"]
    assert data["provisional"] is False


def test_the_mechanics_are_offered_by_name():
    from republic.rules.catalog import MECHANICS

    assert {"maneuver", "movement_allowance", "battery_functions", "terrain_effects", "leader_move"} <= set(MECHANICS)
