"""The changes the rules make to a unit's state (4.2, 5.5, 5.6, 6.1): morale hits, forced moves, lost bases,
P4 events, surrender and rally, charge and retreat disorder, the end of a player turn, and the saved fire a
battery loses by them."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import Condition, MoraleCause, apply_morale_hits, resolve_disorder
from republic.rules.troops import BatteryFunction, Formation, Grade
from republic.rules.units import (
    after_bases_lost,
    after_morale,
    after_move,
    after_p4_event,
    after_surrender,
    disorder_input,
    new_player_turn,
    rallied,
)
from tests.rules.unit_states import battery, brigade

MOVES = list(ForcedMove)


# --- morale, forced moves, lost bases --------------------------------------------------------------


def test_a_rattled_unit_taking_three_m_from_fire_is_demoralized_with_one_p_hit_this_turn():
    """R:1275-1278: the M beyond Demoralized becomes a P hit, kept for the turn."""
    unit = brigade(m_hits=2, p_hits_turn=1)
    after = after_morale(unit, apply_morale_hits(unit.m_hits, 3, MoraleCause.FIRE))
    assert after.condition is Condition.DEMORALIZED
    assert after.p_hits_turn == 2


def test_an_m_hit_that_does_not_reach_demoralized_adds_no_p_hit():
    after = after_morale(brigade(m_hits=1), apply_morale_hits(1, 2, MoraleCause.ASSAULT))
    assert (after.m_hits, after.p_hits_turn) == (3, 0)


def test_a_rout_leaves_a_demoralized_unit_demoralized_with_no_p_hit():
    after = after_morale(brigade(m_hits=4), apply_morale_hits(4, 1, MoraleCause.ROUT))
    assert (after.m_hits, after.p_hits_turn) == (4, 0)


def test_no_forced_move_changes_nothing():
    unit = brigade(forced_move=ForcedMove.WITHDRAW)
    assert after_move(unit, None) == unit


@pytest.mark.parametrize(
    ("first", "second", "longest"),
    [
        (ForcedMove.WITHDRAW, ForcedMove.FALL_BACK, ForcedMove.FALL_BACK),
        (ForcedMove.FALL_BACK, ForcedMove.WITHDRAW, ForcedMove.FALL_BACK),
        (ForcedMove.DISENGAGE, ForcedMove.ROUT, ForcedMove.ROUT),
        (ForcedMove.RETREAT, ForcedMove.RETREAT, ForcedMove.RETREAT),
    ],
)
def test_a_unit_remembers_the_longest_forced_move_of_the_turn(first, second, longest):
    """6.1 (R:1833-1840): a division's panic move only tops up the longest move already made."""
    assert after_move(after_move(brigade(), first), second).forced_move is longest


@given(st.lists(st.sampled_from(MOVES), min_size=1, max_size=6))
def test_the_remembered_move_is_the_most_severe_whatever_the_order(moves):
    unit = brigade()
    for move in moves:
        unit = after_move(unit, move)
    assert unit.forced_move is max(moves, key=lambda m: m.severity)


def test_a_battery_the_chart_abandons_for_its_move_is_out_of_play():
    after = after_move(battery(), ForcedMove.ROUT, abandoned=True)
    assert after.abandoned and after.out_of_play and after.forced_move is ForcedMove.ROUT


def test_only_a_battery_is_abandoned_by_a_move():
    after = after_move(brigade(), ForcedMove.ROUT, abandoned=True)
    assert not after.abandoned and after.in_play


def test_bases_lost_leave_the_rest_and_count_toward_the_turns_base_hits():
    after = after_bases_lost(brigade(bases=6, base_hits_turn=1), 2)
    assert (after.bases, after.base_hits_turn, after.destroyed) == (4, 3, False)


def test_a_brigade_losing_its_last_base_is_destroyed_and_a_battery_abandoned():
    gone = after_bases_lost(brigade(bases=2, bases_start=6), 2)
    assert gone.destroyed and not gone.abandoned and not gone.in_play
    lost = after_bases_lost(battery(), 1)
    assert lost.abandoned and not lost.destroyed and lost.bases == 0


def test_a_unit_loses_no_more_bases_than_it_has():
    after = after_bases_lost(brigade(bases=3, bases_start=6), 5)
    assert (after.bases, after.base_hits_turn, after.destroyed) == (0, 3, True)


def test_losing_no_base_changes_nothing():
    unit = brigade()
    assert after_bases_lost(unit, 0) is unit


@given(st.integers(0, 12), st.integers(1, 12), st.integers(0, 5), st.integers(0, 20), st.booleans())
def test_lost_bases_never_go_negative_and_base_hits_grow_by_exactly_the_bases_removed(
    bases, start, earlier, lost, is_battery
):
    unit = (
        battery(bases=min(bases, 1), base_hits_turn=earlier)
        if is_battery
        else brigade(bases=bases, bases_start=max(start, bases), base_hits_turn=earlier)
    )
    after = after_bases_lost(unit, lost)
    removed = unit.bases - after.bases
    assert after.bases >= 0
    assert removed == min(lost, unit.bases)
    assert after.base_hits_turn - unit.base_hits_turn == removed
    if removed and after.bases == 0:
        assert after.out_of_play
        assert after.destroyed is not is_battery and after.abandoned is is_battery


