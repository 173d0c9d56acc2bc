"""The room's big screen: the game master's, or a read-only link's he can take back; every game in progress with
its step, whose seats it waits on and its latest results, nothing a side keeps to itself, and the same queries
whatever the number of units and of games."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from republic.games.models import Game, RoomLink, Seat
from republic.games.scenario import create_game, parse_scenario
from republic.games.views.access import MASTER_ONLY
from republic.games.views.room import TAKEN_BACK, UNKNOWN
from tests.club_battle import club_scenario
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, set_state
from tests.games.test_dashboard import demo_game
from tests.games.test_dispatches import SECRET, write


def made_link(client) -> RoomLink:
    assert client.post("/dashboard/room-links/").status_code == 302
    return RoomLink.objects.latest("pk")


def test_the_game_master_sees_each_game_in_progress_with_its_step_its_waiting_seats_and_latest_results(client, demo):
    game = at_step(demo, "rally")
    seated_device(game, "Confederate", name="Ann")
    for hits in (1, 2, 3):
        set_state(game, brigade(game, "Davis's Brigade"), m_hits=hits)
    setting_up = demo_game()
    Game.objects.filter(pk=setting_up.pk).update(status=Game.Status.SETTING_UP)
    page = client.get("/room/").content.decode()
    start = page.index(f'id="room-game-{game.pk}"')
    card = page[start : page.index("</ol>", start)]
    assert "Game turn 1 · player turn 1 · attacker Confederate" in card
    assert "Attacker rallies units" in card and "Waiting on Confederate (Ann)" in card
    assert card.count("<li>") == 3  # the latest three results, in the turn log's words
    assert '<p class="room-pace">Pace known after the first player turn</p>' in card  # the pace, in one line
    assert f'id="room-game-{setting_up.pk}"' not in page
    assert 'hx-get="/room/" hx-trigger="every 5s"' in page


def test_a_game_just_finished_is_shown_as_over(client, demo):
    game = at_step(demo, "rally")
    response = client.post(f"/games/{game.pk}/end/", {"version": game.version, "winner": game.sides.last().pk})
    assert response.status_code == 302
    page = client.get("/room/").content.decode()
    assert 'class="room-card room-over"' in page and "Game over" in page


def test_anyone_else_without_a_link_is_refused_and_offered_to_sign_in(demo):
    signed_in = Client()
    signed_in.force_login(get_user_model().objects.create_user("ann"))
    for device in (Client(), seated_device(at_step(demo, "rally"), "Union"), signed_in):
        response = device.get("/room/")
        text = response.content.decode()
        assert response.status_code == 403 and MASTER_ONLY in text and demo.name not in text
    assert 'href="/accounts/login/?next=/room/"' in Client().get("/room/").content.decode()


def test_a_live_link_shows_the_screen_and_one_taken_back_says_so_and_nothing_else(client, demo):
    game = at_step(demo, "rally")
    link = made_link(client)
    dashboard = client.get("/dashboard/").content.decode()
    assert (
        f"http://testserver/room/{link.key}/" in dashboard
        and "<title>The room screen's read-only link</title>" in dashboard
    )
    anyone = Client()
    assert game.name in anyone.get(f"/room/{link.key}/").content.decode()
    assert client.post(f"/dashboard/room-links/{link.pk}/revoke/").status_code == 302
    for headers in ({}, HTMX):  # the page, and the screen's next redraw
        response = anyone.get(f"/room/{link.key}/", **headers)
        text = response.content.decode()
        assert response.status_code == 403 and escape(TAKEN_BACK) in text and game.name not in text
        assert "hx-trigger" not in text  # it stops redrawing
    assert f"/room/{link.key}/" not in client.get("/dashboard/").content.decode()
    unknown = anyone.get("/room/not-a-key/")
    assert unknown.status_code == 404 and escape(UNKNOWN) in unknown.content.decode()


def test_only_the_game_master_makes_or_takes_back_a_link_and_only_with_a_token(client, demo):
    link = made_link(client)
    player = seated_device(demo, "Union")
    for device in (Client(), player):
        assert device.post("/dashboard/room-links/").status_code == 403
        assert device.post(f"/dashboard/room-links/{link.pk}/revoke/").status_code == 403
    assert RoomLink.objects.count() == 1 and RoomLink.objects.get().revoked is None
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(get_user_model().objects.get(username="master"))
    assert checked.post("/dashboard/room-links/").status_code == 403
    assert checked.post(f"/dashboard/room-links/{link.pk}/revoke/").status_code == 403
    assert RoomLink.objects.count() == 1 and RoomLink.objects.get().revoked is None
    assert client.get("/dashboard/room-links/").status_code == 405


def test_nothing_a_side_keeps_to_itself_is_on_the_screen(client, demo):
    game = at_step(demo, "messages")
    bob, carl = seated_device(game, "Union", name="Bob"), seated_device(game, "Union", name="Carl")
    assert bob and carl
    write(bob, game, Seat.objects.get(name="Carl"))
    link = made_link(client)
    for page in (client.get("/room/").content.decode(), Client().get(f"/room/{link.key}/").content.decode()):
        assert SECRET not in page and game.join_code not in page and "/join/" not in page
        assert "<form" not in page and "<button" not in page and "csrf" not in page.lower()
        assert not re.search(r"<a\b", page)  # no controls: nothing to tap


def queries(device: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert device.get(path, **HTMX).status_code == 200
    return len(captured)


@pytest.mark.parametrize("path", ["/room/", "link"])
def test_the_screen_costs_the_same_at_13_and_400_units_and_for_one_game_or_five(client, db, path):
    link = made_link(client)
    path = f"/room/{link.key}/" if path == "link" else path
    small = at_step(create_game(parse_scenario(club_scenario(13))), "rally")
    set_state(small, small, game_turn=2)
    one = queries(client, path)
    Game.objects.filter(pk=small.pk).update(status=Game.Status.SETTING_UP)
    big = at_step(create_game(parse_scenario(club_scenario(400))), "rally")
    set_state(big, big, game_turn=2)
    assert queries(client, path) == one
    Game.objects.filter(pk=small.pk).update(status=Game.Status.IN_PROGRESS)
    for _ in range(3):
        at_step(demo_game(), "move")
    assert queries(client, path) == one


def test_a_result_taken_back_leaves_the_screen_and_its_undo_shows(client, demo):
    game = at_step(demo, "rally")
    for hits in (1, 2):
        set_state(game, brigade(game, "Davis's Brigade"), m_hits=hits)
    assert client.post(f"/games/{game.pk}/undo/", {"version": Game.objects.get(pk=game.pk).version}).status_code == 302
    page = client.get("/room/").content.decode()
    results = page[page.index('class="room-results"') : page.index("</ol>")]
    assert results.count("M hits 2") == 1 and "<li>Undone: Correction: Davis&#x27;s Brigade: M hits 2" in results
    assert "M hits 1" in results
