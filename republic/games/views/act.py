"""Every action a step offers goes through one address, ``/games/<id>/act/<action>/<piece>/``, and this one view:
the step's declaration (``steps.base.Act``) says who may take it and what it is about, so access is decided here,
once, from it; then the step takes it in one call (``Act.take``: its form bound with the factory the step draws it
with, checked, and the action recorded), and the view answers as every action is answered (``answers.done``, or
``answers.refused`` for a form not filled in, a stale page or a refusal); a step the action left with nothing to
do passes by itself first (``walk.after_action``). An action of a step the game is not at
is refused before its form is read: its errors would be drawn in a step panel the page no longer shows. An action
may be offered by more than one step (a division's panic test, in both panic steps); a form factory refuses
(``ActionRefused``) when its piece has nothing of the kind to do now."""

from typing import Any

from django.db import IntegrityError
from django.http import Http404, HttpResponse, HttpResponseNotAllowed

from republic.games.forms import Unfilled
from republic.games.ledger import GAME_OVER, ActionRefused, StaleGame, acting_on, sending
from republic.games.pieces import Piece
from republic.games.steps import ACTIONS, acting_step, walk
from republic.games.steps.assaults.state import declared_in
from republic.games.steps.base import Act
from republic.games.views import answers, lookup, sends
from republic.games.views.access import HtmxHttpRequest, admitted

NOT_HERE = "That is not done at this step: nothing was changed. Here is the game as it stands."
_FOUND = {"unit": "unit_id", "leader": "leader_id", "command": "division_id"}


def act(request: HtmxHttpRequest, game_id: int, action: str, piece: str) -> HttpResponse:
    offered = ACTIONS.get(action)
    about = Piece.of(piece)
    if offered is None or about is None or about.kind != offered[1].about:
        raise Http404("No such action here.")
    declared = offered[1]
    found = {_FOUND[about.kind]: about.pk} if about.kind in _FOUND else {}
    with admitted(request, game_id, declared.who, found) as refusal:
        return refusal or _taken(request, game_id, declared, about)


def _taken(request: HtmxHttpRequest, game_id: int, declared: Act, about: Piece) -> HttpResponse:
    if request.method != "POST":
        # asked after who may: a device that may not act is told why, whatever the method
        return HttpResponseNotAllowed(["POST"])
    game = lookup.game_or_404(game_id)
    target = _target(game, about)
    key = sends.send_key(request)
    if key is None:
        return sends.bad_key()
    first = sends.sent_before(game, key)
    if first is not None:
        # the same send again: its first answer was lost on the way; the player sees what it did
        return answers.done(request, game, first, declared.name)
    if game.over:
        return answers.stale(request, game, GAME_OVER)
    at = acting_step(game)
    if at is None or declared not in at.actions:
        elsewhere = declared.elsewhere(target) if callable(declared.elsewhere) else declared.elsewhere
        return answers.stale(request, game, elsewhere or NOT_HERE)
    row = about.name if about.kind != "game" else None
    try:
        with acting_on(row or lookup.row_target(request)), sending(key):
            event = declared.take(game, target, request.POST, lookup.actor_of(request))
    except (Unfilled, StaleGame, ActionRefused, IntegrityError) as exc:
        # the same send arriving twice at once: the one that waited for the other's lock is answered as it was
        first = sends.sent_before(game, key)
        if first is not None:
            return answers.done(request, game, first, declared.name)
        if isinstance(exc, IntegrityError):
            raise
        return answers.refused(request, game, exc, row)
    if at.done_passes:
        event = walk.after_action(game, event, lookup.actor_of(request))
    return answers.done(request, game, event, declared.name)


def _target(game: Any, about: Piece) -> Any:
    """What the action is about: the unit's, leader's or division's row of this game (another game's is not
    found), an assault by the number of its declaration (an event of this game that declared one), or the game
    itself."""
    if about.kind == "unit":
        return lookup.unit_of(game, about.pk)
    if about.kind == "leader":
        return lookup.leader_of(game, about.pk)
    if about.kind == "command":
        return lookup.command_of(game, about.pk)
    if about.kind == "game" and about.pk != game.pk:
        raise Http404("No such game.")
    if about.kind == "assault":
        declared_in(game, about.pk)
    return game if about.kind == "game" else about.pk
