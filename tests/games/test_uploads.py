"""What a club uploads (a scenario, a chart, a saved game): each form says its file's size limit, a file past it is
refused by its size before anything reads it and makes nothing, a club's largest battle and longest day stay far
inside it, and a file nested past any scenario, chart or saved game is refused saying so, not a server error."""

import html
import json

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DataError, IntegrityError, InterfaceError, OperationalError, ProgrammingError
from django.http import HttpResponse

from republic.file_shapes import YAML_DEPTH, YAML_VALUES
from republic.games.archive.export import dumps, export_game
from republic.games.events.game import CorrectionMade, FieldValue
from republic.games.ledger import act
from republic.games.models import ClubChart, Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.uploads import CHART_MOST, LARGEST, SAVED_GAME_MOST, SCENARIO_MOST, CappedUpload, TooLarge
from republic.games.views.outage import Unavailable
from republic.scenarios import DEMO_SCENARIO
from tests.chart_files import chart_text
from tests.club_battle import club_scenario
from tests.games.scenario_files import BIG_BATTLE, sheet

FORMS = [("/", "At most 1 MB."), ("/games/load/", "At most 16 MB."), ("/charts/", "At most 256 KB.")]


def said(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


def made() -> tuple[int, int, int]:
    return Game.objects.count(), Unit.objects.count(), ClubChart.objects.count()


@pytest.mark.parametrize(("page", "limit"), FORMS)
def test_each_upload_form_says_its_limit(client, page, limit):
    assert limit in said(client.get(page))


@pytest.mark.parametrize(
    ("action", "most", "what"),
    [
        ("/games/new/", SCENARIO_MOST, "a scenario"),
        ("/games/load/", SAVED_GAME_MOST, "a saved game"),
        ("/charts/", CHART_MOST, "a chart file"),
    ],
)
def test_a_file_past_its_limit_is_refused_by_its_size_and_makes_nothing(client, action, most, what):
    # a YAML list that, read, would cost many times its size in memory (and JSON's parser would choke on)
    content = b"- 1\n" * (most // 4 + 1)
    before = made()
    response = client.post(action, {"file": SimpleUploadedFile("big.yaml", content), "ground_scale": "medium"})
    assert response.status_code == 200 and made() == before
    size = "1 MB" if most == SCENARIO_MOST else "16 MB" if most == SAVED_GAME_MOST else "256 KB"
    assert f"The file is {size}; {what} is at most {size}." in said(response)


def test_a_file_past_every_limit_is_counted_not_kept(client):
    before = made()
    content = b"x" * (LARGEST + 3 * 1024 * 1024)
    response = client.post("/games/load/", {"file": SimpleUploadedFile("huge.json", content)})
    assert "The file is 19 MB; a saved game is at most 16 MB." in said(response) and made() == before
    handler = CappedUpload()
    handler.new_file("file", "huge.json", "application/json", None)
    chunk = b"x" * (64 * 1024)
    passed = [handler.receive_data_chunk(chunk, start) for start in range(0, len(content), len(chunk))]
    kept = sum(len(p) for p in passed if p is not None)
    assert LARGEST <= kept <= LARGEST + len(chunk)  # what the handlers after it keep: no more than the largest limit
    file = handler.file_complete(len(content))
    assert isinstance(file, TooLarge) and file.size >= len(content) and file.read() == b""


def test_a_club_battle_of_400_units_is_far_inside_the_scenario_limit(client):
    text = club_scenario(400)
    as_json = json.dumps(yaml.safe_load(text), indent=2)
    assert 4 * len(text.encode()) < SCENARIO_MOST and 4 * len(as_json.encode()) < SCENARIO_MOST
    response = client.post(
        "/games/new/", {"file": SimpleUploadedFile("club.json", as_json.encode()), "ground_scale": "medium"}
    )
    assert response.status_code == 302 and Unit.objects.count() == 400


def test_a_whole_day_of_a_400_unit_battle_is_far_inside_the_saved_game_limit(client):
    game = create_game(parse_scenario(club_scenario(400)))
    empty = len(dumps(export_game(game.pk)))
    for unit in list(Unit.objects.filter(game=game))[:200]:
        with act(game, None, "test") as action:
            action.set(unit, "m_hits", unit.m_hits + 1)
            action.record(CorrectionMade(unit.key, unit.name, None, (FieldValue("m_hits", unit.m_hits),)))
    saved = dumps(export_game(game.pk))
    per_event = (len(saved) - empty) / Event.objects.filter(game=game).count()
    assert 4 * (empty + 3_000 * per_event) < SAVED_GAME_MOST  # a day's 2,000 to 3,000 events
    response = client.post("/games/load/", {"file": SimpleUploadedFile("saved.json", saved)})
    assert response.status_code == 302


DEEP_SCENARIOS = [
    "scenario: deep\nsides: " + "[" * 1000 + "]" * 1000,
    "[" * 100_000 + "]" * 100_000,
    '{"scenario": "deep", "sides": ' + '{"a": ' * 5_000 + "1" + "}" * 5_000 + "}",
    "scenario: deep\nsides:\n" + "".join("  " * i + "- \n" for i in range(1000)),
]


@pytest.mark.parametrize("text", DEEP_SCENARIOS, ids=["flow", "json-100000", "json-objects", "block"])
def test_a_scenario_nested_past_any_is_refused_saying_so(client, text):
    response = client.post(
        "/games/new/", {"file": SimpleUploadedFile("deep.yaml", text.encode()), "ground_scale": "medium"}
    )
    assert response.status_code == 200 and made() == (0, 0, 0)
    assert f"lists and mappings nested more than {YAML_DEPTH} deep, which no scenario has" in said(response)


@pytest.mark.parametrize("action", ["/games/new/", "/charts/"])
def test_a_file_of_more_values_than_any_is_refused_before_it_is_built(client, action):
    text = "scenario: long\nsides: [" + "1," * (YAML_VALUES + 10) + "]"
    assert len(text) < CHART_MOST < SCENARIO_MOST  # within either size limit: its values refuse it
    response = client.post(action, {"file": SimpleUploadedFile("long.yaml", text.encode()), "ground_scale": "medium"})
    assert response.status_code == 200 and made() == (0, 0, 0)
    assert f"more than {YAML_VALUES:,} values, which no" in said(response)


def test_the_demo_and_a_club_battle_are_well_within_the_nesting_allowed():
    for text in (DEMO_SCENARIO.read_text(), club_scenario(40)):
        assert parse_scenario(text).sides


@pytest.mark.parametrize("text", ["name: x\n" + "a: " + "[" * 1000 + "]" * 1000, "[" * 100_000 + "]" * 100_000])
def test_a_chart_nested_past_any_is_refused_saying_so(client, text):
    response = client.post("/charts/", {"file": SimpleUploadedFile("deep.yaml", text.encode())})
    assert response.status_code == 200 and not ClubChart.objects.exists()
    assert f"lists and mappings nested more than {YAML_DEPTH} deep, which no chart file has" in said(response)


@pytest.mark.parametrize("depth", [60, 500])
def test_a_saved_game_nested_past_any_is_refused_saying_so(client, demo, depth):
    saved = client.get(f"/games/{demo.pk}/save/").content.decode()
    deep = "[" * depth + "]" * depth  # written as text: Python's own json would nest as deep to write it
    raw = saved.replace('"events":[', f'"events":[{{"payload":{deep}}}', 1).encode()
    before = made()
    response = client.post("/games/load/", {"file": SimpleUploadedFile("deep.json", raw)})
    assert response.status_code == 200 and made() == before
    assert "The file nests lists and objects more than 48 deep, which no saved game does." in said(response)


def test_a_saved_game_100000_deep_is_refused_saying_so(client):
    raw = ("[" * 100_000 + "]" * 100_000).encode()
    response = client.post("/games/load/", {"file": SimpleUploadedFile("deep.json", raw)})
    assert response.status_code == 200 and made() == (0, 0, 0)
    assert "The file is not JSON a saved game is made of." in said(response)


# --- what no name holds, and what no outage is --------------------------------------------------------------------


def test_a_sheet_with_a_nul_in_a_name_is_refused_at_import_and_makes_nothing(client):
    rows = [*BIG_BATTLE[:1], {**BIG_BATTLE[1], "unit": "Cutler's\x00Brigade"}, *BIG_BATTLE[2:]]
    upload = SimpleUploadedFile("battle.csv", sheet(*rows).encode())
    response = client.post("/games/new/", {"file": upload, "ground_scale": "medium"})
    assert response.status_code == 200 and made() == (0, 0, 0)
    assert "battle.csv, line 3, unit: holds the control character U+0000" in said(response)


@pytest.mark.parametrize(
    ("name", "version", "words"), [("Club\x00chart", "2025", "name"), ("Club", "v\x07", "version")]
)
def test_a_chart_whose_name_or_version_holds_a_control_character_is_refused(client, name, version, words):
    text = chart_text(name=name, version=version)
    response = client.post("/charts/", {"file": SimpleUploadedFile("chart.yaml", text.encode())})
    assert response.status_code == 200 and not ClubChart.objects.exists()
    assert f"The chart file: its {words} holds the control character U+00" in said(response)


def test_a_value_the_database_refuses_is_no_outage_but_one_that_does_not_answer_is(rf):
    outage = Unavailable(lambda request: HttpResponse())
    request = rf.get("/")
    refused = DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
    for mistake in (refused, IntegrityError("UNIQUE constraint failed"), ProgrammingError("syntax error")):
        assert outage.process_exception(request, mistake) is None  # a server error, seen as one
    for down in (OperationalError("database is locked"), InterfaceError("connection already closed")):
        answer = outage.process_exception(request, down)
        assert answer is not None and answer.status_code == 503
