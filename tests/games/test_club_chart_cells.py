"""A club chart with a cell no table allows (NaN, an infinity, a negative distance, a die score beyond the die, a
boolean, a key a table does not hold) is refused naming its table, row and cell, whether it is uploaded or comes
inside a saved game, and nothing is kept: no chart, no game. A saved game's club chart is held to every check an
upload is, the rules' worked examples included, so a chart refused at /charts/ is never kept by loading a game."""

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from republic.charts import checksum_of
from republic.games.archive.export import dumps, export_game
from republic.games.models import ClubChart, Event, Game, Unit
from republic.games.text.charts import table_title
from tests.chart_files import BAD_CELLS, BREAKS, cell, chart_text
from tests.games.test_club_chart import problems, upload

GOOD_EDIT = cell("rally", "average", "rattled", 12)


def counts() -> list[int]:
    return [model.objects.count() for model in (Game, Unit, Event, ClubChart)]


def saved_on(demo: Game, text: str) -> bytes:
    """The demo saved as a game played on a club chart of this text, which the file carries."""
    data: dict[str, Any] = json.loads(dumps(export_game(demo.pk)))
    checksum = checksum_of(text)
    data["club_charts"] = [{"name": "Our club's chart", "version": "2025", "checksum": checksum, "text": text}]
    data["game"]["chart_checksum"] = checksum
    return json.dumps(data).encode()


def load(client, raw: bytes):
    return client.post("/games/load/", {"file": SimpleUploadedFile("saved.json", raw)}, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("kind", list(BAD_CELLS))
def test_an_upload_with_a_bad_cell_is_refused_naming_table_row_and_cell_and_nothing_is_kept(client, kind):
    edit, place = BAD_CELLS[kind]
    said = problems(upload(client, chart_text(edit)))
    path = " › ".join(part for part in place if part)
    assert f"{table_title(place[0])}" in said and f"(in the file: {path})" in said, said
    assert "Nothing was changed" in said
    assert not ClubChart.objects.exists()


def test_an_infinite_range_bracket_is_refused_with_the_span_a_bracket_allows(client):
    said = problems(upload(client, chart_text(BAD_CELLS["inf-range"][0])))
    assert (
        "Artillery range brackets: upper limit in inches (medium scale) (4.2), row Range column 10 "
        "(in the file: artillery_ranges › r10): expected a distance in inches, a number above 0 and at most 100, "
        "got inf"
    ) in said


@pytest.mark.parametrize("kind", list(BAD_CELLS))
def test_a_saved_game_whose_club_chart_has_a_bad_cell_is_refused_and_nothing_is_made(client, demo, kind):
    edit, (table, row, column) = BAD_CELLS[kind]
    before = counts()
    body = load(client, saved_on(demo, chart_text(edit))).content.decode()
    assert "saved.json: The club chart" in body and "is no chart" in body
    assert f"table &#x27;{table}&#x27;" in body and (not row or f"row &#x27;{row}&#x27;" in body)
    assert not column or f"cell &#x27;{column}&#x27;" in body
    assert counts() == before


def test_a_saved_game_whose_club_chart_contradicts_a_worked_example_is_refused_and_the_chart_not_offered(client, demo):
    before = counts()
    body = load(client, saved_on(demo, chart_text(BREAKS["T18"][0]))).content.decode()
    assert "contradicts the rules&#x27; worked examples, and would be refused as an upload" in body
    assert "Worked example T18 (R:1714-1719): a veteran unit takes 2 panic hits" in body
    assert counts() == before
    assert "(club chart)" not in client.get("/").content.decode()


def test_a_saved_game_whose_club_chart_is_sound_loads_and_the_chart_is_offered_for_new_games(client, demo):
    response = load(client, saved_on(demo, chart_text(GOOD_EDIT)))
    copy = Game.objects.exclude(pk=demo.pk).get()
    assert response.status_code == 200 and response["HX-Redirect"] == f"/games/{copy.pk}/"
    club = ClubChart.objects.get()
    assert copy.chart_checksum == club.checksum and club.text == chart_text(GOOD_EDIT)
    assert "Our club&#x27;s chart, version 2025 (club chart)" in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name: x\n" + "a: " + "[" * 1000 + "]" * 1000, "nested more than"),
        (chart_text(name="Club\x00chart"), "its name holds the control character U+0000"),
    ],
)
def test_a_saved_game_whose_club_chart_is_nested_past_any_or_names_a_control_character_is_refused(
    client, demo, text, words
):
    """The checks an upload makes before it reads a chart's cells hold a chart inside a saved game too."""
    before = counts()
    body = load(client, saved_on(demo, text)).content.decode()
    assert "saved.json: The club chart" in body and "is no chart" in body and words in body
    assert counts() == before
