"""The room's big screen: a read-only link to every game of the club, which the game master can revoke."""

import secrets

from django.db import models


def new_room_key() -> str:
    return secrets.token_urlsafe(18)


class RoomLink(models.Model):
    key = models.CharField(max_length=40, unique=True, default=new_room_key)
    created = models.DateTimeField(auto_now_add=True)
    revoked = models.DateTimeField(null=True, blank=True, help_text="when the game master took it back")

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"room link of {self.created:%Y-%m-%d %H:%M}"
