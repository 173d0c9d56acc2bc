"""A send repeated applies once. A phone on a club's Wi-Fi may send the same action twice: its first answer was
lost, or it timed out, and the player taps Send again (static/js/sends.js). Each send carries the phone's key for
it (``sent``, the same on the retry); the event it made keeps the key (``ledger.sending``), and a send whose key
already made an event of the game is answered with the game as it stands, as though it were the first."""

import re

from django.http import HttpResponseBadRequest

from republic.games.models import Event, Game
from republic.games.views.access import HtmxHttpRequest

FIELD = "sent"
BAD_KEY = (
    "This send's key is not one the app makes (at most 40 letters, digits and dashes): nothing was changed. "
    "Reload the page and send again."
)
_KEY = re.compile(r"[A-Za-z0-9-]{1,40}")


def send_key(request: HtmxHttpRequest) -> str | None:
    """The phone's key for this send ('': it gave none, as a plain form does); None when it is not a key."""
    key = request.POST.get(FIELD, "")
    return key if key == "" or _KEY.fullmatch(key) else None


def bad_key() -> HttpResponseBadRequest:
    return HttpResponseBadRequest(BAD_KEY, content_type="text/plain; charset=utf-8")


def sent_before(game: Game | int, key: str) -> Event | None:
    """The event this send made when it first arrived, if it did."""
    if not key:
        return None
    return Event.objects.filter(game=game, sent=key).select_related("undoes").first()
