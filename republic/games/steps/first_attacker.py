"""Who attacks first (1.6, R:339-346): each side rolls one die and the high roller chooses the first attacker, a
tie rolling again; or, when one side is the obvious attacker and all agree, it is chosen without a roll.

The roll is an event of its own, so that a die the app rolled stands in the log and the high roller's players
choose on their own phones. A tie records nothing: the table simply rolls again.

"Agreed upon unanimously by both sides" (R:342-343): one side's phone does not speak for the other, so a seated
player's agreement counts for his own side alone and is recorded as it is given, and the first attacker is chosen
once a player of every side agreed to the same side. The game master speaks for the whole table."""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django import forms

from republic.games.events.game import FirstAttackerAgreed, FirstAttackerChosen, FirstAttackerRolled
from republic.games.events.payload import payload_of
from republic.games.forms import DiceForm, VersionForm, die_field, filled
from republic.games.ledger import Action, ActionRefused, act, acting_side, standing
from republic.games.models import Event, Game, Side
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Step, Who, address, nothing_pending
from republic.games.text.describe import words
from republic.rules.sequence import FirstAttackerInput, resolve_first_attacker

PREFIX = "first-attacker"
CHOSEN = "The first attacker is already chosen: nothing was changed."
NOT_A_SIDE = "Choose one of this game's sides: nothing was changed."
NOT_A_WAY = "Say how the first attacker is chosen, agreed by all or by the high roller: nothing was changed."


@dataclass
class SettingUp:
    game: Game
    sides: list[Side]
    roll: FirstAttackerRolled | None  # the roll in force, until the high roller chooses
    agreed: dict[int, FirstAttackerAgreed]  # each side's latest agreement in force, by the agreeing side

    @property
    def high_roller(self) -> Side | None:
        if self.roll is None:
            return None
        first, second = self.roll.sides
        high = first if self.roll.result.high_roller == self.roll.inputs.first_side else second
        return next((side for side in self.sides if side.pk == high), None)


@read_once
def state(game: Game) -> SettingUp:
    kinds = (FirstAttackerRolled.__name__, FirstAttackerAgreed.__name__)
    found = [payload_of(event) for event in standing(game).filter(kind__in=kinds).order_by("seq")]
    roll = next((p for p in reversed(found) if isinstance(p, FirstAttackerRolled)), None)
    agreed = {p.by: p for p in found if isinstance(p, FirstAttackerAgreed)}
    return SettingUp(game, list(game.sides.all()), roll, agreed)


