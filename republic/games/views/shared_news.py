"""The news a poll brings, drawn once for every phone that asks for the same. At a club's table forty phones
poll the same game every few seconds; after an action each asks what changed since the version its screen shows.
Each player follows his own corps or division, so no two screens list the same rows, but the news is mostly the
same for all: the step's panel, the result and the step bar again, and no row of their screens, since the row
acted on is on few of them. The first phone's answer is kept and the others that ask the same are given it.

What a kept answer is for is its keys (``key_of``), and they hold everything the answer is drawn from. Each row
the news draws again is kept apart, for every screen of the side that shows it, and the rest under a key of:
- the game, its version (every event raises it), the newest message the device reads and the one its screen
  shows (``letter``);
- the device's role: the game master, or a seat's side (a seat's forms and the rows it may act on are its
  side's: ``access.Mine``), never another side's answer;
- of its screen: how many of the step's rows it shows and how many the step has (its "more" count); the panel's
  parts it has open; and where the step draws its rows in its panel, every row it shows, which are open, and the
  order it lists them in. Which rows are drawn again are those the events since it was drawn changed that it
  shows (a screen drawn a few row actions ago is answered as one drawn before them: ``news_of``); a screen with
  one of them open is answered alone. A row no screen of the side has shown yet at the version is drawn alone
  into the rest, when that is kept (``kept`` with the game in hand), and kept in its turn.
A device whose events since include anything but a row's action at this step or its undoing (another step), or
that a row would be added to, is answered alone, with the live part or its pieces as ``answers.redraw`` draws them.
An answer at a version is the same at every later moment: a kept one is never stale, only unused, and is
forgotten after a minute. The server's processes keep them in one store on the machine's disk (diskcache,
``CACHES["news"]``), so that a phone's answer drawn by one process serves the phones another one answers;
several hosts on one PostgreSQL each keep their own, right on its own, since none depends on another's. A game
is known in the key by when it was made too: a test's database and the club's, or a database made afresh, may
hold a game of the same id at the same version. Never kept is what belongs to one device: its messages (the
live part, drawn whole after Next step for every phone at once, is kept without them, and each device's own are
drawn into it as it is served: ``live_part``); the security token of its forms (kept blank, and each device
given its own as it is served); anything drawn for an action it took. The live part's list of rows, which lists
what the device follows first, is kept apart from the rest, under the same key and what it follows: the devices
of a side that follow different divisions share the rest. An answer not kept yet is drawn by the first request
that asks for it while the others wait for it (``claims``)."""

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.dateparse import parse_datetime
from django.utils.safestring import mark_safe
from django.utils.timezone import is_aware, make_aware

from republic.games.dispatches import dispatch_context
from republic.games.models import Event, Game
from republic.games.pieces import Piece
from republic.games.steps import step_of
from republic.games.views import answers
from republic.games.views.access import HtmxHttpRequest
from republic.games.views.claims import drawn_once
from republic.games.views.follow import FOLLOW_KEY, command_tree, following
from republic.games.views.page import ROWS_SHOWN, gained, listing, step_rows, work
from republic.games.views.page import drawn as drawn_rows

KEPT_SECONDS = 60
SHARED_SINCE = 4  # events: news_of
KEPT_HEADERS = ("Content-Type", "HX-Reswap", "HX-Retarget")
MASTER = "master"
TOKEN = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_ROWS = re.compile(rb"<!--rows-->(.*?)<!--/rows-->", re.S)
_ROW = re.compile(rb"<!--row (\S+)-->(.*?)<!--/row-->", re.S)
LETTERS = "<!--republic:letters-->"  # where a kept live part takes the asking device's own messages
ROWS_APART = "<!--republic:rows-->"  # where it takes the rows the device lists, what it follows first
_CHANGED = f"""
SELECT event.seq, event.subject, event.about, event.game_turn, event.player_turn, event.step,
  undone.subject, undone.game_turn, undone.player_turn, undone.step
FROM {Event._meta.db_table} event LEFT JOIN {Event._meta.db_table} undone ON undone.id = event.undoes_id
WHERE event.game_id = %s AND event.seq > %s ORDER BY event.seq LIMIT %s
"""


def side(side_id: int | None) -> str:
    return f"side {side_id}"


