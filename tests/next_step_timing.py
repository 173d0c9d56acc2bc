"""How long the phones of a 400-unit battle wait for the live part after Next step, in each step of a player turn: 40
phones seated on the divisions of both sides, each with the page open, poll once after Next step, one after another.
The first phone of a side draws what the side shares (the step's reading, its panel); each other phone draws its own
list of rows (what its seat follows first, its next work open with its form). Prints, per step, the first phone's
time and the median and slowest of the others', for each side. Not a test (times vary with the machine); run it with
`.venv/bin/python -m tests.next_step_timing` (`UNITS=1000` for another size), on a temporary SQLite file (with
DATABASE_URL, on the throw-away PostgreSQL of .ci/with-postgres)."""

import os
import re
import statistics
import sys
import time

from tests.timing_setup import on_a_database

UNITS = int(os.environ.get("UNITS", "400"))
PHONES_A_SIDE = 20
_ROW = re.compile(r'id="row-([a-z]+-\d+)"')


def run() -> None:
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client

    from republic.games.models import Command, Game
    from republic.games.scenario import create_game, parse_scenario
    from republic.games.steps.walk import move_on
    from tests.bench_walk import prepare
    from tests.club_battle import club_scenario
    from tests.load_forms import poll_address

    game = create_game(parse_scenario(club_scenario(UNITS)), "Next step timing")
    prepare(game)
    game = Game.objects.get(pk=game.pk)
    phones: list[tuple[str, Client]] = []
    for side in (game.attacker, game.defender):
        divisions = Command.objects.filter(game=game, side=side, level=Command.Level.DIVISION)
        for division in divisions[:PHONES_A_SIDE]:
            phone = Client()
            phone.post(f"/join/{game.join_code}/", {"name": division.name, "seat": f"command-{division.pk}"})
            phones.append((side.name, phone))
    print(f"{connection.vendor}: {game.units.count()} units, {len(phones)} phones seated on divisions")
    print("| step | side | first phone ms | the others' median ms | the others' slowest ms |")
    print("|---|---|---|---|---|")
    caches["news"].get("")  # its store opened once for the thread, as a server's thread keeps it: not a poll's time
    turn = (game.game_turn, game.player_turn)
    while game.in_progress and (game.game_turn, game.player_turn) == turn:
        screens = []
        for side_name, phone in phones:
            text = phone.get(f"/games/{game.pk}/").content.decode()
            address = poll_address(text)
            if address is None:
                sys.exit(f"{game.step_key}: the game page drew no poll")
            screens.append((side_name, phone, address, " ".join(_ROW.findall(text))))
        move_on(game, game.version, "timing", anyway=True)
        game = Game.objects.get(pk=game.pk)
        waits: dict[str, list[float]] = {}
        for side_name, phone, address, shown in screens:
            headers = {"HX-Request": "true", "HX-Target": "live", "HX-Trigger": "poll", "Rows-Shown": shown}
            began = time.perf_counter()
            answer = phone.get(address, headers=headers)
            waits.setdefault(side_name, []).append((time.perf_counter() - began) * 1000)
            if answer.status_code != 200:
                sys.exit(f"{game.step_key}: a poll answered {answer.status_code}")
        for side_name, times in waits.items():
            first, others = times[0], times[1:]
            print(
                f"| {game.get_step_display()} | {side_name} | {first:.0f} | {statistics.median(others):.1f} "
                f"| {max(others):.0f} |"
            )


if __name__ == "__main__":
    sys.exit(on_a_database(run))
