"""Artillery fire (4.2-4.6): the table, its modifiers, drift, targets and saved fire."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.charts import shipped_chart
from republic.rules.artillery import (
    COLUMNS,
    RANGE_COLUMNS,
    SHIFT_COLUMNS,
    ArtilleryFireInput,
    SavedFireInput,
    resolve_artillery_fire,
    resolve_saved_fire,
)
from republic.rules.catalog import mechanic
from republic.rules.codec import decode, encode
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import (
    ArtilleryHitsInput,
    FireTarget,
    TargetKind,
    TargetRole,
    resolve_artillery_hits,
    share_hits,
)
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.results import Provenance
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryType, Cover, Grade

TYPES = [b.value for b in BatteryType]
LIMITS = {name: shipped_chart().entry("artillery_ranges", name)[0] for name in RANGE_COLUMNS}


def cell(chart, battery, column):
    return chart.cell("artillery", battery, column)[0]


def at_least(stronger: Hits | None, weaker: Hits | None) -> bool:
    """Componentwise: never fewer M and never fewer B; a null cell (out of reach) is weaker than any."""
    if weaker is None:
        return True
    if stronger is None:
        return False
    return stronger.m >= weaker.m and stronger.b >= weaker.b


def fire(chart, battery, range_, face, **kw):
    return resolve_artillery_fire(chart, ArtilleryFireInput(BatteryType(battery), range_, d10(face), **kw))


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


@pytest.mark.parametrize(("modified", "shift"), [(14, -2), (10, -2), (9, -1), (8, 0), (3, 0), (2, 1), (1, 2), (-3, 2)])
def test_drift_moves_two_left_on_ten_and_two_right_on_one(chart, modified, shift):
    """T7 (R:1029-1034)."""
    value, use = chart.band("artillery_drift", modified)
    assert value == shift and use.provenance is Provenance.CONFIRMED


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


# --- fire --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "column"), [(10, "r2"), (9, "r3"), (5, "r4"), (3, "r4"), (2, "r5"), (1, "r6")])
def test_the_roll_drifts_the_basic_cell(chart, face, column):
    """T7 (R:1029-1034) through a whole fire: an 8" shot moves two cells left on a 10, two right on a 1."""
    result = fire(chart, "m_sb", 8, face)
    assert result.range_column == "r4"
    assert result.final_column == column
    assert result.result == cell(chart, "m_sb", column)


def test_a_shaken_battery_with_one_damage_rolls_at_minus_four(chart):
    """T8 (R:1154-1155)."""
    result = fire(chart, "m_rifle", 5, 7, m_hits=3, damage=1)
    assert result.modifier_total == -4 and result.modified_roll == 3
    assert [m.value for m in result.modifiers] == [-4]


def test_a_packed_battery_target_takes_double(chart):
    """T11 (R:1279-1281): 1M becomes 2M."""
    result = fire(chart, "m_sb", 10, 5, packed_battery=True)
    assert result.result == Hits(m=1) and result.on_target == Hits(m=2)


def test_enfilade_at_packed_skirmishers_nets_plus_one(chart):
    """R:1139-1141: +3 enfilade and -2 packed skirmishers cancel in part."""
    result = fire(chart, "m_sb", 6, 6, enfilade=True, packed_skirmishers=True)
    assert result.modified_roll == 7 and result.modifier_total == 1


def test_a_square_is_a_deep_and_an_enfilade_target(chart):
    result = fire(chart, "m_sb", 8, 5, square=True)
    assert [s.value for s in result.shifts] == [-1]
    assert result.modified_roll == 8
    assert result.final_column == "r3"


def test_joint_fire_moves_one_column_left_per_base_and_totals_for_the_group(chart):
    result = fire(chart, "m_sb", 10, 5, joint_bases=4)
    assert sum(s.value for s in result.shifts) == -4
    assert result.final_column == "r1"
    assert result.result == cell(chart, "m_sb", "r1")


def test_a_mass_battery_may_not_use_saved_fire():
    with pytest.raises(RulesInputError) as err:
        ArtilleryFireInput(BatteryType.M_SB, 10, d10(5), joint_bases=2, saved_fire=True)
    assert err.value.field == "saved_fire"


def test_shifts_beyond_the_leftmost_cell_stay_on_it_and_reach_4m_3b(chart):
    result = fire(chart, "m_sb", 2, 10, saved_fire=True, deep_target=True)
    assert result.final_column == COLUMNS[0]
    assert result.result == Hits(m=4, b=3)
    assert any("leftmost" in note for note in result.notes)


