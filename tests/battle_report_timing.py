"""How long the battle report takes on a club battle of 400 units with about 2,000 events: prints the walk's time
and the page's, walked and kept for its version. Not a test (times vary with the machine); run it with
`.venv/bin/python -m tests.battle_report_timing`, on a temporary SQLite file (with DATABASE_URL, on the throw-away
PostgreSQL of .ci/with-postgres)."""

import random
import sys
import time

from tests.timing_setup import corrections, on_a_database, turn_ended

UNITS = 400
PLAYER_TURNS = 20
EVENTS_A_TURN = 102  # with the turn's end: about 2,000 in all


def _play(game) -> None:
    """Events as a long day leaves them: hits, lost bases and routs on units all over the field, and every player
    turn's end clearing what lasts a turn."""
    from republic.games.models import Unit

    rng = random.Random(1863)
    units = list(Unit.objects.filter(game=game).brigades())
    for _ in range(PLAYER_TURNS):
        corrections(game, units, rng, EVENTS_A_TURN)
        turn_ended(game)


def run() -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from republic.games.models import Game
    from republic.games.report.walk import read
    from republic.games.scenario import create_game, parse_scenario
    from tests.club_battle import club_scenario
    from tests.devices import master_device

    game = create_game(parse_scenario(club_scenario(UNITS)))
    _play(game)
    game = Game.objects.get(pk=game.pk)
    print(f"{connection.vendor}: {game.units.count()} units, {game.events.count()} events")
    walks = []
    for _ in range(5):
        start = time.perf_counter()
        report = read(game)
        walks.append(time.perf_counter() - start)
    print(
        f"the walk: {min(walks) * 1000:.0f} ms at best of 5 ({len(report.moments)} moments, {len(report.routs)} routs)"
    )
    device: Client = master_device()
    for label, clear in (("walked", True), ("kept for its version", False)):
        times = []
        for _ in range(5):
            if clear:
                cache.clear()
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = device.get(f"/games/{game.pk}/report/")
                times.append(time.perf_counter() - start)
            assert response.status_code == 200
        size = len(response.content) // 1024
        print(f"the page, {label}: {min(times) * 1000:.0f} ms at best of 5, {len(queries)} queries, {size} KB")


def main() -> int:
    return on_a_database(run)


if __name__ == "__main__":
    sys.exit(main())
