"""Who may see and do what in a game. The game master (a signed-in staff account) may do anything in any game.
A player takes a seat with the game's join code; the seat is kept in this device's session and says his side.
A seated player sees his game and acts for his side: on his side's units, leaders and divisions, in the steps
the rules give to his side, and for either side where both roll. Anyone else is refused with a message on
every address of a game, whatever the method: the check is made here, before the view, never in a template.

Each view of a game says who may use it with ``allowed(Who.X)``; the game list and the join page are open to all
and show each device its own. A test walks every address of the app with every role."""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.http import reswap, retarget
from django_htmx.middleware import HtmxDetails

from republic.games.ledger import acting_for
from republic.games.models import Command, Game, Leader, Seat, Unit
from republic.games.pieces import Piece
from republic.games.steps.base import Act, Row, Who
from republic.games.views.follow import command_tree
from republic.prepared import prepared

SEATS_KEY = "republic_seats"  # this device's seat in each game, by game id
NO_SEAT = (
    "This device has no seat in this game. Open the game's join link, or scan its code on the game master's "
    "screen, to take one."
)
REVOKED = "The game master has taken this device's seat away. Ask for the join link to take a seat again."
MASTER_ONLY = "Only the game master may do this."
STALE_TOKEN = (
    "This page's security token (CSRF) is missing or out of date, so nothing was done. Reload the page and try again."
)


@dataclass(frozen=True)
class Role:
    """What this device is in a game: the game master, a seat, or neither (``refusal`` says why)."""

    master: bool = False
    seat: Seat | None = None
    refusal: str = ""

    @property
    def side_id(self) -> int | None:
        return self.seat.side_id if self.seat else None


class HtmxHttpRequest(HttpRequest):
    """A request as the htmx middleware leaves it, with this device's ``role`` in its game once ``admitted``."""

    htmx: HtmxDetails
    role: Role


def is_master(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_authenticated and user.is_staff)


_SEAT = prepared(lambda pk, game_id: Seat.objects.filter(pk=pk, game_id=game_id).select_related("side"))


def role_of(request: HttpRequest, game_id: int) -> Role:
    if is_master(request):
        return Role(master=True)
    pk = request.session.get(SEATS_KEY, {}).get(str(game_id))
    found = _SEAT(pk, game_id) if type(pk) is int else []  # the session keeps it as a number
    if not found:
        return Role(refusal=NO_SEAT)
    return Role(seat=found[0], refusal=REVOKED if found[0].revoked else "")


def _owner(game_id: int, found: dict[str, Any]) -> int | None:
    """The side of the unit, leader or division an address names; None when it names none of this game's."""
    side: int | None
    if "unit_id" in found:
        units = Unit.objects.filter(pk=found["unit_id"], game_id=game_id)
        side = units.values_list("division__side_id", flat=True).first()
    elif "leader_id" in found:
        leaders = Leader.objects.filter(pk=found["leader_id"], game_id=game_id)
        side = leaders.values_list("command__side_id", flat=True).first()
    else:
        divisions = Command.objects.filter(pk=found["division_id"], game_id=game_id)
        side = divisions.values_list("side_id", flat=True).first()
    return side


def _turn_sides(game_id: int) -> tuple[int | None, int | None]:
    """The attacking and defending sides this player turn; (None, None) before the first attacker is chosen."""
    game = Game.objects.filter(pk=game_id).prefetch_related("sides").first()
    if game is None or game.attacker is None:
        return None, None
    return game.attacker.pk, game.defender.pk if game.defender else None


def refusal(who: Who, role: Role, game_id: int, found: dict[str, Any]) -> str:
    """Why this role may not use an address open to ``who`` ('' when it may)."""
    if role.master:
        return ""
    if who is Who.MASTER:
        return MASTER_ONLY
    if role.refusal:
        return role.refusal
    side = role.side_id
    if who is Who.OWNER:
        owner = _owner(game_id, found)
        # an address naming nothing of this game's is the view's to answer (not found)
        return "" if owner in (None, side) else "That is the other side's to do: it is not one of your side's."
    if who in (Who.PHASING, Who.DEFENDING):
        attacker, defender = _turn_sides(game_id)
        acting = attacker if who is Who.PHASING else defender
        if acting is not None and acting != side:
            whose = "attacking" if who is Who.PHASING else "defending"
            return f"That is for the {whose} side's players this player turn, not yours."
    return ""


def may_move_on(role: Role | None, game: Game) -> bool:
    """Whether this role may press Next step (``next_step`` is open to ``Who.PHASING``), read from the game in
    hand: the game master, and the attacking side's seats (every seat before the first attacker is chosen). A
    step bar draws the button only for them; everyone else is told who moves the game on."""
    if role is None or role.refusal:
        return False
    if role.master:
        return True
    attacker = game.attacker
    return role.seat is not None and (attacker is None or attacker.pk == role.seat.side_id)