class RollForm(DiceForm):
    """Each side's die, typed from a physical d10 or rolled by the app."""

    dice_fields = ("die", "die2")
    die = die_field()
    die2 = die_field()

    def __init__(self, *args: Any, sides: Sequence[Side] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, side in zip(self.dice_fields, sides, strict=False):
            self.fields[name].label = f"{side.name}'s die (1-10)"


class ChoiceForm(VersionForm):
    side = forms.IntegerField()
    how = forms.ChoiceField(
        choices=[
            (FirstAttackerChosen.AGREED, "agreed by all"),
            (FirstAttackerChosen.BY_ROLL, "the high roller's choice"),
        ]
    )


def roll_form(game: Game, sides: Sequence[Side], data: Any = None) -> RollForm:
    return RollForm(data, prefix=PREFIX, initial={"version": game.version}, sides=sides)


def choice_form(data: Any) -> ChoiceForm:
    """The side that attacks first and how it was chosen; a side or a way that is not one is refused by name."""
    form = ChoiceForm(data)
    if data is not None and not form.is_valid() and "version" not in form.errors:
        raise ActionRefused(NOT_A_SIDE if "side" in form.errors else NOT_A_WAY)
    return form


def take_roll(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(roll_form(game, s.sides, data)) as sent:
        return roll(game, sent, actor)


def take_choice(game: Game, piece: Game, data: Any, actor: str) -> Event:
    """The seat's side chooses, or agrees for itself (``acting_side``: None for the game master, who speaks for
    all)."""
    with filled(choice_form(data)) as sent:
        chosen = sent.cleaned_data
        return choose(game, chosen["side"], chosen["how"], chosen["version"], actor, acting_side())


ROLL: Act = Act("first-attacker-roll", "game", Who.SEATED, take_roll, CHOSEN)
CHOOSE: Act = Act("first-attacker", "game", Who.SEATED, take_choice, CHOSEN)


def panel(s: SettingUp, bound: Bound) -> dict[str, Any]:
    return {
        "sides": s.sides,
        "roll_form": bound.get(PREFIX) or roll_form(s.game, s.sides),
        "roll_action": address(s.game, ROLL.name, s.game.piece),
        "choose_action": address(s.game, CHOOSE.name, s.game.piece),
        "rolled": words(s.roll) if s.roll else "",
        "high_roller": s.high_roller,
        "agreed": [words(agreement) for agreement in s.agreed.values()],
    }


def _two_sides(s: SettingUp) -> tuple[Side, Side]:
    if len(s.sides) != 2:
        raise ActionRefused("The first attacker is rolled for between two sides: this game has not two.")
    return s.sides[0], s.sides[1]


def roll(game: Game, form: RollForm, actor: str) -> Event:
    """Each side's die (R:341-344): the high roller is recorded and chooses next; a tie records nothing."""
    with act(game, form.cleaned_data["version"], actor) as action:
        if action.game.status != Game.Status.SETTING_UP:
            raise ActionRefused(CHOSEN)
        s = state(action.game)
        if s.roll is not None:
            raise ActionRefused(
                f"The dice are rolled already: {s.roll.result.high_roller} rolled high and choose who attacks first. "
                "Undo the roll to roll again."
            )
        first, second = _two_sides(s)
        first_roll, second_roll = form.rolls()
        inputs = FirstAttackerInput(first.name, second.name, first_roll, second_roll)
        result = resolve_first_attacker(action.game.chart, inputs)
        if result.roll_again:
            raise ActionRefused(
                f"{first.name} and {second.name} both rolled {inputs.first_roll.faces[0]}: a tie, roll again. "
                "Nothing was recorded."
            )
        return action.record(FirstAttackerRolled((first.pk, second.pk), inputs, result))


def choose(game: Game, side_id: int, how: str, version: int, actor: str, chooser: int | None) -> Event:
    """Start play with the side that attacks first (R:339-346): agreed by all before any roll, or the choice of
    the high roller's players (``chooser``: the acting seat's side; None, the game master) after the roll."""
    with act(game, version, actor) as action:
        current = action.game
        if current.status != Game.Status.SETTING_UP:
            raise ActionRefused(CHOSEN)
        s = state(current)
        side = next((found for found in s.sides if found.pk == side_id), None)
        if side is None:
            raise ActionRefused(NOT_A_SIDE)
        inputs, result = None, None
        if how == FirstAttackerChosen.AGREED and s.roll is not None:
            raise ActionRefused(
                f"The dice are rolled: {s.roll.result.high_roller} rolled high and choose who attacks first. "
                "Undo the roll to agree on the first attacker instead."
            )
        if how == FirstAttackerChosen.AGREED and chooser is not None:
            agreement = _one_side_agrees(action, s, side, chooser)
            if agreement is not None:
                return agreement
        if how == FirstAttackerChosen.BY_ROLL:
            if s.roll is None:
                raise ActionRefused(
                    "No roll stands (a tie rolls again): roll each side's die before the high roller chooses. "
                    "Nothing was changed."
                )
            high = s.high_roller
            if chooser is not None and high is not None and chooser != high.pk:
                raise ActionRefused(f"{high.name} rolled high: the choice of who attacks first is theirs.")
            named = s.roll.inputs.first_side if side.pk == s.roll.sides[0] else s.roll.inputs.second_side
            inputs = replace(s.roll.inputs, choice=named)
            result = resolve_first_attacker(current.chart, inputs)
        action.set(current, "first_attacker", side.pk)
        action.set(current, "status", Game.Status.IN_PROGRESS.value)
        return action.record(FirstAttackerChosen(side.pk, side.name, how, inputs, result))


def _one_side_agrees(action: Action, s: SettingUp, side: Side, by_id: int) -> Event | None:
    """Record a seated player's agreement for his own side; None once every other side agreed to the same side,
    when the first attacker is chosen."""
    waiting = [other for other in s.sides if other.pk != by_id and _agreed_to(s, other) != side.pk]
    if not waiting:
        return None
    by = next(found for found in s.sides if found.pk == by_id)
    waiting_on = " and ".join(other.name for other in waiting)
    if _agreed_to(s, by) == side.pk:
        raise ActionRefused(
            f"{by.name} have agreed already that {side.name} attack first: waiting on {waiting_on} to agree. "
            "Nothing was changed."
        )
    return action.record(FirstAttackerAgreed(side.pk, side.name, by.pk, by.name, waiting_on))


def _agreed_to(s: SettingUp, side: Side) -> int | None:
    agreement = s.agreed.get(side.pk)
    return agreement.side if agreement is not None else None


STEP: Step[SettingUp] = Step("games/steps/first_attacker.html", state, nothing_pending, panel, actions=(ROLL, CHOOSE))
