"""A whole game saved as a file by the game master, and a saved game loaded into a fresh one."""

from django import forms
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from republic.games.archive.export import dumps, export_game, file_name
from republic.games.archive.load import import_game
from republic.games.archive.remap import ArchiveError
from republic.games.steps.base import Who
from republic.games.uploads import SAVED_GAME_MOST, LimitedFileField
from republic.games.views import answers, lookup
from republic.games.views.access import HtmxHttpRequest, allowed, master_only


@allowed(Who.MASTER)
def save_game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game as one JSON file, named after the game and the day."""
    game = lookup.game_or_404(game_id)
    response = HttpResponse(dumps(export_game(game.pk)), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{file_name(game, timezone.localdate())}"'
    return response


class SavedGameForm(forms.Form):
    file = LimitedFileField(
        label="Saved game (the .json file from a game's turn log)", most=SAVED_GAME_MOST, what="a saved game"
    )


@master_only
def load_game(request: HtmxHttpRequest) -> HttpResponse:
    """A saved game into a fresh game, which then opens; a file refused says why, and no game is made."""
    form = SavedGameForm(request.POST, request.FILES) if request.method == "POST" else SavedGameForm()
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            game = import_game(upload.read())
        except ArchiveError as exc:
            form.add_error("file", f"{upload.name}: {exc}")
        else:
            return answers.client_redirect(request, reverse("games:game", args=[game.pk]))
    return render(request, "games/load.html", {"form": form})
