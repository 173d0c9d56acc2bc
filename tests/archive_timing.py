"""How long saving and loading a club's largest game takes: a 400-unit battle with about 2,000 events (each
attacking brigade's maneuver roll, then corrections on every unit in turn), saved and loaded three times, the
fastest of each printed with its file size and queries. A measurement, not a test:

    python -m tests.archive_timing            (a temporary SQLite file, removed afterwards)

With DATABASE_URL (a throw-away PostgreSQL from .ci/with-postgres) it uses that database."""

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

UNITS, EVENTS, RUNS = 400, 2000, 3


def measure() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from republic.games.archive.export import dumps, export_game
    from republic.games.archive.load import import_game
    from republic.games.events.game import CorrectionMade, FieldValue
    from republic.games.ledger import act
    from republic.games.models import Event, Unit
    from republic.games.scenario import create_game, parse_scenario
    from tests.club_battle import club_scenario
    from tests.games.conftest import rolled_for_assault

    game = rolled_for_assault(create_game(parse_scenario(club_scenario(UNITS))))
    units = list(Unit.objects.filter(game=game))
    while Event.objects.filter(game=game).count() < EVENTS:
        for unit in units[: EVENTS - Event.objects.filter(game=game).count()]:
            with act(game, None, "timing") as action:
                action.set(unit, "m_hits", (unit.m_hits + 1) % 4)
                action.record(CorrectionMade(unit.key, unit.name, None, (FieldValue("m_hits", unit.m_hits),)))
    saves, loads = [], []
    for _ in range(RUNS):
        with CaptureQueriesContext(connection) as saving:
            started = time.perf_counter()
            raw = dumps(export_game(game.pk))
            saves.append(time.perf_counter() - started)
        with CaptureQueriesContext(connection) as loading:
            started = time.perf_counter()
            import_game(raw)
            loads.append(time.perf_counter() - started)
    events = Event.objects.filter(game=game).count()
    print(f"{connection.vendor}: {len(units)} units, {events} events, file {len(raw) / 1e6:.1f} MB")
    print(f"  save {min(saves):.2f} s, {len(saving)} queries; load {min(loads):.2f} s, {len(loading)} queries")


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "republic.settings")
    os.environ.setdefault("REPUBLIC_SECRET_KEY", "timing-only-not-secret")
    temporary = None
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        from tests.bench import _ensure_postgres_database

        _ensure_postgres_database(os.environ["DATABASE_URL"])
    if not os.environ.get("DATABASE_URL"):
        temporary = Path(tempfile.mkdtemp(prefix="republic-timing-"))
        os.environ["DATABASE_URL"] = f"sqlite:///{temporary / 'timing.sqlite3'}"
    try:
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        measure()
    finally:
        if temporary:
            shutil.rmtree(temporary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
