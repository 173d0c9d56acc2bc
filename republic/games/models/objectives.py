"""The places a scenario names as worth holding (a ridge, a town, a crossroads) and who holds each now. The rules
set no victory conditions (the game master gives the result), so an objective decides nothing by itself: the
table records who holds it, and the battle report says so."""

from django.db import models

from republic.games.models.battle import Game, Side
from republic.games.pieces import Piece


class Objective(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="objectives")
    name = models.CharField(max_length=120)
    order = models.PositiveIntegerField(default=0)
    holder = models.ForeignKey(
        Side, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="no one, while empty"
    )

    class Meta:
        ordering = ["order", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def piece(self) -> Piece:
        return Piece("objective", self.pk)

    @property
    def key(self) -> str:
        return self.piece.key
