"""How long the battle report takes on a club battle of 400 units with about 2,000 events: prints the walk's time
and the page's, walked and kept for its version. Not a test (times vary with the machine); run it with
`.venv/bin/python -m tests.battle_report_timing`, on a temporary SQLite file."""

import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

UNITS = 400
PLAYER_TURNS = 20
EVENTS_A_TURN = 102  # with the turn's end: about 2,000 in all


def _play(game) -> None:
    """Events as a long day leaves them: hits, lost bases and routs on units all over the field, and every player
    turn's end clearing what lasts a turn."""
    from republic.games.events.game import CorrectionMade, FieldValue
    from republic.games.ledger import act
    from republic.games.models import Game, Unit

    rng = random.Random(1863)
    units = list(Unit.objects.filter(game=game).brigades())
    for turn in range(PLAYER_TURNS):
        for _ in range(EVENTS_A_TURN):
            unit = rng.choice(units)
            unit.refresh_from_db()
            if unit.out_of_play:
                continue
            fields = {"m_hits": min(4, unit.m_hits + 1), "bases": max(0, unit.bases - rng.choice((0, 1)))}
            if rng.random() < 0.1:
                fields["forced_move"] = "Rt"
            if not fields["bases"]:
                fields["destroyed"] = True
            with act(game, None, "timing") as action:
                for name, value in fields.items():
                    action.set(unit, name, value)
                values = tuple(FieldValue(f, v) for f, v in fields.items())
                action.record(CorrectionMade(unit.key, unit.name, None, values))
        game = Game.objects.get(pk=game.pk)
        with act(game, None, "timing") as action:
            for unit in Unit.objects.filter(game=game).exclude(forced_move=""):
                action.set(unit, "forced_move", "")
            action.set(action.game, "player_turn", 2 if turn % 2 == 0 else 1)
            action.set(action.game, "game_turn", 1 + (turn + 1) // 2)
            action.record(CorrectionMade(f"game:{game.pk}", game.name, None, ()))


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
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "republic.settings")
    os.environ.setdefault("REPUBLIC_DEBUG", "0")
    os.environ.setdefault("REPUBLIC_SECRET_KEY", "timing-only-not-secret")
    os.environ.setdefault("REPUBLIC_ALLOWED_HOSTS", "testserver")
    # never the developer's db.sqlite3 nor a database DATABASE_URL names: a file of its own, removed afterwards
    temporary = Path(tempfile.mkdtemp(prefix="republic-report-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{temporary / 'report.sqlite3'}"
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from tests.static_files import uncollected

        uncollected()

        call_command("migrate", verbosity=0, interactive=False)
        run()
        return 0
    finally:
        from django.db import connections

        connections.close_all()
        shutil.rmtree(temporary, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
