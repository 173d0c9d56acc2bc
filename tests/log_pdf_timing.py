"""How long a whole day's turn log takes as a PDF: a 400-unit club battle with about 3,000 events (each player
turn's maneuver rolls, hits, lost bases and routs corrected on units all over the field, a message or two, the
turn's end), its PDF asked for by the game master five times. Prints the events, the PDF's pages and size, and
the seconds of the request, of its data (the queries and the groups) and of ReportLab's drawing, best and
median. A measurement, not a test:

    python -m tests.log_pdf_timing            (a temporary SQLite file, removed afterwards)
    python -m tests.log_pdf_timing day.pdf    (the same, the last PDF kept in day.pdf to look at)

With DATABASE_URL (a throw-away PostgreSQL from .ci/with-postgres) it uses that database."""

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

UNITS, EVENTS, RUNS = 400, 3000, 5
ROLLS_A_TURN, HITS_A_TURN = 60, 125


def _player_turn(game, rng: random.Random, turn: int) -> None:
    """One player turn as a day leaves it: the attacker's maneuver rolls, a message, hits and lost bases and
    routs on units of both sides, and the turn's end clearing what lasts a turn."""
    from republic.games.events.game import CorrectionMade, FieldValue
    from republic.games.ledger import act
    from republic.games.models import Dispatch, Game, Seat, Unit
    from tests.games.conftest import rolled_for_assault

    attackers = list(Unit.objects.filter(game=game).of_side(game.attacker).in_play().brigades())
    rolled_for_assault(game, rng.sample(attackers, min(ROLLS_A_TURN, len(attackers))))
    game = Game.objects.get(pk=game.pk)
    seats = list(Seat.objects.filter(game=game, side=game.attacker))
    if len(seats) > 1:
        text = f"Turn {turn}: hold the line by the {rng.choice(('ridge', 'orchard', 'mill', 'ford'))}."
        Dispatch.objects.create(
            game=game,
            game_turn=game.game_turn,
            player_turn=game.player_turn,
            sender=seats[0],
            recipient=seats[1],
            text=text,
        )
    units = list(Unit.objects.filter(game=game).in_play().brigades())
    for _ in range(HITS_A_TURN):
        unit = rng.choice(units)
        unit.refresh_from_db()
        if unit.out_of_play:
            continue
        fields = {"m_hits": min(4, unit.m_hits + 1), "bases": max(0, unit.bases - rng.choice((0, 0, 1)))}
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
        action.set(action.game, "player_turn", 2 if game.player_turn == 1 else 1)
        action.set(action.game, "game_turn", game.game_turn + (1 if game.player_turn == 2 else 0))
        action.record(CorrectionMade(f"game:{game.pk}", game.name, None, ()))


def _day():
    from republic.games.models import Event, Game, Seat
    from republic.games.scenario import create_game, parse_scenario
    from tests.club_battle import club_scenario

    game = create_game(parse_scenario(club_scenario(UNITS)))
    for side in game.sides.all():
        for name in ("first", "second"):
            Seat.objects.create(game=game, side=side, name=f"{side.name} {name}")
    rng, turn = random.Random(1863), 0
    while Event.objects.filter(game=game).count() < EVENTS:
        turn += 1
        _player_turn(Game.objects.get(pk=game.pk), rng, turn)
    return Game.objects.get(pk=game.pk)


def measure(kept: str | None) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from republic.games.views import log
    from tests.devices import master_device

    game = _day()
    drawn: list[float] = []
    drawing = log.drawn

    def timed(copy, paper) -> bytes | None:
        started = time.perf_counter()
        pdf = drawing(copy, paper)
        drawn.append(time.perf_counter() - started)
        return pdf

    log.drawn = timed
    device = master_device()
    whole = []
    for _ in range(RUNS):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = device.get(f"/games/{game.pk}/log/pdf/")
            whole.append(time.perf_counter() - started)
        assert response.status_code == 200, response.status_code
    if kept:
        Path(kept).write_bytes(response.content)
    data = [w - d for w, d in zip(whole, drawn, strict=True)]
    info = subprocess.run(["pdfinfo", "-"], input=response.content, capture_output=True, check=True, text=False)
    pages = next(line.split()[-1] for line in info.stdout.decode().splitlines() if line.startswith("Pages:"))
    print(f"{connection.vendor}: {UNITS} units, {game.events.count()} events, {game.dispatches.count()} messages")
    print(f"  PDF: {pages} pages, {len(response.content) / 1e6:.2f} MB, {len(queries)} queries")
    for label, times in (("request", whole), ("data", data), ("PDF drawn", drawn)):
        print(f"  {label}: best {min(times):.2f} s, median {statistics.median(times):.2f} s of {RUNS}")


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "republic.settings")
    os.environ.setdefault("REPUBLIC_DEBUG", "0")
    os.environ.setdefault("REPUBLIC_SECRET_KEY", "timing-only-not-secret")
    os.environ.setdefault("REPUBLIC_ALLOWED_HOSTS", "testserver")
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
        from tests.static_files import uncollected

        uncollected()
        call_command("migrate", verbosity=0)
        measure(sys.argv[1] if len(sys.argv) > 1 else None)
    finally:
        from django.db import connections

        connections.close_all()
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
