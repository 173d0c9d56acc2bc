"""The command phase's actions: a rally, a fallen leader replaced."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.forms import VersionForm
from republic.games.steps import rally as rallying
from republic.games.steps.replace_leaders import replace_leader
from republic.games.views import answers
from republic.games.views.answers import HtmxHttpRequest


@require_POST
def rally(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    unit = answers.unit_of(game, unit_id)
    form = rallying.form(game, unit, rallying.side_leaders(game, unit), request.POST)
    return answers.form_action(
        request, game, form, rallying.prefix(unit), lambda: rallying.rally(game, unit, form, answers.actor_of(request))
    )


@require_POST
def replace(request: HtmxHttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.leader_of(game, leader_id)
    form = VersionForm(request.POST)
    return answers.form_action(
        request,
        game,
        form,
        None,
        lambda: replace_leader(game, leader, form.cleaned_data["version"], answers.actor_of(request)),
    )
