"""The record of play: every action a game took, in order, with the change of state it made."""

from django.db import models

from republic.games.models.battle import Game, Side


class Event(models.Model):
    """One recorded action: its typed payload (inputs, dice, result) and the exact change of state it made."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    actor = models.CharField(max_length=80, blank=True)
    side = models.ForeignKey(
        Side, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="the side that acted"
    )
    created = models.DateTimeField(auto_now_add=True)
    game_turn = models.PositiveIntegerField()
    player_turn = models.PositiveSmallIntegerField()
    step = models.CharField(max_length=40)
    subject = models.CharField(max_length=40, blank=True, help_text="the step row it was entered at ('unit-12')")
    about = models.JSONField(
        default=list, blank=True, help_text="the pieces it is about ('unit:12'): its row, those it changed or names"
    )
    payload = models.JSONField(default=dict, blank=True)
    changes = models.JSONField(default=list, blank=True)
    provisional = models.BooleanField(default=False, help_text="the result read a provisional chart cell")
    printed_chart = models.BooleanField(default=False, help_text="the result was read from the players' own chart")
    chart_checksum = models.CharField(max_length=64, blank=True, help_text="sha256 of the chart the game read")
    undoes = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by")
    sent = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="the phone's key for the send that made it: a send repeated applies once",
    )

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq"),
            models.UniqueConstraint(fields=["game", "sent"], condition=~models.Q(sent=""), name="unique_event_sent"),
        ]
        # a step's events of a kind are read on every page: found by the index, however long the game's history
        indexes = [models.Index(fields=["game", "game_turn", "player_turn", "step", "kind"])]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"