def test_shifting_past_the_batterys_reach_is_no_effect(chart):
    onto_null = fire(chart, "l_sb", 15, 5, cover=Cover.MEDIUM)
    assert onto_null.final_column == "r8" and onto_null.result == Hits()
    off_table = fire(chart, "h_rifle", 22, 1, cover=Cover.HEAVY, moving_cavalry=True)
    assert off_table.final_column.startswith("beyond") and not off_table.result


def test_cover_and_moving_cavalry_move_right(chart):
    result = fire(chart, "h_rifle", 4, 5, cover=Cover.HEAVY, moving_cavalry=True)
    assert sum(s.value for s in result.shifts) == 3
    assert result.final_column == "r5"


def test_light_cover_moves_no_column(chart):
    assert fire(chart, "h_rifle", 4, 5, cover=Cover.LIGHT).shifts == ()


@pytest.mark.parametrize(("battery", "too_far"), [("l_sb", 15.25), ("m_sb", 18.5), ("m_rifle", 22.5), ("h_rifle", 30)])
def test_out_of_range_is_refused(chart, battery, too_far):
    with pytest.raises(RulesInputError) as err:
        fire(chart, battery, too_far, 5)
    assert err.value.field == "range" and "away" in str(err.value)


def test_range_is_measured_in_the_games_scale(chart):
    assert fire(chart, "l_sb", 22.5, 5, scale=GroundScale.LARGE).range_column == "r7"
    with pytest.raises(RulesInputError):
        fire(chart, "l_sb", 11.5, 5, scale=GroundScale.SMALL)


def test_a_demoralized_battery_is_silenced():
    with pytest.raises(RulesInputError) as err:
        ArtilleryFireInput(BatteryType.H_RIFLE, 4, d10(5), m_hits=4)
    assert err.value.field == "m_hits" and "silenced" in err.value.problem


def test_fire_reads_provisional_cells_and_says_so(chart):
    result = fire(chart, "m_rifle", 9, 5)
    assert result.provisional
    assert any(c.table == "artillery_drift" and c.provenance is Provenance.CONFIRMED for c in result.cells)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"battery": "howitzer", "range": 4, "roll": 5}, "battery"),
        ({"battery": "m_sb", "range": -2, "roll": 5}, "range"),
        ({"battery": "m_sb", "range": 4, "roll": [5, 5]}, "roll"),
        ({"battery": "m_sb", "range": 4, "roll": 0}, "roll"),
        ({"battery": "m_sb", "range": 4, "roll": 5, "joint_bases": 0}, "joint_bases"),
        ({"battery": "m_sb", "range": 4, "roll": 5, "damage": -1}, "damage"),
        ({"battery": "m_sb", "range": 4, "roll": 5, "m_hits": 5}, "m_hits"),
        ({"battery": "m_sb", "range": 4, "roll": 5, "deep_target": True, "cover": "light"}, "deep_target"),
        ({"battery": "m_sb", "range": 4, "roll": 5, "square": True, "open_order": True}, "open_order"),
        (
            {"battery": "m_sb", "range": 4, "roll": 5, "packed_skirmishers": True, "packed_battery": True},
            "packed_battery",
        ),
        ({"battery": "m_sb", "range": 4, "roll": 5, "square": True, "moving_cavalry": True}, "moving_cavalry"),
    ],
)
def test_bad_fire_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(ArtilleryFireInput, data)
    assert err.value.field == field


fire_inputs = st.builds(
    dict,
    battery=st.sampled_from(list(BatteryType)),
    range_=st.floats(0, 15),
    saved_fire=st.booleans(),
    m_hits=st.integers(0, 3),
    damage=st.integers(0, 3),
    cover=st.sampled_from(list(Cover)),
    moving_cavalry=st.booleans(),
    enfilade=st.booleans(),
    passing_fire=st.booleans(),
)


@given(fire_inputs, st.integers(1, 9))
def test_a_higher_roll_never_does_worse(kw, face):
    chart = shipped_chart()
    battery, range_ = kw.pop("battery"), kw.pop("range_")
    low = resolve_artillery_fire(chart, ArtilleryFireInput(battery, range_, d10(face), **kw))
    high = resolve_artillery_fire(chart, ArtilleryFireInput(battery, range_, d10(face + 1), **kw))
    assert at_least(high.result, low.result)


@given(fire_inputs, st.floats(0, 15), st.integers(1, 10))
def test_a_closer_target_never_takes_less(kw, other_range, face):
    chart = shipped_chart()
    battery, range_ = kw.pop("battery"), kw.pop("range_")
    near, far = sorted((range_, other_range))
    closer = resolve_artillery_fire(chart, ArtilleryFireInput(battery, near, d10(face), **kw))
    farther = resolve_artillery_fire(chart, ArtilleryFireInput(battery, far, d10(face), **kw))
    assert at_least(closer.result, farther.result)


