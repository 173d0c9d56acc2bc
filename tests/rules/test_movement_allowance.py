"""Movement allowances (1.2, 1.7, 3.1, 3.4, 3.5): the movement box, the charge bonus, formation changes and
battery damage, rough ground, passage of lines, a leader's move, the ground scale, and bad input to them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.catalog import MECHANICS
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
from republic.rules.terrain import TerrainFeature as T
from republic.rules.troops import Grade, UnitKind


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


# --- leaders ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rally_step", "scale", "distance"),
    [(False, GroundScale.MEDIUM, 25), (True, GroundScale.MEDIUM, 2), (False, GroundScale.SMALL, 18.75)],
)
def test_leaders_move_twenty_five_inches_or_two_in_the_rally_step(chart, rally_step, scale, distance):
    """3.1 (R:616), 1.7 (R:353-354)."""
    assert resolve_leader_move(chart, LeaderMoveInput(rally_step, scale)).distance == distance


@pytest.mark.parametrize(
    ("scale", "moved", "moved_before", "left"),
    [
        (GroundScale.MEDIUM, 2, 0, 0),
        (GroundScale.MEDIUM, 0.5, 1.2, 0.3),
        (GroundScale.MEDIUM, 0.2, 1.8, 0),  # 2 - 1.8 is 0.2 to the hundredth, not a float's 0.19999...
        (GroundScale.LARGE, 3, 0, 0),
        (GroundScale.SMALL, 1, 0, 0.5),
    ],
)
def test_a_rally_step_leader_move_within_the_two_inches_leaves_the_rest(chart, scale, moved, moved_before, left):
    """1.7 (R:352-354): 'up to 2\"' in the rally step, for the whole step; a distance is the game's scale (1.2)."""
    result = resolve_leader_move(chart, LeaderMoveInput(True, scale, moved=moved, moved_before=moved_before))
    assert result.left == left


@pytest.mark.parametrize(
    ("rally_step", "scale", "moved", "moved_before", "problem"),
    [
        (True, GroundScale.MEDIUM, 2.5, 0, '2.5" is too far: a leader moves at most 2" in the rally step'),
        (True, GroundScale.MEDIUM, 1, 1.5, 'at most 2" in the rally step, and 0.5" of it is left after the earlier'),
        (True, GroundScale.LARGE, 3.25, 0, 'at most 3" in the rally step'),
        (False, GroundScale.MEDIUM, 26, 0, '26" is too far: a leader moves at most 25" in a turn'),
    ],
)
def test_a_leader_move_beyond_the_allowance_is_refused_by_its_field(
    chart, rally_step, scale, moved, moved_before, problem
):
    """1.7 (R:352-354), 3.1 (R:616): the allowance is a limit, at the game's scale."""
    with pytest.raises(RulesInputError) as err:
        resolve_leader_move(chart, LeaderMoveInput(rally_step, scale, moved=moved, moved_before=moved_before))
    assert err.value.field == "moved" and problem in err.value.problem


@pytest.mark.parametrize("field", ["moved", "moved_before"])
def test_a_negative_leader_move_is_refused(field):
    with pytest.raises(RulesInputError) as err:
        LeaderMoveInput(True, **{field: -1})
    assert err.value.field == field


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
    assert {"maneuver", "movement_allowance", "battery_functions", "terrain_effects", "leader_move"} <= set(MECHANICS)
