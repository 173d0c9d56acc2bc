"""Live tables: the game page asks every few seconds whether its game moved on (``#poll`` in the step bar).
Nothing changed: 204 and no body, for one query. It changed: what changed on the page since it was drawn, drawn as
the answer to a player's own action is (``answers.redraw``). The phone keeps any form a player is typing into
and says the game moved on (static/js/live.js).

Polling, not server-sent events: a phone on a club's flaky Wi-Fi that drops a request simply asks again three
seconds later, and the server keeps no connection open per phone."""

from django.contrib.auth import SESSION_KEY, get_user_model
from django.db.models import Exists, Max, OuterRef, Value
from django.http import Http404, HttpResponse

from republic.games.dispatches import readable
from republic.games.models import Game, Seat
from republic.games.steps.base import Who
from republic.games.views import answers, lookup, query
from republic.games.views.access import SEATS_KEY, HtmxHttpRequest, admitted


def poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``since``: the game's version the page was drawn at; ``letter``: the newest dispatch it shows."""
    since, letter = query.optional_whole(request.GET, "since"), query.optional_whole(request.GET, "letter")
    if since is not None and letter is not None and _standing_still(request, game_id, since, letter):
        return HttpResponse(status=204)
    return _news(request, game_id, since, letter)


def _standing_still(request: HtmxHttpRequest, game_id: int, since: int, letter: int) -> bool:
    """Whether the game is still at the version and the newest message this device's screen shows, and the device
    may follow it: its account is the game master's, or its seat (from the session, a signed cookie) is this
    game's and not taken away. One query, the seat and the account read in it: the poll of most phones most of
    the time. Anything else, a refusal included, is the whole poll's to answer (``_news``), which also checks the
    session's password: an answer of no news tells nothing of the game."""
    seat = request.session.get(SEATS_KEY, {}).get(str(game_id))
    account = request.session.get(SESSION_KEY)
    if not isinstance(seat, int) and account is None:
        return False
    seated = Seat.objects.filter(pk=seat, game_id=OuterRef("pk"), revoked=False) if isinstance(seat, int) else None
    masters = get_user_model().objects.filter(pk=account, is_staff=True, is_active=True) if account else None
    found = (
        Game.objects.filter(pk=game_id)
        .annotate(
            seated=Exists(seated) if seated is not None else Value(False),
            master=Exists(masters) if masters is not None else Value(False),
            every=Max("dispatches__pk"),
            own=Max("dispatches__pk", filter=readable(seat if isinstance(seat, int) else None)),
        )
        .values_list("version", "seated", "master", "every", "own")
        .first()
    )
    if found is None:
        return False
    version, seated_here, master, every, own = found
    newest = every if master else own if seated_here else None
    return (master or seated_here) and (version, newest or 0) == (since, letter)


def _news(request: HtmxHttpRequest, game_id: int, since: int | None, letter: int | None) -> HttpResponse:
    """The whole poll: this device's role checked as on every address of the game, then its news."""
    with admitted(request, game_id, Who.SEATED, {}) as refusal:
        if refusal:
            return refusal
        game = lookup.games().filter(pk=game_id).annotate(letter=answers.readable_letter(request)).first()
        if game is None:
            raise Http404("No such game.")
        if (since, letter) == (game.version, answers.newest_letter(game)):
            return HttpResponse(status=204)
        return answers.redraw(request, game, since, letter)
