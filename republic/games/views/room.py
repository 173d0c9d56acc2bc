"""The room's big screen: every game in progress (and those just finished) on a projector or a TV in the hall,
where it stands, whose seats it waits on and its latest results, redrawn every five seconds. It is read-only and
shows nothing a side keeps to itself. The game master opens it signed in, or hands out a read-only link
(``RoomLink``) that he can take back: the next redraw through a link taken back says so and shows nothing else.
Its queries are the dashboard's grouped figures and one for the latest results, whatever the number of games and
units."""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Exists, F, OuterRef, Q, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from republic.games.models import Event, Game, RoomLink
from republic.games.text.describe import describe
from republic.games.views.access import master_only
from republic.games.views.dashboard import GameLine, game_lines

LATEST = 3  # results a game's card shows
JUST_FINISHED = timedelta(hours=1)  # a game over for less than this is still shown, marked as over
TAKEN_BACK = "This link was taken back by the game master. Ask him for the room screen's new link."
UNKNOWN = "This is not a link to the room screen. Ask the game master for the room screen's link."


@dataclass
class RoomCard:
    line: GameLine
    results: list[str]  # the latest first, in the turn log's words


@master_only
def room(request: HttpRequest) -> HttpResponse:
    """The room screen for the signed-in game master (anyone else is refused, with a link to sign in)."""
    return _screen(request)


def room_by_link(request: HttpRequest, key: str) -> HttpResponse:
    """The room screen for whoever holds a read-only link the game master has not taken back."""
    link = RoomLink.objects.filter(key=key).first()
    if link is None:
        return render(request, "games/room_gone.html", {"message": UNKNOWN}, status=404)
    if link.revoked is not None:
        # 403, which htmx swaps in: the screen's next redraw says the link was taken back, and stops redrawing
        return render(request, "games/room_gone.html", {"message": TAKEN_BACK}, status=403)
    return _screen(request)


@master_only
@require_POST
def make_room_link(request: HttpRequest) -> HttpResponse:
    RoomLink.objects.create()
    return redirect("games:dashboard")


@master_only
@require_POST
def revoke_room_link(request: HttpRequest, link_id: int) -> HttpResponse:
    RoomLink.objects.filter(pk=link_id, revoked=None).update(revoked=timezone.now())
    return redirect("games:dashboard")


def _screen(request: HttpRequest) -> HttpResponse:
    shown = Q(status=Game.Status.IN_PROGRESS) | Q(
        status=Game.Status.FINISHED, updated__gte=timezone.now() - JUST_FINISHED
    )
    games = list(
        Game.objects.filter(shown).prefetch_related("sides").select_related("first_attacker", "winner").order_by("pk")
    )
    results = _latest_results(games)
    cards = [RoomCard(line, results.get(line.game.pk, [])) for line in game_lines(request, games)]
    return render(request, "games/room.html", {"cards": cards})


def _latest_results(games: list[Game]) -> dict[int, list[str]]:
    """Each game's latest results standing (an event taken back is left out, its undo kept), read in one query."""
    taken_back = Event.objects.filter(undoes=OuterRef("pk"))
    latest = (
        Event.objects.filter(game__in=games)
        .exclude(Exists(taken_back))
        .select_related("undoes")
        .annotate(rank=Window(RowNumber(), partition_by=[F("game_id")], order_by=F("seq").desc()))
        .filter(rank__lte=LATEST)
        .order_by("game_id", "-seq")
    )
    found: dict[int, list[str]] = {}
    for event in latest:
        found.setdefault(event.game_id, []).append(describe(event))
    return found