@dataclass(frozen=True)
class Seen:
    """A poll's question: the game at its version and step, its newest message for this device, what the
    device's screen shows (``since``, ``letter``), and who asks (``MASTER`` or a ``side``)."""

    game: int
    made: str  # when the game was made (``made``)
    version: int
    newest: int
    since: int
    letter: int
    who: str
    here: tuple[int, int, str]  # the game turn, player turn and step the game is at


@dataclass(frozen=True)
class Keys:
    """Where a poll's news is kept: all but its rows under ``base``, and each row it draws again apart, in the
    order the answer lists them, kept for every screen of its side that shows the row."""

    base: str
    rows: tuple[tuple[str, str], ...]  # a row's subject and its drawing's key


def key_of(request: HtmxHttpRequest, seen: Seen, changed: set[str] | None) -> Keys | None:
    """The keys of the news this device's screen is drawn (``changed``: the rows the events since then are about,
    as ``news_of`` reads them), None where it is drawn for it alone: a row it has open is among them."""
    changed = changed if seen.letter == seen.newest else None
    if changed is None:
        return None
    try:
        placed, listed = _listing(_step_key(seen), str(request.session.get(FOLLOW_KEY, {}).get(str(seen.game), "")))
    except LookupError:
        return None
    shown = set(request.headers.get(answers.SHOWN_HEADER, "").split())
    opened = set(request.headers.get(answers.OPEN_HEADER, "").split()) & shown
    if not placed and gained(listed, changed - shown, shown):
        return None
    again = set() if placed else changed & shown  # a step that places its rows in its panel draws them there
    if opened & again:
        return None
    place = (seen.game, seen.made, seen.version, seen.who, *seen.here)
    said = [
        # not ``since``, nor the rows drawn again: each is kept apart, and the rest is the same for every screen
        *map(str, (*place, seen.newest, seen.letter)),
        request.headers.get(answers.PARTS_HEADER, ""),
        str(sum(subject in shown for subject in listed)),
        str(len(listed)),
    ]
    if placed:
        said += [request.headers.get(answers.SHOWN_HEADER, ""), " ".join(sorted(opened)), " ".join(listed)]
    return Keys(
        _hashed("republic:news:", said),
        tuple((row, _hashed("republic:news-row:", [*map(str, place), row])) for row in sorted(again)),
    )


@lru_cache(maxsize=256)
def _listing(step_key: str, follow: str) -> tuple[bool, tuple[str, ...]]:
    """Whether the step kept under ``step_key`` (``remember_step``) draws its rows in its panel, and its rows in
    the order a device following ``follow`` lists them (``page.work``): the rows of what it follows first. A
    LookupError while the step is not kept. Kept in the process too: a step at a version never changes, and
    every poll of its phones asks it, where reading it from the store took a served poll given kept news a fifth of
    its processor."""
    step = caches["news"].get(step_key)
    if not isinstance(step, tuple):
        raise LookupError(step_key)
    placed, rows, tree = step
    commands = following(follow, lambda: tree).commands
    return placed, tuple(subject for subject, command in sorted(rows, key=lambda row: row[1] not in commands))


def forget_listings() -> None:
    """What this process kept of the steps' listings (``_listing``), forgotten with its other readings."""
    _listing.cache_clear()


def _hashed(kind: str, said: list[str]) -> str:
    return kind + hashlib.sha256("\n".join(said).encode()).hexdigest()


def news_of(seen: Seen) -> tuple[int, set[str] | None]:
    """The version a screen's news is drawn from, and the rows the events since then are about, or None, as
    ``answers.rows_told`` reads them for the pieces ``answers.redraw`` draws; one query written out, as the poll's
    glance is. The phones of a battle poll at different moments, each holding a version of the last few: a screen
    drawn at most ``SHARED_SINCE`` events ago, all of them a row's action at this step, is answered as one drawn
    before them all, the rows of each drawn again, so that the phones share one answer (a row drawn again as it
    stands is the row a reload shows)."""
    start = min(seen.since, seen.version - SHARED_SINCE)
    with connection.cursor() as cursor:
        cursor.execute(_CHANGED, [seen.game, start, answers.NEWS_MOST + 1])
        events = cursor.fetchall()
    if not events or len(events) > answers.NEWS_MOST:
        return seen.since, None
    game = Piece("game", seen.game).key
    later: list[tuple[int, answers.Told]] = []
    for seq, subject, about, game_turn, player_turn, step, undone, *undone_at in events:
        keys = json.loads(about) if isinstance(about, str) else about
        target = (undone, (undone_at[0], undone_at[1], undone_at[2])) if undone is not None else None
        later.append((seq, (subject, keys or [], (game_turn, player_turn, step), target)))
    # after an event that is not a row's action at this step, only a screen drawn since it shares the answer
    whole_at = [seq for seq, one in later if answers.rows_told([one], seen.here, game) is None]
    used = max([start, *whole_at])
    used = used if seen.since >= used else seen.since
    return used, answers.rows_told([one for seq, one in later if seq > used], seen.here, game)


