"""What the timing scripts (tests/*_timing.py) share: a database of their own to measure on, and the corrections a
long day leaves on a battle's units. Measurements, not tests: times vary with the machine."""

import os
import random
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path


def on_a_database(measure: Callable[[], None]) -> int:
    """``measure`` with Django set up and migrated on a temporary SQLite file, removed afterwards (never the
    developer's db.sqlite3), or with DATABASE_URL on the throw-away PostgreSQL of .ci/with-postgres."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "republic.settings")
    os.environ.setdefault("REPUBLIC_DEBUG", "0")
    os.environ.setdefault("REPUBLIC_SECRET_KEY", "timing-only-not-secret")
    os.environ.setdefault("REPUBLIC_ALLOWED_HOSTS", "testserver")
    temporary = None
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        from tests.bench import _ensure_postgres_database

        _ensure_postgres_database(os.environ["DATABASE_URL"])
    else:
        temporary = Path(tempfile.mkdtemp(prefix="republic-timing-"))
        os.environ["DATABASE_URL"] = f"sqlite:///{temporary / 'timing.sqlite3'}"
    try:
        import django
        from django.core.management import call_command

        django.setup()
        from tests.static_files import uncollected

        uncollected()
        call_command("migrate", verbosity=0, interactive=False)
        measure()
    finally:
        from django.db import connections

        connections.close_all()
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)
    return 0


def corrections(game, units: Sequence, rng: random.Random, count: int, lost: Sequence[int] = (0, 1)) -> None:
    """``count`` corrections as a long day leaves them on units all over the field: a hit, a base lost (as many as
    ``lost`` draws), now and then a rout, and a unit left without bases destroyed."""
    from republic.games.events.game import CorrectionMade, FieldValue
    from republic.games.ledger import act

    for _ in range(count):
        unit = rng.choice(units)
        unit.refresh_from_db()
        if unit.out_of_play:
            continue
        fields = {"m_hits": min(4, unit.m_hits + 1), "bases": max(0, unit.bases - rng.choice(lost))}
        if rng.random() < 0.1:
            fields["forced_move"] = "Rt"
        if not fields["bases"]:
            fields["destroyed"] = True
        with act(game, None, "timing") as action:
            for name, value in fields.items():
                action.set(unit, name, value)
            values = tuple(FieldValue(f, v) for f, v in fields.items())
            action.record(CorrectionMade(unit.key, unit.name, None, values))


def turn_ended(game) -> None:
    """The player turn's end, clearing what lasts a turn: the next player turn, or the next game turn's first."""
    from republic.games.events.game import CorrectionMade
    from republic.games.ledger import act
    from republic.games.models import Game, Unit

    game = Game.objects.get(pk=game.pk)
    with act(game, None, "timing") as action:
        for unit in Unit.objects.filter(game=game).exclude(forced_move=""):
            action.set(unit, "forced_move", "")
        action.set(action.game, "player_turn", 2 if game.player_turn == 1 else 1)
        action.set(action.game, "game_turn", game.game_turn + (1 if game.player_turn == 2 else 0))
        action.record(CorrectionMade(f"game:{game.pk}", game.name, None, ()))
