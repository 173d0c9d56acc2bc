"""Games saved by earlier versions of the app load for good: every file of the corpus (tests/saved_games/, made by
``python -m tests.saved_games``) loads through the real loader into a game that stands exactly where the file says
it stood (every tracked field of every row, the setup plus the events), its events read as their kinds, its pages
draw and it plays on. Together the files hold every kind of event. A file of a format this server does not read
as it was saved (a later version; an earlier one no named step carries across) is refused, saying so; and today's
code reads the payloads and rows in the shape the current version's files were saved in, or the version must
change."""

import gzip
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import models

from republic.games.archive.export import ROWS
from republic.games.archive.load import import_game, loaded_name
from republic.games.archive.remap import TRACKED_FKS, ArchiveError
from republic.games.archive.versions import NAME, STEPS, VERSION, version_of
from republic.games.events.payload import KINDS, payload_of
from republic.games.ledger import TRACKED, snapshot, tracked_fields
from republic.games.models import Event, Game
from republic.games.text.describe import describe
from tests.games.conftest import state_matches_events
from tests.saved_games import shapes

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "saved_games"
FILES = sorted(CORPUS.glob(f"{NAME}-*/*.json.gz"))
_KEY = {model: key for key, model in TRACKED.items()}


def read(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def carried(version: int) -> bool:
    """Whether a file of this version loads here: it is this server's, or a step carries each version after it."""
    return all(v in STEPS for v in range(version, VERSION))


def _names(data: dict[str, Any]) -> dict[str, dict[int, tuple[Any, ...]]]:
    """Each row of the file by what the players call it (a unit by its division's name and its own), never by id."""
    named: dict[str, dict[int, tuple[Any, ...]]] = {"sides": {r["id"]: (r["name"],) for r in data["sides"]}}
    commands = {r["id"]: r for r in data["commands"]}

    def command(pk: int) -> tuple[Any, ...]:
        row = commands[pk]
        return (*named["sides"][row["side_id"]], row["name"])

    named["commands"] = {pk: command(pk) for pk in commands}
    named["leaders"] = {r["id"]: (*command(r["command_id"]), r["name"]) for r in data["leaders"]}
    named["units"] = {r["id"]: (*command(r["division_id"]), r["name"]) for r in data["units"]}
    named["objectives"] = {r["id"]: (r["name"],) for r in data["objectives"]}
    return named


def twins(data: dict[str, Any], game: Game) -> dict[type[models.Model], dict[int, int]]:
    """Each row's id in the file to its twin's in the loaded game, paired by name."""
    ids: dict[type[models.Model], dict[int, int]] = {Game: {data["game"]["id"]: game.pk}}
    mine = _names(_as_file(game))
    for table, model in ROWS.items():
        theirs = {name: pk for pk, name in _names(data)[table].items()}
        assert len(theirs) == len(data[table]), f"{table}: two rows of the file have one name"
        assert theirs.keys() == {name for name in mine[table].values()}, table
        ids[model] = {theirs[name]: pk for pk, name in mine[table].items()}
    return ids


def _as_file(game: Game) -> dict[str, Any]:
    """The loaded game's rows as the file names them: ids and the foreign keys that name each row's place."""
    return {
        table: list(model._default_manager.filter(game=game).values("id", *_PLACES[table]))
        for table, model in ROWS.items()
    }


_PLACES = {
    "sides": ("name",),
    "commands": ("name", "side_id"),
    "leaders": ("name", "command_id"),
    "units": ("name", "division_id"),
    "objectives": ("name",),
}


def saved_state(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The state the file says the game stood in: every tracked field of each of its rows, keyed as the ledger keys
    them, with the file's ids."""
    state = {f"game:{data['game']['id']}": {f: data["game"][f] for f in tracked_fields(Game)}}
    for table, model in ROWS.items():
        for row in data[table]:
            state[f"{_KEY[model]}:{row['id']}"] = {f: row[f] for f in tracked_fields(model)}
    return state


def replayed(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The file's setup plus every change of its events, in order."""
    state = {key: dict(values) for key, values in data["setup"].items()}
    for event in data["events"]:
        for change in event["changes"]:
            state[f"{change['model']}:{change['id']}"][change["field"]] = change["after"]
    return state


def in_file_ids(state: dict[str, dict[str, Any]], ids: dict[type[models.Model], dict[int, int]]) -> dict[str, Any]:
    """A loaded game's state with each id its row's in the file."""
    back = {model: {new: old for old, new in pairs.items()} for model, pairs in ids.items()}
    found = {}
    for key, values in state.items():
        table, pk = key.split(":")
        fks = TRACKED_FKS[table]
        found[f"{table}:{back[TRACKED[table]][int(pk)]}"] = {
            name: back[fks[name]][value] if name in fks and value is not None else value
            for name, value in values.items()
        }
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_saved_game_loads_and_stands_where_it_was_saved(client, path):
    raw = read(path)
    data = json.loads(raw)
    if not carried(version_of(data["schema"])):
        with pytest.raises(ArchiveError, match="no step carries"):
            import_game(raw)
        return
    # loaded as a club loads it: the file sent from the home page's "Load a saved game"
    response = client.post("/games/load/", {"file": SimpleUploadedFile(path.name.removesuffix(".gz"), raw)})
    game = Game.objects.latest("pk")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/", response.content[:2000]
    assert path.parent.name == data["schema"].replace("/", "-")

    saved = saved_state(data)
    assert saved.keys() == data["setup"].keys()
    # a game begun before a field existed keeps its setup without it, as the ledger replays it (ledger.replay)
    rebuilt = replayed(data)
    assert rebuilt == {key: {f: saved[key][f] for f in rebuilt[key]} for key in saved}, "the events replay to the rows"
    ids = twins(data, game)
    # the copy says it was loaded, from its setup on: its name gains when, and it is never the demo
    game = Game.objects.get(pk=game.pk)
    assert game.name == loaded_name(data["game"]["name"], game.loaded_at) and not game.demo
    key = f"game:{data['game']['id']}"
    loaded = {field: value for field, value in (("name", game.name), ("demo", False)) if field in saved[key]}
    assert in_file_ids(snapshot(game), ids) == {**saved, key: {**saved[key], **loaded}}
    assert state_matches_events(game)

    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert [(e.seq, e.kind) for e in events] == [(e["seq"], e["kind"]) for e in data["events"]]
    for event in events:
        assert type(payload_of(event)).__name__ == event.kind and describe(event), f"event #{event.seq}"
    pages = ["", "log/", "report/", "units/", "chart/", "save/", f"divisions/{game.commands.order_by('pk')[0].pk}/"]
    for page in pages:
        assert client.get(f"/games/{game.pk}/{page}").status_code == 200, page
    # and it plays on: its last event taken back, then the next step
    for action in ("undo/", "next/anyway/"):
        version = Game.objects.get(pk=game.pk).version
        assert client.post(f"/games/{game.pk}/{action}", {"version": version}).status_code == 302
        added = list(Event.objects.filter(game=game, seq__gt=version).order_by("seq").values_list("kind", flat=True))
        # a Next step records one event a step: the step left, and any after it that passed by itself
        assert added == ["EventUndone"] if action == "undo/" else added and set(added) == {"StepAdvanced"}, action
        assert state_matches_events(game), action


def test_the_saved_games_reach_every_kind_of_event_undos_and_going_back_among_them():
    assert FILES, "no saved games in the corpus"
    events = [event for path in FILES for event in json.loads(read(path))["events"]]
    missing = sorted(set(KINDS) - {event["kind"] for event in events})
    assert not missing, (
        f"No saved game in tests/saved_games holds {missing}: add a play that records it to "
        "tests/saved_games/plays.py and make its file (python -m tests.saved_games)."
    )
    undone = [event["undoes_seq"] for event in events if event["kind"] == "EventUndone"]
    assert undone and any(b == a - 1 for a, b in itertools.pairwise(undone)), "no game went back"
    assert any(event["kind"] == "CorrectionMade" and event["payload"]["correction"] for event in events)


def test_a_process_that_imports_only_how_events_are_read_knows_every_kind_of_the_saved_games():
    """The archive's checks import the registry alone (``events.payload``), never a phase's kinds: the package
    loads every phase's with it, or a saved game would be refused for kinds the process had not met."""
    events = {event["kind"] for path in FILES for event in json.loads(read(path))["events"]}
    read_kinds = "from republic.games.events.payload import KINDS; print(' '.join(sorted(KINDS)))"
    found = subprocess.run([sys.executable, "-c", read_kinds], capture_output=True, text=True, check=True, cwd=ROOT)
    assert set(found.stdout.split()) == set(KINDS) >= events


def test_the_versions_of_the_corpus_are_those_this_server_knows():
    versions = {version_of(path.parent.name.replace(f"{NAME}-", f"{NAME}/")) for path in FILES}
    assert VERSION in versions, f"no saved game of {NAME}/{VERSION}: make them (python -m tests.saved_games)"
    assert max(versions) == VERSION
    assert set(STEPS) <= versions, "a step that carries a version across is tried on that version's saved games"


def test_todays_code_reads_the_current_versions_files_in_the_shape_they_were_saved_in():
    pinned = json.loads((CORPUS / f"{NAME}-{VERSION}" / "shape.json").read_text(encoding="utf-8"))
    broken = shapes.breaks(pinned, shapes.current())
    assert not broken, (
        f"A {NAME}/{VERSION} file would read otherwise: {'; '.join(broken)}. Give the new field a default, or raise "
        "the format's VERSION in republic/games/archive/versions.py with a named step in STEPS (or none, to refuse "
        "the older files), and make the new version's saved games (python -m tests.saved_games)."
    )
