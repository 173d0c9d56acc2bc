"""The events of a forced move at the table: one blocked by another unit where it would end (3.3). ``events``
lists them among every kind."""

from dataclasses import dataclass

from republic.games.payload import UnitEvent
from republic.rules.forced_moves import BlockedMoveInput, BlockedMoveResult


@dataclass(frozen=True)
class ForcedMoveBlocked(UnitEvent):
    """A unit's forced move of the turn would end on another unit: it makes the next move down the list instead."""

    inputs: BlockedMoveInput
    result: BlockedMoveResult
