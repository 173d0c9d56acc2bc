"""Artillery fire (4.2-4.6): the roll drifting the basic cell, the modifiers and column shifts, range in the
game's scale, bad input, the order a higher roll and a closer target keep, and when a battery may save its
fire."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.charts import shipped_chart
from republic.rules.artillery import COLUMNS, ArtilleryFireInput, resolve_artillery_fire
from republic.rules.catalog import mechanic
from republic.rules.codec import decode
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import ArtilleryHitsInput
from republic.rules.hits import Hits
from republic.rules.results import Provenance
from republic.rules.saved_fire import SavedFireInput, resolve_saved_fire
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryType, Cover, Formation, UnitKind
from tests.rules.artillery_cells import at_least, cell
from tests.rules.unit_states import battery, brigade


def fire(chart, battery, range_, face, **kw):
    return resolve_artillery_fire(chart, ArtilleryFireInput(BatteryType(battery), range_, d10(face), **kw))


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
    result = fire(chart, "m_sb", 2, 10, saved_fire=True, deep_target=True, deep_range=3)
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


# --- point blank, uncovered bases and compound targets (4.3, 4.5) ------------------------------------------


def test_at_point_blank_the_deep_target_counts_only_within_the_next_bracket_out(chart):
    """R:1099-1104: "If the range to a target's front is 1½", the deep target modifier is only applied if the three
    base depth lines-up at less than 4" range, instead of extending to 5½"." At 3" the next bracket out ends at the
    chart's third bracket; beyond point blank nothing more is asked."""
    with pytest.raises(RulesInputError) as unasked:
        fire(chart, "m_sb", 1.5, 5, deep_target=True)
    assert unasked.value.field == "deep_range" and 'within 4"' in unasked.value.problem
    deep = 'Deep Target: three or more bases within 4" depth'
    inside = fire(chart, "m_sb", 1.5, 5, deep_target=True, deep_range=3.5)
    assert deep in [s.label for s in inside.shifts]
    beyond = fire(chart, "m_sb", 1.5, 5, deep_target=True, deep_range=5.5)
    assert deep not in [s.label for s in beyond.shifts] and any("no deep target" in n for n in beyond.notes)
    next_out = chart.entry("artillery_ranges", "r3")[0]
    assert deep in [s.label for s in fire(chart, "m_sb", 3, 5, deep_target=True, deep_range=next_out - 0.5).shifts]
    assert deep not in [s.label for s in fire(chart, "m_sb", 3, 5, deep_target=True, deep_range=next_out).shifts]
    assert deep in [s.label for s in fire(chart, "m_sb", 5, 5, deep_target=True).shifts]


def test_fire_at_the_uncovered_bases_of_a_covered_unit_takes_no_cover_shift(chart):
    """R:1132-1136: the battery fires without cover modifiers at the uncovered portion."""
    covered = fire(chart, "m_sb", 5, 5, cover=Cover.MEDIUM)
    uncovered = fire(chart, "m_sb", 5, 5, cover=Cover.MEDIUM, uncovered_bases=2, deep_target=True)
    assert "At Medium Cover" in [s.label for s in covered.shifts]
    assert "At Medium Cover" not in [s.label for s in uncovered.shifts]
    assert any("2 uncovered bases" in note for note in uncovered.notes)


def test_a_compound_target_takes_the_modifiers_most_favourable_to_the_battery(chart):
    """R:1199-1201: an open order brigade with a close order tandem takes no open order -2; a mounted main target
    with a foot tandem is not moving cavalry."""
    gun = battery(battery_type=BatteryType.M_SB)
    loose = brigade(formation=Formation.OPEN_ORDER)
    alone = ArtilleryFireInput.of(gun, (), loose, range=5, roll=d10(5))
    assert alone.open_order and not alone.waived
    both_loose = ArtilleryFireInput.of(gun, (), loose, range=5, roll=d10(5), secondary=(loose,))
    assert both_loose.open_order
    mixed = ArtilleryFireInput.of(gun, (), loose, range=5, roll=d10(5), secondary=(brigade("2nd"),))
    assert not mixed.open_order and mixed.waived == ("open_order",)
    assert any("At open order not taken" in note for note in resolve_artillery_fire(chart, mixed).notes)
    horse = brigade(kind=UnitKind.CAVALRY_MOUNTED)
    riding = ArtilleryFireInput.of(gun, (), horse, range=5, roll=d10(5), moving_cavalry=True, secondary=(brigade(),))
    assert not riding.moving_cavalry and riding.waived == ("moving_cavalry",)
