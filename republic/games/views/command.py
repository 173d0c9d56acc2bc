"""The command phase's actions: a rally, a fallen leader replaced."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.steps import rally as rallying
from republic.games.steps.replace_leaders import replace_leader
from republic.games.views import answers
from republic.games.views.access import Who, allowed
from republic.games.views.answers import HtmxHttpRequest


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


@allowed(Who.OWNER)
@require_POST
def replace(request: HtmxHttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.leader_of(game, leader_id)
    return answers.versioned_action(request, game, lambda version, actor: replace_leader(game, leader, version, actor))
