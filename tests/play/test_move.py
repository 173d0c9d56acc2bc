"""The attacker's move step's decisions (1.7, 3.1-3.6, 4.5) without a database: which units move and may still
roll, the step's rows, what a maneuver roll, the charge bonus, a mount and a battery's functions change, and which
defending batteries may make passing fire."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.move import (
    MoveStep,
    charge,
    functions_left,
    functions_of,
    may_pass,
    may_roll,
    mount,
    moving,
    offered,
    roll,
    rows,
    use_functions,
)
from republic.play.refusal import Refused
from republic.rules.battery_functions import MOVEMENT_FUNCTIONS
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.maneuver import ManeuverAction, ManeuverInput, resolve_maneuver
from republic.rules.morale import MAX_M_HITS
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryFunction, Grade, UnitKind
from tests.rules.unit_states import battery, brigade

FORWARD = ManeuverAction.ADVANCE


def starts(message: str) -> str:
    """A refusal's message, read from its start."""
    return "^" + re.escape(message)


def maneuver(die: int, grade: Grade = Grade.AVERAGE, m_hits: int = 0) -> ManeuverInput:
    return ManeuverInput.of(brigade(grade=grade, m_hits=m_hits), d10(die))


# --- which units move, which may still roll, the rows -------------------------------------------------------------


def test_the_rows_are_the_attackers_units_then_the_batteries_that_may_make_passing_fire():
    step = MoveStep(("a", "b", "c"), frozenset({"b"}), passing=("x", "y"))
    assert rows(step) == ("a", "b", "c", "x", "y")


def test_the_units_that_may_still_roll_are_those_that_move_and_have_not_rolled_in_battle_order():
    assert may_roll(MoveStep(("a", "b", "c"), frozenset({"b"}))) == ("a", "c")
    assert may_roll(MoveStep(("a",), frozenset({"a"}))) == ()


def test_a_unit_that_does_not_move_is_refused_by_name():
    moving({"a"}, "a", "1st Brigade")
    with pytest.raises(
        Refused, match=starts("2nd Brigade is not an attacking unit in play: it does not move this turn.")
    ):
        moving({"a"}, "b", "2nd Brigade")


def test_a_battery_that_may_not_make_passing_fire_is_refused_by_name():
    may_pass({"x"}, "x", "Battery A")
    with pytest.raises(Refused, match=starts("Battery B cannot make passing fire now: only a defending battery")):
        may_pass({"x"}, "b", "Battery B")


# --- the maneuver roll (3.2) -------------------------------------------------------------------------------------


def test_a_roll_is_the_engines_and_marks_the_unit_rolled(chart):
    done = roll(chart, MoveStep(("a", "b")), "a", "1st", maneuver(7))
    assert done.result == resolve_maneuver(chart, maneuver(7))
    assert done.step == MoveStep(("a", "b"), frozenset({"a"}))
    assert may_roll(done.step) == ("b",)


def test_a_second_roll_of_the_step_is_refused_until_the_first_is_undone(chart):
    step = MoveStep(("a",), frozenset({"a"}))
    with pytest.raises(Refused, match=starts("1st has already rolled its maneuver this turn; undo it to roll again.")):
        roll(chart, step, "a", "1st", maneuver(7))


def test_a_unit_that_does_not_move_has_its_roll_refused(chart):
    with pytest.raises(Refused, match="not an attacking unit in play"):
        roll(chart, MoveStep(("a",)), "z", "Z", maneuver(7))


ROLLS = st.dictionaries(
    st.sampled_from([f"u{i}" for i in range(8)]),
    st.builds(maneuver, st.integers(1, 10), st.sampled_from(list(Grade)), st.integers(0, MAX_M_HITS)),
    min_size=1,
)


