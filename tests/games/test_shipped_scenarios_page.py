"""The new-game page lists the battles shipped with the app, with their size, the players they need and the game
turns their day holds, and starts one in a tap for the game master alone; a scenario's bad leader class, a brigade
too small for one base and a battery type the rules lack are each refused naming the line and field."""

import shutil

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from republic.games.models import Game, Unit
from republic.games.scenario import parse_scenario
from republic.scenarios import DEMO_SCENARIO, SCENARIO_DIR
from tests.games.scenario_files import DEMO, line_of, refused

ANTIETAM = SCENARIO_DIR / "antietam-1862-09-17.yaml"


def test_the_new_game_page_lists_each_shipped_battle_with_its_size_players_and_turns(client):
    body = client.get(reverse("games:home")).content.decode()

    assert "Battles ready to fight" in body
    for title, units, players, turns in (
        ("Antietam, September 17, 1862", "128 units</strong>: 91 brigades, 37 batteries", "8 to 30 players", 18),
        ("Gettysburg, the first day, July 1, 1863", "67 units</strong>: 40 brigades, 27 batteries", "4 to 15", 18),
        ("Shiloh, the first day, April 6, 1862", "56 units</strong>: 35 brigades, 21 batteries", "4 to 14", 20),
        ("Gettysburg, the morning of July 1, 1863 (demo)", "13 units</strong>: 8 brigades, 5 batteries", "2 to 3", 5),
    ):
        card = body[body.index(title) :].split("</article>", 1)[0]
        assert units in card and players in card and "Start this battle" in card
        assert f"{turns} game turns" in card
    assert body.index("(demo)") < body.index("Antietam")  # the demo first
    assert "Busey &amp; Martin, Regimental Strengths" in body  # its sources, in the card's fold
    assert 'enctype="multipart/form-data"' in body  # a club's own file still uploads below


def test_start_this_battle_makes_the_game_of_the_shipped_file(client):
    response = client.post(reverse("games:start_scenario", args=["antietam-1862-09-17"]))

    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:game", args=[game.pk])
    assert (game.scenario, game.last_turn, game.first_attacker.name) == ("Antietam, September 17, 1862", 18, "Union")
    assert Unit.objects.filter(game=game).count() == 128


def test_a_player_may_not_start_a_battle(db):
    player = Client()
    response = player.post(reverse("games:start_scenario", args=["shiloh-1862-04-06"]))
    assert response.status_code == 403 and Game.objects.count() == 0
    assert "Battles ready to fight" not in player.get(reverse("games:home")).content.decode()


def test_starting_a_battle_needs_the_page_s_security_token(db):
    master = Client(enforce_csrf_checks=True)
    master.force_login(get_user_model().objects.create_user("master", is_staff=True))
    response = master.post(reverse("games:start_scenario", args=["shiloh-1862-04-06"]))
    assert response.status_code == 403 and Game.objects.count() == 0


def test_an_unknown_battle_is_refused_with_a_message(client):
    response = client.post(reverse("games:start_scenario", args=["waterloo"]), follow=True)
    assert "No scenario called &#x27;waterloo&#x27; ships with the app." in response.content.decode()
    assert Game.objects.count() == 0


def test_a_malformed_shipped_file_is_listed_with_its_problem_not_a_server_error(client, tmp_path, monkeypatch):
    shutil.copy(DEMO_SCENARIO, tmp_path / DEMO_SCENARIO.name)
    (tmp_path / "broken.yaml").write_text(DEMO.replace("grade: crack", "grade: elite"), encoding="utf-8")
    monkeypatch.setattr("republic.games.shipped_scenarios.SCENARIO_DIR", tmp_path)

    response = client.get(reverse("games:home"))

    body = response.content.decode()
    assert response.status_code == 200 and "(demo)" in body
    assert f"broken.yaml, line {line_of(DEMO, 'grade: crack')}" in body and "got &#x27;elite&#x27;" in body
    assert client.post(reverse("games:start_scenario", args=["broken"])).status_code == 302
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("needle", "wrong", "field", "problem"),
    [
        ("value: P1}", "value: X3}", "leader.value", "a leader is written as class E, P or C and a rating"),
        (
            "men: 650, skirmishers: 1}",
            "men: 100, skirmishers: 1}",
            "brigades[0].men",
            "100 men gives 0 bases at 275 men a base (1.1)",
        ),
        ("type: m_sb}", "type: mortar}", "batteries[0].type", "expected one of h_rifle, m_rifle, m_sb, l_sb"),
    ],
    ids=["leader class", "men for no base", "battery type"],
)
def test_a_bad_scenario_value_is_refused_naming_its_line_and_field(db, needle, wrong, field, problem):
    text = ANTIETAM.read_text(encoding="utf-8")
    bad = text.replace(needle, wrong, 1)

    message = refused(parse_scenario, bad)

    assert message.startswith(f"line {line_of(text, needle)}, ") and f"{field}: " in message
    assert problem in message


def test_cavalry_men_go_150_to_a_base_and_give_no_base_below_75(db):
    troopers = DEMO.replace("bases: 10, formation: single_line", "men: 1612, formation: single_line")
    gamble = parse_scenario(troopers).sides[1].commands[1].brigades[0]
    assert gamble.bases == 11  # 10.7 bases, to the nearest

    message = refused(
        parse_scenario, DEMO.replace("bases: 10, formation: single_line", "men: 74, formation: single_line")
    )
    assert "74 men gives 0 bases at 150 men a base (1.1)" in message


def test_a_brigade_gives_bases_or_men_not_both(db):
    message = refused(parse_scenario, DEMO.replace("bases: 4,", "bases: 4, men: 1100,", 1))
    assert "men: give bases or men, not both" in message


def test_a_bad_upload_creates_no_game(client):
    bad = ANTIETAM.read_text(encoding="utf-8").replace("type: m_sb}", "type: mortar}", 1)
    upload = SimpleUploadedFile("antietam.yaml", bad.encode(), content_type="application/x-yaml")
    response = client.post(reverse("games:new_game"), {"file": upload, "ground_scale": "medium", "chart": ""})
    assert response.status_code == 200 and "batteries[0].type" in response.content.decode()
    assert Game.objects.count() == 0
