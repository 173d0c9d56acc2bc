"""The assault column preview: the column for the conditions a round's form holds as it is filled in. It records
nothing, so it is an address of its own, not a step's action (``views/act.py``)."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from republic.games.ledger import ActionRefused
from republic.games.steps.assaults import rounds
from republic.games.steps.assaults.state import declared_in, state
from republic.games.steps.base import Who
from republic.games.views import lookup
from republic.games.views.access import HtmxHttpRequest, allowed


@allowed(Who.SEATED)
@require_GET
def column(request: HtmxHttpRequest, game_id: int, seq: int) -> HttpResponse:
    """The column for the conditions as the round form holds them now (htmx preview; changes nothing)."""
    game = lookup.game_or_404(game_id)
    declared_in(game, seq)
    try:
        assault = state(game).find(seq)
    except ActionRefused as exc:
        raise Http404(str(exc)) from None
    conditions = rounds.read_conditions(assault, request.GET, rounds.prefix(assault))
    return render(request, "games/steps/assault_column.html", {"column": rounds.column_for(assault, conditions)})
