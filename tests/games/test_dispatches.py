"""Defenders' messages (1.7, 2.1): in the messages step each defending player may write once to each friendly
player; the recipient reads it with its turn, the game master reads them all, and the other side never does, on
any address of the app."""

import pytest

from republic.games.models import Dispatch, Game, Seat
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step
from tests.games.log_helpers import pdf_text
from tests.games.test_access import GAME_ADDRESSES, OTHER_ADDRESSES, address

SECRET = "Hold the ridge at all costs"


@pytest.fixture
def letters(client, demo):
    game = at_step(demo, "messages")
    assert game.defender.name == "Union"
    phones = {
        "bob": seated_device(game, "Union", name="Bob"),
        "carl": seated_device(game, "Union", name="Carl"),
        "ann": seated_device(game, "Confederate", name="Ann"),
        "master": client,
    }
    seats = {seat.name: seat for seat in Seat.objects.filter(game=game)}
    return game, phones, seats


def write(phone, game, to: Seat, text: str = SECRET):
    data = {"dispatch-recipient": to.pk, "dispatch-text": text}
    return phone.post(f"/games/{game.pk}/messages/", data, **HTMX)


def test_a_defender_writes_once_to_a_friend_who_reads_it_with_its_turn(letters):
    game, phones, seats = letters
    page = phones["bob"].get(f"/games/{game.pk}/").content.decode()
    assert 'aria-label="Send a message"' in page and f'value="{seats["Carl"].pk}"' in page
    assert f'value="{seats["Ann"].pk}"' not in page  # only friendly players
    write(phones["bob"], game, seats["Carl"])
    dispatch = Dispatch.objects.get()
    assert (dispatch.sender, dispatch.recipient, dispatch.game_turn, dispatch.player_turn) == (
        seats["Bob"],
        seats["Carl"],
        1,
        1,
    )
    read = phones["carl"].get(f"/games/{game.pk}/").content.decode()
    assert SECRET in read and "Game turn 1, player turn 1 · Bob to Carl" in read
    assert SECRET in phones["master"].get(f"/games/{game.pk}/").content.decode()
    # Bob has written to his only friend: no form, and a second message is refused
    assert 'aria-label="Send a message"' not in phones["bob"].get(f"/games/{game.pk}/").content.decode()
    again = write(phones["bob"], game, seats["Carl"], "And another").content.decode()
    assert "every friendly player" in again and Dispatch.objects.count() == 1


def test_the_other_side_never_reads_a_dispatch_on_any_address(letters):
    game, phones, seats = letters
    write(phones["bob"], game, seats["Carl"])
    ann = phones["ann"]
    for name in [*GAME_ADDRESSES, *OTHER_ADDRESSES]:
        url = address(name, game)
        for headers in ({}, HTMX):
            response = ann.get(url, **headers)
            pdf = response.get("Content-Type") == "application/pdf"  # the turn log's: read back as text
            body = pdf_text(response) if pdf else response.content.decode()
            assert SECRET not in body, f"{url} shows the Union's message to a Confederate player"
    poll = ann.get(f"/games/{game.pk}/poll/?since=0", **HTMX).content.decode()
    assert "Messages" not in poll and SECRET not in poll
    assert SECRET not in ann.get(f"/games/{game.pk}/log/").content.decode()


@pytest.mark.parametrize(
    "who, to, text, status, problem",
    [
        ("ann", "Bob", SECRET, 403, "defending side"),
        ("master", "Bob", SECRET, 200, "Only a defending player"),
        ("bob", "Ann", SECRET, 200, "Select a valid choice"),
        ("bob", "Bob", SECRET, 200, "Select a valid choice"),
        ("bob", "Carl", "x" * 1001, 200, "at most 1000 characters"),
        ("bob", "Carl", "", 200, "This field is required"),
    ],
)
def test_a_dispatch_that_may_not_be_sent_is_refused_and_nothing_is_kept(letters, who, to, text, status, problem):
    game, phones, seats = letters
    response = write(phones[who], game, seats[to], text)
    assert response.status_code == status and problem in response.content.decode()
    assert not Dispatch.objects.exists()


def test_messages_are_written_in_the_messages_step_alone_and_read_in_their_player_turn(letters):
    game, phones, seats = letters
    write(phones["bob"], game, seats["Carl"])
    at_step(game, "rally")
    assert SECRET in phones["carl"].get(f"/games/{game.pk}/").content.decode()
    assert 'aria-label="Send a message"' not in phones["bob"].get(f"/games/{game.pk}/").content.decode()
    response = write(phones["bob"], game, seats["Carl"], "Too late")
    assert "start of a player turn" in response.content.decode() and Dispatch.objects.count() == 1


def test_a_message_is_shown_in_its_player_turn(letters):
    game, phones, seats = letters
    write(phones["bob"], game, seats["Carl"])
    Game.objects.filter(pk=game.pk).update(player_turn=2)
    assert SECRET not in phones["carl"].get(f"/games/{game.pk}/").content.decode()
