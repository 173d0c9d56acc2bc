"""The game master saves a game from its turn log and loads it from the home page; a file refused says why on the
form and makes nothing. Saving costs the same queries at two sizes of a club battle; loading makes its rows a
table at a time, not one by one."""

import datetime
import json
import re

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import escape

from republic.games.archive.export import SCHEMA
from republic.games.archive.load import loaded_name
from republic.games.models import Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from tests.club_battle import club_scenario
from tests.games.conftest import at_step, brigade, rolled_for_assault, set_state
from tests.games.query_helpers import SIZES


def test_the_turn_log_offers_the_game_master_the_whole_game_as_a_file(client, demo):
    assert f'href="/games/{demo.pk}/save/"' in client.get(f"/games/{demo.pk}/log/").content.decode()
    response = client.get(f"/games/{demo.pk}/save/")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="gettysburg-the-morning-of-july-1-1863-demo-20')
    assert disposition.endswith('.json"')
    data = json.loads(response.content)
    assert data["schema"] == SCHEMA and len(data["units"]) == Unit.objects.filter(game=demo).count()
    assert "seats" not in data and "dispatches" not in data


def test_a_saved_game_loads_from_its_page_and_opens(client, demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=2)
    saved = client.get(f"/games/{demo.pk}/save/").content
    assert 'href="/games/load/"' in client.get("/").content.decode()
    page = client.get("/games/load/").content.decode()
    assert 'enctype="multipart/form-data"' in page and "Load game" in page and "style=" not in page
    response = client.post("/games/load/", {"file": SimpleUploadedFile("saved.json", saved)})
    copy = Game.objects.exclude(pk=demo.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/games/{copy.pk}/"
    assert brigade(copy, "Davis's Brigade").m_hits == 2 and copy.join_code != demo.join_code


def test_a_loaded_game_says_so_in_its_name_and_on_its_card_and_is_not_the_demo(client, demo):
    saved = client.get(f"/games/{demo.pk}/save/").content
    client.post("/games/load/", {"file": SimpleUploadedFile("saved.json", saved)})
    copy = Game.objects.exclude(pk=demo.pk).get()
    when = timezone.localtime(copy.loaded_at)
    assert copy.name == f"{demo.name} (loaded {when.day} {when:%b %H:%M})" and not copy.demo and demo.demo
    said = f"Loaded from a saved game's file on {when.day} {when:%b %Y} at {when:%H:%M}"
    listed = re.findall(r'<li class="list-group-item.*?</li>', client.get("/").content.decode(), re.S)
    card = next(li for li in listed if f'href="/games/{copy.pk}/"' in li)
    original = next(li for li in listed if f'href="/games/{demo.pk}/"' in li)
    assert escape(copy.name) in card and said in card and ">demo</span>" not in card
    assert ">demo</span>" in original and "Loaded from" not in original
    dashboard = client.get("/dashboard/").content.decode()
    assert dashboard.count("Loaded from a saved game") == 1 and said in dashboard
    assert escape(copy.name) in client.get(f"/games/{copy.pk}/").content.decode()


def test_a_loaded_name_fits_its_field_and_names_the_latest_load_only():
    at = timezone.make_aware(datetime.datetime(2026, 11, 26, 14, 5))
    assert loaded_name("Gettysburg", at) == "Gettysburg (loaded 26 Nov 14:05)"
    assert loaded_name("Gettysburg (loaded 25 Nov 09:00)", at) == "Gettysburg (loaded 26 Nov 14:05)"
    long = loaded_name("x" * 120, at)
    assert len(long) == Game._meta.get_field("name").max_length and long.endswith(" (loaded 26 Nov 14:05)")


def test_a_refused_file_says_why_on_the_form_and_makes_no_game(client, demo):
    games, events = Game.objects.count(), Event.objects.count()
    upload = SimpleUploadedFile("notes.json", b'{"schema": "republic-game/9", "format": "Republic Companion game"}')
    response = client.post("/games/load/", {"file": upload}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert (
        response.status_code == 200
        and "notes.json: The file was saved by a later version of the app (republic-game/9)" in body
    )
    assert Game.objects.count() == games and Event.objects.count() == events


def _club_game(units: int) -> Game:
    game = create_game(parse_scenario(club_scenario(units)))
    game = at_step(rolled_for_assault(game), "assaults")
    return game


def test_saving_costs_the_same_queries_at_two_sizes_and_loading_a_few_a_table(client):
    counted = {}
    for size in SIZES:
        game = _club_game(size)
        with CaptureQueriesContext(connection) as saving:
            response = client.get(f"/games/{game.pk}/save/")
        assert response.status_code == 200
        with CaptureQueriesContext(connection) as loading:
            client.post("/games/load/", {"file": SimpleUploadedFile("club.json", response.content)})
        rows = Unit.objects.filter(game=game).count() + Event.objects.filter(game=game).count()
        counted[size] = (len(saving), len(loading), rows)
    (small_save, small_load, small_rows), (large_save, large_load, large_rows) = counted[SIZES[0]], counted[SIZES[1]]
    assert small_save == large_save, counted
    # the rows go in a table at a time, many to a statement: far fewer queries than rows, at either size
    assert large_rows > small_rows and large_load < large_rows / 4 and small_load < small_rows / 2, counted
