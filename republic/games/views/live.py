"""Live tables: the game page asks every few seconds whether its game moved on (``#poll`` in the step bar).
Nothing changed: 204 and no body, for one query. It changed: what changed on the page since it was drawn, drawn as
the answer to a player's own action is (``answers.redraw``), and shared with every phone that asks the same at
the same version (``shared_news``): for most phones that too is one query. The phone keeps any form a player is
typing into and says the game moved on (static/js/live.js).

Polling, not server-sent events: a phone on a club's flaky Wi-Fi that drops a request simply asks again three
seconds later, and the server keeps no connection open per phone."""

from dataclasses import dataclass

from django.contrib.auth import SESSION_KEY, get_user_model
from django.db import connection
from django.http import HttpResponse

from republic.games.forms import whole_number
from republic.games.models import Dispatch, Game, Seat
from republic.games.steps.base import Who
from republic.games.views import answers, query, shared_news
from republic.games.views.access import SEATS_KEY, HtmxHttpRequest, admitted
from republic.games.views.claims import drawn_once


@dataclass(frozen=True)
class Glance:
    """What one query tells of a game and a device that may follow it: the game's version, the newest message the
    device reads, and who it is there (``shared_news.who``)."""

    version: int
    letter: int
    who: str
    here: tuple[int, int, str]  # the game turn, player turn and step the game is at
    made: str  # shared_news.made


def poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``since``: the game's version the page was drawn at; ``letter``: the newest dispatch it shows."""
    since, letter = query.optional_whole(request.GET, "since"), query.optional_whole(request.GET, "letter")
    glance = _glance(request, game_id) if since is not None and letter is not None else None
    if glance is not None and since is not None and letter is not None:
        if (glance.version, glance.letter) == (since, letter):
            return HttpResponse(status=204)
        seen = shared_news.Seen(
            game_id, glance.made, glance.version, glance.letter, since, letter, glance.who, glance.here
        )
        keys = shared_news.key_of(request, seen, shared_news.news_of(seen)[1])
        kept = shared_news.kept(request, keys) if keys is not None else None
        if kept is not None:
            return kept
    return _news(request, game_id, since, letter)


def _glance(request: HtmxHttpRequest, game_id: int) -> Glance | None:
    """The game as this device may follow it, in one query: its account is the game master's, or its seat (from
    the session, a signed cookie) is this game's and not taken away; None otherwise, and the whole poll
    (``_news``) answers, with the refusal if there is one. The session's password check is also the whole poll's:
    a glance only ever answers what a device following the game is told anyway, no news or news shared with its
    side."""
    seat = request.session.get(SEATS_KEY, {}).get(str(game_id))
    seat = seat if isinstance(seat, int) else None
    account = whole_number(str(request.session.get(SESSION_KEY, "")))
    if seat is None and account is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_GLANCE, [seat, False, account, True, True, seat, seat, game_id])
        found = cursor.fetchone()
    if found is None:
        return None
    version, side, master, every, own, game_turn, player_turn, step, created = found
    here, made = (game_turn, player_turn, step), shared_news.made(created)
    if master:
        return Glance(version, every or 0, shared_news.MASTER, here, made)
    return Glance(version, own or 0, shared_news.side(side), here, made) if side is not None else None


# The poll of most phones most of the time, written out: the ORM would spend more building it than the database
# spends answering it (about 1.5 ms against 0.1).
_GLANCE = f"""
SELECT game.version,
  (SELECT seat.side_id FROM {Seat._meta.db_table} seat
    WHERE seat.id = %s AND seat.game_id = game.id AND seat.revoked = %s),
  EXISTS (SELECT 1 FROM {get_user_model()._meta.db_table} account
    WHERE account.id = %s AND account.is_staff = %s AND account.is_active = %s),
  (SELECT MAX(letter.id) FROM {Dispatch._meta.db_table} letter WHERE letter.game_id = game.id),
  (SELECT MAX(letter.id) FROM {Dispatch._meta.db_table} letter
    WHERE letter.game_id = game.id AND (letter.recipient_id = %s OR letter.sender_id = %s)),
  game.game_turn, game.player_turn, game.step, game.created
FROM {Game._meta.db_table} game WHERE game.id = %s
"""


def _news(request: HtmxHttpRequest, game_id: int, since: int | None, letter: int | None) -> HttpResponse:
    """The whole poll: this device's role checked as on every address of the game, then its news, shared with
    the phones that ask the same when it is shared work (``shared_news``)."""
    with admitted(request, game_id, Who.SEATED, {}) as refusal:
        if refusal:
            return refusal
        game = answers.with_letter(request, game_id)
        newest = answers.newest_letter(game)
        if (since, letter) == (game.version, newest):
            return HttpResponse(status=204)
        if since is None or letter is None:
            return answers.redraw(request, game, since, letter)
        who = shared_news.MASTER if request.role.master else shared_news.side(request.role.side_id)
        here = (game.game_turn, game.player_turn, str(game.step))
        seen = shared_news.Seen(game.pk, shared_news.made(game.created), game.version, newest, since, letter, who, here)
        shared_news.remember_step(game, seen)
        used, changed = shared_news.news_of(seen)
        keys = shared_news.key_of(request, seen, changed)
        if keys is not None:
            # the news kept but for rows no screen of its side showed yet at this version: those alone are drawn
            ready = keys  # for the closures: mypy forgets a narrowed name inside a lambda
            return drawn_once(
                keys.base,
                lambda: shared_news.kept(request, ready, game),
                lambda: shared_news.apart(answers.redraw(request, game, used, letter), ready),
            )
        shared = shared_news.live_part(request, game, seen) if shared_news.whole(seen, changed) else None
        if shared is not None:
            return shared
        return shared_news.apart(answers.redraw(request, game, used, letter), None)
