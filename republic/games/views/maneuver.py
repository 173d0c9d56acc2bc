"""The movement allowance worked out in the attacker's move step: the one thing of the step that records nothing,
so it is not one of the step's actions (``steps.move.STEP.actions``) and has its own address."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.forms import Unfilled, filled
from republic.games.ledger import ActionRefused
from republic.games.steps.base import Who
from republic.games.steps.move import brigades
from republic.games.views import answers, lookup
from republic.games.views.access import HtmxHttpRequest, allowed


@allowed(Who.OWNER)
@require_POST
def movement(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    """The allowance as the card shows it; nothing is recorded, so no version is needed."""
    game = lookup.game_or_404(game_id)
    unit = lookup.unit_of(game, unit_id)
    form = brigades.movement_form(game, unit, request.POST)
    prefix = form.prefix or ""
    shown: dict[str, object] = {prefix: form}
    try:
        with filled(form):
            shown[f"{prefix}-result"] = brigades.movement(game, unit, form)
    except ActionRefused as exc:
        return answers.stale(request, game, str(exc))
    except Unfilled:
        pass  # the card is drawn again with the form's errors in place of an allowance
    return answers.invalid(request, game, shown, row=unit.piece.name)
