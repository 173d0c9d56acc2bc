"""How an action view answers: htmx requests get the game's live fragment, plain requests a redirect to the
game page (post/redirect/get); an invalid form is drawn again with its errors and status 200 so htmx swaps it."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django_htmx.http import HttpResponseClientRedirect

from republic.games.ledger import ActionRefused, StaleGame
from republic.games.models import Event, Game
from republic.rules.errors import RulesInputError

ACTOR_SESSION_KEY = "republic_actor"


def actor_of(request: HttpRequest) -> str:
    name = request.session.get(ACTOR_SESSION_KEY, "")
    if request.user.is_authenticated:
        return name or request.user.get_username()
    return name or "table"


def game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("first_attacker"), pk=game_id)


def unit_of_game(model, game: Game, unit_id: int):
    """A unit, leader or division of this game; one of another game is refused as not found."""
    return get_object_or_404(model, pk=unit_id, game=game)


def done(request: HttpRequest, game: Game, event: Event | None) -> HttpResponse:
    if event is not None:
        request.session["republic_last_event"] = event.pk
    if request.htmx:
        return live(request, game, event)
    return redirect("game", game_id=game.pk)


def live(request: HttpRequest, game: Game, event: Event | None = None, forms: dict | None = None,
         error: str = "", status: int = 200) -> HttpResponse:
    """The game page's live part (position, step panel, last result, unit cards) as one fragment."""
    from republic.games.page import page_context

    game.refresh_from_db()
    context = page_context(request, game, event=event, forms=forms or {}, error=error)
    return render(request, "games/game.html#live", context, status=status)


def invalid(request: HttpRequest, game: Game, forms: dict, error: str = "") -> HttpResponse:
    if request.htmx:
        return live(request, game, forms=forms, error=error)
    from republic.games.page import page_context

    context = page_context(request, game, forms=forms, error=error)
    return render(request, "games/game.html", context)


def stale(request: HttpRequest, game: Game, message: str) -> HttpResponse:
    if request.htmx:
        return live(request, game, error=message)
    messages.error(request, message)
    return redirect("game", game_id=game.pk)


def client_redirect(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def form_action(request: HttpRequest, game: Game, form, prefix: str | None, act: Callable[[], Event]) -> HttpResponse:
    """Run ``act`` for a valid form and answer as every action does: a form without its version, a stale
    version or a refusal shows the fresh state with the message; an engine error lands at the field it
    names ('targets[1]' is the targets field); an invalid form is drawn again with its errors."""
    valid = form.is_valid()
    if "version" in form.errors:
        return stale(request, game, "The form was incomplete: nothing was changed.")
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
        problems = [f"{name.replace('_', ' ')}: {' '.join(errors)}" if name != "__all__" else " ".join(errors)
                    for name, errors in form.errors.items()]
        return stale(request, game, "Nothing was changed. " + "; ".join(problems))
    return invalid(request, game, {prefix: form})


def error_field(form, name: str) -> str | None:
    """The form field an engine error names ('targets[1].bases' is the targets field), if the form has it."""
    base = (name or "").split("[")[0].split(".")[0]
    return base if base in form.fields else None
