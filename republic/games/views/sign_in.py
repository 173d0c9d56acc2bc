"""The game master's sign-in ends at sign-out on every copy of his session.

A session lives in the device's own signed cookie (no query to read a player's seat), so signing out cannot
delete it on the server: a cookie copied before would stay signed in. Each session keeps instead the version of
the user's sign-in it began at, and the version goes up at each sign-out; a session of an older version is
signed out when its user is loaded, by the same query that loads him. A password change needs nothing more:
Django's session hash is made from the password. Signing out ends the sign-in on every device the game master
uses."""

from functools import partial
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import F
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from republic.games.models import SignInVersion

VERSION_KEY = "sign_in_version"


def version_of(user: Any) -> int:
    try:
        return int(user.sign_in_version.version)
    except ObjectDoesNotExist:
        return 0


class SignInBackend(ModelBackend):
    """Django's users and passwords, each user loaded with the version of his sign-in in one query."""

    def get_user(self, user_id: Any) -> User | None:
        user = User._default_manager.select_related("sign_in_version").filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None


def _signed_in(request: HttpRequest) -> Any:
    if not hasattr(request, "_cached_user"):
        user = auth.get_user(request)
        if user.is_authenticated and request.session.get(VERSION_KEY, 0) != version_of(user):
            request.session.flush()
            user = AnonymousUser()
        request._cached_user = user  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


async def _asigned_in(request: HttpRequest) -> Any:
    return await sync_to_async(_signed_in)(request)


class SignedInAtThisVersion(AuthenticationMiddleware):
    """``request.user``, loaded when first asked for as Django loads it, and signed out if its session began
    before the user's last sign-out. A player's session holds no user: nothing is read for it."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _signed_in(request))  # type: ignore[assignment]
        request.auser = partial(_asigned_in, request)  # type: ignore[attr-defined]


@receiver(user_logged_in)
def _keep_the_version(request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None:
        request.session[VERSION_KEY] = version_of(user)


@receiver(user_logged_out)
def _end_every_copy(user: Any, **kwargs: Any) -> None:
    if user is None or not user.is_authenticated:
        return
    if not SignInVersion.objects.filter(user=user).update(version=F("version") + 1):
        SignInVersion.objects.get_or_create(user=user, defaults={"version": 1})
