"""Forced moves in words: what each move makes a unit do, the log's sentence for a move blocked by another unit
(3.3) and what a unit's card offers for it."""

from collections.abc import Callable
from typing import Any

from republic.games.forced_move_events import ForcedMoveBlocked
from republic.games.payload import Payload
from republic.games.text.terms import condition, inches
from republic.rules.forced_moves import BlockedMoveResult, ForcedMove

VERBS = {
    ForcedMove.DISENGAGE: "disengages",
    ForcedMove.WITHDRAW: "withdraws",
    ForcedMove.FALL_BACK: "falls back",
    ForcedMove.RETREAT: "retreats",
    ForcedMove.ROUT: "routs",
}


def blocked_offer(result: BlockedMoveResult) -> str:
    """What the card's button does: 'Blocked: fall back instead, 10"'."""
    return f"Blocked: {result.move.title} instead, {inches(result.distance)}"


def last_move(name: str) -> str:
    """Why a rout blocked by another unit stays a rout."""
    return (
        f"{name} routs, the last move of the list: it goes on past the unit in its way until it is clear of its rear "
        "(3.3). Only enemy bases in its way make a unit surrender (5.5)."
    )


def _blocked(p: ForcedMoveBlocked) -> str:
    r = p.result
    facing = "facing the enemy" if r.faces_enemy else "turning away from the enemy"
    said = (
        f"{p.name}'s {r.blocked.title} would end on another unit: it {VERBS[r.move]} instead, {inches(r.distance)} "
        f"in all ({inches(r.beyond)} beyond the {r.blocked.title}), {facing}"
    )
    if r.abandoned:
        return said + "; a battery required to rout is abandoned"
    if r.m_after != p.inputs.m_hits:
        return said + f"; the M at the end of its rout leaves it {condition(r.m_after)}"
    return said


MOVE_WORDS: dict[type[Payload], Callable[[Any], str]] = {ForcedMoveBlocked: _blocked}
