"""The panic phase's actions: a division's panic test, the divisions adjoining one that panicked."""

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from republic.games.models import Command
from republic.games.steps import adjoining_panic
from republic.games.steps.base import Who
from republic.games.steps.division_panic import (
    PANIC_STEPS,
    form_prefix,
    lacking_test,
    panic_form,
    roll_panic_test,
    state,
)
from republic.games.views import answers
from republic.games.views.access import allowed
from republic.games.views.answers import HtmxHttpRequest
from republic.rules.division_panic import PanicTrigger
from republic.rules.sequence import StepKey


@allowed(Who.OWNER)
@require_POST
def panic_test(request: HtmxHttpRequest, game_id: int, division_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    division = answers.command_of(game, division_id)
    if division.level != Command.Level.DIVISION:
        return answers.stale(request, game, f"{division.name} is not a division: nothing was changed.")
    test = lacking_test(state(game), division) if game.step_key in PANIC_STEPS else None
    form = panic_form(game, str(division.pk), test.triggers if test else (PanicTrigger.INTERNAL,), request.POST)
    if test is None and not form.is_valid() and "version" not in form.errors:
        return answers.stale(request, game, f"{division.name} has no panic test to roll now.")
    return answers.form_action(
        request,
        game,
        form,
        form_prefix(str(division.pk)),
        lambda: roll_panic_test(game, division, form, answers.actor_of(request)),
        division.piece.name,
    )


@allowed(Who.SEATED)
@require_POST
def adjoining(request: HtmxHttpRequest, game_id: int, division_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    division = answers.command_of(game, division_id)
    if division.level != Command.Level.DIVISION:
        return answers.stale(request, game, f"{division.name} is not a division: nothing was changed.")
    s = state(game)
    key = str(division.pk)
    form = adjoining_panic.adjoining_form(s, key, request.POST)
    open_here = key in s.undeclared and game.step_key is StepKey.ADJOINING_PANIC
    if not open_here and not form.is_valid() and "version" not in form.errors:
        return answers.stale(request, game, f"{division.name} has no adjoining divisions to name now.")
    return answers.form_action(
        request,
        game,
        form,
        adjoining_panic.prefix(key),
        lambda: adjoining_panic.declare_adjoining(game, division, form, answers.actor_of(request)),
    )
