"""How long saving and loading a club's largest game takes: a 400-unit battle with about 2,000 events (each
attacking brigade's maneuver roll, then corrections on every unit in turn), saved and loaded three times, the
fastest of each printed with its file size and queries. A measurement, not a test:

    python -m tests.archive_timing            (a temporary SQLite file, removed afterwards)

With DATABASE_URL (a throw-away PostgreSQL from .ci/with-postgres) it uses that database."""

import sys
import time

from tests.timing_setup import on_a_database

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
    return on_a_database(measure)


if __name__ == "__main__":
    sys.exit(main())
