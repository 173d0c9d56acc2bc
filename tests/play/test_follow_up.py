"""The attackers' moves after a round (5.5) and before any (R:1320-1323) without a database."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.assault import Assault, fight
from republic.play.follow_up import follow_up, local_breakthrough, movers, result_of
from republic.rules.assault_moves import EVERY_DEFENDER_GONE, FollowUp, follow_ups
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.maneuver import ManeuverAction
from republic.rules.scale import GroundScale
from tests.play.assault_states import first_round, rounds, sides
from tests.rules.unit_states import battery, brigade

BEFORE_ANY = Assault(1, 1, ("a1", "a-bty"), ("d1", "d2"))


def test_before_any_round_the_attackers_answer_to_every_defender_gone_only_when_all_are():
    attackers = {"a1": brigade("a1"), "a-bty": battery("a-bty")}
    gone = {**attackers, "d1": brigade("d1", forced_move=ForcedMove.RETREAT), "d2": brigade("d2", destroyed=True)}
    standing = {**gone, "d2": brigade("d2")}
    assert result_of(BEFORE_ANY, gone) == EVERY_DEFENDER_GONE
    assert movers(BEFORE_ANY, gone, recorded=False) == {"a1": follow_ups(EVERY_DEFENDER_GONE, brigade().kind)}
    assert result_of(BEFORE_ANY, standing) == ""
    assert movers(BEFORE_ANY, standing, recorded=False) == {}


def test_no_moves_are_asked_once_recorded_or_once_the_assault_ended():
    units = {
        "a1": brigade("a1"),
        "a-bty": battery("a-bty"),
        "d1": brigade("d1", destroyed=True),
        "d2": brigade("d2", destroyed=True),
    }
    assert movers(BEFORE_ANY, units, recorded=True) == {}
    assert movers(replace(BEFORE_ANY, ended=True), units, recorded=False) == {}


@given(sides("a"), sides("d"), st.data())
def test_after_a_round_only_attackers_the_round_did_not_move_choose_from_what_its_result_allows(chart, a, d, data):
    assault = Assault(1, 1, tuple(u.id for u in a), tuple(u.id for u in d))
    fought = fight(chart, GroundScale.MEDIUM, [assault], assault, data.draw(rounds(a, d)))
    after = {unit.id: unit for unit in (*a, *d)} | {unit.id: unit for unit in fought.after}
    done = replace(assault, rounds=(fought,))
    result = fought.result.outcome.action.value
    assert result_of(done, after) == result
    found = movers(done, after, recorded=False)
    moved = {*fought.on_units.break_through, *(b.unit for b in fought.on_units.broke_off)}
    for key, moves in found.items():
        loss = fought.on_units.loss(key)
        assert key in assault.attackers and key not in moved and not (loss and loss.move)
        assert after[key].in_play and not after[key].battery
        assert moves == follow_ups(result, after[key].kind)
    unnamed = replace(assault, rounds=(replace(fought, names=()),))
    assert movers(unnamed, after, recorded=False) == {}  # none named by the round: none moves


def test_a_move_that_needed_the_assault_move_bonus_spends_it_and_one_that_did_not_keeps_it(chart):
    unit = brigade("a1")
    spent = follow_up(chart, "carry", unit, FollowUp.CARRY, used_bonus=True)
    assert spent.result.bonus_used and spent.unit == replace(unit, charge_bonus_used=True)
    kept = follow_up(chart, "carry", unit, FollowUp.STALLED, used_bonus=False)
    assert not kept.result.bonus_used and kept.unit == unit


def test_a_move_the_result_does_not_allow_is_refused_by_the_engine(chart):
    with pytest.raises(RulesInputError, match="this result allows it to"):
        follow_up(chart, "drive_away", brigade("a1"), FollowUp.CARRY, used_bonus=False)


def test_a_local_breakthrough_before_any_round_spends_the_bonus_only_when_it_needed_it(chart):
    unit, allowed = brigade("a1"), (ManeuverAction.ADVANCE, ManeuverAction.HOLD)
    assert local_breakthrough(chart, [BEFORE_ANY], unit, True, allowed).unit == replace(unit, charge_bonus_used=True)
    assert local_breakthrough(chart, [BEFORE_ANY], unit, False, allowed).unit == unit


def test_a_local_breakthrough_is_refused_once_a_round_of_the_phase_is_resolved(chart):
    fought = Assault(1, 1, ("a1",), ("d1",))
    round_ = first_round((brigade("a1"),), (brigade("d1"),), 5, 5)
    fought = replace(fought, rounds=(fight(chart, GroundScale.MEDIUM, [fought], fought, round_),))
    with pytest.raises(RulesInputError, match="before any assault is resolved"):
        local_breakthrough(chart, [fought, BEFORE_ANY], brigade("a9"), False, (ManeuverAction.ADVANCE,))


@pytest.mark.parametrize("allowed", [None, (ManeuverAction.PULL_BACK, ManeuverAction.HOLD)])
def test_a_brigade_whose_roll_allowed_no_move_forward_breaks_through_without_its_bonus(chart, allowed):
    assert local_breakthrough(chart, [BEFORE_ANY], brigade("a1"), False, allowed).unit == brigade("a1")
    with pytest.raises(RulesInputError):
        local_breakthrough(chart, [BEFORE_ANY], brigade("a1"), True, allowed)
