"""A battery's plan of functions for one turn (2.3, 3.5): how many functions it has, the order they must come in,
what its condition forbids, prolonging, and bad input to the check."""

import pytest

from republic.rules.battery_functions import BatteryFunctionsInput, resolve_battery_functions
from republic.rules.codec import decode
from republic.rules.errors import RulesInputError
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryFunction

F = BatteryFunction


def check(chart, *functions, **options):
    return resolve_battery_functions(chart, BatteryFunctionsInput(tuple(functions), **options))


# --- artillery functions ----------------------------------------------------------------------------


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


# --- bad input --------------------------------------------------------------------------------------


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
