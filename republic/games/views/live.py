"""Live tables: the game page asks every few seconds whether its game moved on (``#poll`` in the step bar).
Nothing changed: 204 and no body, for two queries (the seat, or the game master's account, and the game's
version; the session is a signed cookie). It changed within the step the page shows: only the step rows the
new events are about that the page shows (or their removal, once their work is done), the latest result and
the step bar, out of band. Anything else (another step, an undo, a message, a row the page must add in its
place): the live part as it stands, with the rows the page has open still open. The phone keeps any form a
player is typing into and says the game moved on (static/js/live.js).

Polling, not server-sent events: a phone on a club's flaky Wi-Fi that drops a request simply asks again three
seconds later, and the server keeps no connection open per phone."""

from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django_htmx.http import reswap

from republic.games.dispatches import readable
from republic.games.ledger import about
from republic.games.models import Event, Game
from republic.games.steps import step_of
from republic.games.text.describe import result_card
from republic.games.views import answers, query
from republic.games.views.access import Who, allowed
from republic.games.views.answers import HtmxHttpRequest
from republic.games.views.follow import followed
from republic.games.views.page import ROWS_SHOWN, drawn, step_bar, work
from republic.rules.sequence import step_for

OPEN_HEADER = "Rows-Open"  # the step rows a phone has open, as its script lists them (static/js/republic.js)
NEWS_MOST = 20  # events since the page was drawn that a poll redraws row by row; after more, the live part


@allowed(Who.SEATED)
def poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``since``: the game's version the page was drawn at; ``letter``: the newest dispatch it shows."""
    seat = request.role.seat  # type: ignore[attr-defined]
    # the game whole in the one query that tells whether anything is new: the row is read either way
    newest = Max("dispatches__pk", filter=readable(seat))
    game = answers.games().filter(pk=game_id).annotate(letter=newest).first()
    if game is None:
        raise Http404("No such game.")
    since, letter = query.optional_whole(request.GET, "since"), query.optional_whole(request.GET, "letter")
    newest_letter = game.letter or 0
    if (since, letter) == (game.version, newest_letter):
        return HttpResponse(status=204)
    recent = Event.objects.filter(game=game).select_related("undoes").order_by("-seq")
    later = list(recent.filter(seq__gt=since)[: NEWS_MOST + 1])[::-1] if since is not None else []
    shown = answers.shown_subjects(request)
    opened = set(request.headers.get(OPEN_HEADER, "").split()) & shown
    if later and len(later) <= NEWS_MOST and letter == newest_letter:
        news = _news(request, game, later, shown, opened, newest_letter)
        if news is not None:
            return news
    latest = later[-1] if later else recent.first()
    context = answers.context(request, game, latest, opened=tuple(opened), shown=max(ROWS_SHOWN, len(shown)))
    return render(request, "games/game.html#live", context)


def _news(
    request: HtmxHttpRequest, game: Game, later: list[Event], shown: set[str], opened: set[str], letter: int
) -> HttpResponse | None:
    """What the events since the page was drawn changed on it, when they all happened at its step's rows and
    the page can show it in place; None when only the live part will do."""
    handler = step_of(game)
    if not game.in_progress or handler.rows is None or handler.opened is None:
        return None
    here, subjects = (game.game_turn, game.player_turn, game.step), set()
    for event in later:
        theirs = about(event.subject, event.changes, event.payload)
        if not event.subject or event.undoes_id is not None or (event.game_turn, event.player_turn, event.step) != here:
            return None
        subjects |= theirs
    state = handler.state(game)
    panel = handler.panel(state, {})
    rows = work(game, state, followed(request, game))
    places = {row.subject: place for place, row in enumerate(rows)}
    last_shown = max((places[s] for s in shown if s in places), default=-1)
    added = [places[s] for s in subjects - shown if s in places]
    # a row the step gained goes in its place among the rows shown: only the whole list puts it there
    out_of_place = any(place < last_shown for place in added) or (added and len(shown) < ROWS_SHOWN)
    if panel.get("rows_placed") or not rows or out_of_place:
        return None
    redrawn = {r.subject: r for r in drawn(game, state, [r for r in rows if r.subject in subjects & shown], {}, opened)}
    context = {
        "game": game,
        "step": step_for(game.step_key),
        "attacker": game.attacker,
        "defender": game.defender,
        "in_progress": True,
        "panel": panel,
        "forms": {},
        "step_template": handler.template,
        "others": [(name, redrawn.get(name)) for name in sorted(subjects & shown)],
        "row_form": handler.form,
        "result": result_card(later[-1]),
        "bar": step_bar(game, handler.pending(state)),
        "role": request.role,  # type: ignore[attr-defined]
        "last_letter": letter,
    }
    return reswap(render(request, "games/parts/news.html", context), "none")
