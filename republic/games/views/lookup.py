"""What a request is about: the game, a unit, leader or division of it, the step row it was sent from, and who
sends it. Read on the way in, before the step takes an action; the way back is ``answers``."""

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from republic.games.models import Command, Game, Leader, Unit
from republic.games.views.access import HtmxHttpRequest
from republic.prepared import prepared

ROW = "row-"


def actor_of(request: HtmxHttpRequest) -> str:
    """Who acted, for the log: the seated player's name, or the game master's."""
    role = getattr(request, "role", None)
    if role is not None and role.seat is not None:
        return str(role.seat.name)
    return request.user.get_username() if request.user.is_authenticated else "table"


def games() -> QuerySet[Game]:
    """Games as a page reads them, with the sides that a step bar names."""
    return Game.objects.select_related("first_attacker", "winner")


# every request reads its game: its SQL is made once per process
_game = prepared(lambda game_id: games().filter(pk=game_id))


def game_or_404(game_id: int) -> Game:
    found = _game(game_id)
    if not found:
        raise Http404("No game has that number.")
    return found[0]


def unit_of(game: Game, unit_id: int) -> Unit:
    """A unit of this game; one of another game is refused as not found."""
    return get_object_or_404(Unit.objects.select_related("division"), pk=unit_id, game=game)


def leader_of(game: Game, leader_id: int) -> Leader:
    return get_object_or_404(Leader.objects.select_related("command"), pk=leader_id, game=game)


def command_of(game: Game, command_id: int) -> Command:
    return get_object_or_404(Command, pk=command_id, game=game)


def row_target(request: HtmxHttpRequest) -> str | None:
    """The subject of the step row an htmx request was sent from ('unit-12'), if it was sent from one."""
    target = request.htmx.target if request.htmx else None
    return target[len(ROW) :] if target and target.startswith(ROW) else None
