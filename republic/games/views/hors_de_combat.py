"""The hors de combat checks' actions, after the fire phase and after the assaults."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.steps import hors_de_combat
from republic.games.views import answers
from republic.games.views.access import Who, allowed
from republic.games.views.answers import HtmxHttpRequest


@allowed(Who.OWNER)
@require_POST
def check_leader(request: HtmxHttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.leader_of(game, leader_id)
    form = hors_de_combat.check_form(game, leader, data=request.POST)
    return answers.form_action(
        request,
        game,
        form,
        form.prefix,
        lambda: hors_de_combat.check_leader(game, leader, form, answers.actor_of(request)),
        leader.piece.name,
    )


@allowed(Who.OWNER)
@require_POST
def skip_leader(request: HtmxHttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.leader_of(game, leader_id)
    return answers.versioned_action(
        request, game, lambda version, actor: hors_de_combat.skip_leader(game, leader, version, actor)
    )
