"""Live tables: the game page asks every few seconds whether its game moved on (``#poll`` in the step bar).
Nothing changed: 204 and no body, for two queries (the seat, or the game master's account, and the game's
version; the session is a signed cookie). It changed: what changed on the page since it was drawn, drawn as
the answer to a player's own action is (``answers.redraw``). The phone keeps any form a player is typing into
and says the game moved on (static/js/live.js).

Polling, not server-sent events: a phone on a club's flaky Wi-Fi that drops a request simply asks again three
seconds later, and the server keeps no connection open per phone."""

from django.http import Http404, HttpResponse

from republic.games.steps.base import Who
from republic.games.views import answers, lookup, query
from republic.games.views.access import HtmxHttpRequest, allowed


@allowed(Who.SEATED)
def poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``since``: the game's version the page was drawn at; ``letter``: the newest dispatch it shows."""
    # the game whole in the one query that tells whether anything is new: the row is read either way
    game = lookup.games().filter(pk=game_id).annotate(letter=answers.readable_letter(request)).first()
    if game is None:
        raise Http404("No such game.")
    since, letter = query.optional_whole(request.GET, "since"), query.optional_whole(request.GET, "letter")
    if (since, letter) == (game.version, answers.newest_letter(game)):
        return HttpResponse(status=204)
    return answers.redraw(request, game, since, letter)
