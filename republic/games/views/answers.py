"""How an action answers: plain requests get a redirect to the game page (post/redirect/get); htmx requests
get what changed. An action sent from one of a step's rows (its htmx target is that row) is answered as the
page's poll is, by ``redraw``: what changed on the phone's screen since it was drawn, plus the row acted on;
any other htmx action with the game's live fragment. An invalid form is drawn again with its errors and status
200 so htmx swaps it in place."""

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.db import IntegrityError
from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from republic.games.dispatches import dispatch_context, readable
from republic.games.forms import Unfilled, VersionForm, filled, whole_number
from republic.games.ledger import GAME_OVER, ActionRefused, StaleGame, acting_on, sending
from republic.games.models import Event, Game
from republic.games.pieces import Piece
from republic.games.steps import acting_step, step_of
from republic.games.steps.base import Row
from republic.games.text.describe import describe, last_result
from republic.games.views import sends
from republic.games.views.access import HtmxHttpRequest, Mine, may_move_on, mine
from republic.games.views.follow import followed
from republic.games.views.lookup import actor_of, command_of, game_or_404, games, row_target
from republic.games.views.order_of_battle import division_context
from republic.games.views.page import ROWS_SHOWN, drawn, page_context, step_news, work
from republic.prepared import prepared
from republic.rules.sequence import StepKey, step_for

LAST_EVENT_KEY = "republic_last_event"
INCOMPLETE = "The form was incomplete: nothing was changed."
SHOWN_HEADER = "Rows-Shown"  # the header a phone lists its step rows in (static/js/republic.js)
OPEN_HEADER = "Rows-Open"  # the step rows a phone has open
PARTS_HEADER = "Parts-Open"  # the folded parts of the step's panel a phone has open (steps.base.Step.parts)
DRAWN_HEADER = "Drawn"  # the version and newest message its screen shows: "<version> <letter>"
DRAWN_FROM = (SHOWN_HEADER, OPEN_HEADER, PARTS_HEADER)  # what of a phone's screen its news is drawn for
NEWS_MOST = 20  # events since the screen was drawn that its answer redraws piece by piece; after more, the live part
DIVISION = "division-"
F = TypeVar("F", bound=forms.Form)


def division_answer(
    request: HtmxHttpRequest, game: Game, error: str = "", event: Event | None = None
) -> HttpResponse | None:
    """An action sent from a division's page (a correction, orders, a unit moved away) is answered with that
    division as it stands now, saying what was done (a unit moved to another division is no longer there to
    show it); None for any other request."""
    target = request.htmx.target if request.htmx else None
    number = whole_number(target[len(DIVISION) :]) if target and target.startswith(DIVISION) else None
    if number is None:
        return None
    fresh = game_or_404(game.pk)
    division = command_of(fresh, number)
    news = describe(event) if event is not None else ""
    context = {**division_context(fresh, division), "error": error, "news": news}
    return render(request, "games/division.html#division", context)


_event = prepared(lambda pk, game: Event.objects.filter(pk=pk, game=game).select_related("undoes"))


def _last_event(request: HtmxHttpRequest, game: Game) -> Event | None:
    """This device's last action, while it is still news: the game's latest event, or one of the step the game
    is at (a result of an earlier step would push the step's own work off a phone's first screen)."""
    last = request.session.get(LAST_EVENT_KEY)
    found = _event(last, game.pk) if isinstance(last, int) else []
    event = found[0] if found else None
    if event is None or event.seq == game.version:
        return event
    here = (event.game_turn, event.player_turn, event.step) == (game.game_turn, game.player_turn, game.step)
    return event if here else None


