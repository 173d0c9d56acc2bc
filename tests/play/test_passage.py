"""The losers a lose/lose passage of lines may send through friends (5.5, R:1679-1701), without a database."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.assault import Assault, fight
from republic.play.passage import Loser, Passer, losers, pass_through
from republic.play.refusal import Refused
from republic.rules.assault_table import OutcomeSide
from republic.rules.forced_moves import ForcedMove
from republic.rules.scale import GroundScale
from tests.play.assault_states import rounds, sides
from tests.rules.unit_states import battery, brigade


@given(sides("a"), sides("d"), st.data())
def test_the_losers_are_the_brigades_a_round_drove_back_each_knowing_if_it_lost_both_rolls(chart, a, d, data):
    assault = Assault(1, 1, tuple(u.id for u in a), tuple(u.id for u in d))
    fought = fight(chart, GroundScale.MEDIUM, [assault], assault, data.draw(rounds(a, d)))
    units = {u.id: u for u in (*a, *d)} | {u.id: u for u in fought.after}
    found = losers([replace(assault, rounds=(fought,))], units)
    result = fought.result
    for side, keys in (("attacker", assault.attackers), ("defender", assault.defenders)):
        both = result.outcome.to in (OutcomeSide(side), OutcomeSide.BOTH) and result.natural_loser is OutcomeSide(side)
        driven = [Loser(key, both) for key in keys if units[key].forced_move and not units[key].battery]
        assert found[side] == driven


@given(sides("a"), sides("d"), st.data())
def test_a_unit_no_round_named_is_no_loser_and_without_a_round_there_are_none(chart, a, d, data):
    assault = Assault(1, 1, tuple(u.id for u in a), tuple(u.id for u in d))
    driven = {u.id: replace(u, forced_move=ForcedMove.RETREAT) for u in (*a, *d)}
    assert losers([assault], driven) == {"attacker": [], "defender": []}
    fought = fight(chart, GroundScale.MEDIUM, [assault], assault, data.draw(rounds(a, d)))
    assert losers([replace(assault, rounds=(replace(fought, names=()),))], driven) == {"attacker": [], "defender": []}


SHAKEN_ROUTING = replace(brigade("loser", m_hits=3), forced_move=ForcedMove.ROUT)


def test_a_loser_that_lost_both_rolls_gives_the_friend_it_passes_through_hits_and_one_that_did_not_none(chart):
    friend = brigade("friend")
    hit = pass_through(chart, GroundScale.MEDIUM, friend, [Passer(SHAKEN_ROUTING, "1st", 1.0, True)])
    assert hit.result.hits_taken.m > 0 and hit.result.hits_taken.p > 0
    assert hit.unit.m_hits > friend.m_hits and hit.unit.p_hits_assault > 0
    spared = pass_through(chart, GroundScale.MEDIUM, friend, [Passer(SHAKEN_ROUTING, "1st", 1.0, False)])
    assert not spared.result.hits_taken and spared.unit == friend


def test_no_loser_passes_through_a_packed_battery_nor_is_a_unit_not_driven_back_a_loser(chart):
    with pytest.raises(Refused, match="packed frontage"):
        pass_through(chart, GroundScale.MEDIUM, battery(packed=True), [Passer(SHAKEN_ROUTING, "1st", 1.0, True)])
    with pytest.raises(Refused, match="1st was not driven back"):
        pass_through(chart, GroundScale.MEDIUM, brigade("friend"), [Passer(brigade("loser"), "1st", 1.0, True)])
