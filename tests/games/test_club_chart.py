"""The club's chart: the game master uploads it, it is checked like the shipped one and against the rules' worked
examples, a game is started on it and reads its cells, every event records the chart it read, and the game's
chart page shows each cell's provenance and what differs from the app's chart."""

import hashlib
import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from republic.charts import shipped_checksum
from republic.games.models import ClubChart, Event, Game
from republic.games.models.charts import club_identity
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.games.uploads import CHART_MOST
from republic.scenarios import DEMO_SCENARIO
from tests.chart_files import BREAKS, SHIPPED_TEXT, cell, chart_text
from tests.devices import seated_device
from tests.games.conftest import brigade, payload, set_state

CLUB_EDITS = (cell("rally", "average", "rattled", 12), cell("panic_index", "green", "p1", "F"))
"""Two cells a club's printed chart gives otherwise, neither pinned by a worked example."""


def upload(device: Client, text: str | bytes, name: str = "club.yaml"):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return device.post("/charts/", {"file": SimpleUploadedFile(name, data, content_type="application/x-yaml")})


def problems(response) -> str:
    found = re.search(
        r'<div class="alert alert-danger" role="alert" id="chart-problems".*?</div>', response.content.decode(), re.S
    )
    assert found, "the page names no problem"
    return re.sub(r"\s+", " ", html.unescape(found.group(0)))


@pytest.fixture
def club(client) -> ClubChart:
    response = upload(client, chart_text(*CLUB_EDITS))
    kept = ClubChart.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/charts/{kept.pk}/"
    return kept


@pytest.fixture
def club_game(club) -> Game:
    return create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")), chart=club_identity(club))


# --- the upload -----------------------------------------------------------------------------------------


def test_a_good_chart_is_kept_with_its_name_version_checksum_text_and_uploader(client, club):
    text = chart_text(*CLUB_EDITS)
    assert (club.name, club.version, club.text) == ("Our club's chart", "2025", text)
    assert club.checksum == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert club.uploaded_by.username == "master" and club.uploaded is not None
    page = client.get("/charts/").content.decode()
    assert "Our club&#x27;s chart</strong>, version 2025" in page


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name: [unclosed\n", "The chart file: not readable YAML at line 2"),
        (b"name: \xff\xfe club\n", "not UTF-8 text"),
        ("", "The file is empty"),
        ("   \n\n", "The file is empty"),
        ("- just\n- a list\n", "a chart file is a mapping"),
        (
            chart_text(lambda data: data["tables"].pop("rally")),
            "Rally Table (2.3) (in the file: rally): the table is missing",
        ),
        (
            chart_text(cell("rally", "crack", "shaken", "seven")),
            "Rally Table (2.3), row Crack, cell Shaken (in the file: rally › crack › shaken): expected a rally number, "
            "a whole number from 0 to 30, got 'seven'",
        ),
        (
            chart_text(lambda data: data["tables"]["panic_index"]["rows"]["green"].pop("p3")),
            "Panic Index (5.5, 6.1), row Green, cell Panic 3 (in the file: panic_index › green › p3): "
            "the cell is missing",
        ),
        (chart_text(name="x" * 121), "The chart file: its name is longer than 120 characters"),
    ],
    ids=[
        "not-yaml",
        "not-utf8",
        "empty",
        "blank",
        "not-a-mapping",
        "table-missing",
        "bad-cell",
        "cell-missing",
        "long-name",
    ],
)
def test_a_bad_file_is_refused_naming_what_is_wrong_and_nothing_is_kept(client, text, words):
    response = upload(client, text)
    assert response.status_code == 200
    assert words in problems(response) and "Nothing was changed" in problems(response)
    assert not ClubChart.objects.exists()


def test_a_huge_file_is_refused_unread(client):
    response = upload(client, "#" * (CHART_MOST + 1))
    assert "The file is 256 KB; a chart file is at most 256 KB." in html.unescape(response.content.decode())
    assert not ClubChart.objects.exists()


def test_a_chart_contradicting_a_worked_example_is_refused_naming_the_example_table_row_and_cell(client):
    edit, _ = BREAKS["T18"]
    text = problems(upload(client, chart_text(edit)))
    assert "Worked example T18 (R:1714-1719): a veteran unit takes 2 panic hits" in text
    assert "the rules: it withdraws, with no bases lost; this chart: fall back, no bases lost" in text
    assert "It rests on Panic Index: Veteran, Panic 2 = F (provisional)" in text
    assert not ClubChart.objects.exists()


def test_every_contradicted_example_is_named_at_once(client):
    text = problems(upload(client, chart_text(BREAKS["T6"][0], BREAKS["T21"][0])))
    assert "2 problems" in text and "Worked example T6" in text and "Worked example T21" in text
    assert "Maneuver table: lowest modified 1D10 for each action: Advance, Green = 4" in text
    assert not ClubChart.objects.exists()


