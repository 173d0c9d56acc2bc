"""Live tables: a phone's poll costs one query and answers 204 with no body while the game stands still; once
another phone acted at the step's rows, with just the rows it changed, the step's panel, the result and the step
bar; after anything else, with the live part."""

import html
import itertools
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from republic.games.ledger import acting_on
from republic.games.models import Dispatch, Seat
from republic.games.scenario import create_game, parse_scenario
from republic.games.views.access import SEATS_KEY
from republic.games.views.answers import NEWS_MOST
from tests.club_battle import club_scenario
from tests.devices import master_device, seated_device
from tests.games.conftest import HTMX, at_step, brigade, fresh, set_state
from tests.games.move_helpers import roll_post
from tests.games.phone_screen import Screen, seen
from tests.games.test_phone_equals_reload import same_screen
from tests.games.test_rally import rally_post


@pytest.fixture
def moving(demo):
    return at_step(demo, "move")


@pytest.mark.parametrize("who", ["player", "master"])
def test_a_poll_while_the_game_stands_still_is_one_query_and_no_body(client, moving, who):
    device = seated_device(moving, "Union") if who == "player" else client
    poll = f"/games/{moving.pk}/poll/?since={moving.version}&letter=0"
    with CaptureQueriesContext(connection) as queries:
        response = device.get(poll, **HTMX)
    assert response.status_code == 204 and response.content == b""
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize("who", ["player", "master"])
def test_a_still_poll_is_one_query_at_every_size_and_with_many_phones_and_messages(db, who):
    for units in (20, 60):
        game = create_game(parse_scenario(club_scenario(units)))
        phones = [seated_device(game, side) for side in ("Union", "Confederate") * 3]
        seats = list(Seat.objects.filter(game=game))
        for sender, recipient in itertools.pairwise(seats):
            Dispatch.objects.create(
                game=game, game_turn=1, player_turn=1, sender=sender, recipient=recipient, text="Hold the ridge"
            )
        device = phones[0] if who == "player" else master_device()
        page = device.get(f"/games/{game.pk}/").content.decode()
        poll = html.unescape(re.search(r'id="poll"[^>]*hx-get="([^"]+)"', page).group(1))
        with CaptureQueriesContext(connection) as queries:
            response = device.get(poll, **HTMX)
        assert response.status_code == 204, (units, poll)
        assert len(queries) == 1, (units, [q["sql"] for q in queries.captured_queries])


@pytest.mark.parametrize("whose", ["revoked", "another game's"])
def test_a_still_poll_from_a_seat_the_game_does_not_hold_is_refused_as_any_request(moving, whose):
    if whose == "revoked":
        device = seated_device(moving, "Union", revoked=True)
        reason = "taken this device's seat away"
    else:
        other = create_game(parse_scenario(club_scenario(20)))
        device = seated_device(other, "Union")
        seats = device.session[SEATS_KEY]
        session = device.session
        session[SEATS_KEY] = {str(moving.pk): seats[str(other.pk)]}
        session.save()
        device.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
        reason = "no seat in this game"
    response = device.get(f"/games/{moving.pk}/poll/?since={moving.version}&letter=0", **HTMX)
    assert response.status_code == 403 and reason in html.unescape(response.content.decode())


