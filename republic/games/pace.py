"""The pace of the day: how long the table takes over a player turn and each step, whose steps it waits on longest,
and when the day's last turn would end at this pace. Read from the events' own times, one query for any number of
games (``paces``), then worked out by a pure function (``pace_of``).

A step's time runs from the event that began it to the event that ended it: each stretch between two events is
the time of the step the game stood at, which the later event records as its own. Every event marks the clock,
an action later undone and the undo itself as much as any: the table spent that time at that step. The clock starts
at the choice of the first attacker (the time spent setting up is not play) and stops at the game's end (an undo
of the end starts it again); the step being played runs until now. The time of a step goes to the side the rules
give it (1.7), to both sides where both act: the events record who pressed, not whom the table waited on.

A game's stretches are summed step by step as its events are read (``Tally``), and each server process keeps each
game's sums: an event is never changed once written, so a page reads only the events written since, and a day of
5,000 events costs a page what one of 50 does."""

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache, reduce
from typing import Any

from django.db.models import BigIntegerField, Func, Q

from republic.games.events.game import FirstAttackerChosen, GameEnded
from republic.games.models import Event, Game
from republic.rules.sequence import Actor, StepKey, step_for

SLOWEST = 3  # the steps named as the slowest
BOTH_SIDES = "both sides"

Mark = tuple[datetime, int, int, str, str]  # an event's time, game turn, player turn, step and kind
Turn = tuple[int, int]  # a game turn and a player turn
At = tuple[int, int, str]  # a game turn, a player turn and a step
KEPT_GAMES = 64  # the games whose sums a server process keeps: the dashboard's club and a convention's battles


@dataclass(frozen=True)
class Tally:
    """A game's events up to ``seq`` summed: the time spent at each step of each player turn, and the last event,
    from which the step being played runs. Made by adding marks in order (``add``), all at once or a few at a
    time: the sums are the same."""

    seq: int = 0
    started: bool = False  # the first attacker was chosen: what came before it was setting up
    last: Mark | None = None
    spent: Mapping[At, timedelta] = field(default_factory=dict)

    def add(self, marks: Sequence[Mark], seq: int | None = None) -> "Tally":
        """With ``marks``, the events after the last one added (up to the event ``seq``) added."""
        spent, started, last = dict(self.spent), self.started, self.last
        for mark in marks:
            if last is not None and last[4] != GameEnded.__name__:  # after the end, until its undo, nobody plays
                at = (mark[1], mark[2], mark[3])
                spent[at] = spent.get(at, timedelta(0)) + (mark[0] - last[0])
            if mark[4] == FirstAttackerChosen.__name__ and not started:
                spent, started = {}, True
            last = mark
        return Tally(self.seq + len(marks) if seq is None else seq, started, last, spent)


@dataclass(frozen=True)
class StepTime:
    step: str  # its title, as the step bar names it
    mean: timedelta  # over the player turns that finished it
    total: timedelta  # over the whole day, the step being played included
    times: int  # how many player turns finished it


@dataclass(frozen=True)
class Projection:
    turn: int  # the game turn the table finishes by ``by``: the last one, or the one being played at the day's end
    last_turn: int | None
    by: datetime
    day_ends: datetime | None
    last_ends: datetime | None  # when the day's last turn would end


@dataclass(frozen=True)
class Pace:
    now: datetime
    in_progress: bool
    over: bool
    player_turns: int  # finished
    per_player_turn: timedelta | None  # the mean of the finished ones
    this_player_turn: timedelta  # the one being played, so far
    per_game_turn: timedelta | None  # the mean of the finished ones, or twice a player turn's before one finished
    steps: list[StepTime] = field(default_factory=list)  # in the order of the turn sequence
    slowest: list[StepTime] = field(default_factory=list)
    waited: list[tuple[str, timedelta]] = field(default_factory=list)  # each side's time, the longest first
    projection: Projection | None = None
    day_ends: datetime | None = None
    last_turn: int | None = None
    turns: dict[Turn, timedelta] = field(default_factory=dict)  # each player turn's time, the one played so far