def may_take(role: Role | None, game: Game, who: Who, owner: int | None = None) -> bool:
    """Whether this role may take an action open to ``who`` (on a piece of the side ``owner``), read from the game
    in hand: what ``refusal`` answers, asked before a form is drawn, so that no seat is drawn a form it would be
    refused for. A piece's action open to one side is its own side's pieces' too (a defending battery's passing
    fire)."""
    if role is None or role.refusal:
        return False
    if role.master:
        return True
    side = role.side_id
    if who is Who.MASTER or (owner is not None and who is not Who.SEATED and owner != side):
        return False
    if who in (Who.PHASING, Who.DEFENDING):
        acting = game.attacker if who is Who.PHASING else game.defender
        return acting is None or acting.pk == side
    return True


@dataclass(frozen=True)
class Mine:
    """What this device may do at the step the game is at, asked wherever the page draws a form: the step's
    actions it may take (``"leader-move" in mine``; an action on one piece, on the pieces of the side the step
    belongs to), and each row's (``row``), by the side of the row's piece. Rows of the other side are drawn without
    their form, saying who acts (``whose``)."""

    role: Role | None
    game: Game
    acts: frozenset[str]
    sides: dict[int, tuple[int, str]]  # each command's side and its name, read once; empty for the game master
    # what ``row`` answered, by step, side and kind of piece: a club battle's step asks it of hundreds of rows
    asked: dict[tuple[int, int | None, str | None], bool] = field(default_factory=dict, compare=False, repr=False)

    def __contains__(self, action: str) -> bool:
        return action in self.acts

    @property
    def seated(self) -> bool:
        """A player's device, which acts for his side; the game master's follows the whole game."""
        return self.role is not None and not self.role.master and self.role.seat is not None

    def row(self, actions: Iterable[Act], row: Row) -> bool:
        """Whether it may act on the row: take one of the step's actions about the row's kind of piece."""
        found = self.sides.get(row.command) if row.command is not None else None
        piece = Piece.of(row.subject)
        owner = found[0] if found else None
        kind = piece.kind if piece else None
        # a step's actions are its module's own tuple, the same object for the whole request
        key = (id(actions), owner, kind)
        if key not in self.asked:
            self.asked[key] = any(may_take(self.role, self.game, a.who, owner) for a in actions if a.about == kind)
        return self.asked[key]

    def whose(self, row: Row) -> str:
        """Who acts on a row this device may not, and what they do: 'For the Union players: rally'."""
        found = self.sides.get(row.command) if row.command is not None else None
        whose = f"For the {found[1]} players" if found else "For the other side's players"
        return f"{whose}: {row.verb.lower()}" if row.verb else whose


def mine(role: Role | None, game: Game, actions: Iterable[Act]) -> Mine:
    """This role's ``Mine`` at a step offering these actions."""
    acting = game.acting_side if game.in_progress else None
    owner = acting.pk if acting is not None else None
    acts = frozenset(
        act.name for act in actions if may_take(role, game, act.who, owner if act.about != "game" else None)
    )
    sides: dict[int, tuple[int, str]] = {}
    if role is not None and not role.master and role.seat is not None:
        sides = {pk: (side, name) for pk, _, side, _, name in command_tree(game)}
    return Mine(role, game, acts, sides)


View = Callable[..., HttpResponse]


def allowed(who: Who) -> Callable[[View], View]:
    """A view of one game (its first argument after the request is ``game_id``) open to ``who``: anyone else
    gets 403 with the reason; an action is recorded as the acting seat's side."""

    def wrap(view: View) -> View:
        @wraps(view)
        def checked(request: HtmxHttpRequest, game_id: int, **found: Any) -> HttpResponse:
            with admitted(request, game_id, who, found) as refusal:
                return refusal or view(request, game_id, **found)

        return checked

    return wrap


@contextmanager
def admitted(request: HtmxHttpRequest, game_id: int, who: Who, found: dict[str, Any]) -> Iterator[HttpResponse | None]:
    """None when this device's role in the game may do what is open to ``who`` (``found``: the unit, leader or
    division it is about, by 'unit_id', 'leader_id' or 'division_id'), with the request's ``role`` set and every
    event recorded inside as its side's; else 403 with the reason. A view asks it and goes on itself: nothing here
    calls back into the view."""
    role = role_of(request, game_id)
    why = refusal(who, role, game_id, found)
    if why:
        yield refused(request, why, seated=role.seat is not None and not role.seat.revoked)
        return
    request.role = role
    with acting_for(role.side_id):
        yield None


def master_only(view: View) -> View:
    """A view for the game master alone, not of one game."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_master(request):
            return refused(request, MASTER_ONLY, seated=False)
        return view(request, *args, **kwargs)

    return checked


def refused(request: HttpRequest, message: str, seated: bool) -> HttpResponse:
    """403 with the reason, as a page or (for htmx) a message in place of the part that was to change."""
    context = {"message": message, "seated": seated}
    if not getattr(request, "htmx", False):
        return render(request, "games/refused.html", context, status=403)
    # in place of the answer the phone waited for: at the top of the page, where it is seen
    response = render(request, "games/refused.html#refusal", context, status=403)
    return retarget(reswap(response, "innerHTML"), "#refusal-slot")


def csrf_refused(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form without its security token (an old page kept open for days, a cookie cleared) is refused like any
    other request this device may not make: in its place, with what to do."""
    return refused(request, STALE_TOKEN, seated=True)
