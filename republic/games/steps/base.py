"""What every step of the turn sequence (1.7) gives the game page and the walk.

A step reads its state once per request (``state``); the work still to do before the game may move on
(``pending``) and the panel the page draws (``panel``) are both made from that one reading. ``leave`` applies
a step's closing effects inside the StepAdvanced event and says what they were. Forms a failed POST bound are
passed back in ``bound``, by prefix, so the panel draws them with their errors.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from republic.games.ledger import Action
from republic.games.models import Game, Unit

S = TypeVar("S")
Bound = dict[str, Any]
"""Forms a failed POST bound, by prefix (and a worked-out movement allowance under "<prefix>-result")."""


@dataclass(frozen=True)
class Step(Generic[S]):
    template: str
    state: Callable[[Game], S]
    pending: Callable[[S], list[str]]
    panel: Callable[[S, Bound], dict[str, Any]]
    leave: Callable[[Action, S], dict[str, Any]] | None = None


def _nothing_pending(state: Game) -> list[str]:
    return []


def _no_panel(state: Game, bound: Bound) -> dict[str, Any]:
    return {}


NOTHING_TO_RESOLVE: Step[Game] = Step("games/steps/reminder.html", lambda game: game, _nothing_pending, _no_panel)
"""A step done at the table alone (the defenders' messages)."""


def current(unit: Unit) -> Unit:
    """The unit's row as it stands inside an action, with its division."""
    return Unit.objects.select_related("division").get(pk=unit.pk)