def test_a_p4_event_marks_the_unit_and_nothing_else():
    unit = brigade(m_hits=4, p_hits_turn=4)
    assert after_p4_event(unit) == replace(unit, p4_event=True)


def test_a_surrendering_brigade_gives_up_every_base_left():
    """5.5 Group Surrender: its remaining bases are taken; it is not destroyed but surrendered."""
    after = after_surrender(brigade(bases=4, bases_start=6, base_hits_turn=2))
    assert (after.bases, after.base_hits_turn) == (0, 6)
    assert after.surrendered and not after.destroyed and not after.in_play


def test_a_surrendering_battery_is_abandoned():
    after = after_surrender(battery())
    assert after.abandoned and not after.surrendered and after.bases == 0


def test_a_rally_sets_the_condition_it_reached():
    assert rallied(brigade(m_hits=3), Condition.UNFORMED).m_hits == 1
    assert rallied(brigade(m_hits=1), Condition.SHAKEN).condition is Condition.SHAKEN


# --- charge and retreat disorder (5.6) ---------------------------------------------------------------


def test_an_attacking_brigade_that_used_its_charge_bonus_suffers_charge_disorder():
    unit = brigade(charge_bonus_used=True)
    inputs = disorder_input(unit, attacker=True)
    assert inputs.used_charge_bonus and not inputs.retreated_or_routed
    assert resolve_disorder(None, inputs).m_after == 1


def test_a_defender_is_not_charged_for_a_charge_it_did_not_make():
    assert not disorder_input(brigade(charge_bonus_used=True), attacker=False).used_charge_bonus


def test_charge_movement_the_app_did_not_see_counts_when_the_table_says_so():
    assert disorder_input(brigade(), attacker=False, also_charged=True).used_charge_bonus


def test_a_battery_never_uses_the_charge_bonus():
    assert not disorder_input(battery(charge_bonus_used=True), attacker=True, also_charged=True).used_charge_bonus


@pytest.mark.parametrize(
    ("move", "disordered"), [(ForcedMove.FALL_BACK, False), (ForcedMove.RETREAT, True), (ForcedMove.ROUT, True)]
)
def test_a_unit_that_retreated_or_routed_this_turn_suffers_disorder(move, disordered):
    inputs = disorder_input(brigade(m_hits=1, forced_move=move), attacker=False)
    assert inputs.retreated_or_routed is disordered
    assert resolve_disorder(None, inputs).m_after == 1 + disordered


def test_charge_and_retreat_together_still_give_one_disorder_hit():
    inputs = disorder_input(brigade(charge_bonus_used=True, forced_move=ForcedMove.ROUT), attacker=True)
    assert resolve_disorder(None, inputs).m_after == 1


# --- the end of a player turn ----------------------------------------------------------------------


def test_a_new_player_turn_clears_what_lasts_one_turn_and_keeps_the_rest():
    unit = brigade(
        m_hits=2,
        bases=4,
        bases_start=6,
        p_hits_turn=3,
        base_hits_turn=2,
        p4_event=True,
        forced_move=ForcedMove.RETREAT,
        charge_bonus_used=True,
        formation=Formation.OPEN_ORDER,
        skirmishers_available=2,
        skirmishers_deployed=3,
        skirmisher_grade=Grade.GREEN,
    )
    after = new_player_turn(unit)
    assert (after.p_hits_turn, after.base_hits_turn, after.p4_event, after.forced_move, after.charge_bonus_used) == (
        0,
        0,
        False,
        None,
        False,
    )
    assert (after.m_hits, after.bases, after.formation, after.skirmishers_deployed, after.skirmisher_grade) == (
        2,
        4,
        Formation.OPEN_ORDER,
        3,
        Grade.GREEN,
    )


def test_a_batterys_fire_and_functions_last_one_turn_but_its_saved_fire_and_damage_stay():
    unit = battery(
        fired_this_turn=True,
        functions_used=(BatteryFunction.UNLIMBER, BatteryFunction.FIRE),
        saved_fire=True,
        damage=2,
        limbered=False,
    )
    after = new_player_turn(unit)
    assert not after.fired_this_turn and after.functions_used == ()
    assert after.saved_fire and after.damage == 2 and not after.limbered


@given(st.integers(0, 4), st.integers(0, 6), st.booleans(), st.sampled_from([None, *MOVES]))
def test_a_new_player_turn_twice_is_once(m_hits, p_hits, p4, move):
    unit = brigade(m_hits=m_hits, p_hits_turn=p_hits, p4_event=p4, forced_move=move)
    once = new_player_turn(unit)
    assert new_player_turn(once) == once


# --- saved fire lost by the state's own changes (4.2) ------------------------------------------------


def test_a_battery_with_saved_fire_becoming_rattled_loses_it():
    assert not after_morale(battery(saved_fire=True), apply_morale_hits(0, 2, MoraleCause.ASSAULT)).saved_fire
    assert after_morale(battery(saved_fire=True), apply_morale_hits(0, 1, MoraleCause.ASSAULT)).saved_fire


def test_a_battery_with_saved_fire_that_makes_a_forced_move_loses_it():
    assert not after_move(battery(saved_fire=True), ForcedMove.DISENGAGE).saved_fire
    assert after_move(battery(saved_fire=True), None).saved_fire
