"""The attackers' moves after an assault round (5.5, R:1721-1778), before any round when every defender has
already gone (R:1320-1323), and the local breakthrough that opens the assault phase (5.2, R:1436-1447).

The table moves the bases; these say which moves a result allows a unit, whether it spends its assault move
bonus (one M at the end of the turn, 3.1) and whether it fights on.

Readings chosen:
- A "carry" result carries the position (R:1721-1723, "Troops required to carry a position by the assault result
  must, if necessary, use their assault bonus move", R:1733-1735); a unit without the movement left for it is
  stalled (R:1775-1778). "Drive away" holds where it stands (R:1740-1742).
- "May break through" breaks through, or downgrades to carry (R:1752-1753), or stalls.
- "Must break through" is the round's own: the round already spends the bonus (``assault_on_units``).
- An overrun is mounted cavalry's (R:1754-1757); cavalry that refuses it and stays within 2" fights another
  round (R:1758-1760), as does a stalled unit (R:1775-1778).
- The bonus is spent where the table says the move needed it; a move the result forces spends it whatever the
  maneuver roll allowed, a voluntary one (a local breakthrough) only when the roll allowed moving forward.
- A local breakthrough is declared before the first assault round of the phase (R:1443-1446).
"""

from dataclasses import dataclass
from enum import StrEnum

from republic.rules.assault_table import OutcomeAction
from republic.rules.chart import Chart
from republic.rules.checks import check_count, check_kind
from republic.rules.errors import RulesInputError
from republic.rules.results import Explained, Mechanic
from republic.rules.troops import UnitKind


class FollowUp(StrEnum):
    HOLD = "hold"
    CARRY = "carry"
    BREAKTHROUGH = "breakthrough"
    OVERRUN = "overrun"
    STALLED = "stalled"

    @property
    def words(self) -> str:
        return {
            FollowUp.HOLD: "holds where it stands",
            FollowUp.CARRY: "carries the position",
            FollowUp.BREAKTHROUGH: "breaks through",
            FollowUp.OVERRUN: "overruns",
            FollowUp.STALLED: "is stalled, with no movement left",
        }[self]


EVERY_DEFENDER_GONE = "every_defender_gone"  # no round: the defenders all fell back before it (R:1320-1323)
_ALLOWED: dict[str, tuple[FollowUp, ...]] = {
    OutcomeAction.CARRY.value: (FollowUp.CARRY, FollowUp.STALLED),
    OutcomeAction.DRIVE_AWAY.value: (FollowUp.HOLD,),
    OutcomeAction.MAY_BREAKTHROUGH.value: (FollowUp.BREAKTHROUGH, FollowUp.CARRY, FollowUp.STALLED),
    OutcomeAction.OVERRUN.value: (FollowUp.OVERRUN, FollowUp.HOLD, FollowUp.STALLED),
    EVERY_DEFENDER_GONE: (FollowUp.CARRY, FollowUp.HOLD),
}
_BONUS_MOVES = (FollowUp.CARRY, FollowUp.BREAKTHROUGH, FollowUp.OVERRUN)


def follow_ups(result: str, kind: UnitKind) -> tuple[FollowUp, ...]:
    """The moves a round's result (an ``OutcomeAction`` value, or ``EVERY_DEFENDER_GONE``) allows a unit: none
    when the round decides its move itself (must break through, break off) or the result gives it no move."""
    if result == OutcomeAction.OVERRUN.value and kind is not UnitKind.CAVALRY_MOUNTED:
        return ()  # beside overrunning cavalry the others must break through: the round moved them (5.5)
    return _ALLOWED.get(result, ())


@dataclass(frozen=True)
class FollowUpInput:
    """One attacking unit's move after a round whose result is ``result``, and whether the move needed its
    assault move bonus."""

    result: str
    kind: UnitKind
    move: FollowUp
    used_bonus: bool = False

    def __post_init__(self) -> None:
        check_kind(self.kind, UnitKind, "kind")
        check_kind(self.move, FollowUp, "move")
        allowed = follow_ups(self.result, self.kind)
        if not allowed:
            raise RulesInputError("result", "this result leaves the unit no move of its own to choose")
        if self.move not in allowed:
            raise RulesInputError(
                "move", f"this result allows it to: {', '.join(m.words for m in allowed)}; not {self.move.words}"
            )
        if self.used_bonus and self.move not in _BONUS_MOVES:
            raise RulesInputError("used_bonus", f"a unit that {self.move.words} spends no assault move bonus")


@dataclass(frozen=True)
class FollowUpResult(Explained):
    move: FollowUp
    bonus_used: bool  # one M at the end of the turn (3.1)
    fights_on: bool  # still within 2" of the enemy: another round (5.5)


def resolve_follow_up(chart: Chart | None, inputs: FollowUpInput) -> FollowUpResult:  # reads no chart table
    notes = [f"it {inputs.move.words} (5.5)"]
    if inputs.used_bonus:
        notes.append("it needed its assault move bonus: 1M at the end of the turn (3.1, 5.5)")
    fights_on = inputs.move is FollowUp.STALLED or (
        inputs.result == OutcomeAction.OVERRUN.value and inputs.move is FollowUp.HOLD
    )
    if fights_on:
        notes.append('while it faces the enemy within 2" it fights another round (5.5)')
    return FollowUpResult(move=inputs.move, bonus_used=inputs.used_bonus, fights_on=fights_on, notes=tuple(notes))


@dataclass(frozen=True)
class LocalBreakthroughInput:
    """An attacking unit left out of assault contact by the enemy's withdrawals or losses to fire, going on to
    fresh targets: how many assault rounds the phase has resolved, and whether its move needs its assault move
    bonus and its maneuver roll allowed moving forward."""

    rounds_resolved: int
    used_bonus: bool = False
    bonus_refusal: str = ""  # why its maneuver roll allows no bonus, if it does not

    def __post_init__(self) -> None:
        check_count(self.rounds_resolved, "rounds_resolved")
        if self.rounds_resolved:
            raise RulesInputError(
                "rounds_resolved",
                "a local breakthrough is declared at the start of the assault phase and moved before any assault "
                "is resolved (5.2)",
            )
        if self.used_bonus and self.bonus_refusal:
            raise RulesInputError("used_bonus", self.bonus_refusal)


@dataclass(frozen=True)
class LocalBreakthroughResult(Explained):
    bonus_used: bool


def resolve_local_breakthrough(chart: Chart | None, inputs: LocalBreakthroughInput) -> LocalBreakthroughResult:
    notes = [
        "it spends the rest of its movement to reach fresh targets, within its division's maneuver limits and "
        "never into the field of fire of friendly artillery that fired there this turn (5.2)"
    ]
    if inputs.used_bonus:
        notes.append("it uses its assault move bonus: 1M at the end of the turn (3.1)")
    return LocalBreakthroughResult(bonus_used=inputs.used_bonus, notes=tuple(notes))


TABLES = ()
MECHANICS = (
    Mechanic(
        "assault_follow_up",
        "5.5",
        "An attacker's move after a round: carry, hold, break through, overrun or stalled",
        FollowUpInput,
        resolve_follow_up,
    ),
    Mechanic(
        "local_breakthrough",
        "5.2",
        "An attacker left out of contact by fire going on to fresh targets before the rounds",
        LocalBreakthroughInput,
        resolve_local_breakthrough,
    ),
)
