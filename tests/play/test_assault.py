"""The assault step's decisions (5.1-5.5) without a database: which assault is open, which round waits and why,
what a side may fight now and what a round changes on its units."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.assault import (
    Assault,
    bonus,
    bridged,
    busy,
    contact_ended,
    end_refusal,
    fight,
    fight_refusal,
    first_rounds_left,
    open_assaults,
    overrun_waits,
    split_twice,
    taken,
    taken_in,
    waits,
)
from republic.play.refusal import Refused
from republic.rules.assault_fixed_hits import NO_HITS
from republic.rules.assault_table import OutcomeAction
from republic.rules.morale import MAX_M_HITS
from republic.rules.scale import GroundScale
from republic.rules.units import UnitState
from tests.play.assault_states import first_round, rounds, sides
from tests.rules.unit_states import brigade

MEDIUM = GroundScale.MEDIUM


def declared(seq: int, number: int, attackers=("a1",), defenders=("d1",), **fields) -> Assault:
    return Assault(seq, number, tuple(attackers), tuple(defenders), **fields)


def fought_once(chart, assault: Assault, a: int = 6, d: int = 5) -> Assault:
    round_ = first_round((brigade(assault.attackers[0]),), (brigade(assault.defenders[0]),), a, d)
    return replace(assault, rounds=(*assault.rounds, fight(chart, MEDIUM, [assault], assault, round_)))


def fought_to(chart, action_wanted: bool) -> Assault:
    """The first assault fought once, with the first dice whose outcome is (or is not) a break off."""
    return next(
        fought
        for a in range(1, 11)
        for d in range(1, 11)
        if (
            (fought := fought_once(chart, declared(1, 1), a, d)).rounds[-1].result.outcome.action
            is OutcomeAction.BREAK_OFF
        )
        == action_wanted
    )


# --- what is open and what waits (5.1, R:1376-1378) ---------------------------------------------------------


def test_contact_ends_for_certain_when_the_attackers_break_off_unstalled_or_a_side_has_no_unit_left(chart):
    broke = fought_to(chart, True)
    assert contact_ended(broke) == "The attackers broke off in round 1: assault 1's contact has ended"
    assert fight_refusal([broke], broke).endswith("Make the moves that follow, then close it.")
    # stalled attackers fight on while within 2" (R:1775-1778)
    assert contact_ended(replace(broke, stalled=True)) == fight_refusal([broke], replace(broke, stalled=True)) == ""
    held = fought_to(chart, False)
    assert contact_ended(held) == ""  # the table sees whether an attacker still faces an enemy within 2"
    gone = replace(held, left=(True, False))
    assert contact_ended(gone) == "No defending unit of assault 1 is left in play: its contact has ended"
    assert contact_ended(declared(1, 1, left=(False, True))) == ""  # no round fought yet: the table calls it off


def test_an_assault_is_open_until_it_ends():
    ended = declared(1, 1, ended=True)
    assert open_assaults([declared(3, 2), ended]) == [declared(3, 2)]


def test_no_second_round_before_every_other_open_assault_has_fought_its_first(chart):
    one = fought_once(chart, declared(1, 1))
    two, three = declared(5, 2, ("a2",), ("d2",)), declared(7, 3, ("a3",), ("d3",))
    assaults = [one, two, three]
    assert first_rounds_left(assaults, one) == [2, 3]
    assert "resolve the first round of assaults 2 and 3 first" in waits(assaults, one)
    assert waits(assaults, two) == waits(assaults, three) == ""
    with pytest.raises(Refused, match="Round 2 waits"):
        fight(chart, MEDIUM, assaults, one, first_round((brigade("a1"),), (brigade("d1"),), 5, 5))


def test_an_assault_ended_without_a_round_holds_no_other_back(chart):
    one = fought_once(chart, declared(1, 1))
    assert waits([one, declared(5, 2, ("a2",), ("d2",), ended=True)], one) == ""


def test_an_ended_assault_fights_no_more_rounds(chart):
    ended = declared(1, 1, ended=True)
    assert fight_refusal([ended], ended) == "Assault 1 has ended."
    with pytest.raises(Refused, match="Assault 1 has ended"):
        fight(chart, MEDIUM, [ended], ended, first_round((brigade("a1"),), (brigade("d1"),), 5, 5))


def test_a_round_without_a_unit_on_a_side_is_refused(chart):
    one = declared(1, 1)
    with pytest.raises(Refused, match="Each side needs a unit in the round"):
        fight(chart, MEDIUM, [one], one, first_round((brigade("a1"),), (), 5, 5))


@given(st.integers(1, 10), st.integers(1, 10))
def test_a_breakthrough_is_marked_now_and_moved_once_every_first_round_is_fought(chart, a, d):
    one = fought_once(chart, declared(1, 1), a, d)
    other = declared(5, 2, ("a2",), ("d2",))
    breaks_through = one.rounds[0].result.outcome.action.value in ("may_breakthrough", "must_breakthrough", "overrun")
    marked = overrun_waits([one, other], one)
    assert bool(marked) == breaks_through
    if marked:
        assert "once assault 2 has fought a first round" in marked
    assert overrun_waits([one, replace(other, ended=True)], one) == ""


# --- who is in which assault (5.2) --------------------------------------------------------------------------


def test_a_unit_in_an_open_assault_is_busy_until_it_ends():
    one, two = declared(1, 1, ("a1", "a2"), ("d1",)), declared(5, 2, ("a3",), ("d2",), ended=True)
    assert busy([one, two]) == {"a1": one, "a2": one, "d1": one}


def test_an_attacker_split_between_two_assaults_is_bridged_to_the_other():
    one, two = declared(1, 1, ("a1", "a2"), ("d1",)), declared(5, 2, ("a2",), ("d2",))
    assert bridged([one, two], one) == {"a2": two}
    assert bridged([one, two], two) == {"a2": one}


def test_a_declaration_naming_a_unit_of_an_open_assault_is_refused_unless_it_splits_an_attacker():
    one, done = declared(1, 1, ("a1",), ("d1",)), declared(3, 2, ("a5",), ("d5",), ended=True)
    assert taken([one, done], ["a1", "a5"], ["d1", "d5"], bridging=False) == ["a1", "d1"]
    assert taken([one, done], ["a1"], ["d2"], bridging=True) == []
    assert taken([one, done], ["a2"], ["d1"], bridging=True) == ["d1"]


def test_an_attacker_is_split_between_two_assaults_at_most():
    one, two = declared(1, 1, ("a1",), ("d1",)), declared(5, 2, ("a1",), ("d2",))
    assert split_twice([one, two], ["a1", "a2"]) == ["a1"]
    assert split_twice([one, replace(two, ended=True)], ["a1"]) == []


def test_an_assault_is_ended_once():
    assert end_refusal(declared(1, 4)) == ""
    assert end_refusal(declared(1, 4, ended=True)) == "Assault 4 has already ended."


def test_a_bridging_units_hits_in_its_other_assault_count_once_that_round_is_fought(chart):
    other = declared(5, 2, ("a1",), ("d2",))
    assert taken_in(other, 1, "a1") == NO_HITS
    fought = fought_once(chart, other, 1, 10)  # the attacker loses the natural roll: it takes M hits
    loss = fought.rounds[0].on_units.loss("a1")
    assert loss is not None and loss.m_taken > 0
    assert taken_in(fought, 1, "a1").m == loss.m_taken
    assert taken_in(fought, 2, "a1") == NO_HITS


# --- what a round changes (5.4-5.5) -------------------------------------------------------------------------


@st.composite
def assaults_fought(draw):
    """An assault fought for up to three rounds, the table giving new answers each round over the units as the
    round before left them."""
    attackers, defenders = draw(sides("a")), draw(sides("d"))
    return attackers, defenders, [draw(rounds(attackers, defenders)) for _ in range(3)]


@given(assaults_fought())
def test_an_assaults_rounds_never_leave_a_unit_with_more_hits_than_the_rules_allow(chart, fought):
    """A unit carries at most 4 M hits: "M hits to demoralization cause a panic hit (P hit) for each additional M
    hit point beyond demoralized" (R:1624-1626). Bases are only ever lost, each counted as lost this turn, and a
    unit's P hits of the phase are never taken back within it."""
    attackers, defenders, answers = fought
    assault = declared(1, 1, [u.id for u in attackers], [u.id for u in defenders])
    now = {u.id: u for u in (*attackers, *defenders)}
    for answer in answers:
        if contact_ended(assault):
            # the attackers broke off unstalled: no further round of this assault (5.5)
            assert fight_refusal([assault], assault)
            break
        playing = [
            tuple(replace(t, unit=now[t.unit.id]) for t in side if now[t.unit.id].in_play)
            for side in (answer.attackers, answer.defenders)
        ]
        if not all(playing):
            break
        given_ = replace(answer, attackers=playing[0], defenders=playing[1])
        result = fight(chart, MEDIUM, [assault], assault, given_)
        assert result.number == len(assault.rounds) + 1
        assert result.inputs.attacker.tactical_bonus == bonus(assault)
        for before, after in zip((t.unit for side in playing for t in side), result.after, strict=True):
            assert after.id == before.id
            assert 0 <= after.m_hits <= MAX_M_HITS
            assert 0 <= after.bases <= before.bases
            assert after.base_hits_turn - before.base_hits_turn == before.bases - after.bases
            assert after.p_hits_assault >= before.p_hits_assault
            assert after.damage >= before.damage
            now[after.id] = after
        assault = replace(assault, rounds=(*assault.rounds, result), stalled=given_.stalled)


@given(sides("a"), sides("d"), sides("e"), sides("f"), st.data())
def test_first_rounds_of_separate_assaults_end_the_same_whichever_is_fought_first(chart, a, d, e, f, data):
    """Every first round is fought before any second (5.1): two assaults of separate units read nothing of each
    other, so the table may resolve them in either order."""
    one = declared(1, 1, [u.id for u in a], [u.id for u in d])
    two = declared(5, 2, [u.id for u in e], [u.id for u in f])
    answers = {1: data.draw(rounds(a, d), label="assault 1"), 5: data.draw(rounds(e, f), label="assault 2")}

    def fought(order: list[Assault]) -> dict[str, UnitState]:
        assaults, units = [one, two], {}
        for assault in order:
            result = fight(chart, MEDIUM, assaults, assault, answers[assault.seq])
            taking = (*answers[assault.seq].attackers, *answers[assault.seq].defenders)
            units.update({t.unit.id: after for t, after in zip(taking, result.after, strict=True)})
            assaults = [replace(x, rounds=(result,)) if x.seq == assault.seq else x for x in assaults]
        return units

    assert fought([one, two]) == fought([two, one])
