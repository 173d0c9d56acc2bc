"""The Replace Leaders step's decisions (2.5) without a database: which fallen leaders wait and for whom, in which
order they are replaced, who takes over from whom and what a replacement changes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.refusal import Refused
from republic.play.replace_leaders import FRESH, Officer, ReplaceStep, above, replacement, turns, waiting
from republic.rules.leaders import LeaderRank
from republic.rules.troops import Leader, LeaderClass

ARMY, CORPS_1, CORPS_2, DIV_A, DIV_B, DIV_C, DIV_D = 1, 2, 3, 10, 11, 12, 13
PARENTS = {ARMY: None, CORPS_1: ARMY, CORPS_2: ARMY, DIV_A: CORPS_1, DIV_B: CORPS_1, DIV_C: CORPS_2, DIV_D: CORPS_2}
RANKS = {ARMY: LeaderRank.ARMY, CORPS_1: LeaderRank.CORPS, CORPS_2: LeaderRank.CORPS}
# leader id: the command he leads
COMMANDS = {100: ARMY, 101: CORPS_1, 102: CORPS_2, 110: DIV_A, 111: DIV_B, 112: DIV_C, 113: DIV_D}


def officer(key: int, rating: int = 2, fallen: bool = False) -> Officer:
    command = COMMANDS[key]
    value = Leader(LeaderClass.PROFICIENT, rating)
    return Officer(key, f"L{key}", command, RANKS.get(command, LeaderRank.DIVISION), value, f"C{command}", fallen)


def side(ratings: dict[int, int], fallen: set[int]) -> dict[int, Officer]:
    return {key: officer(key, ratings.get(key, 2), key in fallen) for key in COMMANDS}


def step_of(officers: dict[int, Officer]) -> ReplaceStep:
    return ReplaceStep(tuple(o for o in officers.values() if o.fallen and not o.removed), PARENTS)


def below(officers: dict[int, Officer], command: int) -> list[Officer]:
    """The leaders in action of the commands directly under ``command``, as the table's database lists them."""
    return [
        o for key, o in sorted(officers.items()) if not o.fallen and not o.removed and PARENTS.get(o.command) == command
    ]


def replace_in(chart, officers: dict[int, Officer], key: int) -> dict[int, Officer]:
    """One replacement made on the side, as the step writes it: the fallen leader and his successor changed, and a
    fresh leader for the division the successor left if none of its leaders is still in play."""
    done = replacement(chart, step_of(officers), key, below(officers, officers[key].command), "refused")
    after = {**officers, key: done.fallen}
    if done.successor is not None:
        after[done.successor.key] = done.successor
    if done.left is not None and not any(o.command == done.left and not o.removed for o in after.values()):
        after[-done.left] = Officer(-done.left, "fresh", done.left, LeaderRank.DIVISION, FRESH, replaced=True)
    return after


def test_the_commands_above_one_are_listed_nearest_first():
    assert above(PARENTS, DIV_C) == (CORPS_2, ARMY)
    assert above(PARENTS, ARMY) == ()


def test_a_fallen_division_leader_returns_one_rating_lower_and_replaced_this_turn(chart):
    officers = side({110: 3}, {110})
    done = replacement(chart, step_of(officers), 110, [], "refused")
    assert done.fallen == Officer(110, "L110", DIV_A, LeaderRank.DIVISION, Leader(LeaderClass.PROFICIENT, 2), "C10",
                                  replaced=True)  # fmt: skip
    assert done.successor is None and done.left is None
    assert done.step.fallen == ()


def test_a_fallen_corps_leader_gives_way_to_the_best_rated_leader_below_him(chart):
    officers = side({110: 1, 111: 3}, {101})
    done = replacement(chart, step_of(officers), 101, below(officers, CORPS_1), "refused")
    assert done.fallen.removed and not done.fallen.fallen
    assert done.successor is not None
    assert (done.successor.key, done.successor.command, done.successor.rank) == (111, CORPS_1, LeaderRank.CORPS)
    assert done.successor.replaced and done.successor.led == "C2"
    assert done.left == DIV_B


def test_an_army_leaders_successor_leaves_a_corps_and_no_fresh_division_leader_is_called_for(chart):
    officers = side({101: 1, 102: 4}, {100})
    done = replacement(chart, step_of(officers), 100, below(officers, ARMY), "refused")
    assert done.successor is not None and done.successor.key == 102
    assert done.left is None


def test_a_division_leader_who_fell_with_his_corps_leader_is_replaced_first(chart):
    officers = side({}, {101, 110})
    assert [t.leader.key for t in turns(step_of(officers))] == ["110", "101"]
    assert waiting(step_of(officers), 101).startswith("Replace L110 first")
    with pytest.raises(Refused, match="Replace L110 first"):
        replacement(chart, step_of(officers), 101, below(officers, CORPS_1), "refused")
    officers = replace_in(chart, officers, 110)
    assert waiting(step_of(officers), 101) == ""


def test_a_corps_leader_with_no_leader_in_play_below_him_is_refused_in_the_tables_words(chart):
    officers = side({}, {101})
    with pytest.raises(Refused, match="No command under C2 has a leader in play to take over from L101"):
        replacement(chart, step_of(officers), 101, [], "refused")


def test_a_leader_not_fallen_is_refused(chart):
    with pytest.raises(Refused, match="not fallen"):
        replacement(chart, step_of(side({}, {110})), 111, [], "not fallen")


RATINGS = st.dictionaries(st.sampled_from(sorted(COMMANDS)), st.integers(-1, 4))
FALLEN = st.sets(st.sampled_from(sorted(COMMANDS)), min_size=1)


@given(RATINGS, FALLEN)
def test_every_fallen_leader_waits_only_for_fallen_leaders_below_him_who_come_earlier(ratings, fallen):
    order = turns(step_of(side(ratings, fallen)))
    keys = [int(t.leader.key) for t in order]
    assert sorted(keys) == sorted(fallen)
    for at, turn in enumerate(order):
        for other in turn.waits_for:
            assert keys.index(int(other.key)) < at
            assert turn.leader.command in other.above


@given(RATINGS, FALLEN, st.randoms(use_true_random=False))
def test_whatever_order_the_table_replaces_its_leaders_in_the_side_ends_the_same(chart, ratings, fallen, rng):
    """The fallen leaders replaced in the step's order and in any other the rules allow (each one once none below
    him waits): the same leaders lead the same commands with the same values and the same are removed."""

    def enter(pick):
        officers = side(ratings, fallen)
        while step_of(officers).fallen:
            free = [o.key for o in step_of(officers).fallen if not waiting(step_of(officers), o.key)]
            officers = replace_in(chart, officers, pick(free))
        return officers

    in_order = enter(lambda free: free[0])
    assert enter(rng.choice) == in_order
    assert not any(o.fallen and not o.removed for o in in_order.values())
