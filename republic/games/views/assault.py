"""The assault phase's actions: declaring, a local breakthrough, a round, the column preview, the attackers' moves
after it, ending, a supporting brigade's hit, lose/lose passage of lines, charge disorder."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from republic.games.ledger import ActionRefused
from republic.games.models import Event, Game
from republic.games.pieces import Piece
from republic.games.steps import charge_disorder
from republic.games.steps.assaults import declare, follow_up, passage, rounds, supporting
from republic.games.steps.assaults.state import Assault, AssaultState, declared_in, state
from republic.games.steps.base import Who
from republic.games.views import answers
from republic.games.views.access import allowed
from republic.games.views.answers import HtmxHttpRequest


@allowed(Who.PHASING)
@require_POST
def declare_assault(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = declare.declare_form(state(game), request.POST)
    return answers.form_action(
        request, game, form, "declare", lambda: declare.declare_assault(game, form, answers.actor_of(request))
    )


def _in_assault(
    request: HtmxHttpRequest,
    game_id: int,
    seq: int,
    form_of: Callable[[AssaultState, Assault, Any], forms.Form],
    act: Callable[[Game, int, Any, str], Event],
) -> HttpResponse:
    """An action on one of this turn's assaults, sent from its row: refused once the assault is not this turn's."""
    game = answers.game_or_404(game_id)
    declared_in(game, seq)
    s = state(game)
    try:
        assault = s.find(seq)
    except ActionRefused as exc:
        return answers.stale(request, game, str(exc))
    form = form_of(s, assault, request.POST)
    return answers.form_action(
        request,
        game,
        form,
        form.prefix,
        lambda: act(game, seq, form, answers.actor_of(request)),
        Piece("assault", seq).name,
    )


@allowed(Who.SEATED)
@require_POST
def round_of(request: HtmxHttpRequest, game_id: int, seq: int) -> HttpResponse:
    return _in_assault(request, game_id, seq, rounds.round_form, rounds.resolve_round)


@allowed(Who.SEATED)
@require_GET
def column(request: HtmxHttpRequest, game_id: int, seq: int) -> HttpResponse:
    """The column for the conditions as the round form holds them now (htmx preview; changes nothing)."""
    game = answers.game_or_404(game_id)
    declared_in(game, seq)
    try:
        assault = state(game).find(seq)
    except ActionRefused as exc:
        raise Http404(str(exc)) from None
    conditions = rounds.read_conditions(assault, request.GET, rounds.prefix(assault))
    return render(request, "games/steps/assault_column.html", {"column": rounds.column_for(assault, conditions)})


@allowed(Who.SEATED)
@require_POST
def end(request: HtmxHttpRequest, game_id: int, seq: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    declared_in(game, seq)
    return answers.versioned_action(
        request, game, lambda version, actor: declare.end_assault(game, seq, version, actor)
    )


@allowed(Who.DEFENDING)
@require_POST
def supporting_hit(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A defending unit that supported the defence with a minority of its bases takes its hit (5.5)."""
    game = answers.game_or_404(game_id)
    form = supporting.supporting_form(state(game), request.POST)
    return answers.form_action(
        request, game, form, "supporting", lambda: supporting.supporting_hit(game, form, answers.actor_of(request))
    )


@allowed(Who.PHASING)
@require_POST
def follow_up_moves(request: HtmxHttpRequest, game_id: int, seq: int) -> HttpResponse:
    """What each attacker did after a round, or before any when every defender had gone (5.5)."""
    return _in_assault(request, game_id, seq, follow_up.follow_up_form, follow_up.follow_up)


@allowed(Who.PHASING)
@require_POST
def local_breakthrough(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """An attacker left out of contact by fire goes on to fresh targets before the rounds (5.2)."""
    game = answers.game_or_404(game_id)
    form = follow_up.local_breakthrough_form(state(game), request.POST)
    return answers.form_action(
        request, game, form, "breakthrough", lambda: follow_up.local_breakthrough(game, form, answers.actor_of(request))
    )


@allowed(Who.SEATED)
@require_POST
def passage_of_lines(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Losers that lost both rolls pass through a friendly unit, which takes their hits (5.5): the players of
    the friendly unit's side enter it (the action refuses the other side's)."""
    game = answers.game_or_404(game_id)
    side = request.POST.get("passage-side")
    if side not in passage.SIDES:
        return answers.stale(request, game, "Nothing was changed: say which side's losers passed through.")
    form = passage.passage_form(state(game), side, request.POST)
    return answers.form_action(
        request, game, form, f"passage-{side}", lambda: passage.pass_through(game, form, answers.actor_of(request))
    )


@allowed(Who.PHASING)
@require_POST
def disorder(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = charge_disorder.disorder_form(charge_disorder.state(game), request.POST)
    return answers.form_action(
        request, game, form, "disorder", lambda: charge_disorder.apply_disorder(game, form, answers.actor_of(request))
    )
