"""Who plays a game: the seats its players take with its join code. A seat is a side and, where the order of
battle has them, the corps or division its player commands; it is kept by the device that took it."""

from django.db import models

from republic.games.models.battle import Command, Game, Side


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="seats")
    command = models.ForeignKey(Command, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats")
    name = models.CharField(max_length=80)
    created = models.DateTimeField(auto_now_add=True)
    revoked = models.BooleanField(
        default=False, help_text="no longer in use: the game master took it away, or its device took another"
    )

    class Meta:
        ordering = ["side__order", "created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.command or self.side})"


class Dispatch(models.Model):
    """A written message from a defending player to a friendly player, one to each at the start of a player
    turn (1.7, 2.1). Not an event of the battle: the log is read by both sides, and the other side never reads a
    dispatch."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="dispatches")
    game_turn = models.PositiveIntegerField()
    player_turn = models.PositiveSmallIntegerField()
    sender = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="sent")
    recipient = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="received")
    text = models.TextField(max_length=1000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-game_turn", "-player_turn", "created"]
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "recipient", "game_turn", "player_turn"], name="one_dispatch_a_player_turn"
            )
        ]

    def __str__(self) -> str:
        return f"{self.sender.name} to {self.recipient.name}, game turn {self.game_turn}.{self.player_turn}"
