"""A step's state read once per game version.

Inside ``readings()`` (one request) the page, the form an action checks, the action and the rows of its answer
share one reading. An action forgets what was read when it ends (``forget``), done or refused: what it changed,
or began to change and rolled back, is not what was read.

A request that only reads (``readings(shared=True)``: a page, a poll, a row opened) may also take a reading
another request made of the same game at the same version, in this server process. On a club day forty phones
poll one game and each new event is news to all of them: the step's state is read once per version, not forty
times. This holds because every change of a game in play is an event that bumps its version; a game still
being set up (version 0, no event yet) may be changed in the admin without one, so its readings are never
shared. What such a request reads it must not change: actions read their own, inside their transaction.

A reading of a game's rows alone (``read_once_of(Unit)``: what its units stand at, never its events or its step)
outlives an action that wrote none of those rows: the action's answer takes it at the new version instead of
reading every unit of the battle again. Leaving a panic step, or naming a division's neighbours, writes no unit,
and a 1,000-unit battle's division panic read its units three times in one Next step.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, TypeVar

from django.db.models import Model

from republic.games.models import Game

S = TypeVar("S")
# readings kept for other requests: the newest of each game in play (a club day runs a few games at once, and a
# game's older versions are read only by requests already under way); a 400-unit move step's is about 2 MB
SHARED_KEPT = 24
_READ: ContextVar[dict[tuple[Any, ...], Any] | None] = ContextVar("republic_read", default=None)
_SHARING: ContextVar[bool] = ContextVar("republic_read_shared", default=False)
_SHARED: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_SHARED_LOCK = threading.Lock()
_ROWS_OF: dict[Callable[..., Any], frozenset[type[Model]]] = {}  # each reading of rows alone: the models it reads


@contextmanager
def readings(shared: bool = False) -> Iterator[None]:
    """The span (one request) in which each state is read once per game version; ``shared``: a request that
    changes nothing, which may take and leave readings for others."""
    token, sharing = _READ.set({}), _SHARING.set(shared)
    try:
        yield
    finally:
        _SHARING.reset(sharing)
        _READ.reset(token)


def read_once(read: Callable[[Game], S]) -> Callable[[Game], S]:
    """A step's state, read once per game version inside ``readings()``. Outside ``readings()`` every call
    reads."""

    @wraps(read)
    def reading(game: Game) -> S:
        read_already = _READ.get()
        if read_already is None:
            return read(game)
        key = (read, game.pk, game.version)
        if key not in read_already:
            if _SHARING.get() and game.version > 0:
                read_already[key] = _shared(read, game)
            else:
                read_already[key] = read(game)
        found: S = read_already[key]
        return found

    return reading


def read_once_of(*models: type[Model]) -> Callable[[Callable[[Game], S]], Callable[[Game], S]]:
    """``read_once`` for a reading of the game's rows of ``models`` alone, which no action that writes none of
    them changes (``carried``). What it returns is never changed by those who read it."""

    def decorate(read: Callable[[Game], S]) -> Callable[[Game], S]:
        _ROWS_OF[read] = frozenset(models)
        return read_once(read)

    return decorate


def _shared(read: Callable[[Game], S], game: Game) -> S:
    # the game's creation time tells apart two games that came to have the same id (a database made afresh)
    key = (read, game.pk, game.created, game.version)
    with _SHARED_LOCK:
        if key in _SHARED:
            _SHARED.move_to_end(key)
            found: S = _SHARED[key]
            return found
    # read outside the lock: two requests may both read a version new to both, and either reading will do
    made = read(game)
    with _SHARED_LOCK:
        _SHARED[key] = made
        while len(_SHARED) > SHARED_KEPT:
            _SHARED.popitem(last=False)
    return made


def acting() -> None:
    """An action begins: the request changes the game, so from here on it reads its own state, never one it
    shares with others (it may change the units it reads)."""
    if _SHARING.get():
        _SHARING.set(False)
        forget()


def forget() -> None:
    """An action has ended: what it changed (or began to change and rolled back) is not what was read."""
    read_already = _READ.get()
    if read_already is not None:
        read_already.clear()


def carried(game_id: int, before: int, after: int, written: set[type[Model]]) -> None:
    """An action took the game from version ``before`` to ``after``, writing rows of ``written`` alone: the
    readings of other rows made at ``before`` are readings at ``after`` too, and every other reading is
    forgotten."""
    read_already = _READ.get()
    if read_already is None:
        return
    kept = {
        (read, game_id, after): made
        for (read, pk, version), made in read_already.items()
        if pk == game_id and version == before and read in _ROWS_OF and not _ROWS_OF[read] & written
    }
    read_already.clear()
    read_already.update(kept)


def forget_shared() -> None:
    """Every reading kept for other requests: for a database changed outside events (tests setting a scene)."""
    with _SHARED_LOCK:
        _SHARED.clear()
