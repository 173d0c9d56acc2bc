"""The game master's sign-in: its version, which ends every copy of a session at sign-out."""

from django.conf import settings
from django.db import models


class SignInVersion(models.Model):
    """The count of a user's sign-outs. A device's session is signed and kept by the device itself, so a copy of
    its cookie would stay signed in after sign-out: each session keeps the version it signed in at, and one
    older than this is signed in no more (``republic.games.views.sign_in``). No row: never signed out."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="sign_in_version"
    )
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user}: signed out {self.version} times"
