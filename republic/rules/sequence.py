"""Starting a game and the turn sequence (1.6, 1.7).

A game turn is two player turns; the sides take turns as the attacker, the first attacker chosen by the
high roller of 1D10 each. Each player turn runs the same steps in five phases: command, maneuver,
artillery and skirmish fire, assault, panic. The steps are data, so the table can walk them one by one.
"""

from dataclasses import dataclass
from enum import StrEnum

from republic.rules.chart import Chart
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.results import Explained, Mechanic


class Phase(StrEnum):
    COMMAND = "command"
    MANEUVER = "maneuver"
    FIRE = "fire"
    ASSAULT = "assault"
    PANIC = "panic"


class Actor(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"
    BOTH = "both"


class StepKey(StrEnum):
    MESSAGES = "messages"
    RALLY = "rally"
    REPLACE_LEADERS = "replace_leaders"
    MOVE = "move"
    SKIRMISH = "skirmish"
    ARTILLERY_FIRE = "artillery_fire"
    FIRE_HORS_DE_COMBAT = "fire_hors_de_combat"
    DEMORALIZED_PANIC = "demoralized_panic"
    ASSAULTS = "assaults"
    ASSAULT_HORS_DE_COMBAT = "assault_hors_de_combat"
    CHARGE_DISORDER = "charge_disorder"
    INTERNAL_PANIC = "internal_panic"
    ADJOINING_PANIC = "adjoining_panic"


@dataclass(frozen=True)
class Step:
    key: StepKey
    phase: Phase
    title: str
    actor: Actor
    section: str
    instructions: str


# 1.7 sends the leader replacement to "section 2.5"; the replacement rules are printed under 2.3 (R:571-587).
STEPS: tuple[Step, ...] = (
    Step(
        StepKey.MESSAGES,
        Phase.COMMAND,
        "Defenders exchange messages",
        Actor.DEFENDER,
        "1.7",
        "Each defending player may send one written or text message to each friendly player.",
    ),
    Step(
        StepKey.RALLY,
        Phase.COMMAND,
        "Attacker rallies units",
        Actor.ATTACKER,
        "2.3",
        'Roll a rally for every attacking unit with morale hits. Leaders may first move up to 2" to get '
        "near the units that need them.",
    ),
    Step(
        StepKey.REPLACE_LEADERS,
        Phase.COMMAND,
        "Attacker replaces hors de combat leaders",
        Actor.ATTACKER,
        "2.3",
        "Bring back each attacking leader flagged hors de combat: a divisional leader returns one rating "
        "lower (not below 0); a corps or army leader is replaced by the next in the chain of command.",
    ),
    Step(
        StepKey.MOVE,
        Phase.MANEUVER,
        "Attacker moves units",
        Actor.ATTACKER,
        "3.1, 3.2",
        "Roll maneuver for each attacking brigade that needs it, then move the attacking units within "
        "their movement allowances.",
    ),
    Step(
        StepKey.SKIRMISH,
        Phase.FIRE,
        "Skirmish fire",
        Actor.BOTH,
        "4.1",
        "Both sides at once: first block enemy skirmish markers, then attack with the unblocked ones. "
        "Hits take effect at the end of the phase.",
    ),
    Step(
        StepKey.ARTILLERY_FIRE,
        Phase.FIRE,
        "Artillery fire",
        Actor.BOTH,
        "4.2-4.6",
        "Both sides fire every battery that may fire; all fire counts as simultaneous. Then put the "
        "skirmish and artillery hits on the units.",
    ),
    Step(
        StepKey.FIRE_HORS_DE_COMBAT,
        Phase.FIRE,
        "Hors de combat checks",
        Actor.BOTH,
        "4.7",
        'Roll 2D10 for each leader within 4" of a unit that lost bases this phase; only doubles can be a casualty.',
    ),
    Step(
        StepKey.DEMORALIZED_PANIC,
        Phase.FIRE,
        "Demoralized panic test",
        Actor.BOTH,
        "4.7",
        "Each demoralized unit whose extra morale hits from fire became panic hits makes its panic move "
        "from the Panic Index; bases lost in it desert and are removed at once. No division panic tests "
        "now.",
    ),
    Step(
        StepKey.ASSAULTS,
        Phase.ASSAULT,
        "Resolve all assaults",
        Actor.BOTH,
        "5.1-5.5",
        "Resolve every assault, round by round, until no attacking unit has an enemy within all-out "
        "assault contact range to its front.",
    ),
    Step(
        StepKey.ASSAULT_HORS_DE_COMBAT,
        Phase.ASSAULT,
        "Hors de combat checks",
        Actor.BOTH,
        "5.6",
        'Roll 2D10 for each leader within 4" of a unit that lost bases in the assaults; only doubles '
        "can be a casualty.",
    ),
    Step(
        StepKey.CHARGE_DISORDER,
        Phase.ASSAULT,
        "Attacker applies charge disorder",
        Actor.ATTACKER,
        "5.6",
        "Give 1M to every unit that used any charge movement or retreated or routed this turn, then close "
        "ranks of units that lost bases.",
    ),
    Step(
        StepKey.INTERNAL_PANIC,
        Phase.PANIC,
        "Divisional panic tests (internal panic)",
        Actor.BOTH,
        "6.1, 6.2",
        "Every division with a unit that had a Panic 4 event this turn rolls its panic test, all at "
        "once; then make the moves of the divisions that panicked.",
    ),
    Step(
        StepKey.ADJOINING_PANIC,
        Phase.PANIC,
        "Inter-divisional panic tests (adjoining panic)",
        Actor.BOTH,
        "6.2",
        "Every division adjoining one that just panicked tests for adjoining panic, round after round, "
        "until no more divisions must test. Each division tests each condition once per phase.",
    ),
)

_INDEX = {step.key: index for index, step in enumerate(STEPS)}

END_OF_PLAYER_TURN = (
    "End of the player turn: finish every involuntary move, remove the panic markers and reset panicked "
    "divisions' orders to Defend (1.7, 6.1)."
)


def step_for(key: StepKey) -> Step:
    return STEPS[_INDEX[key]]


@dataclass(frozen=True)
class Position:
    """Where the game stands: game turn, player turn (1 or 2) and step."""

    game_turn: int = 1
    player_turn: int = 1
    step: StepKey = StepKey.MESSAGES

    def __post_init__(self) -> None:
        if self.step not in _INDEX:
            raise RulesInputError("step", f"expected one of {', '.join(_INDEX)}, got {self.step!r}")
        if self.game_turn < 1:
            raise RulesInputError("game_turn", f"game turns count from 1, got {self.game_turn}")
        if self.player_turn not in (1, 2):
            raise RulesInputError("player_turn", f"a game turn has player turns 1 and 2, got {self.player_turn}")


def first_position() -> Position:
    return Position(1, 1, STEPS[0].key)


def next_position(position: Position) -> Position:
    """The step after this one: the next step of the player turn; after the last step, the first step of
    player turn 2 (the sides swap roles), and after player turn 2, the next game turn (1.6)."""
    index = _INDEX[position.step]
    if index + 1 < len(STEPS):
        return Position(position.game_turn, position.player_turn, STEPS[index + 1].key)
    if position.player_turn == 1:
        return Position(position.game_turn, 2, STEPS[0].key)
    return Position(position.game_turn + 1, 1, STEPS[0].key)


def attacker_for(position: Position, first_attacker: str, other_side: str) -> str:
    """The attacking side: the first attacker in player turn 1 of every game turn, the other side in
    player turn 2 (1.6)."""
    return first_attacker if position.player_turn == 1 else other_side


def defender_for(position: Position, first_attacker: str, other_side: str) -> str:
    return other_side if position.player_turn == 1 else first_attacker


# --- who attacks first (1.6) -----------------------------------------------------------------------


@dataclass(frozen=True)
class FirstAttackerInput:
    first_side: str
    second_side: str
    first_roll: Roll
    second_roll: Roll
    choice: str | None = None

    def __post_init__(self) -> None:
        for name in ("first_side", "second_side"):
            if not getattr(self, name).strip():
                raise RulesInputError(name, "a side needs a name")
        if self.first_side == self.second_side:
            raise RulesInputError("second_side", "the two sides need different names")
        first, second = single(self.first_roll, "first_roll"), single(self.second_roll, "second_roll")
        if self.choice is not None:
            if self.choice not in (self.first_side, self.second_side):
                raise RulesInputError("choice", f"the first attacker is {self.first_side} or {self.second_side}")
            if first == second:
                raise RulesInputError("choice", "the dice tied: roll again before anyone chooses")


@dataclass(frozen=True)
class FirstAttackerResult(Explained):
    roll_again: bool
    high_roller: str | None
    first_attacker: str | None
    second_attacker: str | None


def resolve_first_attacker(chart: Chart, inputs: FirstAttackerInput) -> FirstAttackerResult:
    """Each side rolls 1D10; the high roller chooses which side attacks first; a tie rolls again (1.6).
    The sides may instead agree, all of them, on an obvious attacker and skip the roll."""
    first, second = single(inputs.first_roll, "first_roll"), single(inputs.second_roll, "second_roll")
    if first == second:
        return FirstAttackerResult(
            roll_again=True,
            high_roller=None,
            first_attacker=None,
            second_attacker=None,
            notes=(f"both rolled {first}: roll again",),
        )
    high = inputs.first_side if first > second else inputs.second_side
    if inputs.choice is None:
        return FirstAttackerResult(
            roll_again=False,
            high_roller=high,
            first_attacker=None,
            second_attacker=None,
            notes=(f"{high} rolled high and chooses which side attacks first",),
        )
    other = inputs.second_side if inputs.choice == inputs.first_side else inputs.first_side
    return FirstAttackerResult(
        roll_again=False,
        high_roller=high,
        first_attacker=inputs.choice,
        second_attacker=other,
        notes=(f"{high} rolled high and chose {inputs.choice} to attack first; the sides then alternate",),
    )


# --- the turn sequence (1.7) -----------------------------------------------------------------------


@dataclass(frozen=True)
class TurnSequenceInput:
    game_turn: int = 1
    player_turn: int = 1
    step: StepKey = StepKey.MESSAGES
    first_attacker: str | None = None
    other_side: str | None = None

    def __post_init__(self) -> None:
        Position(self.game_turn, self.player_turn, self.step)
        if (self.first_attacker is None) != (self.other_side is None):
            raise RulesInputError("other_side", "name both sides, or neither")
        if self.first_attacker is not None and self.first_attacker == self.other_side:
            raise RulesInputError("other_side", "the two sides need different names")


@dataclass(frozen=True)
class TurnSequenceResult(Explained):
    position: Position
    step: Step
    attacker: str | None
    defender: str | None
    next_position: Position
    ends_player_turn: bool
    ends_game_turn: bool


def resolve_turn_sequence(chart: Chart, inputs: TurnSequenceInput) -> TurnSequenceResult:
    position = Position(inputs.game_turn, inputs.player_turn, inputs.step)
    following = next_position(position)
    ends_player_turn = position.step is STEPS[-1].key
    ends_game_turn = ends_player_turn and position.player_turn == 2
    attacker = defender = None
    if inputs.first_attacker is not None and inputs.other_side is not None:
        attacker = attacker_for(position, inputs.first_attacker, inputs.other_side)
        defender = defender_for(position, inputs.first_attacker, inputs.other_side)
    notes = []
    if ends_player_turn:
        notes.append(END_OF_PLAYER_TURN)
        notes.append("the game turn ends" if ends_game_turn else "the sides swap: the defender now attacks")
    return TurnSequenceResult(
        position=position,
        step=step_for(position.step),
        attacker=attacker,
        defender=defender,
        next_position=following,
        ends_player_turn=ends_player_turn,
        ends_game_turn=ends_game_turn,
        notes=tuple(notes),
    )


TABLES = ()
MECHANICS = (
    Mechanic(
        "first_attacker",
        "1.6",
        "Who attacks first: each side's name and 1D10, the high roller's choice",
        FirstAttackerInput,
        resolve_first_attacker,
    ),
    Mechanic(
        "turn_sequence",
        "1.7",
        "The step at a position (game turn, player turn, step): what to do, the next step",
        TurnSequenceInput,
        resolve_turn_sequence,
    ),
)