@given(rolls=ROLLS, data=st.data())
def test_whatever_order_the_rolls_are_entered_in_the_step_ends_the_same(chart, rolls, data):
    units = tuple(sorted(rolls))
    order = data.draw(st.permutations(list(rolls)))

    def entered(keys) -> tuple[MoveStep, dict]:
        step, results = MoveStep(units), {}
        for key in keys:
            done = roll(chart, step, key, key, rolls[key])
            step, results[key] = done.step, done.result
        return step, results

    assert entered(order) == entered(units)
    step, _ = entered(order)
    assert step.rolled == set(units) and may_roll(step) == ()


# --- the charge bonus (3.1, 3.2, R:650-653) ----------------------------------------------------------------------


def test_the_bonus_marked_used_after_a_roll_that_allows_a_forward_move():
    after = charge(brigade(), "1st", (ManeuverAction.HOLD, FORWARD), True, FORWARD)
    assert after.charge_bonus_used
    assert not charge(after, "1st", None, False, None).charge_bonus_used


@pytest.mark.parametrize(
    ("allowed", "taken", "why"),
    [
        (None, FORWARD, "No maneuver roll this turn"),
        ((ManeuverAction.HOLD, ManeuverAction.PULL_BACK), ManeuverAction.HOLD, "Its roll allows only hold"),
        ((ManeuverAction.HOLD, ManeuverAction.PULL_BACK, FORWARD), ManeuverAction.PULL_BACK, "It pulled back"),
        ((ManeuverAction.HOLD, FORWARD), ManeuverAction.HOLD, "It held"),
        ((ManeuverAction.HOLD, FORWARD), None, "Which action did it take this turn?"),
    ],
)
def test_the_bonus_is_refused_to_a_brigade_that_did_not_move_forward(allowed, taken, why):
    with pytest.raises(Refused, match=starts(f"1st: {why}")):
        charge(brigade(), "1st", allowed, True, taken)


@pytest.mark.parametrize("used", [True, False])
def test_the_bonus_marked_as_it_already_is_is_refused(used):
    with pytest.raises(Refused, match=starts("1st is already marked as")):
        charge(brigade(charge_bonus_used=used), "1st", (FORWARD,), used, FORWARD)


# --- what a brigade's side may do now ----------------------------------------------------------------------------


def test_a_formed_brigade_that_rolled_a_forward_move_is_offered_everything(chart):
    may = offered(chart, brigade(kind=UnitKind.CAVALRY_MOUNTED, skirmishers_available=2), (FORWARD,))
    assert (may.charge, may.formation, may.mount, may.skirmishers) == ("", "", "", "")
    assert may.may_set == may.skirmisher_limit == 2 and may.shows_skirmishers


def test_a_brigade_that_has_not_rolled_is_told_why_it_has_no_charge_bonus_unless_it_is_marked_used(chart):
    assert "No maneuver roll" in offered(chart, brigade(), None).charge
    assert offered(chart, brigade(charge_bonus_used=True), None).charge == ""


def test_a_shaken_brigade_is_told_why_it_may_not_change_formation_mount_or_deploy_but_may_recall(chart):
    shaken = brigade(kind=UnitKind.CAVALRY_MOUNTED, m_hits=3, skirmishers_available=2, skirmishers_deployed=1)
    may = offered(chart, shaken, (FORWARD,))
    assert "may not change formation" in may.formation
    assert may.mount == mount_refusal(chart, shaken)
    assert may.skirmishers and may.may_set == 1 and may.shows_skirmishers


def test_an_infantry_brigade_is_told_it_does_not_mount_and_an_untrained_one_has_no_skirmishers(chart):
    may = offered(chart, brigade(grade=Grade.UNTRAINED, skirmishers_available=2), None)
    assert "only cavalry and mounted infantry" in may.mount
    assert may.skirmishers.startswith("Untrained") and not may.shows_skirmishers


