"""A step's events of the player turn as its state reads them: the unit each is about, and its payload decoded only
when asked for.

A maneuver roll's or a rally's payload is near 2 KB of results and their reasons, and every request of a step reads
its events at each version: decoding them all took a step of 150 rolls 17 ms each time the game moved on, in each
server process, though a request draws 40 rows at most and leaving a step needs only which units have acted."""

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db.models import TextField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from republic.games.events.payload import Payload
from republic.games.ledger import this_turn
from republic.games.models import Game
from republic.prepared import prepared
from republic.rules.sequence import StepKey


@dataclass
class Logged:
    """One of the step's events: its kind, the unit it is about ('' for none), and its payload's text."""

    id: int
    created: datetime
    kind: str
    unit: str | None
    text: str  # the payload's JSON, as the database gives it cast to text

    @cached_property
    def payload(self) -> dict[str, Any]:
        found = json.loads(self.text)
        assert isinstance(found, dict)
        return found


def logged(game: Game, step: StepKey, kinds: Iterable[type[Payload]]) -> list[Logged]:
    """The step's events of these kinds in the game's player turn, in order."""
    names = tuple(kind.__name__ for kind in kinds)
    return [Logged(*row) for row in _LOGGED(game.pk, game.game_turn, game.player_turn, str(step), names)]


# read by every request of a step at each version: its SQL is made once per process for each step and kinds
_LOGGED = prepared(
    lambda game, game_turn, player_turn, step, kinds: (
        this_turn(game, game_turn, player_turn, (step,), kinds)
        .annotate(unit=KT("payload__unit"), text=Cast("payload", TextField()))
        .values_list("id", "created", "kind", "unit", "text")
    )
)
