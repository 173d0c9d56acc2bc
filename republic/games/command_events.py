"""The events of the chain of command: a leader's move in the rally step (1.7), a unit moved from one division
to another (2.1), and who holds an objective the scenario names. ``events`` lists them among every kind."""

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


@dataclass(frozen=True)
class ObjectiveTaken(Payload):
    """An objective of the scenario changes hands, as the table records it: the side holding it before and after,
    by name ('' for no one)."""

    objective: str  # its key, "objective:12"
    name: str
    before: str
    after: str