def pace_of(
    tally: Tally,
    at: At | None,
    attackers: tuple[str, str],
    now: datetime,
    *,
    over: bool = False,
    day_ends: datetime | None = None,
    last_turn: int | None = None,
) -> Pace:
    """The pace from a game's events summed (``tally``), the position it is being played at (None: not in
    play), the sides attacking in player turns 1 and 2, and the day's timetable."""
    stretches = [(spent, *step) for step, spent in tally.spent.items()]
    if at is not None and tally.last is not None:
        stretches.append((max(now - tally.last[0], timedelta(0)), *at))
    turns: dict[Turn, timedelta] = defaultdict(timedelta)
    games: dict[int, timedelta] = defaultdict(timedelta)
    steps: dict[At, timedelta] = defaultdict(timedelta)
    sides: dict[str, timedelta] = defaultdict(timedelta)
    for spent, game_turn, player_turn, step in stretches:
        turns[(game_turn, player_turn)] += spent
        games[game_turn] += spent
        steps[(game_turn, player_turn, step)] += spent
        sides[_side(step, player_turn, attackers)] += spent
    current: Turn | None = (at[0], at[1]) if at else None
    done = [spent for turn, spent in turns.items() if current is None or turn < current]
    per_player_turn = _mean(done)
    per_game_turn = _mean([spent for turn, spent in games.items() if current is None or turn < current[0]])
    if per_game_turn is None and per_player_turn is not None:
        per_game_turn = per_player_turn * 2
    step_times = _step_times(steps, at)
    pace = Pace(
        now,
        at is not None,
        over,
        len(done),
        per_player_turn,
        turns.get(current, timedelta(0)) if current else timedelta(0),
        per_game_turn,
        step_times,
        # a step the table passes in less than a minute is no step it waits on
        sorted((s for s in step_times if s.mean >= timedelta(minutes=1)), key=lambda s: s.mean, reverse=True)[:SLOWEST],
        sorted(((side, spent) for side, spent in sides.items() if spent), key=lambda s: s[1], reverse=True),
        day_ends=day_ends,
        last_turn=last_turn,
        turns=dict(turns),
    )
    if at is None or per_game_turn is None or not per_game_turn:
        return pace
    projected = _projection(at[0], games[at[0]], per_game_turn, now, day_ends, last_turn)
    return replace(pace, projection=projected)


