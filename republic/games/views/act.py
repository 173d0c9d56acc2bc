"""Every action a step offers goes through one address, ``/games/<id>/act/<action>/<piece>/``, and this one view:
the step's declaration (``steps.base.Act``) says who may take it and what it is about, so access is decided here,
once, from it; the form is bound by the factory the step draws it with, run when valid, and answered as every
action is (``answers.form_action``). An action of a step the game is not at is refused before its form is read:
its errors would be drawn in a step panel the page no longer shows."""

from typing import Any

from django.http import Http404, HttpResponse, HttpResponseNotAllowed

from republic.games.ledger import GAME_OVER
from republic.games.pieces import Piece
from republic.games.steps import ACTIONS, step_of
from republic.games.steps.base import Act, Step
from republic.games.views import answers
from republic.games.views.access import guarded
from republic.games.views.answers import HtmxHttpRequest

NOT_HERE = "That is not done at this step: nothing was changed. Here is the game as it stands."
_FOUND = {"unit": "unit_id", "leader": "leader_id", "command": "division_id"}


def act(request: HtmxHttpRequest, game_id: int, action: str, piece: str) -> HttpResponse:
    offered = ACTIONS.get(action)
    about = Piece.of(piece)
    if offered is None or about is None or about.kind != offered[1].about:
        raise Http404("No such action here.")
    step, declared = offered
    found = {_FOUND[about.kind]: about.pk} if about.kind in _FOUND else {}
    return guarded(request, game_id, declared.who, found, lambda: _taken(request, game_id, step, declared, about))


def _taken(request: HtmxHttpRequest, game_id: int, step: Step[Any], declared: Act[Any], about: Piece) -> HttpResponse:
    if request.method != "POST":
        # asked after who may: a device that may not act is told why, whatever the method
        return HttpResponseNotAllowed(["POST"])
    game = answers.game_or_404(game_id)
    target = _target(game, about)
    if game.over:
        return answers.stale(request, game, GAME_OVER)
    if not game.in_progress or step_of(game) is not step:
        elsewhere = declared.elsewhere(target) if callable(declared.elsewhere) else declared.elsewhere
        return answers.stale(request, game, elsewhere or NOT_HERE)
    state = step.state(game)
    form = declared.form(state, target, request.POST)
    row = about.name if about.kind != "game" else None
    return answers.form_action(
        request, game, form, form.prefix, lambda: declared.run(state, target, form, answers.actor_of(request)), row
    )


def _target(game: Any, about: Piece) -> Any:
    """What the action is about: the unit's, leader's or division's row of this game (another game's is not
    found), an assault by the number of its declaration, or the game itself."""
    if about.kind == "unit":
        return answers.unit_of(game, about.pk)
    if about.kind == "leader":
        return answers.leader_of(game, about.pk)
    if about.kind == "command":
        return answers.command_of(game, about.pk)
    if about.kind == "game" and about.pk != game.pk:
        raise Http404("No such game.")
    return game if about.kind == "game" else about.pk
