"""Events are the truth: every change of a game's state is made inside an action that records one Event
holding its typed payload and the exact before and after of every field it touched.

- ``act(game, version, actor, step=...)`` opens an action: it takes the game's write lock, refuses a step the
  game is not at, gathers the changes and, on ``record``, refuses a stale form (``moved_on``), saves the
  changed rows and appends the event, all in one transaction. ``Action.apply`` is the one writer of a unit's
  state: it writes the engine's unit after a rule onto its row.
- ``undo_last`` and ``undo_to`` take events back by recording undo events with the inverse changes.
- ``replay`` rebuilds the state from the setup snapshot plus every event's changes; tests hold it against
  the rows to prove that the state equals the setup plus the events.

- A step's state is read once per game version (``readings.read_once``). Every change bumps the version, and
  every action forgets what was read when it ends, so a reading is never used beyond the version it was made
  at, nor after an action that failed part-way.

A form is stale when what it is about moved on since it was drawn, not when anything did: forty players enter
dice for their own brigades at once, and one player's die must not send back another's form about another
brigade. An event is about its row (``acting_on``: the step row the form was sent from), the rows it changed
and the units its payload names, and an undo about what the event it takes back was about; a later action conflicts
with it when they share any of these. An action sent from no row (Next step, an undo) is stale after any event;
after an event that changed the game itself (its step, its turn) or one about nothing, every earlier form is.

Two submissions of one form at once: the second waits for the first's transaction (a row lock on
PostgreSQL; on SQLite every write transaction begins immediately, see settings) and then meets what the first
changed, so it is refused with the fresh state instead of failing or applying twice.
"""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import fields
from enum import Enum
from typing import Any

from django.db import models, transaction
from django.db.models import F

from republic.games.events.game import EventUndone
from republic.games.events.payload import Payload, kind_of, results, stored
from republic.games.models import Command, Event, Game, Leader, Objective, Side, Unit, keep_setup, setup_of
from republic.games.models.charts import loaded
from republic.games.pieces import Piece, keys_in
from republic.games.readings import acting, carried, forget
from republic.games.row_writes import write_rows
from republic.prepared import prepared
from republic.rules.sequence import StepKey
from republic.rules.units import UnitState

TRACKED: dict[str, type[models.Model]] = {
    "game": Game,
    "side": Side,
    "command": Command,
    "leader": Leader,
    "unit": Unit,
    "objective": Objective,
}
_KEY = {model: key for key, model in TRACKED.items()}
# the join code says who may take a seat, not how the battle stands: the game master changes it outside events;
# the chart's name and checksum are fixed when the game is made, and each event records the checksum it read; when
# a game was loaded from a file is this server's, like when it was made; the day's last turn and end time are the
# club's timetable, which the game master sets outside the battle's events
_UNTRACKED = {
    "id",
    "game_id",
    "version",
    "join_code",
    "created",
    "updated",
    "loaded_at",
    "last_turn",
    "day_ends",
    "chart_name",
    "chart_checksum",
}
# the kind changes when cavalry mounts or dismounts (3.5); the grade is the unit's for the whole battle
_UNIT_STATE = [f.name for f in fields(UnitState) if f.name not in ("id", "grade")]
_SIDE: ContextVar[int | None] = ContextVar("republic_side", default=None)
_SUBJECT: ContextVar[str] = ContextVar("republic_subject", default="")
_SENT: ContextVar[str] = ContextVar("republic_sent", default="")


class StaleGame(Exception):
    """The form was drawn for an earlier state of the game."""

    def __init__(self, game: Game):
        self.game = game
        super().__init__(
            "The game moved on since this page was drawn: nothing was changed. Here is the game as it stands now."
        )


class ActionRefused(Exception):
    """The table asked for something the state does not allow; the message says why."""


class NothingToUndo(ActionRefused):
    pass


GAME_OVER = "The game is over: nothing was changed. Only the game master can take its end back, with Undo."


def standing(game: Game) -> "models.QuerySet[Event]":
    """The game's events still in force: not undone, and not undo events themselves."""
    return game.events.filter(undone_by__isnull=True, undoes__isnull=True)


