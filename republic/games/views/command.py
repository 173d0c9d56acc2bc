"""The command phase's actions: a rally, a leader's move to support the rallies, a fallen leader replaced."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.steps import rally as rallying
from republic.games.steps.replace_leaders import replace_leader
from republic.games.views import answers
from republic.games.views.access import Who, allowed
from republic.games.views.answers import HtmxHttpRequest
from republic.rules.sequence import StepKey


@allowed(Who.OWNER)
@require_POST
def rally(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(
        request,
        game_id,
        unit_id,
        lambda game, unit, data: rallying.form(game, unit, rallying.side_leaders(game, unit), data),
        rallying.rally,
    )


@allowed(Who.PHASING)
@require_POST
def move_leader(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """One of the attacking side's leaders moved up to 2" in the rally step (R:352-354)."""
    game = answers.game_or_404(game_id)
    if not game.in_progress or game.step_key is not StepKey.RALLY:
        # before the form is read: its errors would be drawn in a step panel the page no longer shows
        return answers.stale(request, game, rallying.MOVE_ELSEWHERE)
    form = rallying.leader_move_form(rallying.state(game), request.POST)
    return answers.form_action(
        request, game, form, form.prefix, lambda: rallying.move_leader(game, form, answers.actor_of(request))
    )


@allowed(Who.OWNER)
@require_POST
def replace(request: HtmxHttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.leader_of(game, leader_id)
    return answers.versioned_action(request, game, lambda version, actor: replace_leader(game, leader, version, actor))
