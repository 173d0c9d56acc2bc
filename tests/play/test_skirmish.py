"""The skirmish step's decisions (4.1) without a database: each side's markers, the stage, which markers a roll
blocks, which brigades may still attack and what an attack changes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.refusal import Refused
from republic.play.skirmish import (
    Marker,
    SkirmishStep,
    attack,
    attacks_left,
    declare,
    markers,
    may_attack,
    rolled,
    stage,
)
from republic.rules.dice import d10
from republic.rules.fire_results import FireHits
from republic.rules.skirmish import (
    BlockAttempt,
    SkirmishAttackInput,
    SkirmishBlocksInput,
    SkirmishVerdict,
    resolve_skirmish_blocks,
)
from republic.rules.troops import Grade
from tests.rules.unit_states import battery, brigade

BLUE = markers([brigade("a", skirmishers_deployed=2), brigade("b", skirmishers_deployed=1)], [])
GREY = markers([brigade("x", skirmishers_deployed=1), brigade("y", skirmishers_deployed=1)], [])


def ids(found) -> list[str]:
    return [m.id for m in found]


def shot(unit, verdict: SkirmishVerdict | None = None, die: int = 5) -> SkirmishAttackInput:
    return SkirmishAttackInput.of(unit, 2.0, d10(die), printed=verdict)


def blocks_rolled(chart, step: SkirmishStep, held: list[bool]):
    inputs = SkirmishBlocksInput(
        tuple(
            BlockAttempt(blocker, Grade.AVERAGE, target, d10(5), printed=h)
            for (blocker, target), h in zip(step.declared or (), held, strict=True)
        )
    )
    return resolve_skirmish_blocks(chart, inputs)


def test_a_sides_markers_are_its_brigades_deployed_ones_and_those_that_fled_back_this_step():
    found = markers(
        [
            brigade("a", skirmishers_deployed=2),
            brigade("b", skirmishers_deployed=0),
            battery("guns"),
            brigade("gone", skirmishers_deployed=1, destroyed=True),
            brigade("taken", skirmishers_deployed=1, surrendered=True),
        ],
        ["b", "a"],
    )
    assert ids(found) == ["a#1", "a#2", "a#3", "b#1"]


def test_the_defenders_declare_then_the_blocks_are_rolled_then_the_attackers_fire():
    step = SkirmishStep(BLUE, GREY)
    assert stage(step) == "declare"
    assert attacks_left(step) == {}
    step = declare(step, {"x#1": "a#1", "y#1": "nobody"}, "not now")
    assert step.declared == (("x#1", "a#1"),)
    assert stage(step) == "roll"
    with pytest.raises(Refused, match="not now"):
        declare(step, {}, "not now")


def test_with_no_block_declared_or_no_defending_marker_the_attackers_fire_at_once():
    assert stage(declare(SkirmishStep(BLUE, GREY), {}, "no")) == "attack"
    assert stage(SkirmishStep(BLUE, ())) == "attack"
    assert attacks_left(SkirmishStep(BLUE, ())) == {"a": 2, "b": 1}
    assert attacks_left(SkirmishStep((), GREY)) == {}


def test_a_marker_any_block_holds_is_blocked_once_and_its_brigade_fires_one_fewer(chart):
    step = declare(SkirmishStep(BLUE, GREY), {"x#1": "b#1", "y#1": "b#1"}, "no")
    step = rolled(step, blocks_rolled(chart, step, [True, True]), "no")
    assert step.blocked == ("b#1",)
    assert attacks_left(step) == {"a": 2}
    with pytest.raises(Refused, match="no roll"):
        rolled(step, blocks_rolled(chart, step, [True, True]), "no roll")


def test_an_attack_uses_one_marker_and_a_hit_waits_on_the_target(chart):
    step = SkirmishStep(BLUE, ())
    firing = brigade("a", skirmishers_deployed=2)
    done = attack(chart, step, firing, "x", shot(firing, SkirmishVerdict.HIT), "no")
    assert done.result.hit and done.hits == (FireHits("x", m=done.result.m_hits),)
    assert attacks_left(done.step) == {"a": 1, "b": 1}
    missed = attack(chart, step, firing, "x", shot(firing, SkirmishVerdict.MISS), "no")
    assert missed.hits == () and missed.after == firing


def test_a_marker_that_flees_goes_back_to_its_brigade(chart):
    firing = brigade("a", skirmishers_deployed=2)
    done = attack(chart, SkirmishStep(BLUE, ()), firing, "x", shot(firing, SkirmishVerdict.FLEE), "no")
    assert done.result.fled and done.after.skirmishers_deployed == 1


def test_a_brigade_with_no_marker_left_or_no_target_in_play_is_refused(chart):
    step = SkirmishStep(BLUE, (), attacked=("b",))
    with pytest.raises(Refused, match="b has none"):
        may_attack(step, "b", "x", "b has none")
    with pytest.raises(Refused, match="no target"):
        may_attack(step, "a", None, "no target")
    with pytest.raises(Refused, match="not before the blocks"):
        may_attack(SkirmishStep(BLUE, GREY), "a", "x", "not before the blocks")


BRIGADES = st.dictionaries(st.sampled_from("abcd"), st.integers(0, 3), min_size=1)


@given(BRIGADES, st.data())
def test_a_brigade_may_attack_with_its_markers_less_those_blocked_and_those_that_fired(deployed, data):
    attackers = markers([brigade(b, skirmishers_deployed=n) for b, n in deployed.items()], [])
    blocked = data.draw(st.lists(st.sampled_from(ids(attackers)), unique=True) if attackers else st.just([]))
    attacked = data.draw(st.lists(st.sampled_from(sorted(deployed)), max_size=6))
    step = SkirmishStep(attackers, (), (), tuple(blocked), tuple(attacked))
    left = attacks_left(step)
    for b, n in deployed.items():
        expected = n - sum(m.startswith(f"{b}#") for m in blocked) - attacked.count(b)
        assert left.get(b, 0) == max(expected, 0)
        assert b not in left or left[b] > 0


@given(BRIGADES, st.lists(st.sampled_from("abcd"), max_size=8), st.randoms(use_true_random=False))
def test_whatever_order_the_brigades_attack_in_the_same_attacks_are_made_and_the_same_hits_wait(
    chart, deployed, tries, rng
):
    """Each attack a brigade tries (a hit on the target named for it) entered in one order and in another: the same
    attacks are allowed, the same markers are left and the same hits wait."""

    def enter(order):
        step = SkirmishStep(markers([brigade(b, skirmishers_deployed=n) for b, n in deployed.items()], []), ())
        hits = []
        for b in order:
            firing = brigade(b, skirmishers_deployed=max(deployed.get(b, 0), 1))
            try:
                done = attack(chart, step, firing, f"target of {b}", shot(firing, SkirmishVerdict.HIT), "no")
            except Refused:
                continue
            step, hits = done.step, [*hits, *done.hits]
        return attacks_left(step), sorted(step.attacked), sorted(h.unit for h in hits)

    shuffled = list(tries)
    rng.shuffle(shuffled)
    assert enter(shuffled) == enter(tries)
    left, attacked, _ = enter(tries)
    for b, n in deployed.items():
        assert attacked.count(b) == min(n, tries.count(b))
        assert left.get(b, 0) == n - attacked.count(b)


def test_markers_are_named_by_their_brigade_and_number():
    assert Marker("unit:12", 2).id == "unit:12#2"
