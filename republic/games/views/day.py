"""The day's timetable the game master sets for a game: when the club's day ends and the day's last game turn. Both
are his plan for the day, outside the battle's events (an undo leaves them). A form refused changes neither and
says why; either left blank is no longer set."""

from datetime import datetime, time
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from republic.games.models import Game
from republic.games.steps.base import Who
from republic.games.text.pace import clock, day_set
from republic.games.views.access import HtmxHttpRequest, allowed

BACK = {"dashboard": "games:dashboard", "game": "games:game"}
MOST_TURNS = 99


class DayForm(forms.Form):
    day_ends = forms.TimeField(
        required=False,
        label="The day ends at",
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"invalid": "The day's end must be a time of day, such as 18:00."},
    )
    last_turn = forms.IntegerField(
        required=False,
        label="Last game turn",
        min_value=1,
        max_value=MOST_TURNS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "invalid": "The last game turn must be a whole number, such as 12.",
            "min_value": "The last game turn must be 1 or later.",
            "max_value": f"The last game turn must be {MOST_TURNS} or earlier.",
        },
    )

    def __init__(self, game: Game, now: datetime, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game, self.now = game, now

    def clean_day_ends(self) -> datetime | None:
        """Today's date, in the club's time, at the time given; a time already past is refused unless it is the one
        already set (the day ran late and the form is sent for the last turn)."""
        given: time | None = self.cleaned_data["day_ends"]
        if given is None:
            return None
        today = timezone.localtime(self.now).date()
        ends = timezone.make_aware(datetime.combine(today, given.replace(second=0, microsecond=0)))
        if ends <= self.now and ends != self.game.day_ends:
            raise forms.ValidationError(f"The day's end is in the past (it is {clock(self.now, self.now)} now).")
        return ends

    def clean_last_turn(self) -> int | None:
        last: int | None = self.cleaned_data["last_turn"]
        playing = self.game.game_turn
        if last is not None and last < playing and last != self.game.last_turn:
            raise forms.ValidationError(
                f"Game turn {playing} is already being played: the last turn can be {playing} or later."
            )
        return last


@allowed(Who.MASTER)
@require_POST
def set_day(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    now = timezone.now()
    form = DayForm(game, now, request.POST)
    back = BACK.get(request.POST.get("back", ""), "games:game")
    target = redirect(back, game_id=game_id) if back == "games:game" else redirect(back)
    if not form.is_valid():
        problems = [str(e) for errors in form.errors.values() for e in errors]
        messages.error(request, f"{game.name}: nothing was changed. " + " ".join(problems))
        return target
    ends, last = form.cleaned_data["day_ends"], form.cleaned_data["last_turn"]
    Game.objects.filter(pk=game.pk).update(day_ends=ends, last_turn=last)
    messages.success(request, day_set(game.name, ends, last, now))
    return target
