"""A battery's functions through a turn (3.5, 4.2) as the table records them on its state, and what a battery
does for a forced move (5.5)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.charts import shipped_chart
from republic.rules.battery_functions import (
    BatteryFunctionsInput,
    after_battery_functions,
    functions_available,
    limbered_at_start,
    resolve_battery_functions,
)
from republic.rules.forced_moves import BatteryAction, BatteryResponse, ForcedMove, battery_response
from republic.rules.results import Provenance
from republic.rules.troops import BatteryFunction
from tests.rules.unit_states import battery

F = BatteryFunction


def plan(chart, unit, *functions, will_fire=False, toward_enemy=False):
    return resolve_battery_functions(
        chart, BatteryFunctionsInput.planned(unit, functions, will_fire=will_fire, toward_enemy=toward_enemy)
    )


# --- functions a turn ------------------------------------------------------------------------------


@pytest.mark.parametrize(("horse", "count"), [(False, 2), (True, 3)])
def test_foot_artillery_has_two_functions_and_horse_artillery_three(chart, horse, count):
    """3.5 (R:833-835)."""
    value, use = functions_available(chart, horse)
    assert value == count
    assert use.table == "artillery_functions" and use.provenance is Provenance.CONFIRMED and use.source


# --- the turn so far -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("limbered_now", "used", "at_start"),
    [
        (True, (), True),
        (False, (), False),
        (False, (F.UNLIMBER,), True),
        (True, (F.LIMBER,), False),
        (True, (F.UNLIMBER, F.LIMBER), True),
        (False, (F.LIMBER, F.MOVE, F.UNLIMBER), False),
        (False, (F.FIRE,), False),
    ],
)
def test_a_battery_began_the_turn_as_its_functions_so_far_taken_back_leave_it(limbered_now, used, at_start):
    assert limbered_at_start(battery(limbered=limbered_now, functions_used=used)) is at_start


def test_a_plan_is_the_turn_so_far_then_the_new_functions_then_fire():
    unit = battery(limbered=False, functions_used=(F.UNLIMBER,), horse=True, m_hits=1, saved_fire=False)
    inputs = BatteryFunctionsInput.planned(unit, (F.PROLONG,), will_fire=True)
    assert inputs.functions == (F.UNLIMBER, F.PROLONG, F.FIRE)
    assert inputs.limbered and inputs.horse_artillery and inputs.m_hits == 1


def test_a_foot_battery_that_moved_and_unlimbered_in_the_maneuver_phase_may_not_fire(chart):
    """3.5 (R:835-837): the fire phase finds its two functions already used."""
    limbered = battery(limbered=True)
    maneuver = plan(chart, limbered, F.MOVE, F.UNLIMBER)
    assert maneuver.allowed and not maneuver.limbered_after
    after = after_battery_functions(limbered, maneuver, (F.MOVE, F.UNLIMBER))
    assert after.functions_used == (F.MOVE, F.UNLIMBER) and not after.limbered
    fire = plan(chart, after, will_fire=True)
    assert not fire.allowed
    assert (fire.index, fire.function) == (2, F.FIRE)
    assert "2 functions" in fire.problem


def test_a_foot_battery_that_unlimbered_in_place_may_still_fire(chart):
    """3.5 (R:837-838)."""
    limbered = battery(limbered=True)
    after = after_battery_functions(limbered, plan(chart, limbered, F.UNLIMBER, will_fire=True), (F.UNLIMBER,))
    assert after.functions_used == (F.UNLIMBER,)
    assert plan(chart, after, will_fire=True).allowed


def test_a_fire_still_to_come_is_not_recorded_as_used(chart):
    unit = battery(limbered=True)
    after = after_battery_functions(unit, plan(chart, unit, F.UNLIMBER, will_fire=True), (F.UNLIMBER,))
    assert F.FIRE not in after.functions_used


def test_the_problem_is_placed_in_the_plan_counting_the_functions_already_used(chart):
    unit = battery(limbered=False, functions_used=(F.UNLIMBER,), horse=True)
    result = plan(chart, unit, F.UNLIMBER)
    assert not result.allowed and (result.index, result.function) == (1, F.UNLIMBER)
    assert "twice" in result.problem


def test_an_allowed_plan_has_no_problem_and_no_place(chart):
    result = plan(chart, battery(limbered=True), F.MOVE)
    assert result.allowed and (result.problem, result.index, result.function) == ("", None, None)


def test_a_refused_plan_changes_nothing(chart):
    unit = battery(limbered=True)
    refused = plan(chart, unit, F.FIRE)
    assert not refused.allowed
    with pytest.raises(ValueError, match="refused plan"):
        after_battery_functions(unit, refused, (F.FIRE,))


@pytest.mark.parametrize(
    ("m_hits", "functions", "toward", "words"),
    [
        (4, (F.UNLIMBER,), False, "demoralized battery may not unlimber"),
        (3, (F.MOVE,), True, "shaken battery will not move toward"),
        (4, (F.MOVE,), True, "demoralized battery will not move toward"),
    ],
)
def test_a_batterys_condition_forbids_what_2_3_forbids(chart, m_hits, functions, toward, words):
    result = plan(chart, battery(limbered=True, m_hits=m_hits), *functions, toward_enemy=toward)
    assert not result.allowed and words in result.problem


def test_a_demoralized_battery_may_limber_and_move_away(chart):
    """2.3: it may limber, but only to move away from enemy units."""
    result = plan(chart, battery(limbered=False, m_hits=4), F.LIMBER, F.MOVE)
    assert result.allowed and result.limbered_after


# --- saved fire and movement (4.2) ---------------------------------------------------------------------


@pytest.mark.parametrize("functions", [(F.PROLONG,), (F.LIMBER, F.MOVE)])
def test_a_battery_with_saved_fire_that_moves_in_any_way_loses_it(chart, functions):
    """4.2 (R:1072-1074): moving, including prolonging, loses the saved fire."""
    unit = battery(limbered=False, saved_fire=True)
    result = plan(chart, unit, *functions)
    assert result.allowed and result.saved_fire_lost
    after = after_battery_functions(unit, result, functions)
    assert not after.saved_fire and after.functions_used == functions


def test_a_battery_with_saved_fire_that_stays_put_keeps_it(chart):
    unit = battery(limbered=False, saved_fire=True)
    result = plan(chart, unit, will_fire=True)
    assert result.allowed and not result.saved_fire_lost
    assert after_battery_functions(unit, result, ()).saved_fire


def test_a_battery_without_saved_fire_loses_none(chart):
    result = plan(chart, battery(limbered=False), F.PROLONG)
    assert not result.saved_fire_lost


VALID_TURNS = {
    True: [(), (F.MOVE,), (F.UNLIMBER,), (F.MOVE, F.UNLIMBER), (F.UNLIMBER, F.PROLONG), (F.UNLIMBER, F.LIMBER)],
    False: [(), (F.PROLONG,), (F.LIMBER,), (F.LIMBER, F.MOVE), (F.PROLONG, F.LIMBER)],
}


@given(st.booleans(), st.data())
def test_a_battery_after_its_functions_still_knows_how_it_began_the_turn(limbered, data):
    functions = data.draw(st.sampled_from(VALID_TURNS[limbered]))
    split = data.draw(st.integers(0, len(functions)))
    chart = shipped_chart()
    unit = battery(limbered=limbered)
    for step in (functions[:split], functions[split:]):
        result = plan(chart, unit, *step)
        assert result.allowed, result.problem
        unit = after_battery_functions(unit, result, step)
        assert unit.limbered is result.limbered_after
    assert unit.functions_used == functions
    assert limbered_at_start(unit) is limbered


# --- a battery's forced move (5.5) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "action", "damage"),
    [
        ("limber", BatteryAction.LIMBER, 0),
        ("limber 1B", BatteryAction.LIMBER, 1),
        ("abandoned", BatteryAction.ABANDONED, 0),
    ],
)
def test_a_battery_response_is_written_as_on_the_chart(raw, action, damage):
    response = BatteryResponse.parse(raw)
    assert (response.action, response.damage) == (action, damage)
    assert str(response) == raw


@pytest.mark.parametrize("raw", ["limber 1M", "limber 1P", "limber 1B 1B", "retreat", "", None, 2])
def test_a_malformed_battery_response_is_refused(raw):
    with pytest.raises(ValueError, match="a battery response is"):
        BatteryResponse.parse(raw)


@pytest.mark.parametrize(
    ("move", "action", "damage"),
    [
        (ForcedMove.DISENGAGE, BatteryAction.LIMBER, 0),
        (ForcedMove.WITHDRAW, BatteryAction.LIMBER, 0),
        (ForcedMove.FALL_BACK, BatteryAction.LIMBER, 0),
        (ForcedMove.RETREAT, BatteryAction.LIMBER, 1),
        (ForcedMove.ROUT, BatteryAction.ABANDONED, 0),
    ],
)
def test_a_battery_limbers_for_a_short_move_takes_a_damage_to_retreat_and_is_abandoned_to_rout(
    chart, move, action, damage
):
    """5.5 (R:1654-1658)."""
    response, use = battery_response(chart, move)
    assert (response.action, response.damage) == (action, damage)
    assert use.provenance is Provenance.CONFIRMED and use.source.startswith("R:165")
