"""The artillery step's decisions (3.5, 4.2-4.6) without a database: which batteries may fire or only save fire,
who may join a fire, what a fire and a saved fire change, and what the phase's waiting hits do when they land."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.fire import FireStep, fired, fires, land, partners, readiness, ready, save
from republic.play.refusal import Refused
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import FireHits, waiting_hits
from republic.rules.troops import BatteryFunction
from tests.play.assault_states import batteries, brigades
from tests.rules.unit_states import battery, brigade

NORTH, SOUTH = 1, 2
# battery: its side, in the step's order
READY = {1: NORTH, 2: NORTH, 3: NORTH, 4: SOUTH, 5: SOUTH}


def test_a_battery_whose_functions_leave_no_fire_only_saves_it_and_one_that_moved_is_not_offered(chart):
    used = {
        1: battery("moved and unlimbered", functions_used=(BatteryFunction.MOVE, BatteryFunction.UNLIMBER)),
        2: battery("unlimbered and limbered", functions_used=(BatteryFunction.UNLIMBER, BatteryFunction.LIMBER)),
        3: battery("unlimbered", functions_used=(BatteryFunction.UNLIMBER,)),
    }
    offered, spent = readiness(chart, READY, used)
    assert list(offered) == [2, 3, 4, 5]
    assert list(spent) == [2]
    assert "2 functions a turn" in spent[2]


def test_only_the_other_ready_batteries_of_its_side_that_may_fire_may_join_it():
    step = FireStep(READY, spent={2: "no function left"})
    assert partners(step, 1) == (3,)
    assert partners(step, 4) == (5,)


def test_a_battery_that_made_passing_fire_is_told_why_and_one_not_ready_gets_the_tables_refusal():
    step = FireStep({1: NORTH}, passed={9: "Battery A"})
    with pytest.raises(Refused, match="made passing fire during the enemy's move"):
        ready(step, 9, "Battery A", "cannot fire")
    with pytest.raises(Refused, match="cannot fire"):
        ready(step, 8, "Battery B", "cannot fire")
    ready(step, 1, "Battery C", "cannot fire")


def test_a_fire_takes_its_battery_and_those_that_join_out_of_the_step():
    assert fires(FireStep(READY), 1, "A", [3], "no").ready == {2: NORTH, 4: SOUTH, 5: SOUTH}


def test_a_spent_battery_may_not_fire_and_no_battery_of_the_other_side_may_join():
    with pytest.raises(Refused, match="A may not fire this turn: no function left"):
        fires(FireStep(READY, spent={1: "no function left"}), 1, "A", [], "no")
    with pytest.raises(Refused, match="A battery chosen for joint fire cannot fire now"):
        fires(FireStep(READY), 1, "A", [4], "no")
    with pytest.raises(Refused, match="joint fire"):
        fires(FireStep(READY, spent={2: "no function left"}), 1, "A", [2], "no")


def test_a_battery_that_fired_has_fired_this_turn_and_lost_its_saved_fire():
    (after,) = fired([battery("a", saved_fire=True)])
    assert after.fired_this_turn and not after.saved_fire


def test_a_saved_fire_marks_the_battery_and_takes_it_out_of_the_step(chart):
    saved = save(chart, FireStep(READY), battery("a"), 1, "A", False, True, "no")
    assert saved.result.allowed and saved.after.saved_fire and not saved.kept
    assert 1 not in saved.step.ready


def test_a_battery_that_may_not_save_fire_is_told_so_on_the_box_that_says_why(chart):
    with pytest.raises(RulesInputError) as refused:
        save(chart, FireStep(READY), battery("a"), 1, "A", True, True, "no")
    assert refused.value.field == "moved_this_turn"
    assert "A may not save fire" in str(refused.value)
    with pytest.raises(Refused, match=r"A may not save fire: .*passing fire"):
        save(chart, FireStep(READY, passed={7: "A"}), battery("a"), 7, "A", False, True, "no")


UNITS = st.lists(st.one_of(brigades("u"), batteries("u")), min_size=1, max_size=4).map(
    lambda units: [replace(u, id=f"u{n}") for n, u in enumerate(units)]
)


@given(UNITS, st.data(), st.randoms(use_true_random=False))
def test_whatever_order_the_batteries_fire_in_the_same_hits_land(units, data, rng):
    """Each battery's hits (on any of the units) entered in one order and in another: the hits waiting are the same
    sums, and landing them leaves every unit the same."""
    hits = data.draw(
        st.lists(
            st.lists(
                st.builds(FireHits, st.sampled_from([u.id for u in units]), st.integers(0, 3), st.integers(0, 2)),
                max_size=3,
            ),
            max_size=5,
        )
    )
    shuffled = list(hits)
    rng.shuffle(shuffled)

    def landed(fires_in_order):
        waits = waiting_hits([hit for fire in fires_in_order for hit in fire])
        return waits, [(x.after, x.result) for x in land((u, waits[u.id]) for u in units if u.id in waits)]

    assert landed(shuffled) == landed(hits)


@given(st.lists(st.sampled_from(sorted(READY)), unique=True), st.randoms(use_true_random=False))
def test_whatever_order_the_batteries_fire_or_save_in_each_acts_once_and_the_step_ends_the_same(order, rng):
    def enter(batteries_in_order):
        step, acted = FireStep(READY, spent={5: "no function left"}), []
        for pk in batteries_in_order:
            try:
                step = fires(step, pk, str(pk), [], "no")
                acted.append(pk)
            except Refused:
                pass
        return dict(step.ready), sorted(acted)

    shuffled = list(order)
    rng.shuffle(shuffled)
    assert enter(shuffled) == enter(order)
    ready_after, acted = enter(order)
    assert set(acted) == set(order) - {5}
    assert set(ready_after) == set(READY) - set(acted)


def test_hits_that_land_walk_the_morale_ladder_and_take_bases_as_the_engine_says():
    (landed,) = land([(brigade("a", m_hits=1), FireHits("a", m=1, b=2))])
    assert (landed.after.m_hits, landed.after.bases) == (landed.result.m_after, landed.result.bases_after) == (2, 4)
