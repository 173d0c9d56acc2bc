"""The game master sets the day's end and last turn from the dashboard or the game page, refused with the reason
when the end is past, the last turn is already behind or the box holds no number, and nothing changes then; the
dashboard and the game page show the pace read from the events' times."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from republic.games.models import Event, Game
from tests.devices import seated_device
from tests.games.conftest import fresh, set_state

LATE = "23:59"  # later today, but for the day's last minute
MIDNIGHT = "00:00"  # earlier today, whenever the test runs


def day(client, game: Game, back: str = "game", **fields: str):
    return client.post(f"/games/{game.pk}/day/", {"back": back, **fields}, follow=True)


def test_the_game_master_sets_the_days_end_and_last_turn(client, demo):
    page = day(client, demo, day_ends=LATE, last_turn="12").content.decode()
    game = fresh(demo)
    local = timezone.localtime(game.day_ends)
    assert (local.date(), local.strftime("%H:%M"), game.last_turn) == (timezone.localdate(), LATE, 12)
    assert "the day ends 23:59; the last game turn is 12." in page
    assert 'name="day_ends" id="day-ends-' in page and f'value="{LATE}"' in page and 'value="12"' in page
    assert game.version == demo.version  # the timetable is no event: an undo leaves it


def test_empty_boxes_unset_the_day(client, demo):
    day(client, demo, day_ends=LATE, last_turn="12")
    page = day(client, demo, back="dashboard", day_ends="", last_turn="").content.decode()
    game = fresh(demo)
    assert game.day_ends is None and game.last_turn is None
    assert "no end of the day set; no last turn set." in page and "The club's games" in page


def test_an_end_of_the_day_already_past_is_refused_and_says_the_time(client, demo):
    day(client, demo, day_ends=LATE, last_turn="12")
    page = day(client, demo, day_ends=MIDNIGHT, last_turn="10").content.decode()
    assert re.search(r"nothing was changed\. The day&#x27;s end is in the past \(it is \d\d:\d\d now\)\.", page)
    game = fresh(demo)
    assert timezone.localtime(game.day_ends).strftime("%H:%M") == LATE and game.last_turn == 12


def test_a_last_turn_before_the_one_being_played_is_refused(client, demo):
    set_state(demo, demo, game_turn=5)
    page = day(client, demo, last_turn="4").content.decode()
    assert "Game turn 5 is already being played: the last turn can be 5 or later." in page
    assert fresh(demo).last_turn == 5  # the scenario's
    day(client, demo, last_turn="6")
    assert fresh(demo).last_turn == 6


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"last_turn": "NaN"}, "The last game turn must be a whole number, such as 12."),
        ({"last_turn": "12.5"}, "The last game turn must be a whole number, such as 12."),
        ({"last_turn": "0"}, "The last game turn must be 1 or later."),
        ({"last_turn": "1e9"}, "The last game turn must be a whole number, such as 12."),
        ({"last_turn": "100000"}, "The last game turn must be 99 or earlier."),
        ({"day_ends": "25:99"}, "The day&#x27;s end must be a time of day, such as 18:00."),
        ({"day_ends": "soon"}, "The day&#x27;s end must be a time of day, such as 18:00."),
    ],
)
def test_garbage_is_refused_with_what_is_wrong_and_changes_nothing(client, demo, fields, problem):
    day(client, demo, day_ends=LATE, last_turn="12")
    response = day(client, demo, **{"day_ends": LATE, "last_turn": "12", **fields})
    assert response.status_code == 200 and problem in response.content.decode()
    game = fresh(demo)
    assert timezone.localtime(game.day_ends).strftime("%H:%M") == LATE and game.last_turn == 12


def test_a_player_may_not_set_the_day(client, demo):
    phone = seated_device(demo, "Confederate")
    response = phone.post(f"/games/{demo.pk}/day/", {"day_ends": LATE, "last_turn": "3"})
    assert response.status_code == 403 and "Only the game master" in response.content.decode()
    assert fresh(demo).last_turn == 5 and fresh(demo).day_ends is None  # the scenario's turns, no end set
    assert 'name="last_turn"' not in phone.get(f"/games/{demo.pk}/").content.decode()


def played_a_player_turn(game: Game) -> Game:
    """A player turn of 30 minutes, ended ten minutes ago: the events' times set as a table's would be."""
    set_state(game, game, step="rally")
    set_state(fresh(game), fresh(game), player_turn=2, step="messages")
    now = timezone.now()
    first, second = Event.objects.filter(game=game).order_by("seq")
    Event.objects.filter(pk=first.pk).update(created=now - timedelta(minutes=40))
    Event.objects.filter(pk=second.pk).update(created=now - timedelta(minutes=10))
    Game.objects.filter(pk=game.pk).update(last_turn=3)
    return fresh(game)


def test_the_dashboard_and_the_game_page_show_the_pace(client, demo):
    game = played_a_player_turn(demo)
    card = client.get("/dashboard/").content.decode()
    assert "A player turn: 30 min (mean of 1) · this one so far 10 min · a game turn: 1 h 00" in card
    assert "At this pace: game turn 3 of 3 by " in card and "no end of the day set" in card
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.index('id="live"') < page.index('id="pace-of-day"')  # the player's work first
    assert "<summary>At this pace: game turn 3 of 3 by " in page
    assert "Defenders exchange messages" in page.split('id="pace-of-day"')[1]  # minutes per step, in its fold
    phone = seated_device(game, "Union")
    assert "At this pace: game turn 3 of 3 by " in phone.get(f"/games/{game.pk}/").content.decode()


def test_before_a_player_turn_is_played_the_pace_says_when_it_will_be_known(client, demo):
    assert "Pace known after the first player turn" in client.get(f"/games/{demo.pk}/").content.decode()