def test_a_poll_after_another_phones_action_brings_the_live_part_and_its_result(client, moving):
    union = seated_device(moving, "Union")
    since = moving.version
    davis = brigade(moving, "Davis's Brigade")
    client.post(f"/games/{moving.pk}/units/{davis.pk}/m_plus/", {"version": since})
    response = union.get(f"/games/{moving.pk}/poll/?since={since}&letter=0", **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="live"')
    assert "Davis" in body and 'id="result"' in body
    assert f"/poll/?since={since + 1}&amp;letter=0" in body  # the next poll asks from the new version


def test_the_page_polls_every_few_seconds_from_its_version(client, moving):
    body = client.get(f"/games/{moving.pk}/").content.decode()
    poll = f"/games/{moving.pk}/poll/?since={moving.version}&amp;letter=0"
    assert f'hx-get="{poll}" hx-trigger="every 3s"' in body


def test_a_message_redraws_its_readers_pages_and_no_other(client, demo):
    game = at_step(demo, "messages")
    bob, carl = seated_device(game, "Union", name="Bob"), seated_device(game, "Union", name="Carl")
    ann = seated_device(game, "Confederate", name="Ann")
    polls = {who: f"/games/{game.pk}/poll/?since={game.version}&letter=0" for who in ("bob", "carl", "ann")}
    carl_seat = Seat.objects.get(game=game, name="Carl")
    bob.post(f"/games/{game.pk}/messages/", {"dispatch-recipient": carl_seat.pk, "dispatch-text": "Hold"}, **HTMX)
    letter = Dispatch.objects.get().pk
    assert carl.get(polls["carl"], **HTMX).status_code == 200  # his page draws the message
    assert ann.get(polls["ann"], **HTMX).status_code == 204  # the enemy's page stands still
    assert client.get(polls["bob"], **HTMX).status_code == 200  # the game master reads all
    page = carl.get(f"/games/{game.pk}/").content.decode()
    assert f"since={game.version}&amp;letter={letter}" in page
    assert carl.get(f"/games/{game.pk}/poll/?since={game.version}&letter={letter}", **HTMX).status_code == 204


@pytest.mark.parametrize("since", ["", "0", "99999"])
def test_a_poll_from_a_strange_version_brings_the_live_part(client, moving, since):
    response = client.get(f"/games/{moving.pk}/poll/?since={since}", **HTMX)
    assert response.status_code == 200 and "<html" not in response.content.decode()


@pytest.mark.parametrize("since", ["x", "-1", "²", "1e3", "9" * 40])
def test_a_poll_from_a_version_that_is_no_number_is_refused_saying_so(client, moving, since):
    response = client.get(f"/games/{moving.pk}/poll/?since={since}", **HTMX)
    assert response.status_code == 400
    assert "?since= takes a whole number from 0 to" in html.unescape(response.content.decode())


def rows_on(body: str) -> list[str]:
    """The subjects of the step rows a page or an answer draws, in order."""
    return re.findall(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"', body)


def poll_from(device, game, since: int, shown: list[str], opened: list[str] = ()):
    headers = {**HTMX, "HTTP_ROWS_SHOWN": " ".join(shown), "HTTP_ROWS_OPEN": " ".join(opened)}
    return device.get(f"/games/{game.pk}/poll/?since={since}&letter=0", **headers)


def test_after_another_phones_die_a_poll_redraws_only_that_row_the_panel_the_result_and_the_bar(client, moving):
    union = seated_device(moving, "Union")
    shown = rows_on(union.get(f"/games/{moving.pk}/").content.decode())
    davis, archer = brigade(moving, "Davis's Brigade"), brigade(moving, "Archer's Brigade")
    assert f"unit-{davis.pk}" in shown and f"unit-{archer.pk}" in shown
    since = moving.version
    roll_post(client, moving, davis, die="7")
    response = poll_from(union, moving, since, shown, opened=[f"unit-{archer.pk}"])
    body = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none" and 'id="live"' not in body
    assert rows_on(body) == [f"unit-{davis.pk}"] and f'id="row-unit-{davis.pk}" hx-swap-oob="true"' in body
    assert '<div id="step-head" hx-swap-oob="true">' in body and '<div id="result-slot" hx-swap-oob="true">' in body
    assert "Davis" in body.split('id="result-slot"')[1] and f"since={since + 1}&amp;letter=0" in body


def test_a_row_another_phone_finished_is_taken_away_and_a_redrawn_page_keeps_its_open_rows_open(client, demo):
    game = at_step(demo, "rally")
    names = ("Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade")
    archer, davis, pettigrew = (brigade(game, name) for name in names)
    for unit in (archer, davis, pettigrew):
        set_state(game, unit, m_hits=2)
    confederate = seated_device(fresh(game), "Confederate")
    shown = rows_on(confederate.get(f"/games/{game.pk}/").content.decode())
    assert shown == [f"unit-{archer.pk}", f"unit-{davis.pk}", f"unit-{pettigrew.pk}"]
    since = fresh(game).version
    rally_post(client, fresh(game), archer)
    body = poll_from(confederate, game, since, shown, opened=[f"unit-{davis.pk}"]).content.decode()
    assert f'<li id="row-unit-{archer.pk}" hx-swap-oob="delete"></li>' in body and rows_on(body) == []
    since, shown = fresh(game).version, shown[1:]
    set_state(game, pettigrew, m_hits=1)  # a correction at Pettigrew's card: not entered at a row
    body = poll_from(confederate, game, since, shown, opened=[f"unit-{davis.pk}"]).content.decode()
    assert body.lstrip().startswith('<div id="live"'), "an event of no row redraws the live part"
    assert rows_on(body) == shown and f"rally-{davis.piece.name}-die" in body, "the row the phone had open stays open"
    assert f"rally-{pettigrew.piece.name}-die" not in body


@pytest.mark.parametrize("change", ["next step", "an undo back over a step", "a row the page lacks", "too many"])
def test_what_a_page_cannot_take_in_place_redraws_the_live_part(client, demo, change):
    game = at_step(demo, "rally")
    archer, davis = brigade(game, "Archer's Brigade"), brigade(game, "Davis's Brigade")
    set_state(game, archer, m_hits=2)
    shown = [f"unit-{archer.pk}"]  # all the rows there are: Davis has no rally to make
    since = fresh(game).version
    if change == "next step":
        set_state(game, game, step="move")
    elif change == "an undo back over a step":
        rally_post(client, fresh(game), archer)
        client.post(f"/games/{game.pk}/next/", {"version": fresh(game).version}, **HTMX)
        client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
        assert fresh(game).step == "rally"
    elif change == "a row the page lacks":
        with acting_on(f"unit-{archer.pk}"):  # entered at Archer's row, it gives Davis a rally to make
            set_state(game, davis, m_hits=2)
    else:
        for _ in range(NEWS_MOST + 1):
            client.post(f"/games/{game.pk}/units/{archer.pk}/m_plus/", {"version": fresh(game).version}, **HTMX)
    response = poll_from(seated_device(fresh(game), "Confederate"), game, since, shown)
    assert response.status_code == 200 and response.content.decode().lstrip().startswith('<div id="live"')
    assert "HX-Reswap" not in response


def test_another_phones_action_undone_redraws_its_row_in_place_and_leaves_the_screen_as_a_reload(client, demo):
    game = at_step(demo, "rally")
    archer = brigade(game, "Archer's Brigade")
    set_state(game, archer, m_hits=2)
    confederate = seated_device(fresh(game), "Confederate")
    phone = Screen(confederate, f"/games/{game.pk}/")
    rally_post(client, fresh(game), archer)
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    assert fresh(game).events.last().undoes_id is not None
    answer = confederate.get(phone.by_id("poll").get("hx-get"), **phone.headers(None))
    assert answer["HX-Reswap"] == "none" and rows_on(answer.content.decode()) == [f"unit-{archer.pk}"]
    phone.swap(answer, None, "none")
    shows, reload = phone.seen(), seen(phone.drawn())
    assert "Undone: Archer's Brigade rallies" in shows["result"]  # which a reload shows its actor alone
    assert not same_screen({**shows, "result": "", "versions": []}, {**reload, "result": "", "versions": []})
