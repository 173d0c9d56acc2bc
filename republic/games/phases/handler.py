"""What the walk needs to know of each step of the turn sequence."""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest

from republic.games.ledger import Action
from republic.games.models import Game


def _nothing(game: Game) -> list[str]:
    return []


def _no_context(request: HttpRequest, game: Game, forms: dict) -> dict:
    return {}


@dataclass(frozen=True)
class StepHandler:
    """``template`` draws the step's panel with the context ``panel`` adds (its forms, with any bound ones
    from ``forms`` carrying errors); ``pending`` names the work that must be done before the game may move
    on; ``on_leave`` applies the step's closing effects inside the StepAdvanced event and returns notes."""

    template: str = "games/steps/reminder.html"
    pending: Callable[[Game], list[str]] = _nothing
    panel: Callable[[HttpRequest, Game, dict], dict] = _no_context
    on_leave: Callable[[Action], list[str]] | None = None
    urls: list = field(default_factory=list)