# --- hits on the targets -----------------------------------------------------------------------------


def unit(bases, m_hits=0):
    return FireTarget(TargetKind.UNIT, bases, m_hits)


def by_role(result):
    return {t.role: t for t in result.targets}


def test_a_rattled_unit_taking_3m_1b_is_demoralized_with_one_panic_hit(chart):
    """T9 (R:1275-1278)."""
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3, b=1), unit(4, m_hits=2)))
    main = by_role(result)[TargetRole.MAIN]
    assert (main.condition, main.panic_hits, main.bases_lost) == (Condition.DEMORALIZED, 1, 1)


def test_a_demoralized_unit_taking_3m_takes_3p(chart):
    """T10 (R:1276-1278)."""
    main = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3), unit(4, m_hits=4))).targets[0]
    assert main.panic_hits == 3 and main.m_after == 4


def test_a_packed_battery_takes_its_share_doubled(chart):
    """T11 (R:1279-1281)."""
    battery = FireTarget(TargetKind.BATTERY, packed_battery=True)
    main = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=1, b=1), battery)).targets[0]
    assert main.share == Hits(m=1, b=1) and main.taken == Hits(m=2, b=2)
    assert main.damage == 2 and main.bases_lost == 0 and not main.destroyed


@pytest.mark.parametrize(("main_m", "tandem_m"), [(2, 1), (3, 1), (4, 2), (1, 0)])
def test_the_tandem_takes_half_the_main_targets_m_rounded_down(chart, main_m, tandem_m):
    """T12 (R:1255-1258)."""
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=main_m), unit(4), tandem=unit(4)))
    roles = by_role(result)
    assert roles[TargetRole.MAIN].share.m == main_m
    assert roles[TargetRole.TANDEM].share.m == tandem_m


def test_main_destroyed_by_three_b_and_the_tandem_loses_one_base(chart):
    """R:1258-1259: unit A suffers three base hits, is destroyed, and unit C loses one base."""
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=4, b=3), unit(2), tandem=unit(3), adjacent=unit(3))
    )
    roles = by_role(result)
    assert roles[TargetRole.MAIN].destroyed and roles[TargetRole.MAIN].bases_lost == 2
    assert roles[TargetRole.TANDEM].bases_lost == 1 and not roles[TargetRole.TANDEM].destroyed
    assert roles[TargetRole.ADJACENT].share == Hits()
    assert roles[TargetRole.TANDEM].share.m == 2


def test_one_base_main_and_tandem_both_go_and_the_adjacent_loses_one(chart):
    """R:1259-1262: A and C of one base each are removed, along with one base from B."""
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=4, b=3), unit(1), tandem=unit(1), adjacent=unit(4))
    )
    roles = by_role(result)
    assert roles[TargetRole.MAIN].destroyed and roles[TargetRole.TANDEM].destroyed
    assert roles[TargetRole.ADJACENT].bases_lost == 1
    assert result.unassigned_b == 0


def test_the_adjacent_target_takes_nothing_while_the_main_target_stands(chart):
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3, b=2), unit(4), adjacent=unit(4)))
    roles = by_role(result)
    assert roles[TargetRole.ADJACENT].share == Hits()
    assert roles[TargetRole.MAIN].share == Hits(m=3, b=2)


def test_the_adjacent_target_takes_the_balance_and_the_m_in_place_of_a_wiped_out_main_target(chart):
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=3, b=3), unit(2), adjacent=unit(4)))
    roles = by_role(result)
    assert roles[TargetRole.MAIN].share == Hits(m=0, b=2)
    assert roles[TargetRole.ADJACENT].share == Hits(m=3, b=1)


def test_a_wiped_out_main_target_with_no_adjacent_keeps_its_m_and_the_extra_b_are_lost(chart):
    """R:1270-1272: panic hits count even if B hits destroy the unit."""
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=2, b=3), unit(1, m_hits=3)))
    main = result.targets[0]
    assert main.destroyed and main.panic_hits == 1 and result.unassigned_b == 2


def test_a_packed_skirmish_marker_passes_m_to_its_parent_and_b_lowers_the_type(chart):
    """R:1241-1248, R:1272-1274."""
    marker = FireTarget(TargetKind.SKIRMISH_MARKER, m_hits=1, skirmisher_type=Grade.VETERAN)
    main = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=1, b=1), marker)).targets[0]
    assert main.m_after == 2 and main.condition is Condition.RATTLED
    assert main.skirmisher_type is Grade.GREEN
    assert main.bases_lost == 0 and not main.destroyed


def test_a_battery_main_target_absorbs_all_the_b_as_damage(chart):
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(b=4), FireTarget(TargetKind.BATTERY), adjacent=unit(3))
    )
    roles = by_role(result)
    assert roles[TargetRole.MAIN].damage == 4 and roles[TargetRole.ADJACENT].share == Hits()


