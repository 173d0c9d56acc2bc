"""Holding a saved and loaded game to the one it was saved from, without trusting the code that carried its
references over: each kind of row gets ids in a range of its own (sides from 100001, commands from 200001,
objectives from 500001, ...), so a number in the loaded game is known for what it names, and every reference the
loading missed shows as a number of the first game left in the second."""

import re
from typing import Any

from django.core.management.color import no_style
from django.db import connection

from republic.games.archive.export import dumps, export_game
from republic.games.archive.load import import_game, loaded_name
from republic.games.ledger import snapshot
from republic.games.models import Command, Event, Game, Leader, Objective, Side, Unit, setup_of
from republic.games.text.describe import describe
from tests.games.conftest import state_matches_events

RANGES = {
    Side: 100_000,
    Command: 200_000,
    Leader: 300_000,
    Unit: 400_000,
    Objective: 500_000,
    Game: 600_000,
    Event: 900_000,
}
DIGITS = re.compile(r"\d+")
CHECKSUM = re.compile(r"[0-9a-f]{64}")  # a chart's sha256: its digits are no ids


def spread_ids() -> None:
    """The next row of each kind gets the first id of its range (or the next after those already given)."""
    with connection.cursor() as cursor:
        for model, start in RANGES.items():
            table = model._meta.db_table
            if connection.vendor == "sqlite":
                cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
                now = cursor.fetchone()
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, max(start, now[0] if now else 0)]
                )
            else:
                for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
                    cursor.execute(sql)  # the sequence at the table's highest id, then at least the range's start
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"GREATEST({start}, (SELECT COALESCE(MAX(id), 0) FROM {table})))"
                )


def translation(old: Game, new: Game) -> dict[int, int]:
    """Each row of the first game to its twin in the second, found by what the players call it, never by id."""
    pairs: dict[int, int] = {old.pk: new.pk}
    keyed = {
        Side: lambda r: r.name,
        Command: lambda r: (r.side.name, r.name),
        Leader: lambda r: (r.command.name, r.name),
        Unit: lambda r: (r.division.name, r.name),
        Objective: lambda r: r.name,
    }
    for model, key in keyed.items():
        related = [f.name for f in model._meta.concrete_fields if f.is_relation and f.name not in ("game", "parent")]
        first = {key(r): r.pk for r in model._default_manager.filter(game=old).select_related(*related)}
        second = {key(r): r.pk for r in model._default_manager.filter(game=new).select_related(*related)}
        assert len(first) == model._default_manager.filter(game=old).count(), f"{model.__name__}: names not unique"
        assert first.keys() == second.keys(), model.__name__
        pairs.update((first[k], second[k]) for k in first)
    return pairs


def same_but_ids(first: Any, second: Any, pairs: dict[int, int], where: str) -> None:
    """``second`` is ``first`` with every id of the first game (a number, or digits in text) its twin's."""
    if isinstance(first, dict):
        assert isinstance(second, dict) and len(first) == len(second), where
        renamed = {DIGITS.sub(lambda m: str(pairs.get(int(m.group()), m.group())), str(k)): v for k, v in first.items()}
        assert renamed.keys() == {str(k) for k in second}, where
        for key, value in renamed.items():
            same_but_ids(value, second[key], pairs, f"{where}.{key}")
    elif isinstance(first, list):
        assert isinstance(second, list) and len(first) == len(second), where
        for i, (a, b) in enumerate(zip(first, second, strict=True)):
            same_but_ids(a, b, pairs, f"{where}[{i}]")
    elif isinstance(first, int) and not isinstance(first, bool):
        assert second == pairs.get(first, first), f"{where}: {first} became {second}"
    elif isinstance(first, str) and not CHECKSUM.fullmatch(first):
        expected = DIGITS.sub(lambda m: str(pairs.get(int(m.group()), m.group())), first)
        assert second == expected, f"{where}: {first!r} became {second!r}"
    else:
        assert second == first, where


def round_trip(game: Game) -> Game:
    """The game saved and loaded again, held to the first in every field of every row and event."""
    game = Game.objects.get(pk=game.pk)
    data = export_game(game.pk)
    copy = import_game(dumps(data))
    assert copy.pk != game.pk
    pairs = translation(game, copy)
    assert not set(pairs.values()) & set(pairs), "an id of the first game came back in the second"
    first, second = Game.objects.get(pk=game.pk), Game.objects.get(pk=copy.pk)
    first_setup, second_setup = setup_of(first), setup_of(second)
    # the copy says it was loaded, from its setup on: its name gains when, and it is never the demo
    assert second.loaded_at is not None and second.name == loaded_name(first.name, second.loaded_at) and not second.demo
    assert (second_setup[copy.piece.key]["name"], second_setup[copy.piece.key]["demo"]) == (second.name, False)
    key, as_saved = copy.piece.key, {"name": first.name, "demo": first.demo}
    rows = snapshot(copy)
    same_but_ids(snapshot(game), {**rows, key: {**rows[key], **as_saved}}, pairs, "rows")
    setup = {**second_setup, key: {**second_setup[key], **as_saved}}
    same_but_ids(first_setup, setup, pairs, "setup")
    for f in Game._meta.concrete_fields:
        if f.attname not in ("id", "join_code", "created", "updated", "loaded_at", "name", "demo"):
            same_but_ids(f.value_from_object(first), f.value_from_object(second), pairs, f"game.{f.attname}")
    old, new = list(Event.objects.filter(game=game)), list(Event.objects.filter(game=copy))
    assert [e.seq for e in old] == [e.seq for e in new] == list(range(1, len(old) + 1))
    for a, b in zip(old, new, strict=True):
        for f in Event._meta.concrete_fields:
            if f.attname in ("id", "game_id", "undoes_id"):
                continue
            same_but_ids(f.value_from_object(a), f.value_from_object(b), pairs, f"event #{a.seq}.{f.attname}")
        assert (a.undoes.seq if a.undoes else None) == (b.undoes.seq if b.undoes else None)
        assert describe(a) == describe(b), f"event #{a.seq} reads otherwise in the log"
    assert state_matches_events(copy)
    return copy
