"""A damaged or foreign file is refused with what is wrong, and nothing is created: not a game, a unit, an event
nor a chart. Mutated files (a field dropped or replaced anywhere, the bytes cut or changed) are refused or loaded,
never a server error."""

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from republic.games.archive.export import dumps, export_game
from republic.games.archive.load import import_game
from republic.games.archive.remap import ArchiveError
from republic.games.models import ClubChart, Command, Event, Game, Leader, Side, Unit
from tests.games.conftest import at_step, brigade, rolled_for_assault, set_state

MODELS = (Game, Side, Command, Leader, Unit, Event, ClubChart)


@pytest.fixture
def saved(demo) -> dict[str, Any]:
    """The demo at its assault step, its attackers' maneuver rolls made and a brigade corrected, as a file."""
    game = at_step(rolled_for_assault(demo), "assaults")
    set_state(game, brigade(game, "Davis's Brigade"), m_hits=1)
    return json.loads(dumps(export_game(game.pk)))


def counts() -> list[int]:
    return [model._default_manager.count() for model in MODELS]


def refused(raw: bytes) -> str:
    before = counts()
    with pytest.raises(ArchiveError) as found:
        import_game(raw)
    assert counts() == before, "a refused file left rows behind"
    return str(found.value)


def _unit_event(data: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in data["events"] if e["kind"] == "ManeuverRolled")


def _swap(data: dict[str, Any]) -> None:
    data["events"][1], data["events"][2] = data["events"][2], data["events"][1]


def _club(data: dict[str, Any]) -> None:
    data["club_charts"] = [{"name": "Ours", "version": "1", "checksum": "0" * 64, "text": "name: Ours"}]
    data["game"]["chart_checksum"] = "0" * 64


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *above, last = path.split(".")
        node: Any = data
        for step in above:
            node = node[int(step)] if isinstance(node, list) else node[step]
        node[int(last) if isinstance(node, list) else last] = value

    return change


DAMAGED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a later version", _set("schema", "republic-game/2"), "saved by a later version of the app (republic-game/2)"),
    ("another schema", _set("schema", "chess-game/1"), "schema version is 'chess-game/1'"),
    ("no schema", lambda d: d.pop("schema"), "no schema version"),
    ("another format", _set("format", "Chess game"), "format 'Chess game'"),
    ("no events", lambda d: d.pop("events"), "The file has no events"),
    ("a row's field missing", lambda d: d["units"][0].pop("division_id"), "missing division_id"),
    ("a field this server lacks", _set("units.0.colour", "blue"), "'colour' is no field"),
    ("a value out of its choices", _set("units.0.grade", "elite"), "grade: Value 'elite' is not a valid choice"),
    ("text for a number", _set("units.0.bases", "7"), "expected a whole number, got '7'"),
    (
        "an event's unit not in the setup",
        lambda d: _unit_event(d).update(payload={**_unit_event(d)["payload"], "unit": "unit:999999"}),
        "names unit 999999",
    ),
    (
        "a change to a row not in the file",
        lambda d: d["events"][-1]["changes"][0].update(id=999999),
        "which the file does not hold",
    ),
    ("events out of sequence", _swap, "out of sequence"),
    (
        "a change that does not replay",
        lambda d: d["units"][0].update(bases=d["units"][0]["bases"] + 1),
        "do not replay",
    ),
    ("a payload not of its kind", lambda d: d["events"][0].update(payload={"nonsense": 1}), "payload is not a"),
    ("a kind no one knows", _set("events.0.kind", "Teleported"), "'Teleported' is no kind of event"),
    ("an undo of a later event", lambda d: d["events"][0].update(undoes_seq=5), "undoes_seq 5"),
    ("a chart this server lacks", _set("game.chart_checksum", "f" * 64), "a chart (checksum ffff"),
    ("a club chart whose text is not its checksum", _club, "not the text its checksum names"),
    ("a setup row the rows lack", lambda d: d["setup"].update({"unit:999999": {}}), "the setup holds a row"),
    ("a game version beyond its events", _set("game.version", 999), "game.version is 999"),
    ("two sides of one name", lambda d: d["sides"][1].update(name=d["sides"][0]["name"]), "same name"),
    ("a division under itself", lambda d: d["commands"][0].update(parent_id=d["commands"][0]["id"]), "under itself"),
]


@pytest.mark.parametrize(("damage", "problem"), [(c, p) for _, c, p in DAMAGED], ids=[n for n, _, _ in DAMAGED])
def test_a_damaged_file_is_refused_naming_what_is_wrong_and_nothing_is_made(saved, damage, problem):
    assert import_game(json.dumps(saved).encode())  # the file as saved loads
    damage(saved)
    assert problem in refused(json.dumps(saved).encode())


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"schema": ', "not JSON: Expecting value at line 1, column 12"),
        (b"[1, 2]", "not a saved game"),
        (b'{"scenario": "Gettysburg", "sides": []}', "scenario file"),
        (b'{"a": NaN}', "not plain JSON"),
        (b'{"a": "\\ud800"}', "lone surrogate"),
        (b'{"a": "\\u0000"}', "NUL"),
        (b"[" * 100_000, "not JSON"),
        (b'{"a": ' + b"9" * 5000 + b"}", "not JSON"),
    ],
)
def test_a_file_that_is_no_saved_game_is_refused(db, raw, problem):
    assert problem in refused(raw)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        found += [p for key, value in node.items() for p in _paths(value, (*path, key))]
    elif isinstance(node, list):
        found += [p for i, value in enumerate(node) for p in _paths(value, (*path, i))]
    return found


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(choice=st.data())
def test_a_mutated_file_is_loaded_or_refused_never_a_server_error(saved, choice):
    data = json.loads(json.dumps(saved))
    how = choice.draw(st.sampled_from(["replace", "drop", "bytes"]))
    paths = _paths(data)[1:]
    if how == "bytes":
        raw = bytearray(json.dumps(data).encode())
        at = choice.draw(st.integers(0, len(raw) - 1))
        raw[at : at + choice.draw(st.integers(0, 3))] = choice.draw(st.binary(max_size=3))
        raw = bytes(raw)
    else:
        path = choice.draw(st.sampled_from(paths))
        node = data
        for step in path[:-1]:
            node = node[step]
        if how == "drop":
            del node[path[-1]]
        else:
            node[path[-1]] = choice.draw(JSON_VALUES)
        raw = json.dumps(data).encode()
    before = counts()
    try:
        game = import_game(raw)
    except ArchiveError as exc:
        assert str(exc) and counts() == before
    else:
        assert Game.objects.filter(pk=game.pk).exists()
