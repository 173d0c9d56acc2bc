"""Live tables: the game page asks every few seconds whether its game moved on (``#poll`` in the step bar).
Nothing changed: 204 and no body, for two queries (the seat, or the game master's account, and the game's
version; the session is a signed cookie). It changed: the live part as it stands, with the latest result, which
the phone swaps in unless a form there is being filled in (static/js/live.js).

Polling, not server-sent events: a phone on a club's flaky Wi-Fi that drops a request simply asks again three
seconds later, and the server keeps no connection open per phone."""

from django.db.models import Max
from django.http import Http404, HttpResponse

from republic.games.dispatches import readable
from republic.games.models import Event, Game
from republic.games.views import answers
from republic.games.views.access import Who, allowed
from republic.games.views.answers import HtmxHttpRequest


@allowed(Who.SEATED)
def poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``since``: the game's version the page was drawn at; ``letter``: the newest dispatch it shows."""
    seat = request.role.seat  # type: ignore[attr-defined]
    newest = Max("dispatches__pk", filter=readable(seat))
    found = Game.objects.filter(pk=game_id).annotate(letter=newest).values_list("version", "letter").first()
    if found is None:
        raise Http404("No such game.")
    asked = (request.GET.get("since", ""), request.GET.get("letter", ""))
    if asked == (str(found[0]), str(found[1] or 0)):
        return HttpResponse(status=204)
    game = answers.game_or_404(game_id)
    latest = Event.objects.filter(game=game, seq=found[0]).select_related("undoes").first()
    return answers.live(request, game, latest)
