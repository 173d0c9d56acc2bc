"""The hors de combat checks' decisions (4.7, 5.6) without a database: what the phase's changes add up to per unit
and up the chain of command, which leaders must roll or be passed over, and what a check changes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.hors_de_combat import Change, CheckStep, by_command, check, losses, must, pass_over, to_check
from republic.play.refusal import Refused
from republic.rules.dice import Roll
from republic.rules.leaders import HorsDeCombatInput, HorsDeCombatOutcome, resolve_hors_de_combat

ARMY, CORPS_1, CORPS_2, DIV_A, DIV_B, DIV_C = 1, 2, 3, 10, 11, 12
CHAINS = {"a": (DIV_A, CORPS_1, ARMY), "b": (DIV_B, CORPS_1, ARMY), "c": (DIV_C, CORPS_2, ARMY)}
# leader id: his command, in the order the table lists them
LEADERS = ((100, ARMY), (101, CORPS_1), (102, CORPS_2), (110, DIV_A), (111, DIV_B), (112, DIV_C))


def roll(first: int, second: int, hits: int = 0) -> HorsDeCombatInput:
    return HorsDeCombatInput(Roll((first, second)), base_hits_within_4=hits)


def test_a_brigade_counts_bases_and_a_battery_counts_damage():
    changes = [Change("inf", 2, 5), Change("guns", 1, 3)]
    assert losses(changes, frozenset({"guns"})) == {"inf": 2, "guns": 3}


def test_a_unit_given_back_what_it_lost_lost_nothing():
    changes = [Change("a", 1, 1), Change("a", -1, -1), Change("b", -1, -1), Change("c", 2, 0)]
    assert losses(changes, frozenset()) == {"c": 2}


def test_a_command_loses_what_its_units_and_those_below_lost():
    step = CheckStep({"a": 2, "b": 1, "c": 3}, CHAINS, LEADERS)
    assert by_command(step) == {DIV_A: 2, DIV_B: 1, DIV_C: 3, CORPS_1: 3, CORPS_2: 3, ARMY: 6}


def test_only_the_leaders_whose_command_lost_must_roll_and_every_leader_may():
    step = CheckStep({"a": 2}, CHAINS, LEADERS)
    assert must(step) == {100: 2, 101: 2, 110: 2}
    assert list(to_check(step)) == [100, 101, 102, 110, 111, 112]


def test_a_leader_who_rolled_or_was_passed_over_is_no_longer_to_check():
    step = CheckStep({"a": 2}, CHAINS, LEADERS, frozenset({101, 102}))
    assert list(must(step)) == [100, 110]
    assert list(to_check(step)) == [100, 110, 111, 112]


def test_a_leader_whose_command_lost_nothing_may_roll_but_not_be_passed_over(chart):
    step = CheckStep({"a": 2}, CHAINS, LEADERS)
    done = check(chart, step, 112, roll(3, 4), "no check")
    assert done.step.checked == {112}
    with pytest.raises(Refused, match="nothing to pass over"):
        pass_over(step, 112, "nothing to pass over")


def test_a_leader_checked_has_a_second_check_and_a_pass_over_refused(chart):
    step = check(chart, CheckStep({"a": 2}, CHAINS, LEADERS), 110, roll(3, 4), "no check").step
    with pytest.raises(Refused, match="no check"):
        check(chart, step, 110, roll(5, 6), "no check")
    with pytest.raises(Refused, match="no pass"):
        pass_over(step, 110, "no pass")


def test_a_leader_not_in_action_has_his_check_refused(chart):
    with pytest.raises(Refused):
        check(chart, CheckStep({"a": 2}, CHAINS, LEADERS), 999, roll(3, 4), "no check")


def test_a_roll_that_is_not_a_double_leaves_the_leader_in_action(chart):
    done = check(chart, CheckStep({"a": 9}, CHAINS, LEADERS), 110, roll(9, 10, hits=9), "no check")
    assert not done.casualty
    assert done.result.outcome is HorsDeCombatOutcome.NO_EFFECT


def test_the_engines_hors_de_combat_puts_the_leader_out_and_its_no_effect_does_not(chart):
    step = CheckStep({"a": 9}, CHAINS, LEADERS)
    seen = set()
    for face, hits in [(face, hits) for face in range(1, 11) for hits in (0, 9)]:
        inputs = roll(face, face, hits=hits)
        done = check(chart, step, 110, inputs, "no check")
        outcome = resolve_hors_de_combat(chart, inputs).outcome
        assert done.casualty is (outcome is HorsDeCombatOutcome.HORS_DE_COMBAT)
        seen.add(done.casualty)
    assert seen == {True, False}


CHANGES = st.lists(
    st.builds(Change, st.sampled_from(sorted(CHAINS)), st.integers(-2, 4), st.integers(-2, 4)), max_size=12
)
BATTERIES = st.frozensets(st.sampled_from(sorted(CHAINS)))


@given(CHANGES, BATTERIES)
def test_losses_are_the_positive_sums_of_each_units_changes(changes, batteries):
    lost = losses(changes, batteries)
    for unit in CHAINS:
        total = sum(c.damage if unit in batteries else c.bases for c in changes if c.unit == unit)
        assert lost.get(unit, 0) == max(total, 0)


@given(CHANGES, BATTERIES, st.randoms(use_true_random=False))
def test_the_phases_changes_add_up_the_same_in_any_order(changes, batteries, rng):
    shuffled = list(changes)
    rng.shuffle(shuffled)
    assert losses(shuffled, batteries) == losses(changes, batteries)


LOST = st.dictionaries(st.sampled_from(sorted(CHAINS)), st.integers(1, 6))


@given(LOST)
def test_the_losses_up_the_chain_are_the_sum_of_the_units_losses_below(lost):
    found = by_command(CheckStep(lost, CHAINS, LEADERS))
    for _, command in LEADERS:
        below = sum(n for unit, n in lost.items() if command in CHAINS[unit])
        assert found.get(command, 0) == below
    assert found.get(ARMY, 0) == sum(lost.values())


@given(
    LOST,
    st.lists(st.tuples(st.sampled_from([leader for leader, _ in LEADERS]), st.integers(1, 10), st.booleans())),
    st.randoms(use_true_random=False),
)
def test_whatever_order_the_checks_are_entered_in_the_step_ends_the_same(chart, lost, answers, rng):
    """Each leader's answer (a double of ``face`` or a pass-over) entered in one order and in another: the same
    leaders are checked and the same are out of action, and each leader's outcome is his own."""

    def enter(order):
        step, out = CheckStep(lost, CHAINS, LEADERS), {}
        for leader, face, passed in order:
            try:
                if passed:
                    step = pass_over(step, leader, "refused")
                else:
                    done = check(chart, step, leader, roll(face, face, hits=sum(lost.values())), "refused")
                    step, out[leader] = done.step, done.casualty
            except Refused:
                pass
        return step.checked, out

    first = {leader: (face, passed) for leader, face, passed in answers}
    once = [(leader, face, passed) for leader, (face, passed) in first.items()]
    shuffled = list(once)
    rng.shuffle(shuffled)
    assert enter(once) == enter(shuffled)