def this_turn(
    game: int, game_turn: int, player_turn: int, steps: tuple[str, ...], kinds: tuple[str, ...] = ()
) -> "models.QuerySet[Event]":
    """That player turn's events still in force, in these steps and (if given) of these kinds, in order."""
    events = Event.objects.filter(game=game, undone_by__isnull=True, undoes__isnull=True).filter(
        game_turn=game_turn, player_turn=player_turn, step__in=steps
    )
    # in order of seq, but sorted after the search (seq + 0): ordered by seq itself, SQLite walks the game's
    # whole history by its (game, seq) key instead of finding the turn's few events by the turn's index
    return (events.filter(kind__in=kinds) if kinds else events).order_by((F("seq") + 0).asc())


_THIS_TURN = prepared(this_turn)


def turn_events(game: Game, steps: Iterable[StepKey | str], kinds: Iterable[type[Payload]] = ()) -> list[Event]:
    """The game's player turn's events (``this_turn``), read: every step's state reads them at every version, so
    their SQL is made once per process for each step's steps and kinds (``republic.prepared``)."""
    names = tuple(kind.__name__ for kind in kinds)
    return _THIS_TURN(game.pk, game.game_turn, game.player_turn, tuple(str(step) for step in steps), names)


def tracked_fields(model: type[models.Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if f.attname not in _UNTRACKED]


def as_stored(value: Any) -> Any:
    """A value of the engine as a row keeps it: "no value" as blank text, an enum as its value, a tuple as a list."""
    return "" if value is None else _plain(value)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class Action:
    """The changes of one event, gathered before it is recorded."""

    def __init__(self, game: Game, actor: str):
        self.game = game
        self.actor = actor
        self.changes: list[dict[str, Any]] = []
        self._change_of: dict[tuple[str, int, str], dict[str, Any]] = {}  # each change by its field, found at once
        self._dirty: dict[tuple[str, int], tuple[models.Model, set[str]]] = {}
        self.event: Event | None = None
        self.entered: set[type[models.Model]] = set()  # the models of rows entered into the setup (``enter``)
        self._setup_added: dict[str, dict[str, Any]] = {}  # those rows as the setup keeps them, by key
        self.later: list[set[str] | None] | None = None  # the events since the form was drawn (``later_events``)
        # events are stamped with where the game stood when the action began
        self.position = (game.game_turn, game.player_turn, game.step)

    @property
    def written(self) -> set[type[models.Model]]:
        """The models whose rows the action changed, or entered."""
        return {type(obj) for obj, _ in self._dirty.values()} | self.entered

    def set(self, obj: models.Model, field: str, value: Any) -> None:
        """Change one field of a row. Every change to a row lands on the first instance the action saw of it
        (and on ``obj`` too), so a row read twice is still saved whole and the before-values stay true."""
        if obj.pk is None or type(obj) not in _KEY:
            raise TypeError(f"cannot track a change to {obj!r}")
        found = obj._meta.get_field(field)
        if not isinstance(found, models.Field):
            raise TypeError(f"{field} is not a field of {obj!r}")
        attname = found.attname
        key = (_KEY[type(obj)], obj.pk)
        tracked, changed = self._dirty.get(key, (obj, set()))
        before, after = _plain(getattr(tracked, attname)), _plain(value)
        setattr(obj, attname, after)
        if before == after:
            return
        setattr(tracked, attname, after)
        changed.add(attname)
        self._dirty[key] = (tracked, changed)
        # one change per field per event: a field set twice keeps its first before and its last after
        earlier = self._change_of.get((*key, attname))
        if earlier is None:
            change = {"model": key[0], "id": obj.pk, "field": attname, "before": before, "after": after}
            self.changes.append(change)
            self._change_of[(*key, attname)] = change
        elif earlier["before"] == after:
            self.changes.remove(earlier)
            del self._change_of[(*key, attname)]
        else:
            earlier["after"] = after

    def enter(self, obj: models.Model) -> None:
        """Save a row the game did not have as though it had stood by, out of play, from the start (a fresh
        leader brought from off the board, 2.5): it goes into the setup too, so that the state is still the
        setup plus the events, and the action brings it into play with ``set``; undone, it stands by again."""
        if obj.pk is not None or type(obj) not in _KEY:
            raise TypeError(f"cannot enter {obj!r}")
        obj.save()
        fields_now = {f: _plain(getattr(obj, f)) for f in tracked_fields(type(obj))}
        self._setup_added[f"{_KEY[type(obj)]}:{obj.pk}"] = fields_now
        self.entered.add(type(obj))

    def apply(self, unit: Unit, after: UnitState) -> None:
        """Write the engine's unit after a rule onto its row: the one way a unit's state changes."""
        if after.id != unit.key:
            raise ValueError(f"{after.id} is not {unit.key}")
        for name in _UNIT_STATE:
            self.set(unit, name, as_stored(getattr(after, name)))

    def record(self, payload: Payload, *, undoes: Event | None = None) -> Event:
        if self.event is not None:
            raise RuntimeError("an action records exactly one event")
        game = self.game
        if moved_on(self, payload):
            raise StaleGame(game)
        game_fields = {"version", "updated"}
        rows: list[tuple[models.Model, set[str]]] = []
        for obj, changed in self._dirty.values():
            if isinstance(obj, Game) and obj.pk == game.pk:
                # the game's own changes go out with its new version, in one write
                for name in changed:
                    setattr(game, name, getattr(obj, name))
                game_fields |= changed
            else:
                rows.append((obj, changed))
        write_rows(rows)
        if self._setup_added:
            keep_setup(game, {**setup_of(game), **self._setup_added})
        game.version += 1
        game.save(update_fields=sorted(game_fields))
        found = results(payload)
        printed = any(result.printed for result in found)
        kept = stored(payload)
        self.event = Event.objects.create(
            game=game,
            seq=game.version,
            kind=kind_of(payload),
            actor=self.actor,
            side_id=_SIDE.get(),
            subject=_SUBJECT.get(),
            about=about(_SUBJECT.get(), self.changes, kept),
            game_turn=self.position[0],
            player_turn=self.position[1],
            step=self.position[2],
            payload=kept,
            changes=self.changes,
            provisional=not printed and any(result.provisional for result in found),
            printed_chart=printed,
            chart_checksum=loaded(game.chart_checksum, game.chart_version)[1],
            undoes=undoes,
            sent=_SENT.get(),
        )
        # the send made this event: the steps that pass by themselves after it are not the send's
        _SENT.set("")
        return self.event


def about(subject: str, changes: list[dict[str, Any]], payload: dict[str, Any]) -> list[str]:
    """What an event is about, as the keys of pieces ('unit:12'): the step row it was entered at, the rows it
    changed and the units its payload names. Recorded with the event, so that staleness and a phone's news read it
    without going through payloads."""
    row = Piece.of(subject)
    found = {row.key} if row is not None else set()
    found |= {Piece(change["model"], change["id"]).key for change in changes}
    return sorted(found | keys_in(payload))


def later_events(game: Game, since: int) -> list[set[str] | None]:
    """What each event since ``since`` is about (an undo, with what it takes back); None for one after which every
    earlier form is stale."""
    whole, later = Piece("game", game.pk).key, Event.objects.filter(game=game, seq__gt=since)
    found = [{*theirs, *(undone or ())} for theirs, undone in later.values_list("about", "undoes__about")]
    return [None if not theirs or whole in theirs else theirs for theirs in found]


def moved_on(action: Action, payload: Payload | None = None) -> bool:
    """Whether an event since the form was drawn is about what this action is about (see the module's notes):
    asked when the action begins, with only its row to go by, and again with its changes and payload."""
    if action.later is None:
        return False
    mine = set(about(_SUBJECT.get(), action.changes, stored(payload) if payload else {}))
    whole = Piece("game", action.game.pk).key in mine or not _SUBJECT.get()
    return any(theirs is None or whole or theirs & mine for theirs in action.later)


@contextmanager
def acting_on(subject: str | None) -> Iterator[None]:
    """Every event recorded inside is about this step row ('unit-12'; None: no row), for ``moved_on``."""
    token = _SUBJECT.set(subject or "")
    try:
        yield
    finally:
        _SUBJECT.reset(token)


@contextmanager
def sending(key: str) -> Iterator[None]:
    """The first event recorded inside keeps the phone's key of the send that made it ('': none), so that the same
    send arriving again finds it instead of applying twice (``views.sends``)."""
    token = _SENT.set(key)
    try:
        yield
    finally:
        _SENT.reset(token)


@contextmanager
def acting_for(side_id: int | None) -> Iterator[None]:
    """Every event recorded inside is one side's (None: the game master's): a player may undo his own side's
    actions and no other. The access check opens it around a view, so the steps need not pass it along."""
    token = _SIDE.set(side_id)
    try:
        yield
    finally:
        _SIDE.reset(token)


def acting_side() -> int | None:
    """The side the action at hand is for (None: the game master's)."""
    return _SIDE.get()


@contextmanager
def act(
    game: Game | int,
    version: int | None,
    actor: str = "",
    *,
    step: StepKey | tuple[StepKey, ...] = (),
    elsewhere: str = "",
    after_the_end: bool = False,
) -> Iterator[Action]:
    """An action on the game as it stands. ``version`` is the one the form was drawn for (None: any);
    ``step`` the step or steps it belongs to, refused with ``elsewhere`` when the game is not there. A game that
    is over refuses every action but undo (``after_the_end``).

    What the request read stays read when the action is refused before it changed anything (a step that does not
    pass by itself, a stale form): its answer draws the game at the version it read."""
    acting()
    action: Action | None = None
    try:
        with transaction.atomic():
            locked = (
                Game.objects.select_for_update(of=("self",))
                .select_related("first_attacker")
                .get(pk=game if isinstance(game, int) else game.pk)
            )
            if version is not None and version > locked.version:
                raise StaleGame(locked)
            if locked.over and not after_the_end:
                raise ActionRefused(GAME_OVER)
            steps = (step,) if isinstance(step, StepKey) else step
            if steps and (not locked.in_progress or locked.step_key not in steps):
                raise ActionRefused(elsewhere or "The game is not at that step now: nothing was changed.")
            action = Action(locked, actor)
            if version is not None and version < locked.version:
                action.later = later_events(locked, version)
                if moved_on(action):
                    raise StaleGame(locked)
            before = locked.version
            yield action
            if action.event is None:
                raise RuntimeError("an action must record its event")
    except BaseException:
        if action is not None and (action.event is not None or action.written):
            forget()
        raise
    carried(locked.pk, before, locked.version, action.written)


def snapshot(game: Game) -> dict[str, dict[str, Any]]:
    """Every tracked field of every row of the game, as the setup that events start from."""
    state: dict[str, dict[str, Any]] = {}
    for key, model in TRACKED.items():
        rows = [game] if model is Game else model._default_manager.filter(game=game)
        names = tracked_fields(model)
        for row in rows:
            state[f"{key}:{row.pk}"] = {f: _plain(getattr(row, f)) for f in names}
    return state


def replay(game: Game) -> dict[str, dict[str, Any]]:
    """The setup plus every event's changes, in order."""
    state = {key: dict(values) for key, values in setup_of(game).items()}
    for event in game.events.order_by("seq"):
        for change in event.changes:
            state[f"{change['model']}:{change['id']}"][change["field"]] = change["after"]
    return state


def undoable(game: Game) -> list[Event]:
    """Events that can still be taken back, latest first: not undo events, not undone already."""
    return list(standing(game).order_by("-seq"))


def _revert(action: Action, event: Event) -> None:
    rows: dict[tuple[str, int], models.Model] = {("game", action.game.pk): action.game}
    wanted: dict[str, set[int]] = {}
    for change in event.changes:
        if (change["model"], change["id"]) not in rows:
            wanted.setdefault(change["model"], set()).add(change["id"])
    # the rows an event changed are read a table at a time: leaving a step may have changed every unit
    for key, ids in wanted.items():
        rows.update(((key, obj.pk), obj) for obj in TRACKED[key]._default_manager.filter(pk__in=ids))
    for change in reversed(event.changes):
        obj = rows[(change["model"], change["id"])]
        current = _plain(getattr(obj, change["field"]))
        if current != change["after"]:
            raise RuntimeError(
                f"event #{event.seq} cannot be undone: {change['model']} {change['id']} "
                f"{change['field']} is {current!r}, not {change['after']!r}"
            )
        action.set(obj, change["field"], change["before"])


def undo_last(game: Game, version: int | None, actor: str = "", *, passed: int = 0) -> Event:
    """Take back the latest event still in force: a player only his own side's, the game master any. ``passed``:
    the steps that passed by themselves after it, undone just before it (``steps.walk.undo``)."""
    with act(game, version, actor, after_the_end=True) as action:
        target = standing(action.game).order_by("-seq").first()
        if target is None:
            raise NothingToUndo("There is nothing to undo.")
        side = _SIDE.get()
        if side is not None and target.side_id != side:
            raise ActionRefused("The last action was not your side's: only its side or the game master may undo it.")
        _revert(action, target)
        return action.record(EventUndone(target.seq, passed), undoes=target)


def undo_to(game: Game, seq: int, version: int | None, actor: str = "") -> list[Event]:
    """Take back every event after ``seq``, latest first, each as its own undo event (a game master's tool)."""
    undone: list[Event] = []
    while True:
        current = Game.objects.get(pk=game.pk)
        candidates = [e for e in undoable(current) if e.seq > seq]
        if not candidates:
            return undone
        undone.append(undo_last(current, version if not undone else current.version, actor))
