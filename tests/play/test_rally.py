"""The rally step's decisions (1.7, 2.3, R:352-354) without a database: who must rally, what a rally changes, how
a leader stands to a rallying unit, and what is left of a leader's 2" move."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.rally import RallyStep, due, leader_move, moved_before, rally, relation
from republic.play.refusal import Refused
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.leaders import CommandRelation
from republic.rules.morale import MAX_M_HITS
from republic.rules.rally import RallyInput
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, Leader
from republic.rules.units import UnitState
from tests.rules.unit_states import battery, brigade

P1 = Leader.parse("P1")


def rally_of(unit: UnitState, die: int, distance: float = 2.0) -> RallyInput:
    return RallyInput.of(unit, d10(die), P1, distance)


def ids(units) -> list[str]:
    return [u.id for u in units]


def test_every_unit_with_m_hits_in_play_is_due_in_the_order_read():
    step = RallyStep(
        (
            brigade("a", m_hits=2),
            brigade("b"),
            brigade("c", m_hits=4),
            brigade("d", m_hits=1, destroyed=True),
            battery("e", m_hits=1),
            brigade("f", m_hits=3, surrendered=True),
        )
    )
    assert ids(due(step)) == ["a", "c", "e"]


def test_a_unit_that_rolled_this_step_is_no_longer_due_whatever_its_condition():
    step = RallyStep((brigade("a", m_hits=2), brigade("b", m_hits=1)), frozenset({"a"}))
    assert ids(due(step)) == ["b"]


def test_a_rally_gives_the_unit_the_engines_condition_and_marks_it_rolled(chart):
    unit = brigade("a", m_hits=3, grade=Grade.VETERAN)
    done = rally(chart, RallyStep((unit,)), "a", rally_of(unit, 10))
    assert done.unit.m_hits == done.result.condition_after.m_hits
    assert done.step.units == (done.unit,)
    assert done.step.rolled == {"a"}
    assert due(done.step) == ()


@pytest.mark.parametrize("step", [RallyStep((brigade("a", m_hits=2),), frozenset({"a"})), RallyStep((brigade("a"),))])
def test_a_unit_not_due_has_its_rally_refused(chart, step):
    with pytest.raises(Refused, match="a has no rally to make now"):
        rally(chart, step, "a", rally_of(brigade("a", m_hits=2), 5))


def test_a_unit_not_in_the_step_has_its_rally_refused(chart):
    unit = brigade("a", m_hits=2)
    with pytest.raises(Refused):
        rally(chart, RallyStep((unit,)), "z", rally_of(unit, 5))


UNITS = st.lists(
    st.builds(
        lambda m, grade, bases, lost: brigade(grade=grade, bases=bases - lost, bases_start=bases, m_hits=m),
        st.integers(0, MAX_M_HITS),
        st.sampled_from(list(Grade)),
        st.integers(2, 8),
        st.integers(0, 1),
    ),
    min_size=1,
    max_size=6,
).map(lambda units: tuple(UnitState(f"u{i}", *_fields(u)) for i, u in enumerate(units)))


def _fields(unit: UnitState) -> tuple:
    return (unit.kind, unit.grade, unit.bases, unit.bases_start, unit.m_hits)


@given(UNITS, st.data())
def test_whatever_order_the_rallies_are_entered_in_the_step_ends_the_same(chart, units, data):
    """Each rally reads only its own unit and the table's answers (2.3): the end state does not depend on
    which phone sends its die first."""
    step = RallyStep(units)
    dice = {u.id: data.draw(st.integers(1, 10), label=u.id) for u in due(step)}
    distances = {u.id: data.draw(st.sampled_from([0.0, 3.5, 9.0]), label=f"{u.id} inches") for u in due(step)}
    order = data.draw(st.permutations(sorted(dice)), label="order")

    def enter(keys) -> RallyStep:
        now = step
        for key in keys:
            unit = next(u for u in now.units if u.id == key)
            now = rally(chart, now, key, rally_of(unit, dice[key], distances[key])).step
        return now

    as_read, shuffled = enter(sorted(dice)), enter(order)
    assert shuffled == as_read
    assert due(shuffled) == ()
    assert shuffled.rolled == set(dice)


def test_a_leader_of_the_units_chain_of_command_is_of_its_chain():
    assert relation([10, 20, 30], 20, 20, 30) is CommandRelation.CHAIN_OF_COMMAND


def test_a_division_leader_of_the_same_corps_adjoins_and_of_another_is_only_of_the_same_side():
    assert relation([10, 20, 30], 20, 11, 20) is CommandRelation.ADJOINING_SAME_CORPS
    assert relation([10, 20, 30], 20, 12, 21) is CommandRelation.SAME_SIDE_OTHER
    assert relation([10, 30], None, 12, None) is CommandRelation.SAME_SIDE_OTHER


def test_a_leaders_moves_add_up_against_his_two_inches_and_another_leaders_do_not_count(chart):
    moves = [(1, 0.5), (2, 1.5), (1, 1.0)]
    assert moved_before(moves, 1) == 1.5
    assert leader_move(chart, GroundScale.MEDIUM, moves, 1).result.left == 0.5
    assert leader_move(chart, GroundScale.MEDIUM, moves, 3).result.left == 2.0
    with pytest.raises(RulesInputError, match="too far"):
        leader_move(chart, GroundScale.MEDIUM, moves, 1, 0.75)


@given(st.lists(st.tuples(st.sampled_from([1, 2]), st.sampled_from([0.25, 0.5, 1.0])), max_size=4), st.randoms())
def test_what_is_left_of_a_leaders_allowance_does_not_depend_on_the_order_of_the_moves(chart, moves, random):
    shuffled = list(moves)
    random.shuffle(shuffled)
    for leader in (1, 2):
        if moved_before(moves, leader) > 2.0:
            continue
        lefts = [leader_move(chart, GroundScale.MEDIUM, m, leader).result.left for m in (moves, shuffled)]
        assert lefts[0] == lefts[1] == round(2.0 - moved_before(moves, leader), 2)
