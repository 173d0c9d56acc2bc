"""Taking a seat: a player opens a game's join link (or scans its QR code), gives a name and the command he
plays, and this device keeps the seat from then on. The game master's seats page shows the link and its code,
the seats taken, and takes a seat away or gives the game a new join code."""

import io
from functools import lru_cache
from typing import cast

import segno
from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from republic.games.models import Command, Game, Seat, new_join_code
from republic.games.pieces import Piece
from republic.games.steps.base import Who
from republic.games.views import query
from republic.games.views.access import SEATS_KEY, allowed
from republic.games.views.follow import FOLLOW_KEY

WHOLE_SIDE = "side"


class JoinForm(forms.Form):
    name = forms.CharField(max_length=80, label="Your name", help_text="As the log and the other players see it.")
    seat = forms.ChoiceField(label="You command", widget=forms.RadioSelect)

    def __init__(self, *args: object, game: Game, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        commands = Command.objects.filter(game=game, level__in=[Command.Level.CORPS, Command.Level.DIVISION])
        below: dict[int, list[Command]] = {}
        for command in commands.order_by("order", "pk"):
            below.setdefault(command.side_id, []).append(command)
        choices: list[tuple[str, str]] = []
        for side in game.sides.all():
            choices.append((Piece("side", side.pk).name, f"{side.name}: the whole side"))
            choices += [(c.piece.name, f"{side.name}: {c.name}") for c in below.get(side.pk, [])]
        cast(forms.ChoiceField, self.fields["seat"]).choices = choices

    def clean_name(self) -> str:
        return " ".join(str(self.cleaned_data["name"]).split())


def join(request: HttpRequest, code: str) -> HttpResponse:
    game = Game.objects.filter(join_code=code).first()
    if game is None:
        message = "This join link is not one of a game here (the game master may have given a new one): ask for it."
        return render(request, "games/refused.html", {"message": message, "seated": False}, status=404)
    form = JoinForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        chosen = Piece.at(form.cleaned_data["seat"])  # one of the form's choices
        command = Command.objects.filter(pk=chosen.pk, game=game).first() if chosen.kind == "command" else None
        side_id = command.side_id if command else chosen.pk
        earlier = request.session.get(SEATS_KEY, {}).get(str(game.pk))
        with transaction.atomic():
            # one seat a device: the one it held is given up, so the seats page and the messages list it no more
            Seat.objects.filter(pk=earlier, game=game).update(revoked=True)
            seat = Seat.objects.create(game=game, side_id=side_id, command=command, name=form.cleaned_data["name"])
        request.session[SEATS_KEY] = {**request.session.get(SEATS_KEY, {}), str(game.pk): seat.pk}
        # the page opens on the player's own command
        request.session[FOLLOW_KEY] = {**request.session.get(FOLLOW_KEY, {}), str(game.pk): form.cleaned_data["seat"]}
        return redirect("games:game", game_id=game.pk)
    return render(request, "games/join.html", {"game": game, "form": form}, status=400 if form.errors else 200)


def join_link(request: HttpRequest, game: Game) -> str:
    return request.build_absolute_uri(reverse("games:join", args=[game.join_code]))


@lru_cache(maxsize=64)
def qr_code(link: str, title: str = "The game's join link") -> str:
    """A link (the join link, or the room screen's) as an SVG QR code a phone's camera reads off the game master's
    screen: drawn in a page, or served as an image of its own (with its namespace, it is both)."""
    drawn = io.BytesIO()
    segno.make(link, error="m").save(drawn, kind="svg", scale=5, dark="#1f3a5f", title=title, xmldecl=False)
    return drawn.getvalue().decode()


@allowed(Who.MASTER)
def qr_image(request: HttpRequest, game_id: int) -> HttpResponse:
    """The QR code alone, as the dashboard's cards load it when the game master opens one (not on every redraw).
    The address names the join code, so a new code is a new image and the old one may be kept."""
    game = get_object_or_404(Game, pk=game_id)
    if query.text(request.GET, "code") != game.join_code:
        raise Http404("That is not the game's join code now.")
    response = HttpResponse(qr_code(join_link(request, game)), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=86400"
    return response


@allowed(Who.MASTER)
def seats_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    link = join_link(request, game)
    seats = Seat.objects.filter(game=game).select_related("side", "command")
    return render(request, "games/seats.html", {"game": game, "link": link, "qr": qr_code(link), "seats": seats})


@allowed(Who.MASTER)
@require_POST
def revoke_seat(request: HttpRequest, game_id: int, seat_id: int) -> HttpResponse:
    seat = get_object_or_404(Seat, pk=seat_id, game_id=game_id)
    seat.revoked = True
    seat.save(update_fields=["revoked"])
    messages.success(request, f"{seat.name}'s seat is taken away: that device can no longer see or act in the game.")
    return redirect("games:seats", game_id=game_id)


@allowed(Who.MASTER)
@require_POST
def new_code(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    game.join_code = new_join_code()
    game.save(update_fields=["join_code"])
    messages.success(request, "The game has a new join link: the old one no longer takes a seat. Seats taken stay.")
    return redirect("games:seats", game_id=game_id)
