"""The events of the chain of command and its leaders: a unit's rally (2.3) and a leader's move to support it
(1.7), a leader replaced (1.7) in the command phase; a leader checked for hors de combat in the fire and
assault phases, which his replacement follows; and a unit put under another division (2.1)."""

from dataclasses import dataclass

from republic.games.events.payload import LabelledRoll, Payload, UnitEvent
from republic.rules.leaders import (
    HorsDeCombatInput,
    HorsDeCombatOutcome,
    HorsDeCombatResult,
    LeaderReplacementInput,
    LeaderReplacementResult,
)
from republic.rules.movement import LeaderMoveInput, LeaderMoveResult
from republic.rules.rally import RallyInput, RallyResult


@dataclass(frozen=True)
class RallyResolved(UnitEvent):
    inputs: RallyInput
    result: RallyResult
    leaders_within_4: tuple[str, ...] = ()

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("rally", self.inputs.roll),)


@dataclass(frozen=True)
class LeaderMoved(Payload):
    """A leader's move in the rally step, as the table measured it, against what was left of his allowance."""

    leader: int
    name: str
    command: str
    inputs: LeaderMoveInput
    result: LeaderMoveResult


@dataclass(frozen=True)
class LeaderReplaced(Payload):
    leader: int
    name: str
    command: str
    inputs: LeaderReplacementInput
    result: LeaderReplacementResult
    successor: str = ""  # who takes over a corps or an army; a division leader returns himself
    fresh: str = ""  # the fresh leader of the division the successor left, as "name (value)"


@dataclass(frozen=True)
class LeaderCheckedForCasualty(Payload):
    leader: int
    name: str
    command: str
    inputs: HorsDeCombatInput
    result: HorsDeCombatResult

    @property
    def casualty(self) -> bool:
        return self.result.outcome is HorsDeCombatOutcome.HORS_DE_COMBAT

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("hors de combat", self.inputs.roll),)


@dataclass(frozen=True)
class HorsDeCombatSkipped(Payload):
    leader: int
    name: str


@dataclass(frozen=True)
class UnitReassigned(UnitEvent):
    """A unit put under another division of its side: the division it left and the one it joined."""

    left: int
    left_name: str
    joined: int
    joined_name: str
