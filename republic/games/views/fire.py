"""The fire phase's actions: skirmish blocks and attacks, artillery fire and saved fire, the demoralized panic
test."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.steps import artillery_fire, demoralized_panic, skirmish
from republic.games.steps.base import Who
from republic.games.views import answers
from republic.games.views.access import allowed
from republic.games.views.answers import HtmxHttpRequest
from republic.rules.sequence import StepKey


@allowed(Who.DEFENDING)
@require_POST
def declare_blocks(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = skirmish.declare_form(skirmish.state(game), request.POST)
    return answers.form_action(
        request, game, form, form.prefix, lambda: skirmish.declare_blocks(game, form, answers.actor_of(request))
    )


@allowed(Who.SEATED)
@require_POST
def roll_blocks(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    state = skirmish.state(game)
    if game.step_key is not StepKey.SKIRMISH or state.declared is None:
        return answers.stale(request, game, "There are no declared skirmish blocks to roll now.")
    form = skirmish.rolls_form(state, request.POST)
    return answers.form_action(
        request, game, form, form.prefix, lambda: skirmish.roll_blocks(game, form, answers.actor_of(request))
    )


@allowed(Who.OWNER)
@require_POST
def skirmish_attack(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(
        request,
        game_id,
        unit_id,
        lambda game, brigade, data: skirmish.attack_form(skirmish.state(game), brigade, data),
        skirmish.skirmish_attack,
    )


@allowed(Who.OWNER)
@require_POST
def artillery(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(
        request,
        game_id,
        unit_id,
        lambda game, battery, data: artillery_fire.fire_form(artillery_fire.state(game), battery, data),
        artillery_fire.fire_battery,
    )


@allowed(Who.OWNER)
@require_POST
def save_fire(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(
        request,
        game_id,
        unit_id,
        lambda game, battery, data: artillery_fire.save_form(artillery_fire.state(game), battery, data),
        artillery_fire.save_fire,
    )


@allowed(Who.OWNER)
@require_POST
def panic_test(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(request, game_id, unit_id, demoralized_panic.panic_form, demoralized_panic.panic_test)
