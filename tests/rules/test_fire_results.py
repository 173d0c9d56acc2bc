"""The fire phase on units (4.2, 4.5, 4.6): a battery's fire built from its state, the hits each fire leaves
waiting on the units it hit, and all of a unit's hits of the phase put on at once at the end of the artillery
step; saved fire kept, used and lost."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.artillery import ArtilleryFireInput, after_firing, resolve_artillery_fire
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import (
    ArtilleryHitsInput,
    FireHits,
    FireTarget,
    TargetKind,
    TargetRole,
    after_fire_hits,
    fire_hits,
    resolve_artillery_hits,
    resolve_fire_hits,
    share_hits,
    waiting_hits,
)
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.saved_fire import SavedFireInput, after_saving_fire, resolve_saved_fire
from republic.rules.troops import BatteryType, Cover, Formation, Grade, UnitKind
from tests.rules.unit_states import battery, brigade

# --- a battery's fire from its state (4.2-4.4) --------------------------------------------------------


def test_a_lone_battery_fires_with_its_own_type_hits_damage_and_saved_fire():
    gun = battery(battery_type=BatteryType.H_RIFLE, m_hits=1, damage=1, saved_fire=True)
    inputs = ArtilleryFireInput.of(gun, (), brigade(), range=7.0, roll=d10(5))
    assert (inputs.battery, inputs.joint_bases, inputs.saved_fire) == (BatteryType.H_RIFLE, 1, True)
    assert (inputs.m_hits, inputs.damage) == (1, 1)
    assert not inputs.open_order and not inputs.packed_battery


def test_a_joint_group_fires_with_all_its_bases_its_most_hit_batterys_hits_and_no_saved_fire():
    """4.2, 4.3: a mass battery block may not use saved fire; the group fires as one roll."""
    gun = battery("a", saved_fire=True)
    joined = (battery("b", m_hits=1, damage=2), battery("c", m_hits=2))
    inputs = ArtilleryFireInput.of(gun, joined, brigade(), range=5.0, roll=d10(5))
    assert (inputs.joint_bases, inputs.saved_fire, inputs.m_hits, inputs.damage) == (3, False, 1, 2)


def test_a_brigade_in_open_order_is_an_open_order_target():
    target = brigade(formation=Formation.OPEN_ORDER)
    assert ArtilleryFireInput.of(battery(), (), target, range=5.0, roll=d10(5)).open_order


def test_fire_at_a_brigades_packed_markers_is_at_packed_skirmishers_not_at_open_order():
    target = brigade(formation=Formation.OPEN_ORDER, skirmishers_available=2, skirmishers_deployed=2)
    inputs = ArtilleryFireInput.of(battery(), (), target, range=5.0, roll=d10(5), packed_skirmishers=True)
    assert inputs.packed_skirmishers and not inputs.open_order


def test_a_packed_battery_target_takes_the_fire_doubled(chart):
    """4.6 (R:1279-1281)."""
    inputs = ArtilleryFireInput.of(battery(), (), battery("target", packed=True), range=3.0, roll=d10(5))
    assert inputs.packed_battery
    result = resolve_artillery_fire(chart, inputs)
    assert result.result and result.on_target == result.result.doubled()


def test_a_battery_with_saved_fire_fires_one_column_left_and_then_has_none(chart):
    gun = battery(saved_fire=True)
    saved = resolve_artillery_fire(chart, ArtilleryFireInput.of(gun, (), brigade(), range=5.0, roll=d10(5)))
    plain = resolve_artillery_fire(chart, ArtilleryFireInput.of(battery(), (), brigade(), range=5.0, roll=d10(5)))
    assert [m.value for m in saved.shifts] == [-1] and plain.shifts == ()
    after = after_firing(gun)
    assert after.fired_this_turn and not after.saved_fire


@pytest.mark.parametrize(
    ("target", "options", "field"),
    [
        (brigade(), {"packed_skirmishers": True}, "packed_skirmishers"),
        (battery("target"), {"packed_skirmishers": True}, "packed_skirmishers"),
        (brigade(), {"moving_cavalry": True}, "moving_cavalry"),
        (brigade(kind=UnitKind.CAVALRY_DISMOUNTED), {"moving_cavalry": True}, "moving_cavalry"),
    ],
)
def test_target_flags_the_target_cannot_have_are_refused(target, options, field):
    with pytest.raises(RulesInputError) as error:
        ArtilleryFireInput.of(battery(), (), target, range=5.0, roll=d10(5), **options)
    assert error.value.field == field


def test_mounted_cavalry_may_be_moving_cavalry():
    target = brigade(kind=UnitKind.CAVALRY_MOUNTED)
    assert ArtilleryFireInput.of(battery(), (), target, range=5.0, roll=d10(5), moving_cavalry=True).moving_cavalry


def test_only_a_battery_fires_on_the_artillery_table():
    with pytest.raises(RulesInputError) as error:
        ArtilleryFireInput.of(brigade(), (), brigade("target"), range=5.0, roll=d10(5))
    assert error.value.field == "battery"


def test_a_demoralized_battery_is_silenced():
    """2.3: unlimbered artillery that is demoralized is silenced."""
    with pytest.raises(RulesInputError, match="silenced"):
        ArtilleryFireInput.of(battery(m_hits=4), (), brigade(), range=5.0, roll=d10(5))


def test_the_range_and_cover_of_the_fire_are_the_tables():
    inputs = ArtilleryFireInput.of(battery(), (), brigade(), range=9.5, roll=d10(3), cover=Cover.HEAVY)
    assert (inputs.range, inputs.roll, inputs.cover) == (9.5, d10(3), Cover.HEAVY)


# --- saving fire (4.2) --------------------------------------------------------------------------------


def test_a_steady_battery_in_command_may_save_its_fire_and_holds_one_marker(chart):
    gun = battery(m_hits=1)
    assert resolve_saved_fire(chart, SavedFireInput.of(gun)).allowed
    saved = after_saving_fire(gun)
    assert saved.saved_fire and after_saving_fire(saved) == saved


@pytest.mark.parametrize("m_hits", [2, 3, 4])
def test_a_rattled_or_worse_battery_may_not_save_fire(chart, m_hits):
    """4.2 (R:1080-1081)."""
    result = resolve_saved_fire(chart, SavedFireInput.of(battery(m_hits=m_hits)))
    assert not result.allowed and "R:1080-1081" in result.reason


def test_a_battery_that_moved_or_is_out_of_command_may_not_save_fire(chart):
    moved = resolve_saved_fire(chart, SavedFireInput.of(battery(), moved_this_turn=True))
    assert not moved.allowed and "moved" in moved.reason
    out = resolve_saved_fire(chart, SavedFireInput.of(battery(), in_command_radius=False))
    assert not out.allowed and "command radius" in out.reason


# --- hits waiting until the end of the artillery step ---------------------------------------------------


def test_fire_hits_add_up_per_kind():
    assert FireHits("a", 1, 2, 0) + FireHits("a", 2, 0, 1) == FireHits("a", 3, 2, 1)
    assert not FireHits("a") and FireHits("a", marker_b=1)


@pytest.mark.parametrize("field", ["m", "b", "marker_b"])
def test_negative_fire_hits_are_refused(field):
    with pytest.raises(RulesInputError) as error:
        FireHits("a", **{field: -1})
    assert error.value.field == field


def test_the_hits_of_the_phase_are_summed_per_unit():
    totals = waiting_hits([FireHits("a", m=1), FireHits("b", b=1), FireHits("a", m=2, b=1), FireHits("a")])
    assert totals == {"a": FireHits("a", 3, 1), "b": FireHits("b", 0, 1)}


hits_lists = st.lists(
    st.builds(FireHits, st.sampled_from(["a", "b", "c"]), st.integers(0, 3), st.integers(0, 3), st.integers(0, 2)),
    max_size=8,
)


@given(hits_lists)
def test_summing_the_waiting_hits_loses_none_and_does_not_depend_on_the_order(hits):
    totals = waiting_hits(hits)
    assert waiting_hits(list(reversed(hits))) == totals
    for field in ("m", "b", "marker_b"):
        assert sum(getattr(t, field) for t in totals.values()) == sum(getattr(h, field) for h in hits)
    assert all(unit == hit.unit for unit, hit in totals.items())


# --- a unit as a fire finds it (4.5) ------------------------------------------------------------------


def test_a_brigade_is_a_target_with_the_bases_and_m_the_earlier_fire_left_it():
    target = FireTarget.of(brigade(bases=5, m_hits=3), FireHits("1st", m=2, b=2))
    assert (target.kind, target.bases, target.m_hits) == (TargetKind.UNIT, 3, 4)
    assert target.capacity == 3


def test_a_battery_is_a_battery_target_packed_as_it_stands():
    target = FireTarget.of(battery(packed=True, m_hits=1), FireHits("bty", m=1, b=2))
    assert (target.kind, target.packed_battery, target.m_hits, target.capacity) == (TargetKind.BATTERY, True, 2, None)


def test_packed_markers_are_a_target_of_the_brigades_skirmisher_type():
    unit = brigade(grade=Grade.VETERAN, skirmisher_grade=Grade.GREEN, skirmishers_available=2, skirmishers_deployed=2)
    target = FireTarget.of(unit, packed_skirmishers=True)
    assert (target.kind, target.skirmisher_type, target.capacity) == (TargetKind.SKIRMISH_MARKER, Grade.GREEN, None)


def test_b_a_unit_hit_earlier_in_the_phase_cannot_absorb_pass_on_to_the_tandem():
    """4.5 (R:1188-1191): fire is simultaneous, so a main target left with one base takes one B and the
    tandem the balance."""
    main = FireTarget.of(brigade("a", bases=4), FireHits("a", b=3))
    shares, unassigned = share_hits(Hits(b=2), main, FireTarget.of(brigade("c")))
    assert (shares[TargetRole.MAIN].b, shares[TargetRole.TANDEM].b, unassigned) == (1, 1, 0)


# --- one fire's hits, left waiting on the units it hit --------------------------------------------------


def test_one_fire_leaves_m_and_b_on_the_main_target_and_its_share_on_the_tandem(chart):
    """4.5 (R:1255-1259): unit A takes 4M and is wiped out by 3B; unit C takes 2M and the carried-over B."""
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=4, b=3), FireTarget(bases=2), tandem=FireTarget(bases=3))
    )
    waiting = fire_hits(result, {TargetRole.MAIN: "A", TargetRole.TANDEM: "C"})
    assert waiting == (FireHits("A", m=4, b=2), FireHits("C", m=2, b=1))


def test_a_markers_m_wait_on_its_brigade_and_its_b_on_the_brigades_skirmishers(chart):
    marker = FireTarget(TargetKind.SKIRMISH_MARKER, m_hits=0, skirmisher_type=Grade.VETERAN)
    result = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=1, b=1), marker))
    assert fire_hits(result, {TargetRole.MAIN: "1st"}) == (FireHits("1st", m=1, b=0, marker_b=1),)


def test_a_packed_batterys_doubled_hits_wait_on_it_as_m_and_damage(chart):
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=1, b=1), FireTarget(TargetKind.BATTERY, packed_battery=True))
    )
    assert fire_hits(result, {TargetRole.MAIN: "bty"}) == (FireHits("bty", m=2, b=2),)


def test_a_target_the_fire_left_untouched_has_nothing_waiting(chart):
    result = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=1), FireTarget(bases=4), adjacent=FireTarget(bases=4))
    )
    assert fire_hits(result, {TargetRole.MAIN: "A", TargetRole.ADJACENT: "B"}) == (FireHits("A", m=1),)


# --- the end of the artillery step: a unit's hits put on at once --------------------------------------


def test_a_rattled_unit_taking_3m_1b_is_demoralized_with_one_p_hit_and_loses_a_base():
    """4.6 example (R:1275-1278)."""
    unit = brigade(m_hits=2)
    result = resolve_fire_hits(unit, FireHits("1st", m=3, b=1))
    assert (result.condition_after, result.panic_hits, result.bases_lost, result.bases_after) == (
        Condition.DEMORALIZED,
        1,
        1,
        5,
    )
    after = after_fire_hits(unit, result)
    assert (after.m_hits, after.p_hits_turn, after.bases, after.base_hits_turn) == (4, 1, 5, 1)


def test_a_unit_demoralized_at_the_start_of_the_phase_takes_every_m_as_a_p():
    """4.6 example (R:1276-1278)."""
    after = after_fire_hits(
        brigade(m_hits=4, p_hits_turn=1), resolve_fire_hits(brigade(m_hits=4), FireHits("1st", m=3))
    )
    assert (after.m_hits, after.p_hits_turn) == (4, 4)


def test_a_unit_wiped_out_by_b_keeps_its_p_hits_for_division_panic():
    """4.6 (R:1270-1272): panic hits are still active even if B hits destroy the unit."""
    unit = brigade(bases=2, bases_start=6, m_hits=4)
    result = resolve_fire_hits(unit, FireHits("1st", m=2, b=5))
    assert result.destroyed and result.bases_lost == 2 and result.panic_hits == 2
    after = after_fire_hits(unit, result)
    assert after.destroyed and after.bases == 0 and after.p_hits_turn == 2 and after.base_hits_turn == 2
    assert not result.p4_event and not after.p4_event  # Panic 2: its division does not test for it


@pytest.mark.parametrize(
    ("earlier", "m", "p4"), [(0, 4, False), (0, 5, True), (1, 3, False), (2, 3, True), (3, 1, False)]
)
def test_a_unit_wiped_out_with_panic_4_marks_its_divisions_test(earlier, m, p4):
    """R:1270-1272: "Any panic hits inflicted are still active for purposes of division panic even if B hits
    completely destroy the unit"; R:1866-1868: "if the unit(s) which experienced the P4 hit were entirely
    destroyed ... the division still reacts to the P4 event". No panic test follows for a unit that is gone, so
    the Panic 4 it would have read (P hits of the turn, 4.7) is marked with the hits."""
    unit = brigade(bases=2, bases_start=6, m_hits=4, p_hits_turn=earlier)
    result = resolve_fire_hits(unit, FireHits("1st", m=m - 1, b=5))  # a demoralized unit: every M becomes P
    after = after_fire_hits(unit, result)
    assert after.destroyed and after.p_hits_turn == earlier + m - 1
    assert result.p4_event is p4 and after.p4_event is p4
    survivor = resolve_fire_hits(
        brigade(bases=6, bases_start=6, m_hits=4, p_hits_turn=earlier), FireHits("1st", m=m, b=1)
    )
    assert not survivor.p4_event  # a unit still there makes its demoralized panic test, which reads its level


def test_b_on_a_battery_is_damage_and_never_removes_it():
    """1.3 (R:226-229): a base hit against an artillery base marks the battery damaged."""
    unit = battery(damage=1)
    result = resolve_fire_hits(unit, FireHits("bty", b=3))
    assert (result.bases_lost, result.damage_after, result.destroyed) == (0, 4, False)
    after = after_fire_hits(unit, result)
    assert (after.damage, after.bases, after.abandoned) == (4, 1, False) and after.in_play


@pytest.mark.parametrize(
    ("grade", "lowered", "marker_b", "after"),
    [
        (Grade.VETERAN, None, 1, Grade.GREEN),
        (Grade.AVERAGE, None, 1, Grade.GREEN),
        (Grade.CRACK, None, 2, Grade.GREEN),
        (Grade.VETERAN, Grade.GREEN, 1, Grade.UNTRAINED),
        (Grade.GREEN, None, 5, Grade.UNTRAINED),
    ],
)
def test_b_on_packed_markers_lower_the_brigades_skirmisher_type(grade, lowered, marker_b, after):
    """4.5 (R:1244-1248): each B drops the unit's skirmishers one level; Veteran to Green with one."""
    unit = brigade(grade=grade, skirmisher_grade=lowered, skirmishers_available=2, skirmishers_deployed=2)
    result = resolve_fire_hits(unit, FireHits("1st", m=1, marker_b=marker_b))
    assert result.skirmisher_type is after and result.bases_lost == 0
    hit = after_fire_hits(unit, result)
    assert hit.skirmisher_type is after and hit.grade is grade and hit.bases == unit.bases and hit.m_hits == 1