targets = st.builds(
    FireTarget,
    kind=st.sampled_from([TargetKind.UNIT, TargetKind.BATTERY]),
    bases=st.integers(1, 8),
    m_hits=st.integers(0, 4),
)


@given(st.integers(0, 8), st.integers(0, 10), targets, st.none() | targets, st.none() | targets)
def test_base_hits_are_conserved_and_m_never_negative(m, b, main, tandem, adjacent):
    rolled = Hits(m=m, b=b)
    shares, unassigned = share_hits(rolled, main, tandem, adjacent)
    assert sum(share.b for share in shares.values()) + unassigned == b
    assert unassigned >= 0
    assert all(share.m >= 0 and share.b >= 0 for share in shares.values())
    if tandem is not None:
        assert shares[TargetRole.TANDEM].m == m // 2
        assert shares[TargetRole.TANDEM].b >= 0
    given_targets = {TargetRole.MAIN: main, TargetRole.TANDEM: tandem, TargetRole.ADJACENT: adjacent}
    for role, share in shares.items():
        capacity = given_targets[role].capacity
        assert capacity is None or share.b <= capacity
    if unassigned:
        assert all(given_targets[r].capacity is not None and shares[r].b == given_targets[r].capacity for r in shares)


@given(st.integers(0, 8), st.integers(0, 10), targets, st.none() | targets)
def test_the_adjacent_target_is_hit_only_once_main_and_tandem_are_wiped_out(m, b, main, tandem):
    shares, _ = share_hits(Hits(m=m, b=b), main, tandem, FireTarget(TargetKind.UNIT, 8))
    if shares[TargetRole.ADJACENT]:
        wiped = [
            shares[r].b == t.capacity
            for r, t in ((TargetRole.MAIN, main), (TargetRole.TANDEM, tandem))
            if t is not None
        ]
        assert all(wiped)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"rolled": "2M 1P", "main": {}}, "rolled"),
        ({"rolled": "2M", "main": {"bases": 0}}, "main.bases"),
        ({"rolled": "2M", "main": {"m_hits": 5}}, "main.m_hits"),
        ({"rolled": "2M", "main": {"packed_battery": True}}, "main.packed_battery"),
        ({"rolled": "2M", "main": {"kind": "skirmish_marker"}}, "main.skirmisher_type"),
        ({"rolled": "2M", "main": {}, "tandem": {"skirmisher_type": "green"}}, "tandem.skirmisher_type"),
        ({"rolled": 2, "main": {}}, "rolled"),
    ],
)
def test_bad_hits_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(ArtilleryHitsInput, data)
    assert err.value.field == field


def test_hits_results_encode_for_the_log(chart):
    inputs = decode(ArtilleryHitsInput, {"rolled": "3M 1B", "main": {"bases": 4, "m_hits": 2}, "tandem": {"bases": 3}})
    data = encode(resolve_artillery_hits(chart, inputs))
    assert data["targets"][0]["panic_hits"] == 1 and data["targets"][1]["share"] == "1M"
    assert data["provisional"] is False


# --- saved fire --------------------------------------------------------------------------------------


def test_a_stationary_steady_battery_in_command_may_save_fire(chart):
    result = resolve_saved_fire(chart, SavedFireInput(m_hits=1))
    assert result.allowed and result.reason is None


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"moved_this_turn": True}, "moved"),
        ({"fired_this_phase": True}, "fired"),
        ({"m_hits": 2}, "rattled"),
        ({"m_hits": 4}, "rattled or worse"),
        ({"mass_battery": True}, "mass battery"),
        ({"in_command_radius": False}, "command radius"),
        ({"passing_fire_this_turn": True}, "passing fire"),
    ],
)
def test_each_reason_a_battery_may_not_save_fire(chart, kw, words):
    result = resolve_saved_fire(chart, SavedFireInput(**kw))
    assert not result.allowed and words in result.reason


def test_the_first_reason_is_given(chart):
    result = resolve_saved_fire(chart, SavedFireInput(moved_this_turn=True, m_hits=3, mass_battery=True))
    assert "moved" in result.reason


def test_saved_fire_refuses_an_impossible_condition():
    with pytest.raises(RulesInputError) as err:
        decode(SavedFireInput, {"m_hits": 7})
    assert err.value.field == "m_hits"


def test_the_artillery_mechanics_are_registered():
    assert mechanic("artillery_fire").inputs is ArtilleryFireInput
    assert mechanic("artillery_hits").inputs is ArtilleryHitsInput
    assert mechanic("saved_fire").inputs is SavedFireInput
