"""Sending a defender's message (1.7, 2.1); what a message is and who reads it is in ``games.dispatches``."""

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from republic.games.dispatches import ELSEWHERE, DispatchForm, recipients, this_turn
from republic.games.models import Dispatch
from republic.games.steps.base import Who
from republic.games.views import answers, lookup
from republic.games.views.access import HtmxHttpRequest, allowed
from republic.rules.sequence import StepKey


@allowed(Who.DEFENDING)
@require_POST
def send(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = lookup.game_or_404(game_id)
    seat = request.role.seat
    if seat is None:
        return answers.stale(request, game, "Only a defending player sends messages: the game master reads them.")
    to = recipients(game, seat)
    if not to:
        written = "You have written to every friendly player this player turn."
        return answers.stale(request, game, ELSEWHERE if game.step_key is not StepKey.MESSAGES else written)
    form = DispatchForm(request.POST, recipients=to)
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[name].label}: {' '.join(map(str, errors))}" for name, errors in form.errors.items()
        )
        return answers.stale(request, game, f"Nothing was sent. {problems}")
    recipient, text = int(form.cleaned_data["recipient"]), form.cleaned_data["text"]
    try:
        with transaction.atomic():
            Dispatch.objects.create(game=game, sender=seat, recipient_id=recipient, text=text, **this_turn(game))
    except IntegrityError:
        return answers.stale(request, game, "You have written to that player already this player turn.")
    if request.htmx:
        return answers.live(request, game)
    messages.success(request, "Message sent.")
    return redirect("games:game", game_id=game.pk)