def test_a_brigade_with_markers_out_beyond_what_it_may_set_still_shows_them_to_recall(chart):
    # out of open order its limit is its troop list's, none here, with one marker still out from before
    may = offered(chart, brigade(skirmishers_available=0, skirmishers_deployed=1), None)
    assert may.may_set == 0 and may.shows_skirmishers
    assert not offered(chart, brigade(skirmishers_available=0), None).shows_skirmishers


def mount_refusal(chart, unit) -> str:
    with pytest.raises(RulesInputError) as refused:
        mount(chart, unit, "1st Cav", False)
    return refused.value.problem


# --- mounting and dismounting (3.5) -------------------------------------------------------------------------------


def test_mounted_cavalry_dismounts_to_the_engines_kind(chart):
    done = mount(chart, brigade(kind=UnitKind.CAVALRY_MOUNTED), "1st Cav", False)
    assert done.unit.kind is UnitKind.CAVALRY_DISMOUNTED is done.result.kind


def test_a_unit_out_of_play_neither_mounts_nor_dismounts(chart):
    with pytest.raises(Refused, match=starts("1st Cav is out of play.")):
        mount(chart, brigade(kind=UnitKind.CAVALRY_MOUNTED, destroyed=True), "1st Cav", False, reacting=True)


def test_a_refused_mount_is_the_forms_for_an_attacker_and_in_words_for_a_reacting_defender(chart):
    unformed = brigade(kind=UnitKind.CAVALRY_MOUNTED, m_hits=3)
    with pytest.raises(RulesInputError) as refused:
        mount(chart, unformed, "1st Cav", False)
    assert refused.value.field == "mount"
    with pytest.raises(Refused) as reacting:
        mount(chart, unformed, "1st Cav", False, reacting=True)
    assert str(reacting.value) == f"1st Cav: {refused.value.problem}."


# --- a battery's functions (3.5) --------------------------------------------------------------------------------


def test_a_foot_battery_that_moves_and_unlimbers_may_not_keep_a_fire_refused_at_the_fire(chart):
    limbered = battery(limbered=True)
    plan = (BatteryFunction.MOVE, BatteryFunction.UNLIMBER)
    with pytest.raises(RulesInputError) as refused:
        use_functions(chart, GroundScale.MEDIUM, limbered, plan, will_fire=True)
    assert refused.value.field == "will_fire"
    done = use_functions(chart, GroundScale.MEDIUM, limbered, plan)
    assert done.unit.functions_used == plan and not done.unit.limbered
    assert functions_left(chart, done.unit) == 0


def test_a_function_beyond_those_left_is_refused_at_its_own_field(chart):
    moved = battery(limbered=True, functions_used=(BatteryFunction.MOVE,))
    with pytest.raises(RulesInputError) as refused:
        use_functions(chart, GroundScale.MEDIUM, moved, (BatteryFunction.UNLIMBER, BatteryFunction.LIMBER))
    assert refused.value.field == "function_2"


MOVES = st.lists(st.sampled_from(MOVEMENT_FUNCTIONS), min_size=1, max_size=4)


@given(
    horse=st.booleans(),
    limbered=st.booleans(),
    m_hits=st.integers(0, MAX_M_HITS),
    plans=st.lists(st.tuples(MOVES, st.booleans()), max_size=5),
)
def test_a_battery_never_uses_more_functions_than_the_chart_gives_it(chart, horse, limbered, m_hits, plans):
    unit = battery(horse=horse, limbered=limbered, m_hits=m_hits)
    available = functions_of(chart, unit)
    for plan, will_fire in plans:
        try:
            done = use_functions(chart, GroundScale.MEDIUM, unit, plan, will_fire=will_fire)
        except RulesInputError:
            continue  # refused: the battery is as it was
        assert done.unit.functions_used == (*unit.functions_used, *plan)  # the turn so far is kept
        assert len(done.unit.functions_used) + will_fire <= available
        unit = done.unit
        assert functions_left(chart, unit) == available - len(unit.functions_used) >= 0
