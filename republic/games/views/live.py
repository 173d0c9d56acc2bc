"""Live tables: the game page asks every few seconds whether its game moved on (``#poll`` in the step bar).
Nothing changed: 204 and no body, for two queries (the seat, or the game master's account, and the game's
version; the session is a signed cookie). It changed: the live part as it stands, with the latest result, which
the phone swaps in unless a form there is being filled in (static/js/live.js).

Polling, not server-sent events: a phone on a club's flaky Wi-Fi that drops a request simply asks again three
seconds later, and the server keeps no connection open per phone."""

from django.http import Http404, HttpResponse

from republic.games.models import Event, Game
from republic.games.views import answers
from republic.games.views.access import Who, allowed
from republic.games.views.answers import HtmxHttpRequest


@allowed(Who.SEATED)
def poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    since = request.GET.get("since", "")
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if version is None:
        raise Http404("No such game.")
    if since.isdigit() and int(since) == version:
        return HttpResponse(status=204)
    game = answers.game_or_404(game_id)
    latest = Event.objects.filter(game=game, seq=version).select_related("undoes").first()
    return answers.live(request, game, latest)
