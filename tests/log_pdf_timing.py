"""How long a whole day's turn log takes as a PDF: a 400-unit club battle with about 3,000 events (each player
turn's maneuver rolls, hits, lost bases and routs corrected on units all over the field, a message or two, the
turn's end), its PDF asked for by the game master five times. Prints the events, the PDF's pages and size, and
the seconds of the request, of its data (the queries and the groups) and of ReportLab's drawing, best and
median. A measurement, not a test:

    python -m tests.log_pdf_timing            (a temporary SQLite file, removed afterwards)
    python -m tests.log_pdf_timing day.pdf    (the same, the last PDF kept in day.pdf to look at)

With DATABASE_URL (a throw-away PostgreSQL from .ci/with-postgres) it uses that database."""

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tests.timing_setup import corrections, on_a_database, turn_ended

UNITS, EVENTS, RUNS = 400, 3000, 5
ROLLS_A_TURN, HITS_A_TURN = 60, 125


def _player_turn(game, rng: random.Random, turn: int) -> None:
    """One player turn as a day leaves it: the attacker's maneuver rolls, a message, hits and lost bases and
    routs on units of both sides, and the turn's end clearing what lasts a turn."""
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
    corrections(game, list(Unit.objects.filter(game=game).in_play().brigades()), rng, HITS_A_TURN, lost=(0, 0, 1))
    turn_ended(game)


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
    return on_a_database(lambda: measure(sys.argv[1] if len(sys.argv) > 1 else None))


if __name__ == "__main__":
    sys.exit(main())
