"""The pace of the day costs the same queries at every size: the game page, the turn log and the battle report read
the events' times in one query, the demo's 13 units as the club's 400, and the dashboard reads every game's in one
query, whatever the number of games."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from republic.games.models import Event, Game
from republic.games.pace import forget_sums, paces
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.club_battle import club_scenario
from tests.devices import master_device
from tests.games.conftest import fresh, set_state
from tests.games.query_helpers import Costs, Table, brigades_of, go_to, set_each

# the dashboard's queries for any number of games before the pace (the same walk on the commit before it, a
# device signed in afresh: 15, and one for the room screen's live links), and the one query that reads every
# game's events' times
DASHBOARD_BEFORE_PACE = 16
PACE_QUERIES = 1


def made(units: int) -> Game:
    text = DEMO_SCENARIO.read_text(encoding="utf-8") if units == 13 else club_scenario(units)
    return create_game(parse_scenario(text))


def played_for_hours(t: Table) -> None:
    """Three player turns played, each of its steps a few minutes apart: the same history at either size."""
    game = t.game
    for player_turn in (1, 2):
        for step in ("rally", "move", "skirmish"):
            go_to(game, step, player_turn=player_turn)
            set_each(game, brigades_of(game, "attacker")[:2], m_hits=1)
    set_state(game, fresh(game), game_turn=2, player_turn=1, step="messages")
    start = timezone.now() - timedelta(hours=3)
    for minutes, event in enumerate(Event.objects.filter(game=game).order_by("seq")):
        Event.objects.filter(pk=event.pk).update(created=start + timedelta(minutes=7 * minutes))
    Game.objects.filter(pk=game.pk).update(last_turn=8, day_ends=timezone.now() + timedelta(hours=2))


@pytest.fixture
def costs(db) -> Costs:
    return Costs([Table(13, made(13)), Table(400, made(400))])


def drawn_with_pace(t: Table, tail: str, words: str):
    def send():
        response = t.client.get(t.path(tail))
        assert words in response.content.decode(), f"{tail} at {t.units} units"
        return response

    return send


def test_the_pages_with_the_pace_cost_the_same_at_13_and_400_units(costs):
    costs.each(played_for_hours)
    costs.measure("the game page", lambda t: drawn_with_pace(t, "", "At this pace: game turn"), events=0)
    costs.measure("the turn log", lambda t: drawn_with_pace(t, "log/", "The table took"), events=0)
    costs.measure("the battle report", lambda t: drawn_with_pace(t, "report/", "Slowest steps"), events=0)
    costs.measure(
        "the day set",
        lambda t: lambda: t.client.post(t.path("day/"), {"day_ends": "23:59", "last_turn": "9", "back": "game"}),
        events=0,
    )
    costs.check()


def dashboard_queries() -> int:
    with CaptureQueriesContext(connection) as captured:
        page = master_device().get("/dashboard/").content.decode()
    assert "A player turn:" in page
    return len(captured)


def test_the_dashboard_reads_the_pace_of_every_game_in_one_query(costs):
    costs.each(played_for_hours)
    two = dashboard_queries()
    for _ in range(3):
        played_for_hours(Table(13, made(13)))
    assert dashboard_queries() == two == DASHBOARD_BEFORE_PACE + PACE_QUERIES


def test_a_page_reads_only_the_events_written_since_this_process_last_summed_the_game(db):
    """An event is never changed once written: the sums kept of a game's events are added to, not read again. (The
    test changes an old event's time, which the app never does, to see that it is not read again.)"""
    t = Table(13, made(13))
    played_for_hours(t)
    game, now = fresh(t.game), timezone.now()
    before = paces([game], now)[game.pk]
    old = Event.objects.filter(game=game).order_by("seq")[1]
    Event.objects.filter(pk=old.pk).update(created=old.created - timedelta(hours=5))
    assert paces([game], now)[game.pk] == before
    set_each(game, brigades_of(game, "attacker")[:1], m_hits=2)
    later = timezone.now() + timedelta(minutes=5)
    added = paces([fresh(game)], later)[game.pk]
    assert added != before
    Event.objects.filter(pk=old.pk).update(created=old.created)
    forget_sums()
    assert paces([fresh(game)], later)[game.pk] == added
