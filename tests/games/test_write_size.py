"""An action writes what it changes. At a club battle, Next step writes a few pages of the database, not the
battle's rows as imported (the setup: 300 KB at 400 units), which SQLite wrote again whole, overflow pages and all,
whenever the game's row changed, as it does at every action, while the setup was a column of that row."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection

from republic.games.models import Game, setup_of
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import move_on
from tests.club_battle import club_scenario

# an action's own rows and indexes, a page or a few each: far less than the setup, whatever the battle's size
AT_MOST = 64 * 1024


def written(action: Callable[[], object]) -> int:
    """The bytes of write-ahead log the database wrote for ``action``: SQLite's log emptied first and measured after,
    PostgreSQL's position in its log read before and after."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            assert cursor.fetchone()[0] == 0, "another connection kept the log from being emptied"
            action()
            return Path(f"{connection.settings_dict['NAME']}-wal").stat().st_size
        cursor.execute("SELECT pg_current_wal_insert_lsn()")
        before = cursor.fetchone()[0]
        action()
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), %s)", [before])
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_next_step_at_a_club_battle_writes_a_few_pages_not_the_setup():
    game = create_game(parse_scenario(club_scenario(400)), "A club battle")
    assert len(json.dumps(setup_of(game))) > 4 * AT_MOST  # what writing it again would cost
    found = written(lambda: move_on(Game.objects.get(pk=game.pk), None, "test"))
    assert 0 < found <= AT_MOST
