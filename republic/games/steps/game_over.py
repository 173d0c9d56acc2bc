"""The end of a game: the game master says it is over and gives its result, a winning side or a draw and what
decided it. The rules set no victory conditions (a game ends when the table or its scenario says so), so the
result is the game master's word, recorded as an event like any other: undo takes it back and play goes on."""

from collections.abc import Sequence
from typing import Any

from django import forms

from republic.games.events.game import GameEnded
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Side
from republic.games.text.game import game_result

DRAW = "draw"


class EndForm(VersionForm):
    winner = forms.ChoiceField(
        label="Result",
        widget=forms.RadioSelect,
        error_messages={
            "required": "Choose the side that won, or a draw.",
            "invalid_choice": "Choose the side that won, or a draw.",
        },
    )
    note = forms.CharField(
        label="What decided it (optional)",
        required=False,
        max_length=200,
        help_text="A few words for the log: an objective held, an army broken, time called.",
        error_messages={"max_length": "Keep it to 200 characters or fewer."},
    )

    def __init__(self, *args: Any, sides: Sequence[Side] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(str(side.pk), f"{side.name} won") for side in sides] + [(DRAW, "A draw")]
        self.fields["winner"].choices = choices  # type: ignore[attr-defined]


def end_form(game: Game, sides: Sequence[Side], data: Any = None) -> EndForm:
    return EndForm(data, initial={"version": game.version}, sides=sides)


def end(game: Game, form: EndForm, actor: str) -> Event:
    """End a game in progress with its result; every play action is refused after it (``act``)."""
    data = form.cleaned_data
    with act(game, data["version"], actor) as action:
        current = action.game
        if not current.in_progress:
            raise ActionRefused("Only a game in progress can be ended: this one has not begun.")
        sides = {str(side.pk): side for side in current.sides.all()}
        winner = sides.get(data["winner"]) if data["winner"] != DRAW else None
        if data["winner"] != DRAW and winner is None:
            raise ActionRefused("Choose one of this game's sides, or a draw: nothing was changed.")
        note = " ".join(data["note"].split())
        action.set(current, "status", Game.Status.FINISHED.value)
        action.set(current, "winner", winner.pk if winner else None)
        action.set(current, "result_note", note)
        return action.record(GameEnded(winner.pk if winner else None, winner.name if winner else "", note))


def panel(game: Game) -> dict[str, Any]:
    """The game page's banner once the game is over."""
    return {"result": game_result(game.winner.name if game.winner else "", game.result_note)}