def _projection(
    game_turn: int,
    so_far: timedelta,
    per_game_turn: timedelta,
    now: datetime,
    day_ends: datetime | None,
    last_turn: int | None,
) -> Projection:
    """When the game turn being played ends, and each after it, a game turn at the mean pace."""
    this_ends = now + max(per_game_turn - so_far, timedelta(0))

    def ends(turn: int) -> datetime:
        return this_ends + per_game_turn * (turn - game_turn)

    last_ends = ends(last_turn) if last_turn is not None and last_turn >= game_turn else None
    turn = last_turn if last_turn is not None and last_turn >= game_turn else game_turn
    if day_ends is not None:
        behind = max(day_ends - this_ends, timedelta(0))
        at_day_end = game_turn + -(-behind // per_game_turn)  # the turn being played when the day ends
        turn = min(turn, at_day_end) if last_ends is not None else at_day_end
    return Projection(turn, last_turn, ends(turn), day_ends, last_ends)


@lru_cache(maxsize=256)  # asked once for each of a day's thousands of events, of a few dozen steps
def _side(step: str, player_turn: int, attackers: tuple[str, str]) -> str:
    try:
        actor = step_for(StepKey(step)).actor
    except ValueError:
        return BOTH_SIDES
    attacker = attackers[0] if player_turn == 1 else attackers[1]
    defender = attackers[1] if player_turn == 1 else attackers[0]
    return {Actor.ATTACKER: attacker, Actor.DEFENDER: defender}.get(actor, BOTH_SIDES)


def _step_times(steps: dict[At, timedelta], at: At | None) -> list[StepTime]:
    """Each step's mean over the times it was finished (not the one being played) and its total."""
    finished: dict[str, list[timedelta]] = defaultdict(list)
    totals: dict[str, timedelta] = defaultdict(timedelta)
    for (game_turn, player_turn, step), spent in steps.items():
        totals[step] += spent
        if (game_turn, player_turn, step) != at:
            finished[step].append(spent)
    order = {str(key): i for i, key in enumerate(StepKey)}
    return [
        StepTime(_title(step), _mean(finished[step]) or timedelta(0), totals[step], len(finished[step]))
        for step in sorted(totals, key=lambda s: order.get(s, len(order)))
    ]


def _title(step: str) -> str:
    try:
        return step_for(StepKey(step)).title
    except ValueError:
        return step


def _mean(spans: list[timedelta]) -> timedelta | None:
    return sum(spans, timedelta(0)) / len(spans) if spans else None


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class _Microseconds(Func):
    """A time as microseconds since 1970, read as a number: a day's 5,000 events' times read as dates cost a page
    more than the rest of it (SQLite's to the millisecond, as its date functions read a time)."""

    output_field = BigIntegerField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = "CAST(ROUND((julianday(%(expressions)s) - 2440587.5) * 86400000000.0) AS INTEGER)"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        template = "CAST(ROUND(EXTRACT(EPOCH FROM %(expressions)s) * 1000000) AS BIGINT)"
        return self.as_sql(compiler, connection, template=template, **extra)


# each game's sums, under the game and when it was made (a test's database may give another game the same key)
_KEPT: OrderedDict[tuple[int, datetime], Tally] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def paces(games: Iterable[Game], now: datetime) -> dict[int, Pace]:
    """Each game's pace, from one query over the events of all of them written since this process last summed
    them. Each game's sides are read from its ``sides`` (prefetched on a page of many games)."""
    found = {game.pk: game for game in games}
    with _KEPT_LOCK:
        kept = {pk: _KEPT.get((pk, game.created), Tally()) for pk, game in found.items()}
    marks: dict[int, list[Mark]] = defaultdict(list)
    newest = {pk: tally.seq for pk, tally in kept.items()}
    since = reduce(lambda q, pk: q | Q(game_id=pk, seq__gt=kept[pk].seq), found, Q(pk__in=[]))
    rows = Event.objects.filter(since).order_by("game_id", "seq").annotate(at=_Microseconds("created"))
    for game_id, seq, at, game_turn, player_turn, step, kind in rows.values_list(
        "game_id", "seq", "at", "game_turn", "player_turn", "step", "kind"
    ):
        marks[game_id].append((_EPOCH + timedelta(microseconds=at), game_turn, player_turn, step, kind))
        newest[game_id] = seq
    tallies = {pk: kept[pk].add(marks[pk], newest[pk]) if marks[pk] else kept[pk] for pk in found}
    with _KEPT_LOCK:
        for pk, tally in tallies.items():
            key = (pk, found[pk].created)
            if tally.seq > _KEPT.get(key, Tally()).seq:
                _KEPT[key] = tally
            if key in _KEPT:
                _KEPT.move_to_end(key)
        while len(_KEPT) > KEPT_GAMES:
            _KEPT.popitem(last=False)
    return {pk: _game_pace(game, tallies[pk], now) for pk, game in found.items()}


def forget_sums() -> None:
    """The sums kept of every game forgotten (a test's database is made afresh)."""
    with _KEPT_LOCK:
        _KEPT.clear()


def _game_pace(game: Game, tally: Tally, now: datetime) -> Pace:
    sides = list(game.sides.all())
    first = next((s.name for s in sides if s.pk == game.first_attacker_id), "")
    other = next((s.name for s in sides if s.pk != game.first_attacker_id), "")
    at = (game.game_turn, game.player_turn, game.step) if game.in_progress else None
    return pace_of(tally, at, (first, other), now, over=game.over, day_ends=game.day_ends, last_turn=game.last_turn)
