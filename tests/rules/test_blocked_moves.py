"""A forced move that would end on another unit becomes the next move down the list (3.3, R:695-701): the move,
its distance in the game's scale and how much further it goes; what the move made instead brings (the M at the end
of a rout, R:1651-1653; a battery abandoned for a rout, R:1657-1658); and the rout, last of the list, which stands."""

import pytest

from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import BlockedMoveInput, ForcedMove, resolve_blocked_move
from republic.rules.morale import MAX_M_HITS
from republic.rules.scale import GroundScale
from republic.rules.units import after_blocked_move
from tests.rules.unit_states import battery, brigade


def test_a_withdrawing_unit_stacked_on_another_unit_falls_back_to_clear_its_rear(chart):
    """R:699-701, the rule's own example: "A withdrawing unit stacked on another unit becomes a fall back in order
    to clear to the rear of that other unit"; a withdraw is 8", a fall back 10" (R:702-704)."""
    result = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.WITHDRAW))
    assert (result.blocked, result.move, result.distance, result.beyond) == (
        ForcedMove.WITHDRAW,
        ForcedMove.FALL_BACK,
        10,
        2,
    )
    assert result.faces_enemy and not result.last
    assert result.instruction == 'Fall back: move 10" away from the enemy, facing the enemy'
    assert result.notes[0] == "a withdraw that would end on another unit becomes a fall back (3.3)"
    assert {(c.table, c.key) for c in result.cells} >= {("forced_moves", "W"), ("forced_moves", "F")}


@pytest.mark.parametrize(
    ("blocked", "made", "distance", "faces_enemy"),
    [
        (ForcedMove.DISENGAGE, ForcedMove.WITHDRAW, 8, True),
        (ForcedMove.WITHDRAW, ForcedMove.FALL_BACK, 10, True),
        (ForcedMove.FALL_BACK, ForcedMove.RETREAT, 12, False),
        (ForcedMove.RETREAT, ForcedMove.ROUT, 14, False),
    ],
)
def test_each_move_goes_one_down_the_list(chart, blocked, made, distance, faces_enemy):
    """R:702-707: disengage 6", withdraw 8", fall back 10" facing the enemy; retreat 12", rout 14" facing away."""
    result = resolve_blocked_move(chart, BlockedMoveInput(blocked))
    assert (result.move, result.distance, result.beyond, result.faces_enemy) == (made, distance, 2, faces_enemy)


def test_horse_goes_down_the_list_at_double_the_foot_distances(chart):
    """R:1650-1651: cavalry moves 200% of the foot distances, so a blocked withdraw (16") becomes a 20" fall back."""
    result = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.WITHDRAW, horse=True))
    assert (result.move, result.distance, result.beyond) == (ForcedMove.FALL_BACK, 20, 4)


def test_the_next_move_is_measured_in_the_games_scale(chart):
    """1.2: every distance is multiplied by the scale ratio."""
    medium = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.FALL_BACK))
    large = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.FALL_BACK, scale=GroundScale.LARGE))
    ratio, _ = chart.entry("ground_scale", "large")
    assert large.distance == round(medium.distance * ratio * 4) / 4 != medium.distance
    assert large.beyond == large.distance - round(10 * ratio * 4) / 4


def test_a_retreat_that_becomes_a_rout_takes_the_m_at_the_end_of_the_rout(chart):
    """R:1651-1653: "Units that rout will suffer an additional morale hit at the end of their rout move"."""
    result = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.RETREAT, m_hits=1))
    assert result.m_after == 2 and not result.abandoned
    assert ("assault_fixed_hits", "rout_end") in {(c.table, c.key) for c in result.cells}
    after = after_blocked_move(brigade(m_hits=1, forced_move=ForcedMove.RETREAT), result)
    assert (after.forced_move, after.m_hits, after.retreated) == (ForcedMove.ROUT, 2, True)


def test_a_demoralized_unit_that_now_routs_stays_demoralized(chart):
    """R:1652-1653: "if already demoralized the unit remains demoralized" (no P hit either)."""
    result = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.RETREAT, m_hits=MAX_M_HITS))
    assert result.m_after == MAX_M_HITS
    after = after_blocked_move(brigade(m_hits=MAX_M_HITS, forced_move=ForcedMove.RETREAT, p_hits_turn=2), result)
    assert (after.m_hits, after.p_hits_turn) == (MAX_M_HITS, 2)


@pytest.mark.parametrize("blocked", [ForcedMove.DISENGAGE, ForcedMove.WITHDRAW, ForcedMove.FALL_BACK])
def test_a_move_that_does_not_become_a_rout_brings_no_hit(chart, blocked):
    """Going down the list changes the move only: the panic that caused it was resolved already."""
    result = resolve_blocked_move(chart, BlockedMoveInput(blocked, m_hits=2))
    assert result.m_after == 2 and not result.abandoned
    after = after_blocked_move(brigade(m_hits=2, forced_move=blocked, p_hits_turn=1, p4_event=True), result)
    assert (after.m_hits, after.p_hits_turn, after.p4_event, after.bases) == (2, 1, True, 6)


def test_a_battery_whose_retreat_becomes_a_rout_is_abandoned_without_the_m(chart):
    """R:1657-1658: "Artillery batteries required to rout are abandoned (captured/lost) regardless of other
    results"."""
    result = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.RETREAT, battery=True, m_hits=1))
    assert result.abandoned and result.m_after == 1
    after = after_blocked_move(battery(forced_move=ForcedMove.RETREAT, m_hits=1, limbered=True), result)
    assert after.abandoned and after.out_of_play and after.forced_move is ForcedMove.ROUT


def test_a_limbered_battery_whose_fall_back_becomes_a_retreat_takes_no_damage(chart):
    """R:1654-1656: a retreat costs a battery one damage for limbering up; it limbered up for its fall back."""
    result = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.FALL_BACK, battery=True))
    assert not result.abandoned and result.move is ForcedMove.RETREAT
    assert "no limbering again, no damage" in result.notes[-1]
    after = after_blocked_move(battery(forced_move=ForcedMove.FALL_BACK, limbered=True, saved_fire=True), result)
    assert (after.damage, after.abandoned, after.saved_fire) == (0, False, False)


def test_a_rout_is_the_last_of_the_list_and_stands(chart):
    """R:699: "the next move option down the list" — there is none after the rout (R:706-707); a friendly unit in
    the way is no cause to surrender, which only enemy bases are (R:1673-1678, R:1774-1775)."""
    result = resolve_blocked_move(chart, BlockedMoveInput(ForcedMove.ROUT, m_hits=3))
    assert result.last and (result.blocked, result.move, result.beyond, result.m_after) == (
        ForcedMove.ROUT,
        ForcedMove.ROUT,
        0,
        3,
    )
    assert result.distance == 14 and not result.abandoned
    assert result.instruction.endswith("then on past the unit in its way until it is clear of its rear")


def test_a_move_blocked_again_goes_down_again():
    assert [m.next_down for m in ForcedMove] == [
        ForcedMove.WITHDRAW,
        ForcedMove.FALL_BACK,
        ForcedMove.RETREAT,
        ForcedMove.ROUT,
        None,
    ]


def test_morale_beyond_the_ladder_is_refused():
    with pytest.raises(RulesInputError):
        BlockedMoveInput(ForcedMove.WITHDRAW, m_hits=MAX_M_HITS + 1)
