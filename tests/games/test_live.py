"""Live tables: a phone's poll costs two queries and answers 204 with no body while the game stands still; once
another phone acted, it answers with the live part and the latest result."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from republic.games.models import Dispatch, Seat
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade


@pytest.fixture
def moving(demo):
    return at_step(demo, "move")


@pytest.mark.parametrize("who", ["player", "master"])
def test_a_poll_while_the_game_stands_still_is_two_queries_and_no_body(client, moving, who):
    device = seated_device(moving, "Union") if who == "player" else client
    poll = f"/games/{moving.pk}/poll/?since={moving.version}&letter=0"
    with CaptureQueriesContext(connection) as queries:
        response = device.get(poll, **HTMX)
    assert response.status_code == 204 and response.content == b""
    assert len(queries) <= 2, [q["sql"] for q in queries.captured_queries]


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


@pytest.mark.parametrize("since", ["", "x", "-1"])
def test_a_poll_from_a_strange_version_brings_the_live_part(client, moving, since):
    response = client.get(f"/games/{moving.pk}/poll/?since={since}", **HTMX)
    assert response.status_code == 200 and "<html" not in response.content.decode()
