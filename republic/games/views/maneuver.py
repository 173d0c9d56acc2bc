"""The attacker's move step's actions: a maneuver roll, a movement allowance worked out, the charge bonus,
formation, mounting or dismounting, skirmishers and a battery's functions; and the defender's passing fire."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.ledger import ActionRefused
from republic.games.steps.base import Who
from republic.games.steps.move import batteries, brigades, passing_fire
from republic.games.views import answers
from republic.games.views.access import allowed
from republic.games.views.answers import HtmxHttpRequest
from republic.rules.errors import RulesInputError


@allowed(Who.OWNER)
@require_POST
def roll(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(request, game_id, unit_id, brigades.roll_form_for, brigades.roll_maneuver)


@allowed(Who.OWNER)
@require_POST
def movement(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    """The allowance as the card shows it; nothing is recorded, so no version is needed."""
    game = answers.game_or_404(game_id)
    unit = answers.unit_of(game, unit_id)
    form = brigades.movement_form(game, unit, request.POST)
    prefix = form.prefix or ""
    shown: dict[str, object] = {prefix: form}
    if form.is_valid():
        try:
            shown[f"{prefix}-result"] = brigades.movement(game, unit, form)
        except ActionRefused as exc:
            return answers.stale(request, game, str(exc))
        except RulesInputError as exc:
            form.add_error(answers.error_field(form, exc.field), exc.problem)
    return answers.invalid(request, game, shown, row=unit.piece.name)


@allowed(Who.OWNER)
@require_POST
def charge(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    unit = answers.unit_of(game, unit_id)
    form = brigades.ChargeForm(request.POST)
    if not form.is_valid():
        return answers.stale(request, game, answers.INCOMPLETE)
    return answers.form_action(
        request,
        game,
        form,
        None,
        lambda: brigades.mark_charge_bonus(game, unit, form, answers.actor_of(request)),
        unit.piece.name,
    )


@allowed(Who.OWNER)
@require_POST
def formation(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(request, game_id, unit_id, brigades.formation_form, brigades.change_formation)


@allowed(Who.OWNER)
@require_POST
def mount(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(request, game_id, unit_id, brigades.mount_form, brigades.mount_or_dismount)


@allowed(Who.OWNER)
@require_POST
def skirmishers(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(
        request,
        game_id,
        unit_id,
        lambda game, unit, data: brigades.skirmisher_form(game, unit, brigades.skirmisher_limit(unit.to_rules()), data),
        brigades.deploy_skirmishers,
    )


@allowed(Who.OWNER)
@require_POST
def battery(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    return answers.unit_action(request, game_id, unit_id, batteries.functions_form, batteries.use_battery_functions)


@allowed(Who.DEFENDING)
@require_POST
def passing(request: HtmxHttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    """A defending battery's passing fire at an attacking unit about to leave its arc of fire (4.5)."""
    return answers.unit_action(
        request, game_id, unit_id, passing_fire.passing_form_for, passing_fire.conduct_passing_fire
    )