def test_the_same_chart_twice_or_the_apps_own_chart_is_not_kept_again(client, club):
    assert "uploaded already, as Our club's chart (2025)" in problems(upload(client, chart_text(*CLUB_EDITS)))
    assert "the app's own chart (Republic 1.0 (provisional))" in problems(upload(client, SHIPPED_TEXT))
    assert ClubChart.objects.count() == 1


def test_a_player_or_a_stranger_may_not_upload_or_see_club_charts(demo):
    for device in (Client(), seated_device(demo, "Union")):
        assert upload(device, chart_text(*CLUB_EDITS)).status_code == 403
        assert device.get("/charts/").status_code == 403
    assert not ClubChart.objects.exists()


# --- a game on the club's chart -------------------------------------------------------------------------


def test_the_new_game_form_lists_the_shipped_and_the_club_charts_and_starts_a_game_on_the_one_chosen(client, club):
    home = client.get("/").content.decode()
    assert '<option value="shipped:republic-1.0-provisional">Republic 1.0 (provisional), shipped with the app' in home
    assert f'<option value="club:{club.pk}">Our club&#x27;s chart, version 2025 (club chart)' in home
    scenario = SimpleUploadedFile("demo.yaml", DEMO_SCENARIO.read_bytes())
    response = client.post("/games/new/", {"file": scenario, "ground_scale": "medium", "chart": f"club:{club.pk}"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.chart_name, game.chart_version, game.chart_checksum) == (club.name, club.version, club.checksum)


def test_a_game_started_on_the_scenarios_chart_records_the_shipped_files_identity(demo):
    assert demo.chart_version == "republic-1.0-provisional" and demo.chart_name == "Republic 1.0 (provisional)"
    assert demo.chart_checksum == shipped_checksum("republic-1.0-provisional")


def test_a_rally_on_the_club_chart_reads_the_clubs_cell_and_the_event_records_the_chart(client, club, club_game):
    davis = brigade(club_game, "Davis's Brigade")  # average
    set_state(club_game, davis, m_hits=2)
    advance(club_game, None, "test")  # messages -> rally
    club_game.refresh_from_db()
    data = {
        f"rally-{davis.piece.name}-{k}": v
        for k, v in (("version", club_game.version), ("die", 2), ("division_leader_distance", 3))
    }
    client.post(f"/games/{club_game.pk}/act/rally/unit-{davis.pk}/", {**data, "roll": "typed"})
    event = Event.objects.get(game=club_game, kind="RallyResolved")
    result = payload(event).result
    assert result.old_number == 12  # the club's average rattled; the app's chart says 10
    assert any(c.table == "rally" and c.key == "average, rattled" and c.value == "12" for c in result.cells)
    assert event.chart_checksum == club.checksum
    assert set(Event.objects.filter(game=club_game).values_list("chart_checksum", flat=True)) == {club.checksum}


def test_every_event_of_a_game_on_the_shipped_chart_records_its_checksum(demo):
    advance(demo, None, "test")
    assert list(Event.objects.filter(game=demo).values_list("chart_checksum", flat=True)) == [demo.chart_checksum]


# --- the chart pages ------------------------------------------------------------------------------------


def test_the_games_chart_page_marks_each_cell_the_club_changed_with_the_apps_value_and_counts_them(client, club_game):
    page = client.get(f"/games/{club_game.pk}/chart/").content.decode()
    assert "Chart of Gettysburg" in page and "Our club&#x27;s chart</strong>, version 2025" in page
    assert "2 cells differ from the app's chart" in page
    assert page.count('class="is-provisional is-changed"') == 2
    assert "app's chart: 10</small>" in page and "app's chart: W</small>" in page
    assert 'class="is-confirmed"' in page and "R:1714-1719" in page  # provenance and source, as on /chart/
    assert "Panic 1</th>" in page and "p1</th>" not in page  # the rules' words, not the file's


def test_a_game_on_the_apps_chart_shows_no_difference(client, demo):
    page = client.get(f"/games/{demo.pk}/chart/").content.decode()
    assert "Every cell is as in the app's own chart" in page and "is-changed" not in page


def test_the_games_chart_is_for_its_players_and_the_game_master(client, club_game):
    assert seated_device(club_game, "Union").get(f"/games/{club_game.pk}/chart/").status_code == 200
    assert Client().get(f"/games/{club_game.pk}/chart/").status_code == 403


def test_an_uploaded_charts_own_page_shows_its_differences(client, club):
    page = client.get(f"/charts/{club.pk}/").content.decode()
    assert "2 cells differ" in page and "uploaded by master" in page
