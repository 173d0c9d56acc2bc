"""The game master's dashboard: every game of the club on one screen, where it stands and how each side holds,
read with the same few queries for five games as for fifty (each figure is one grouped query over all games).
The page redraws its list every five seconds: the game master watches it, he does not type into it."""

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from republic.games.models import IN_PLAY, Event, Game, Leader, RoomLink, Seat, Side, Unit
from republic.games.pace import Pace, paces
from republic.games.text.game import game_result
from republic.games.views.access import master_only
from republic.games.views.seats import join_link, qr_code
from republic.rules.morale import Condition, condition_for
from republic.rules.sequence import step_for
from republic.rules.troops import UnitKind

IDLE = timedelta(minutes=5)  # a game without an action for this long stands out
JUST_NOW = timedelta(minutes=1)  # an action this recent is "just now": "0 minutes ago" reads as a fault
ROOM_QR = "The room screen's read-only link"


@dataclass
class SideStrength:
    side: Side
    bases: int = 0  # the brigades' bases in play, as the battle report counts them
    bases_start: int = 0
    conditions: Counter[Condition] = field(default_factory=Counter)  # the brigades in play, by condition
    seats: list[str] = field(default_factory=list)

    @property
    def by_condition(self) -> list[tuple[Condition, int]]:
        return [(c, self.conditions[c]) for c in Condition if self.conditions[c]]


@dataclass
class GameLine:
    game: Game
    sides: list[SideStrength]
    last_action: datetime
    idle: bool
    just_now: bool  # the last action was less than a minute ago
    panic_tests: int  # divisions with a unit that had a Panic 4 event this turn: they test for internal panic
    hors_de_combat: int  # leaders hors de combat
    waiting_on: str  # whose players the step waits on
    join_link: str
    pace: Pace

    @property
    def step(self) -> str:
        return step_for(self.game.step_key).title

    @property
    def result(self) -> str:
        """A finished game's result, as the game master gave it."""
        return game_result(self.game.winner.name if self.game.winner else "", self.game.result_note)


@master_only
def dashboard(request: HttpRequest) -> HttpResponse:
    games = Game.objects.prefetch_related("sides").select_related("first_attacker", "winner").order_by("-updated")
    links = RoomLink.objects.filter(revoked=None)
    room = [(link, room_link(request, link)) for link in links]
    context = {"lines": game_lines(request, list(games)), "room_links": [(k, u, qr_code(u, ROOM_QR)) for k, u in room]}
    return render(request, "games/dashboard.html", context)


def room_link(request: HttpRequest, link: RoomLink) -> str:
    return request.build_absolute_uri(reverse("games:room_by_link", args=[link.key]))


def game_lines(request: HttpRequest, games: list[Game]) -> list[GameLine]:
    """Each game's line, from one grouped query a figure over all the games (the room's screen reads them too)."""
    strengths = {(s.game_id, s.pk): SideStrength(s) for g in games for s in g.sides.all()}
    units = Unit.objects.filter(game__in=games)
    # the battle report's count: the bases of the brigades in play, out of all the brigades had (batteries apart)
    brigade_units = units.exclude(kind=UnitKind.ARTILLERY).values_list("game_id", "division__side_id")
    for game_id, side_id, bases, start in brigade_units.annotate(
        bases_in_play=Sum("bases", filter=IN_PLAY), had=Sum("bases_start")
    ).order_by():
        strengths[(game_id, side_id)].bases, strengths[(game_id, side_id)].bases_start = bases or 0, start or 0
    brigades = units.filter(IN_PLAY, bases__gt=0).exclude(kind=UnitKind.ARTILLERY)
    for game_id, side_id, m_hits, count in (
        brigades.values_list("game_id", "division__side_id", "m_hits").annotate(Count("pk")).order_by()
    ):
        strengths[(game_id, side_id)].conditions[condition_for(m_hits)] += count
    for game_id, side_id, name in Seat.objects.filter(game__in=games, revoked=False).values_list(
        "game_id", "side_id", "name"
    ):
        strengths[(game_id, side_id)].seats.append(name)
    tests = dict(
        units.filter(p4_event=True).values_list("game_id").annotate(Count("division_id", distinct=True)).order_by()
    )
    fallen = dict(
        Leader.objects.filter(game__in=games, hors_de_combat=True, removed=False)
        .values_list("game_id")
        .annotate(Count("pk"))
        .order_by()
    )
    last = dict(Event.objects.filter(game__in=games).values_list("game_id").annotate(Max("created")).order_by())
    now = timezone.now()
    timed = paces(games, now)
    lines = []
    for game in games:
        sides = [strengths[(game.pk, s.pk)] for s in game.sides.all()]
        when = last.get(game.pk) or game.created
        lines.append(
            GameLine(
                game,
                sides,
                when,
                game.in_progress and now - when > IDLE,
                now - when < JUST_NOW,
                tests.get(game.pk, 0),
                fallen.get(game.pk, 0),
                _waiting_on(game, sides),
                join_link(request, game),
                timed[game.pk],
            )
        )
    return lines


def _waiting_on(game: Game, sides: list[SideStrength]) -> str:
    """The players the game's step waits on: the side the rules give the step (1.7), with its seats, and the
    attacking side's when the step is the defenders' (only the attacking side may press Next step)."""
    if not game.in_progress:
        return "the first attacker's choice" if game.status == Game.Status.SETTING_UP else "nobody: the game is over"
    acting, attacker = game.acting_side, game.attacker
    waited = " and ".join(_seats(s) for s in sides if acting is None or s.side.pk == acting.pk)
    if acting is None or attacker is None or acting.pk == attacker.pk:
        return waited
    mover = next(s for s in sides if s.side.pk == attacker.pk)
    return f"{waited} to act, then {_seats(mover)} to press Next step"


def _seats(strength: SideStrength) -> str:
    return f"{strength.side.name} ({', '.join(strength.seats) or 'no seat taken'})"
