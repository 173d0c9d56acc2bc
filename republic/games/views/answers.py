"""How an action answers: htmx requests get the game's live fragment, plain requests a redirect to the game
page (post/redirect/get); an invalid form is drawn again with its errors and status 200 so htmx swaps it."""

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, StaleGame
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.views.page import page_context
from republic.rules.errors import RulesInputError


class HtmxHttpRequest(HttpRequest):
    """A request as the htmx middleware leaves it."""

    htmx: HtmxDetails


ACTOR_SESSION_KEY = "republic_actor"
LAST_EVENT_KEY = "republic_last_event"
INCOMPLETE = "The form was incomplete: nothing was changed."
F = TypeVar("F", bound=forms.Form)


def actor_of(request: HtmxHttpRequest) -> str:
    name: str = request.session.get(ACTOR_SESSION_KEY, "")
    if request.user.is_authenticated:
        return name or request.user.get_username()
    return name or "table"


def game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("first_attacker"), pk=game_id)


def unit_of(game: Game, unit_id: int) -> Unit:
    """A unit of this game; one of another game is refused as not found."""
    return get_object_or_404(Unit.objects.select_related("division"), pk=unit_id, game=game)


def leader_of(game: Game, leader_id: int) -> Leader:
    return get_object_or_404(Leader.objects.select_related("command"), pk=leader_id, game=game)


def command_of(game: Game, command_id: int) -> Command:
    return get_object_or_404(Command, pk=command_id, game=game)


def _last_event(request: HtmxHttpRequest, game: Game) -> Event | None:
    last = request.session.get(LAST_EVENT_KEY)
    return Event.objects.filter(pk=last, game=game).select_related("undoes").first() if last else None


def context(
    request: HtmxHttpRequest,
    game: Game,
    event: Event | None = None,
    forms: dict[str, Any] | None = None,
    error: str = "",
) -> dict[str, Any]:
    return page_context(game, actor_of(request), event or _last_event(request, game), forms, error)


def done(request: HtmxHttpRequest, game: Game, event: Event) -> HttpResponse:
    request.session[LAST_EVENT_KEY] = event.pk
    if request.htmx:
        return live(request, game, event)
    return redirect("games:game", game_id=game.pk)


def live(
    request: HtmxHttpRequest,
    game: Game,
    event: Event | None = None,
    forms: dict[str, Any] | None = None,
    error: str = "",
) -> HttpResponse:
    """The game page's live part (position, step panel, last result, unit cards) as one fragment."""
    fresh = game_or_404(game.pk)
    return render(request, "games/game.html#live", context(request, fresh, event, forms, error))


def invalid(request: HtmxHttpRequest, game: Game, bound: dict[str, Any], error: str = "") -> HttpResponse:
    if request.htmx:
        return live(request, game, forms=bound, error=error)
    return render(request, "games/game.html", context(request, game_or_404(game.pk), forms=bound, error=error))


def stale(request: HtmxHttpRequest, game: Game, message: str) -> HttpResponse:
    if request.htmx:
        return live(request, game, error=message)
    messages.error(request, message)
    return redirect("games:game", game_id=game.pk)


def client_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def form_action(
    request: HtmxHttpRequest, game: Game, form: forms.Form, prefix: str | None, act: Callable[[], Event]
) -> HttpResponse:
    """Run ``act`` for a valid form and answer as every action does: a form without its version, a stale
    version or a refusal shows the fresh state with the message; an engine error lands at the field it
    names ('targets[1]' is the targets field); an invalid form is drawn again with its errors."""
    valid = form.is_valid()
    if "version" in form.errors:
        return stale(request, game, INCOMPLETE)
    if valid:
        try:
            event = act()
        except StaleGame as exc:
            return stale(request, exc.game, str(exc))
        except ActionRefused as exc:
            return stale(request, game, str(exc))
        except RulesInputError as exc:
            form.add_error(error_field(form, exc.field), exc.problem)
        else:
            return done(request, game, event)
    if prefix is None:
        # a form drawn without a place for field errors: say them as the page's message
        problems = [
            f"{name.replace('_', ' ')}: {' '.join(map(str, errors))}"
            if name != "__all__"
            else " ".join(map(str, errors))
            for name, errors in form.errors.items()
        ]
        return stale(request, game, "Nothing was changed. " + "; ".join(problems))
    return invalid(request, game, {prefix: form})


def error_field(form: forms.Form, name: str) -> str | None:
    """The form field an engine error names ('targets[1].bases' is the targets field), if the form has it."""
    base = (name or "").split("[")[0].split(".")[0]
    return base if base in form.fields else None


def unit_action(
    request: HtmxHttpRequest,
    game_id: int,
    unit_id: int,
    form_for: Callable[[Game, Unit, Any], F],
    run: Callable[[Game, Unit, F, str], Event],
) -> HttpResponse:
    """An action on one unit of a game: its form bound to the POST, run when valid, errors drawn in place."""
    game = game_or_404(game_id)
    unit = unit_of(game, unit_id)
    form = form_for(game, unit, request.POST)
    return form_action(request, game, form, form.prefix, lambda: run(game, unit, form, actor_of(request)))


def versioned_action(request: HtmxHttpRequest, game: Game, run: Callable[[int, str], Event]) -> HttpResponse:
    """An action with nothing to fill in but the game version its page was drawn at."""
    form = VersionForm(request.POST)
    return form_action(request, game, form, None, lambda: run(form.cleaned_data["version"], actor_of(request)))
