"""The events of the game itself, outside any phase's work: who attacks first (1.6), the next step, an event
undone, a row put right by hand, a division's orders, an objective changing hands, the game's end, and an event
recorded before events were typed."""

from dataclasses import dataclass
from typing import Any

from republic.games.events.fire import UnitFireHits
from republic.games.events.payload import LabelledRoll, Payload
from republic.rules.sequence import FirstAttackerInput, FirstAttackerResult, StepKey
from republic.rules.units import Correction


def _first_attacker_rolls(inputs: FirstAttackerInput | None) -> tuple[LabelledRoll, ...]:
    if inputs is None:
        return ()
    return (LabelledRoll(inputs.first_side, inputs.first_roll), LabelledRoll(inputs.second_side, inputs.second_roll))


@dataclass(frozen=True)
class FirstAttackerRolled(Payload):
    """Each side's die for the first attacker (1.6, R:339-346), not tied: the high roller's side chooses next.
    ``sides`` are the keys of the engine's first and second side."""

    sides: tuple[int, int]
    inputs: FirstAttackerInput
    result: FirstAttackerResult

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return _first_attacker_rolls(self.inputs)


@dataclass(frozen=True)
class FirstAttackerAgreed(Payload):
    """A player of one side (``by``) agrees, without a roll, that ``side`` attacks first (1.6, R:342-343): it is
    chosen only once a player of every other side (``waiting_on``, by name) agrees to the same."""

    side: int
    side_name: str
    by: int
    by_name: str
    waiting_on: str


@dataclass(frozen=True)
class FirstAttackerChosen(Payload):
    """The side that attacks first (1.6, R:339-346), agreed by all or chosen by the high roller; an event
    recorded before the dice were kept has neither inputs nor result."""

    side: int
    side_name: str
    how: str  # AGREED or BY_ROLL
    inputs: FirstAttackerInput | None = None
    result: FirstAttackerResult | None = None

    AGREED = "agreed"
    BY_ROLL = "die roll"

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return _first_attacker_rolls(self.inputs)


@dataclass(frozen=True)
class PassedStep:
    """A step that passed by itself, and why: nobody had anything to do in it ('no leader lost')."""

    step: StepKey
    why: str


@dataclass(frozen=True)
class StepAdvanced(Payload):
    """The next step: leaving the artillery step puts the fire phase's hits on, leaving the panic phase puts the
    divisions that panicked back on Defend (``orders_reset``: their names), the turn's last step ends it.
    ``by_itself``: on a step that passed by itself, every step that passed by itself since the Next step that
    began it, this one last (``walk.move_on``); empty on the Next step itself and on every event of earlier
    versions."""

    left: StepKey
    to: StepKey
    fire_hits: tuple[UnitFireHits, ...] = ()
    orders_reset: tuple[str, ...] = ()
    turn_ended: bool = False
    left_undone: tuple[str, ...] = ()  # the work the game master moved on without
    by_itself: tuple[PassedStep, ...] = ()


@dataclass(frozen=True)
class EventUndone(Payload):
    """An event taken back; ``passed``: on the undo of a Next step, how many steps that passed by themselves after
    it were undone with it (``walk.undo``)."""

    seq: int
    passed: int = 0


@dataclass(frozen=True)
class FieldValue:
    field: str
    value: Any


@dataclass(frozen=True)
class CorrectionMade(Payload):
    """A row ('unit:12') put right by hand: one of a unit card's corrections, or fields set directly."""

    target: str
    name: str
    correction: Correction | None
    fields: tuple[FieldValue, ...]


@dataclass(frozen=True)
class OrdersChanged(Payload):
    division: int
    name: str
    orders: str


@dataclass(frozen=True)
class ObjectiveTaken(Payload):
    """An objective of the scenario changes hands, as the table records it: the side holding it before and after,
    by name ('' for no one)."""

    objective: str  # its key, "objective:12"
    name: str
    before: str
    after: str


@dataclass(frozen=True)
class GameEnded(Payload):
    """The game master's word that the game is over: the winning side (None: a draw) and what decided it."""

    winner: int | None
    winner_name: str
    note: str = ""


@dataclass(frozen=True)
class EarlierRecord(Payload):
    """An event recorded before events were typed: its kind and its words, as the log showed them."""

    kind: str
    summary: str
