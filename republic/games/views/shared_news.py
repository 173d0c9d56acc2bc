"""The news a poll brings, drawn once for every phone that asks for the same. At a club's table forty phones
poll the same game every few seconds; after an action each of them asks what changed since the version its
screen shows, and most ask the same question: the same version, the same rows on the screen, the same side.
The first phone's answer is kept and the others are given it, for the one query that tells the poll the game
moved on (``live._glance``).

What a kept answer is for is its key, and the key holds everything the answer is drawn from:
- the game, its version (every event raises it) and the newest message the device reads;
- the version and the message its screen shows (``since``, ``letter``);
- the device's role: the game master, or a seat's side (a seat's forms and the rows it may act on are its
  side's: ``access.Mine``), never another side's answer;
- the rows its screen lists and has open, and the panel's parts it has open (the request's headers), and the
  part of the battle it follows (its session).
An answer at a version is the same at every later moment: a kept one is never stale, only unused, and
forgotten after a minute. Each server process keeps its own (Django's local memory cache, ``CACHES["news"]``),
so several processes, or several hosts on one PostgreSQL, are each right on their own: none depends on
another's. Only the pieces of a step are kept (``answers.redraw`` answers them with nothing swapped in place).
Never kept is what belongs to one device: the whole live part, which holds its messages; the security token of
its forms (kept blank, and each device given its own as it is served); and anything drawn for an action it
took."""

import hashlib
import re
from dataclasses import dataclass

from django.core.cache import caches
from django.http import HttpResponse
from django.middleware.csrf import get_token

from republic.games.views import answers
from republic.games.views.access import HtmxHttpRequest
from republic.games.views.follow import FOLLOW_KEY

KEPT_SECONDS = 60
KEPT_HEADERS = ("Content-Type", "HX-Reswap", "HX-Retarget")
MASTER = "master"
TOKEN = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')


def side(side_id: int | None) -> str:
    return f"side {side_id}"


@dataclass(frozen=True)
class Seen:
    """A poll's question: the game at its version and newest message for this device, what the device's screen
    shows (``since``, ``letter``), and who asks (``MASTER`` or a ``side``)."""

    game: int
    version: int
    newest: int
    since: int
    letter: int
    who: str


def _key(request: HtmxHttpRequest, seen: Seen) -> str:
    follows = request.session.get(FOLLOW_KEY, {}).get(str(seen.game), "")
    drawn = (request.headers.get(name, "") for name in answers.DRAWN_FROM)
    said = [str(part) for part in (*vars(seen).values(), follows, *drawn)]
    return "republic:news:" + hashlib.sha256("\n".join(said).encode()).hexdigest()


def kept(request: HtmxHttpRequest, seen: Seen) -> HttpResponse | None:
    found = caches["news"].get(_key(request, seen))
    if not isinstance(found, tuple):
        return None
    content, headers = found
    token = get_token(request).encode()
    answer = HttpResponse(TOKEN.sub(lambda blank: blank[1] + token + blank[2], content))
    for name, value in headers:
        answer[name] = value
    return answer


def keep(request: HtmxHttpRequest, seen: Seen, answer: HttpResponse) -> None:
    """Kept when it is the step's pieces, answered with nothing swapped in place."""
    if answer.status_code != 200 or answer.get("HX-Reswap") != "none":
        return
    headers = tuple((name, answer[name]) for name in KEPT_HEADERS if name in answer)
    caches["news"].set(_key(request, seen), (TOKEN.sub(rb"\1\2", answer.content), headers), KEPT_SECONDS)