def made(created: datetime | str) -> str:
    """When a game was made, in microseconds since 1970, as the ORM reads it or a query written out does."""
    moment = parse_datetime(created) if isinstance(created, str) else created
    if moment is None:
        return str(created)
    return str(round((moment if is_aware(moment) else make_aware(moment, UTC)).timestamp() * 1_000_000))


def _step_key(seen: Seen) -> str:
    return f"republic:news-step:{seen.game}:{seen.made}:{seen.version}"


def remember_step(game: Game, seen: Seen) -> None:
    """The step's rows with their commands, whether the step draws them in its panel, and the game's commands,
    kept for the version: what ``key_of`` reads to tell whether the news changes a screen's list."""
    key = _step_key(seen)
    handler = step_of(game)
    if handler.rows is None or handler.opened is None:
        return

    def read() -> object:
        state = handler.state(game)
        placed = bool(handler.panel(state, {}).get("rows_placed"))
        rows = [(row.subject, row.command) for row in step_rows(game, handler.rows, state)]  # type: ignore[arg-type]
        step = (placed, rows, command_tree(game))
        caches["news"].set(key, step, KEPT_SECONDS)
        return step

    drawn_once(key, lambda: caches["news"].get(key), read)


def kept(request: HtmxHttpRequest, keys: Keys, game: Game | None = None) -> HttpResponse | None:
    """The news kept for this screen, its rows put in their place and its forms given the device's own security
    token; None unless every part of it is kept, or with ``game`` (read for the whole poll) all but rows no screen
    of its side has shown at this version yet: those are drawn alone (``rows_again``) and kept."""
    found = caches["news"].get_many([keys.base, *(key for _, key in keys.rows)])
    base = found.get(keys.base)
    missing = {row: key for row, key in keys.rows if not isinstance(found.get(key), bytes)}
    if not isinstance(base, tuple) or (missing and game is None):
        return None
    if missing and game is not None:
        drawn = {missing[row]: _blank(content) for row, content in rows_again(request, game, set(missing)).items()}
        caches["news"].set_many(drawn, KEPT_SECONDS)
        found.update(drawn)
    rows = [found[key] for _, key in keys.rows]
    (before, after), headers = base
    answer = HttpResponse(_tokened(request, before + b"".join(rows) + after))
    for name, value in headers:
        answer[name] = value
    return answer


def rows_again(request: HtmxHttpRequest, game: Game, subjects: set[str]) -> dict[str, bytes]:
    """The step's rows of these subjects drawn again, closed, as a poll's news draws each (games/parts/news.html):
    a row the step no longer has is taken off the screen."""
    handler = step_of(game)
    state = handler.state(game)
    found = [row for row in work(game, state) if row.subject in subjects]
    yours = answers.own(request, game)
    drawn = {row.subject: row for row in drawn_rows(game, state, found, {}, (), yours)}
    return {
        subject: render_to_string(
            "games/parts/row.html" if subject in drawn else "games/parts/row.html#gone",
            {"game": game, "row": drawn.get(subject), "name": subject, "oob": True, "mine": yours},
            request,
        ).encode()
        for subject in subjects
    }


def apart(answer: HttpResponse, keys: Keys | None) -> HttpResponse:
    """A poll's answer as the device is given it, without the marks that part its rows (``answers.redraw`` draws
    them for a poll); when it is the step's pieces, answered with nothing swapped in place, each part kept under
    its key (``keys``) for the screens that ask the same."""
    slot = _ROWS.search(answer.content)
    if slot is None:
        return answer
    before, after = answer.content[: slot.start()], answer.content[slot.end() :]
    rows = dict(_ROW.findall(slot[1]))
    answer.content = before + b"".join(rows.values()) + after
    if keys is None or answer.status_code != 200 or answer.get("HX-Reswap") != "none":
        return answer
    if [row.encode() for row, _ in keys.rows] != list(rows):
        return answer  # drawn from other rows than the key says (a row gained since): for this device alone
    headers = tuple((name, answer[name]) for name in KEPT_HEADERS if name in answer)
    parts: dict[str, object] = {keys.base: ((_blank(before), _blank(after)), headers)}
    parts.update({key: _blank(rows[row.encode()]) for row, key in keys.rows})
    caches["news"].set_many(parts, KEPT_SECONDS)
    return answer


