"""The game page: where the game stands, the last result, the step's work and the way on.

The order of battle and the turn log have pages of their own: the game page grows with the step's work,
never with the battle."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.urls import reverse

from republic.games.models import Event, Game
from republic.games.models.charts import loaded
from republic.games.steps import first_attacker, game_over, step_of
from republic.games.steps.base import Bound, Row
from republic.games.steps.walk import not_in_play
from republic.games.text.describe import last_result
from republic.games.views.access import Mine
from republic.games.views.follow import EVERYTHING, Followed
from republic.rules.results import Provenance
from republic.rules.sequence import STEPS, Phase, step_for

PENDING_SHOWN = 4  # the step bar names the first few things left; the rows below show them all
ROWS_SHOWN = 40  # rows a page draws at first, the followed command's first; "Show more" draws the next ones


def work(game: Game, state: Any, follow: Followed = EVERYTHING) -> list[Row]:
    """The step's rows in the order a device sees them, the rows of what it follows first; not drawn yet
    (``drawn``), so that a step may read what a row shows for the rows a request draws alone. The rows are shared
    by every request that reads this state: ``drawn`` fills in copies."""
    handler = step_of(game)
    if handler.rows is None or handler.opened is None:
        return []
    rows = step_rows(game, handler.rows, state)
    if follow.commands:
        rows.sort(key=lambda row: row.command not in follow.commands)
        at = next((i for i, row in enumerate(rows) if row.command not in follow.commands), 0)
        if at:
            rows[at] = _copy(rows[at])
            rows[at].others = True
    return rows


def step_rows(game: Game, listed: Callable[[Any], list[Row]], state: Any) -> list[Row]:
    """The step's rows of this state, each with where a tap fetches it, listed once for every request that shares
    the state (a state read once per game version in a server process, ``readings``): at 400 units, listing a
    move step's rows took a request longer than drawing the forty it shows. Listed again for a state whose game
    moved on in hand (an action's, whose own state it may change)."""
    version = getattr(getattr(state, "game", None), "version", None)
    kept = state.__dict__.get(_LISTED)
    if kept is None or kept[0] != version or version is None:
        rows = listed(state)
        # one reverse() for all rows: at 200 rows, one each is a tenth of the page's time
        address = reverse("games:row", args=[game.pk, "ROW"])
        for row in rows:
            row.address = address.replace("ROW", row.subject)
        kept = (version, rows)
        state.__dict__[_LISTED] = kept
    return list(kept[1])


_LISTED = "_republic_rows"


def _copy(row: Row) -> Row:
    made = object.__new__(Row)
    made.__dict__.update(row.__dict__)
    return made


def drawn(
    game: Game, state: Any, rows: list[Row], bound: Bound, opened: Iterable[str] = (), own: Mine | None = None
) -> list[Row]:
    """These rows as a request draws them, in their places in ``rows``: filled in, and those named in ``opened`` with
    their forms; a row the device may not act on (``own``: what it may do; None, everything) says who acts, and
    never draws its form."""
    handler = step_of(game)
    # what a row shows is the state's, filled in on the shared row once for every request that draws it
    unfilled = [row for row in rows if not row.filled]
    if unfilled and handler.fill is not None:
        handler.fill(state, unfilled)
    for row in unfilled:
        row.filled = True
    rows[:] = [_copy(row) for row in rows]  # the listed rows are shared (``work``): these are this request's
    wanted = set(opened)
    for row in rows:
        if own is not None and not own.row(handler.actions, row):
            row.theirs = own.whose(row)
        elif row.subject in wanted and handler.opened is not None:
            row.opened = handler.opened(state, row, bound)
    return rows


def next_work(game: Game, rows: Iterable[Row], own: Mine | None, after: str = "", order: Sequence[str] = ()) -> str:
    """The first of these rows a seated player may act on that still asks for the step's main work (``Row.due``):
    his phone draws it open by itself, so that his next die is one tap; '' for none, and on the game master's
    device, which follows the game rather than plays it. After an action on the row ``after``, the first such row
    below it, as a table goes down its list (``order``: the rows as the phone lists them, the row acted on among
    them though it may be gone now), then from the top."""
    if own is None or not own.seated:
        return ""
    actions, rows = step_of(game).actions, list(rows)
    found = [row for row in rows if row.due and own.row(actions, row)]
    place = {subject: i for i, subject in enumerate(order or [row.subject for row in rows])}
    at = place.get(after, -1)
    found.sort(key=lambda row: place.get(row.subject, at) <= at)  # stable: those below it first, in their order
    return found[0].subject if found else ""


def by_itself(rows: Iterable[Row], subject: str, opened: Iterable[str]) -> None:
    """Marks the row opened as the next work rather than by a tap: drawn open, its form takes no focus; drawn
    closed, the phone fetches it open (``templatetags.work_rows``)."""
    if subject in set(opened):
        return
    for row in rows:
        if row.subject == subject:
            row.by_itself = True


def first_rows(rows: list[Row], shown: int = ROWS_SHOWN, opened: Iterable[str] = ()) -> tuple[list[Row], int]:
    """The first ``shown`` rows (and any open row further down), and how many are left after them."""
    wanted = set(opened)
    count = max(shown, max((i + 1 for i, row in enumerate(rows) if row.subject in wanted), default=0))
    return rows[:count], max(0, len(rows) - count)


@dataclass
class StepNews:
    """What the news of a step's rows redraws on a phone (``answers.redraw``): its panel, and either its rows
    listed again in the panel (a step whose rows are placed in it) or the rows redrawn one by one (``again``: the
    rows to redraw; one not in ``redrawn`` has no work left), with the counts of the list and the step bar."""

    template: str
    form: str
    panel: dict[str, Any]
    placed: bool
    listed: list[Row]
    redrawn: dict[str, Row]
    again: set[str]
    left: int
    kept: int
    emptied: bool  # the step's work is done: the list says so in place of its rows
    bar: dict[str, Any]


def step_news(
    game: Game,
    follow: Followed,
    subjects: set[str],
    shown: set[str],
    opened: set[str],
    acted: str | None,
    own: Mine | None = None,
    order: Sequence[str] = (),
) -> StepNews | None:
    """The step drawn again for the news of ``subjects`` (the rows the events since a phone's screen was drawn
    are about), read once; None when only the live part will do: a step without rows, or a row the step gained,
    which only the whole list puts in its place (a step whose rows are placed in its panel draws them all)."""
    handler = step_of(game)
    if not game.in_progress or handler.rows is None or handler.opened is None:
        return None
    state = handler.state(game)
    panel = handler.panel(state, {})
    rows = work(game, state, follow)
    placed = bool(panel.get("rows_placed"))
    if not placed and gained([row.subject for row in rows], subjects - shown, shown):
        return None
    keep_open = opened | ({acted} if acted else set())
    # the answer to a player's own action, once it leaves the row no work due, opens his next work down the list:
    # the row's head comes, and his phone fetches its form (held to few bytes, the answer to a die)
    ready = ""
    if acted and not any(row.subject == acted and row.due for row in rows):
        ready = next_work(game, (row for row in rows if row.subject in shown), own, acted, order)
    if placed:
        # the rows are drawn in the step's panel, which comes again whole with them
        listed, left = first_rows(rows, max(ROWS_SHOWN, len(shown)), keep_open)
        drawn(game, state, listed, {}, keep_open, own)
        by_itself(listed, ready, opened | {acted or ""})
        again, redrawn, kept = set(), {}, len(listed)
    else:
        # the acting phone's open rows come again too, at the game's new version: its screen is then a reload's
        again = (subjects & shown) | (keep_open if acted else set()) | ({ready} - {""})
        redrawn = {
            r.subject: r for r in drawn(game, state, [r for r in rows if r.subject in again], {}, keep_open, own)
        }
        by_itself(redrawn.values(), ready, opened | {acted or ""})
        listed, kept = [], sum(row.subject in shown for row in rows)
        left = len(rows) - kept
    pending = handler.pending(state)
    todo = step_bar(game, pending, seat_work(game, rows, own, pending))
    emptied = not rows and not placed
    return StepNews(handler.template, handler.form, panel, placed, listed, redrawn, again, left, kept, emptied, todo)


def gained(listed: Sequence[str], unshown: set[str], shown: set[str]) -> bool:
    """Whether news about rows a phone does not show brings one onto its screen, which only the whole list puts in
    its place (``listed``: the step's rows in the order the phone lists them). A row listed below a full screen of
    rows is off it (its screen's "more" count says it), as the other side's rows are at 400 units, listed after
    the phone's own."""
    places = [i for i, subject in enumerate(listed) if subject in unshown]
    if not places:
        return False
    on_screen = [i for i, subject in enumerate(listed) if subject in shown]
    return len(on_screen) < ROWS_SHOWN or min(places) < max(on_screen)


def step_bar(game: Game, todo: list[str], yours: int = 0) -> dict[str, Any]:
    """What the step bar says is left; ``yours``: how much of it is this seat's, which his phone tells him of."""
    pending = todo[:PENDING_SHOWN]
    return {"pending": pending, "more": max(0, len(todo) - PENDING_SHOWN), "count": len(todo), "yours": yours}


def seat_work(game: Game, rows: Iterable[Row], own: Mine | None, todo: Sequence[str]) -> int:
    """How much of the step's work waits on this seat: the rows due that he may act on (all the step's rows, not
    only those drawn) or, in a step without rows, what is left when his side acts in it; 0 on the game master's
    device, which follows the game rather than plays it."""
    if own is None or not own.seated or own.role is None:
        return 0
    handler = step_of(game)
    if handler.rows is not None:
        return sum(1 for row in rows if row.due and own.row(handler.actions, row))
    acting = game.acting_side
    return len(todo) if acting is None or acting.pk == own.role.side_id else 0


def page_context(
    game: Game,
    actor: str,
    event: Event | None = None,
    forms: Bound | None = None,
    error: str = "",
    opened: Iterable[str] = (),
    follow: Followed = EVERYTHING,
    shown: int = ROWS_SHOWN,
    own: Mine | None = None,
    fetched: bool = False,
) -> dict[str, Any]:
    """The game page's context. ``fetched``: the player's next work is fetched by his phone rather than drawn
    open, in an answer to his action (held to few bytes)."""
    forms = forms or {}
    step = step_for(game.step_key)
    in_progress = game.in_progress
    listed = _listed([], 0, follow)
    row_form, yours = "", 0
    if in_progress:
        handler = step_of(game)
        state = handler.state(game)
        todo, template, panel = handler.pending(state), handler.template, handler.panel(state, forms)
        every, listed = listing(game, state, follow, forms, shown, opened, own, fetched)
        yours = seat_work(game, every, own, todo)
        row_form = handler.form
    elif game.over:
        todo, template, panel = not_in_play(game), "games/steps/game_over.html", game_over.panel(game)
    else:
        todo, template = not_in_play(game), "games/steps/first_attacker.html"
        panel = first_attacker.panel(first_attacker.state(game), forms)
    return {
        "game": game,
        "step": step,
        "phases": [
            {"phase": p, "current": p == step.phase, "steps": [s for s in STEPS if s.phase == p]} for p in Phase
        ],
        "attacker": game.attacker,
        "defender": game.defender,
        "in_progress": in_progress,
        "bar": step_bar(game, todo, yours),
        "step_template": template,
        "panel": panel,
        **listed,
        "row_form": row_form,
        "result": last_result(event),
        "chart_provisional": has_provisional_cells(game.chart_checksum, game.chart_version),
        "actor": actor,
        "error": error,
        "forms": forms,
    }


def listing(
    game: Game,
    state: Any,
    follow: Followed,
    forms: Bound,
    shown: int = ROWS_SHOWN,
    opened: Iterable[str] = (),
    own: Mine | None = None,
    fetched: bool = False,
) -> tuple[list[Row], dict[str, Any]]:
    """Every row of the step, in the order the device lists them, and the context of its list
    (games/parts/rows.html): the first ``shown`` drawn, with the player's next work open unless it is ``fetched``."""
    every = work(game, state, follow)
    rows, left = first_rows(every, shown, opened)
    ready = next_work(game, rows, own)
    drawn(game, state, rows, forms, (*opened, ready) if ready and not fetched else opened, own)
    by_itself(rows, ready, opened)
    return every, _listed(rows, left, follow)


def _listed(rows: list[Row], left: int, follow: Followed) -> dict[str, Any]:
    return {
        "rows": rows,
        "rows_left": left,
        "rows_more": min(left, ROWS_SHOWN),
        "rows_after": len(rows),
        "following": follow.name,
    }


@cache
def has_provisional_cells(checksum: str, file_name: str) -> bool:
    """Whether a game's chart still has cells to check against a printed one: the header says so once per game, so
    that each result needs only a quiet mark on the cell it used."""
    tables = loaded(checksum, file_name)[0].tables.values()
    cells = [cell for table in tables for cell in (*table.cells.values(), *(band.cell for band in table.bands))]
    return any(cell.provenance is Provenance.PROVISIONAL for cell in cells)
