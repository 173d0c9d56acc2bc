"""The attackers' moves after a round, before any round and at the start of the phase (5.2, 5.5)."""

import pytest

from republic.rules.assault_moves import (
    EVERY_DEFENDER_GONE,
    FollowUp,
    FollowUpInput,
    LocalBreakthroughInput,
    follow_ups,
    resolve_follow_up,
    resolve_local_breakthrough,
)
from republic.rules.assault_table import OutcomeAction
from republic.rules.errors import RulesInputError
from republic.rules.troops import UnitKind

INF, CAV = UnitKind.INFANTRY, UnitKind.CAVALRY_MOUNTED


def test_a_carry_result_carries_or_stalls_and_drive_away_holds():
    """R:1721-1723, R:1740-1742, R:1775-1778."""
    assert follow_ups(OutcomeAction.CARRY, INF) == (FollowUp.CARRY, FollowUp.STALLED)
    assert follow_ups(OutcomeAction.DRIVE_AWAY, INF) == (FollowUp.HOLD,)
    with pytest.raises(RulesInputError, match="move: this result allows it to: holds where it stands"):
        FollowUpInput(OutcomeAction.DRIVE_AWAY, INF, FollowUp.CARRY)


def test_may_break_through_downgrades_to_a_carry():
    """R:1752-1753: "Units which may breakthrough have the option of downgrading their breakthrough option to a
    carry position result"."""
    carried = resolve_follow_up(None, FollowUpInput(OutcomeAction.MAY_BREAKTHROUGH, INF, FollowUp.CARRY, True))
    assert carried.move is FollowUp.CARRY and carried.bonus_used and not carried.fights_on
    assert "1M at the end of the turn" in " ".join(carried.notes)


def test_only_mounted_cavalry_overruns_and_refusing_it_fights_on():
    """R:1754-1760: an overrun is the assaulting cavalry's; cavalry that refuses it within 2" fights on; the others
    must break through, which the round decides."""
    assert follow_ups(OutcomeAction.OVERRUN, INF) == ()
    with pytest.raises(RulesInputError, match="no move of its own"):
        FollowUpInput(OutcomeAction.OVERRUN, INF, FollowUp.OVERRUN)
    refused = resolve_follow_up(None, FollowUpInput(OutcomeAction.OVERRUN, CAV, FollowUp.HOLD))
    assert refused.fights_on and not refused.bonus_used
    assert follow_ups(OutcomeAction.MUST_BREAKTHROUGH, INF) == ()


def test_a_stalled_unit_fights_on_and_a_held_unit_spends_no_bonus():
    """R:1775-1778: "Stalled units shall still conduct further assault rounds"."""
    assert resolve_follow_up(None, FollowUpInput(OutcomeAction.CARRY, INF, FollowUp.STALLED)).fights_on
    with pytest.raises(RulesInputError, match="used_bonus: a unit that holds where it stands spends no"):
        FollowUpInput(EVERY_DEFENDER_GONE, INF, FollowUp.HOLD, used_bonus=True)


def test_every_defender_gone_before_the_rounds_lets_the_attackers_carry():
    """R:1320-1323: "For pending assaults in which all targeted defending brigades route, retreat and otherwise
    disengage, the attacking brigades may automatically carry the position"."""
    assert follow_ups(EVERY_DEFENDER_GONE, INF) == (FollowUp.CARRY, FollowUp.HOLD)


def test_a_local_breakthrough_comes_before_any_round_and_needs_a_roll_for_its_bonus():
    """R:1436-1446: declared at the start of the assault phase, moved before assault resolution begins."""
    assert resolve_local_breakthrough(None, LocalBreakthroughInput(0, used_bonus=True)).bonus_used
    with pytest.raises(RulesInputError, match="rounds_resolved: a local breakthrough is declared at the start"):
        LocalBreakthroughInput(1)
    with pytest.raises(RulesInputError, match="used_bonus: no roll"):
        LocalBreakthroughInput(0, used_bonus=True, bonus_refusal="no roll")