def context(
    request: HtmxHttpRequest,
    game: Game,
    event: Event | None = None,
    forms: dict[str, Any] | None = None,
    error: str = "",
    opened: tuple[str, ...] = (),
    shown: int = ROWS_SHOWN,
    parts: set[str] | None = None,
    fetched: bool = False,
    letters: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The live part's context; ``letters``: the device's messages drawn apart from it (``shared_news``)."""
    last = event or _last_event(request, game)
    role = getattr(request, "role", None)
    yours = own(request, game)
    follows = followed(request, game)
    found = page_context(game, actor_of(request), last, forms, error, opened, follows, shown, yours, fetched)
    if letters is None:
        letters = dispatch_context(bool(role and role.master), role.seat if role else None, game)
    parts = (parts_open(request) if parts is None else parts) | set(opened)
    folds = set(request.GET.getlist("fold"))  # a page drawn without scripts, with a row's fold open
    return {
        **found,
        **letters,
        "role": role,
        "watching": watching(role, game),
        "moves_on": may_move_on(role, game),
        "mine": yours,
        "parts_open": parts,
        "folds_open": folds,
    }


def own(request: HtmxHttpRequest, game: Game) -> Mine:
    """What this device may do at the step the game is at (``access.Mine``): every form is drawn for it alone."""
    step = acting_step(game)
    return mine(getattr(request, "role", None), game, step.actions if step else ())


def parts_open(request: HtmxHttpRequest) -> set[str]:
    """The folded parts of the step's panel the phone has open, as its script names them with every request."""
    return set(request.headers.get(PARTS_HEADER, "").split())


def watching(role: Any, game: Game) -> str:
    """What a seated player of the other side is told of a step the rules give one side (1.7): it is not his to
    act in, and his phone follows it; nothing for the game master, the acting side, or a step of both sides. The
    attacking side moves every step on, the defenders' own included: its players are told to press Next step."""
    seat = role.seat if role is not None else None
    if seat is None or not game.in_progress:
        return ""
    acting = game.acting_side
    if acting is None or acting.pk == seat.side_id:
        return ""
    if may_move_on(role, game):
        return f"The {acting.name} players act in this step; press Next step once they are done."
    passing = " Your batteries may make passing fire at their units (4.5)." if game.step_key is StepKey.MOVE else ""
    return f"The {acting.name} players act in this step; your phone follows it as they play.{passing}"


def shown_subjects(request: HtmxHttpRequest) -> set[str]:
    """The subjects of the step's rows the phone shows (the first ones and those "Show more" added), as its
    script lists them with every request: the rows an answer may redraw out of band."""
    return set(request.headers.get(SHOWN_HEADER, "").split())


def done(request: HtmxHttpRequest, game: Game, event: Event, taken: str = "") -> HttpResponse:
    """The answer to an action that recorded ``event``; ``taken``: the action's name, whose folded part of the
    panel (``steps.base.Step.parts``) folds again now that its work is done."""
    request.session[LAST_EVENT_KEY] = event.pk
    division = division_answer(request, game, event=event)
    if division:
        return division
    if request.htmx:
        fresh = with_letter(request, game.pk)
        row = row_target(request)
        if row is None:
            # sent from the step's panel or the step bar: the live part as it stands, as a reload draws it, with the
            # row the action brought to life open
            opens = step_of(fresh).opens
            born = opens(event) if opens is not None and fresh.in_progress else ""
            return redraw(request, fresh, None, None, event=event, parts=parts_open(request) - {taken}, born=born)
        # a request that does not say what its screen shows is answered with what its own action changed
        since, letter = drawn_at(request) or (event.seq - 1, newest_letter(fresh))
        return redraw(request, fresh, since, letter, row, event, parts_open(request) - {taken})
    return redirect("games:game", game_id=game.pk)


def drawn_at(request: HtmxHttpRequest) -> tuple[int, int] | None:
    """The game's version and the newest message the phone's screen shows, as its script sends them with every
    request; None when it does not say them, or says them wrongly."""
    said = [whole_number(part) for part in request.headers.get(DRAWN_HEADER, "").split()]
    if len(said) != 2:
        return None
    version, letter = said
    return (version, letter) if version is not None and letter is not None else None


# every poll with news and every action's answer reads it: its SQL is made once per process (for a seat, and for
# the game master's device, which reads every dispatch)
_WITH_LETTER = prepared(
    lambda pk, seat: games().filter(pk=pk).annotate(letter=Max("dispatches__pk", filter=readable(seat)))
)


def with_letter(request: HtmxHttpRequest, game_id: int) -> Game:
    """The game, read with the newest dispatch this device reads in one query."""
    role = getattr(request, "role", None)
    found = _WITH_LETTER(game_id, role.seat.pk if role is not None and role.seat else None)
    if not found:
        raise Http404("No game has that number.")
    return found[0]


def newest_letter(game: Game) -> int:
    """The newest dispatch this device reads, as ``with_letter`` annotated it on the game (0: none)."""
    return int(getattr(game, "letter", 0) or 0)


def redraw(
    request: HtmxHttpRequest,
    game: Game,
    since: int | None,
    letter: int | None,
    acted: str | None = None,
    event: Event | None = None,
    parts: set[str] | None = None,
    born: str = "",
) -> HttpResponse:
    """What changed on a phone's screen since it was drawn at version ``since`` with the newest message
    ``letter``: the answer to the page's poll and to the player's own action alike (``acted``: the step row the
    action was sent from, drawn in its place, with the other rows the phone has open). When every event since then
    happened at the rows of the step the screen shows: those rows, the step's panel, the latest result and the step
    bar, each in place; otherwise the live part as it stands, with the rows the phone has open still open. ``game``
    comes annotated with its newest ``letter`` this device reads; ``parts``: the folded parts of the step's panel
    drawn open (by default those the phone has open); ``born``: a row the action brought to life, drawn open."""
    recent = Event.objects.filter(game=game).select_related("undoes").order_by("-seq")
    if event is not None and since == event.seq - 1:
        later = [event]  # nobody else acted since the screen was drawn
    else:
        later = list(recent.filter(seq__gt=since)[: NEWS_MOST + 1])[::-1] if since is not None else []
    shown = shown_subjects(request) | {row for row in (acted, born) if row}
    opened = set(request.headers.get(OPEN_HEADER, "").split()) & shown | ({born} if born else set())
    if later and len(later) <= NEWS_MOST and letter == newest_letter(game):
        pieces = _pieces(request, game, later, shown, opened, acted, parts)
        if pieces is not None:
            return pieces
    latest = event or (later[-1] if later else recent.first())
    kept = tuple(opened | {acted} if acted else opened)  # the row acted on stays open while it has work left
    count = max(ROWS_SHOWN, len(shown))
    whole = render(
        request,
        "games/game.html#live",
        context(request, game, latest, opened=kept, shown=count, parts=parts, fetched=bool(acted)),
    )
    return retarget(reswap(whole, "outerHTML"), "#live") if acted else whole


Place = tuple[int, int, str]  # a game turn, a player turn and a step
Told = tuple[str, list[str], Place, tuple[str, Place] | None]


def told(event: Event) -> Told:
    """What a phone's news reads of an event: its row, what it is about, where in the game it was taken, and the
    row and place of the event it undid, if it undid one (``rows_told``)."""
    undone = event.undoes
    at = (event.game_turn, event.player_turn, event.step)
    return (
        event.subject,
        event.about,
        at,
        (undone.subject, (undone.game_turn, undone.player_turn, undone.step)) if undone else None,
    )


def rows_told(later: list[Told], here: Place, game: str) -> set[str] | None:
    """The rows the events since a screen was drawn are about; None unless each is a row's action at the step the
    game is at (``here``), or the undoing of one that changed nothing of the game's own (``game``: its key): after
    another step, an event from no row or an undo that went back a step, only the live part will do."""
    subjects: set[str] = set()
    for subject, about, at, undone in later:
        if undone is not None:
            subject, undone_at = undone
            if game in about or undone_at != here:
                return None
        if not subject or at != here:
            return None
        subjects |= {piece.name for key in about if (piece := Piece.of(key))}
    return subjects


def _pieces(
    request: HtmxHttpRequest,
    game: Game,
    later: list[Event],
    shown: set[str],
    opened: set[str],
    acted: str | None,
    parts: set[str] | None,
) -> HttpResponse | None:
    """The pieces of the screen the events since it was drawn changed (see ``redraw``); None when only the live
    part will do (``rows_told``), or for a row the step gained, which only the whole list puts in its place (a
    step whose rows are placed in its panel draws the panel whole, with them)."""
    here = (game.game_turn, game.player_turn, str(game.step))
    subjects = rows_told([told(event) for event in later], here, Piece("game", game.pk).key)
    if subjects is None:
        return None
    yours = own(request, game)
    order = request.headers.get(SHOWN_HEADER, "").split()
    news = step_news(game, followed(request, game), subjects, shown, opened, acted, yours, order)
    if news is None:
        return None
    context = {
        "game": game,
        "step": step_for(game.step_key),
        "attacker": game.attacker,
        "defender": game.defender,
        "in_progress": True,
        "panel": news.panel,
        "forms": {},
        "step_template": news.template,
        "subject": acted,
        "placed": news.placed,
        "rows": news.listed,
        "emptied": news.emptied,
        "list_oob": not acted,
        "marked": not acted,  # a poll's rows, each marked to be kept apart (shared_news.apart)
        "main": news.redrawn.get(acted) if acted else None,
        "others": [(name, news.redrawn.get(name)) for name in sorted(news.again - {acted})],
        "row_form": news.form,
        "result": last_result(later[-1]),
        "bar": news.bar,
        "rows_left": news.left,
        "rows_more": min(news.left, ROWS_SHOWN),
        "rows_after": news.kept,
        "role": getattr(request, "role", None),
        "moves_on": may_move_on(getattr(request, "role", None), game),
        "mine": yours,
        "last_letter": newest_letter(game),
        "parts_open": parts_open(request) if parts is None else parts,
    }
    answer = render(request, "games/parts/news.html", context)
    if not acted:
        return reswap(answer, "none")
    if news.placed or news.emptied:
        return retarget(reswap(answer, "outerHTML"), "#step-head" if news.placed else "#work-list")
    return answer


def live(
    request: HtmxHttpRequest,
    game: Game,
    event: Event | None = None,
    forms: dict[str, Any] | None = None,
    error: str = "",
    opened: tuple[str, ...] = (),
) -> HttpResponse:
    """The game page's live part (position, last result, step panel, step bar) as one fragment."""
    fresh = game_or_404(game.pk)
    return render(request, "games/game.html#live", context(request, fresh, event, forms, error, opened))


def invalid(
    request: HtmxHttpRequest, game: Game, bound: dict[str, Any], error: str = "", row: str | None = None
) -> HttpResponse:
    fresh = game_or_404(game.pk)
    if fresh.over:
        # the form's errors do not matter any more: the game it was for is over
        return stale(request, fresh, GAME_OVER)
    sent_from = row_target(request)
    if sent_from:
        return open_row(request, fresh, sent_from, bound)
    opened = (row,) if row else ()
    if request.htmx:
        return live(request, fresh, forms=bound, error=error, opened=opened)
    return render(request, "games/game.html", context(request, fresh, forms=bound, error=error, opened=opened))


def open_row(
    request: HtmxHttpRequest,
    game: Game,
    row: str,
    bound: dict[str, Any] | None = None,
    closed: bool = False,
    by_itself: bool = False,
) -> HttpResponse:
    """One of the step's rows with its form drawn (bound to a failed POST's data when there was one), or
    closed again; a row the step no longer has answers with the whole live part, saying so. ``by_itself``: opened
    as the player's next work (``views.page.next_work``), not by his tap: its form takes no focus."""
    found = _row_drawn(game, row, bound or {}, () if closed else (row,), own(request, game))
    if found is None:
        return stale(request, game, NO_ROW)
    found.by_itself = by_itself
    context = {"game": game, "row": found, "row_form": step_of(game).form, "mine": own(request, game)}
    return render(request, "games/parts/row.html", context)


NO_ROW = "That has been done already or is not part of this step: here is the step now."


def _row_drawn(
    game: Game, row: str, bound: dict[str, Any], opened: tuple[str, ...], yours: Mine | None = None
) -> Row | None:
    """The step's row of this subject, drawn (its form when ``opened`` and ``yours``); None when the step has no
    such row."""
    handler = step_of(game)
    if not game.in_progress or handler.rows is None or handler.opened is None:
        return None
    state = handler.state(game)
    found = next((r for r in work(game, state) if r.subject == row), None)
    return None if found is None else drawn(game, state, [found], bound, opened, yours)[0]


def open_part(request: HtmxHttpRequest, game: Game, part: str) -> HttpResponse:
    """A folded part of the step's panel drawn open, as a tap on its summary fetches it; one the step does not
    have (the game moved on to another step) answers with the whole live part, saying so."""
    handler = step_of(game)
    if not game.in_progress or part not in handler.parts:
        message = "That is not part of this step: here is the step now."
        return retarget(reswap(live(request, game, error=message), "outerHTML"), "#live")
    yours = own(request, game)
    if part not in yours:
        message = "That is the other side's to do at this step: here is the step now."
        return retarget(reswap(live(request, game, error=message), "outerHTML"), "#live")
    state = handler.state(game)
    context = {"game": game, "panel": handler.panel(state, {}), "parts_open": {part}, "mine": yours}
    return render(request, f"{handler.template}#{part}", context)


def open_fold(request: HtmxHttpRequest, game: Game, row: str, fold: str) -> HttpResponse:
    """A fold of an open row's form drawn open, as a tap on its summary fetches it (``steps.base.Step.folds``)."""
    handler = step_of(game)
    found = _row_drawn(game, row, {}, (row,), own(request, game)) if fold in handler.folds else None
    if found is None or found.opened is None:
        return retarget(reswap(live(request, game, error=NO_ROW), "outerHTML"), "#live")
    context = {"game": game, "row": found.opened, "subject": row, "folds_open": {fold}, "mine": own(request, game)}
    return render(request, f"{handler.form}#{fold}", context)


def stale(request: HtmxHttpRequest, game: Game, message: str) -> HttpResponse:
    division = division_answer(request, game, message)
    if division:
        return division
    if request.htmx and row_target(request):
        # sent from one row, but the answer is the whole live part: put it where the live part is
        return retarget(reswap(live(request, game, error=message), "outerHTML"), "#live")
    if request.htmx:
        return live(request, game, error=message)
    messages.error(request, message)
    return redirect("games:game", game_id=game.pk)


def client_redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def refused(
    request: HtmxHttpRequest, game: Game, exc: Unfilled | StaleGame | ActionRefused, row: str | None = None
) -> HttpResponse:
    """How every action that recorded nothing is answered: a stale version or a refusal shows the fresh state with
    its message, as does a form without its version; a form not filled in is drawn again with its errors (in the
    row it was sent from), or, drawn without a place for them, has them said as the page's message."""
    if isinstance(exc, StaleGame):
        return stale(request, exc.game, str(exc))
    if isinstance(exc, ActionRefused):
        return stale(request, game, str(exc))
    form = exc.form
    if "version" in form.errors:
        return stale(request, game, INCOMPLETE)
    if form.prefix is None:
        # a form drawn without a place for field errors: say them as the page's message
        problems = [
            f"{name.replace('_', ' ')}: {' '.join(map(str, errors))}"
            if name != "__all__"
            else " ".join(map(str, errors))
            for name, errors in form.errors.items()
        ]
        return stale(request, game, "Nothing was changed. " + "; ".join(problems))
    return invalid(request, game, {form.prefix: form}, row=row)


def form_action(
    request: HtmxHttpRequest, game: Game, form: forms.Form, act: Callable[[], Event], row: str | None = None
) -> HttpResponse:
    """Run ``act`` with a form filled in as it needs (``forms.filled``), and answer as every action does
    (``done``, or ``refused``)."""
    key = sends.send_key(request)
    if key is None:
        return sends.bad_key()
    first = sends.sent_before(game, key)
    if first is not None:
        return done(request, game, first)
    try:
        with acting_on(row or row_target(request)), sending(key), filled(form):
            event = act()
    except (Unfilled, StaleGame, ActionRefused, IntegrityError) as exc:
        # a send repeated applies once (views.sends): the same send arriving twice at once is answered as the first
        first = sends.sent_before(game, key)
        if first is not None:
            return done(request, game, first)
        if isinstance(exc, IntegrityError):
            raise
        return refused(request, game, exc, row)
    return done(request, game, event)


def versioned_action(request: HtmxHttpRequest, game: Game, run: Callable[[int, str], Event]) -> HttpResponse:
    """An action with nothing to fill in but the game version its page was drawn at."""
    form = VersionForm(request.POST)
    return form_action(request, game, form, lambda: run(form.cleaned_data["version"], actor_of(request)))