def test_hits_without_b_on_markers_leave_the_skirmisher_type_as_it_was():
    unit = brigade(grade=Grade.VETERAN, skirmisher_grade=Grade.GREEN)
    result = resolve_fire_hits(unit, FireHits("1st", m=1))
    assert result.skirmisher_type is None
    assert after_fire_hits(unit, result).skirmisher_type is Grade.GREEN


@pytest.mark.parametrize(("m_hits", "m", "lost"), [(0, 1, False), (1, 1, True), (0, 2, True), (1, 3, True)])
def test_a_battery_with_saved_fire_loses_it_on_becoming_rattled_or_worse(m_hits, m, lost):
    """4.2 (R:1080-1084): fire is simultaneous, so the phase's hits together decide it."""
    unit = battery(m_hits=m_hits, saved_fire=True)
    result = resolve_fire_hits(unit, FireHits("bty", m=m))
    assert result.saved_fire_lost is lost
    assert after_fire_hits(unit, result).saved_fire is not lost


def test_a_battery_without_saved_fire_has_none_to_lose():
    result = resolve_fire_hits(battery(), FireHits("bty", m=3))
    assert not result.saved_fire_lost and not after_fire_hits(battery(), result).saved_fire


@pytest.mark.parametrize(
    "gone", [brigade(destroyed=True, bases=0, bases_start=6), brigade(surrendered=True), battery(abandoned=True)]
)
def test_hits_on_a_unit_already_out_of_play_are_lost(gone):
    result = resolve_fire_hits(gone, FireHits(gone.id, m=2, b=2))
    assert result.lost and "out of play" in result.notes[0]
    assert after_fire_hits(gone, result) == gone


@given(st.integers(0, 4), st.integers(1, 8), st.integers(0, 6), st.integers(0, 6), st.integers(0, 3))
def test_a_brigades_fire_hits_walk_the_ladder_remove_bases_and_count_the_p(m_hits, bases, m, b, p_before):
    unit = brigade(m_hits=m_hits, bases=bases, bases_start=8, p_hits_turn=p_before)
    after = after_fire_hits(unit, resolve_fire_hits(unit, FireHits(unit.id, m=m, b=b)))
    assert after.m_hits == min(4, m_hits + m)
    assert after.p_hits_turn - p_before == max(0, m_hits + m - 4)
    assert after.bases == max(0, bases - b)
    assert after.base_hits_turn == unit.bases - after.bases
    assert after.destroyed is (b >= bases)
