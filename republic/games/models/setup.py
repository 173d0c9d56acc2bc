"""A game's rows as they were imported, before any event: the state is this plus the events' changes
(``ledger.replay``)."""

from typing import Any

from django.db import models

from republic.games.models.battle import Game


class GameSetup(models.Model):
    """A row of its own, not a column of the game's: SQLite writes a row whole, with its overflow pages, whenever a
    column of it changes, and the game's row changes with every action (its version), where the setup, near a
    megabyte at 1,000 units, changes only when an action brings in a row the game did not have."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="setup_row")
    state = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"setup of {self.game_id}"


def setup_of(game: Game) -> dict[str, dict[str, Any]]:
    """The game's setup: every row as imported, by its key ('unit:12'); {} for a game that has none yet."""
    found = GameSetup.objects.filter(game=game).values_list("state", flat=True).first()
    return found or {}


def keep_setup(game: Game, state: dict[str, dict[str, Any]]) -> None:
    """Keep ``state`` as the game's setup: one query for a game that has one (inside the action or the import that
    holds the game), two for a game made now."""
    if not GameSetup.objects.filter(game=game).update(state=state):
        GameSetup.objects.create(game=game, state=state)