def _bytes(found: object) -> bytes | None:
    return found if isinstance(found, bytes) else None


def _blank(content: bytes) -> bytes:
    return TOKEN.sub(rb"\1\2", content)


def _tokened(request: HtmxHttpRequest, content: bytes) -> bytes:
    """A kept answer's forms given the asking device's own security token."""
    token = get_token(request).encode()
    return TOKEN.sub(lambda blank: blank[1] + token + blank[2], content)


def whole(seen: Seen, changed: set[str] | None) -> bool:
    """Whether this device's news is the live part whole (``answers.redraw``): a message since its screen was
    drawn, or events since then that are not all a row's action at this step or its undoing (``news_of``)."""
    return seen.letter != seen.newest or changed is None


def live_part(request: HtmxHttpRequest, game: Game, seen: Seen) -> HttpResponse | None:
    """The live part as ``answers.redraw`` draws it whole for this device, shared with the devices that ask the
    same: all but its messages, drawn for the device alone into the kept part; None where the whole answer is
    drawn for it alone (a fold opened without scripts, a game with no event yet). After Next step every phone of
    a battle asks for it at once."""
    latest = Event.objects.filter(game=game).select_related("undoes").order_by("-seq").first()
    if latest is None or request.GET.getlist("fold"):
        return None
    role = request.role
    letters = dispatch_context(role.master, role.seat, game)
    last_letter = letters.get("last_letter", 0)
    shown = answers.shown_subjects(request)
    opened = tuple(sorted(set(request.headers.get(answers.OPEN_HEADER, "").split()) & shown))
    count = max(ROWS_SHOWN, len(shown))
    said = [
        *map(str, (seen.game, seen.made, seen.version, seen.newest, seen.who, *seen.here, last_letter, count)),
        " ".join(sorted(answers.parts_open(request))),
        " ".join(opened),
    ]
    follow = str(request.session.get(FOLLOW_KEY, {}).get(str(seen.game), ""))
    handler = step_of(game)
    step = caches["news"].get(_step_key(seen))
    placed = step[0] if isinstance(step, tuple) else handler.rows is not None
    # the step's rows list what the device follows first: they are kept apart, and the rest is the same for every
    # device of the side, whatever it follows, unless the step draws its rows in its panel
    key = _hashed("republic:news-live:", [*said, follow] if placed else said)
    rows_key = _hashed("republic:news-live-rows:", [*said, follow])

    def draw() -> bytes:
        marked = {"last_letter": last_letter, "letters_apart": mark_safe(LETTERS)}
        drawn = answers.context(request, game, latest, opened=opened, shown=count, letters=marked)
        if not placed:
            listed = _blank(render_to_string("games/parts/rows.html", drawn, request).encode())
            caches["news"].set(rows_key, listed, KEPT_SECONDS)
            drawn["rows_apart"] = mark_safe(ROWS_APART)
        part = _blank(render(request, "games/game.html#live", drawn).content)
        caches["news"].set(key, part, KEPT_SECONDS)
        return part

    def rows_alone() -> bytes:
        state = handler.state(game)
        tree = step[2] if isinstance(step, tuple) else None
        follows = following(follow, lambda: tree if tree is not None else command_tree(game))
        _, listed = listing(game, state, follows, {}, count, opened, answers.own(request, game))
        context = {"game": game, "panel": handler.panel(state, {}), "row_form": handler.form, **listed}
        drawn = _blank(render_to_string("games/parts/rows.html", context, request).encode())
        caches["news"].set(rows_key, drawn, KEPT_SECONDS)
        return drawn

    found = drawn_once(key, lambda: _bytes(caches["news"].get(key)), draw)
    if ROWS_APART.encode() in found:
        rows = drawn_once(rows_key, lambda: _bytes(caches["news"].get(rows_key)), rows_alone)
        found = found.replace(ROWS_APART.encode(), rows, 1)
    own = render_to_string("games/parts/dispatches.html", {"game": game, "role": role, **letters}, request)
    return HttpResponse(_tokened(request, found).replace(LETTERS.encode(), own.encode()))
