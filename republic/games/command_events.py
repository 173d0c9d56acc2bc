"""The events of the chain of command: a leader's move in the rally step (1.7) and a unit moved from one division
to another (2.1). ``events`` lists them among every kind."""

from dataclasses import dataclass

from republic.games.payload import Payload, UnitEvent
from republic.rules.movement import LeaderMoveInput, LeaderMoveResult


@dataclass(frozen=True)
class LeaderMoved(Payload):
    """A leader's move in the rally step, as the table measured it, against what was left of his allowance."""

    leader: int
    name: str
    command: str
    inputs: LeaderMoveInput
    result: LeaderMoveResult


@dataclass(frozen=True)
class UnitReassigned(UnitEvent):
    """A unit put under another division of its side: the division it left and the one it joined."""

    left: int
    left_name: str
    joined: int
    joined_name: str
