"""Make the saved games the corpus lacks, each played through the app's forms on a fresh SQLite database and
saved with the app's own export, gzipped:

    python -m tests.saved_games [name ...]

writes tests/saved_games/republic-game-<version>/<name>.json.gz for each play of ``plays.PLAYS`` (or each named)
missing from the folder of the format the app saves today, and pins beside them the shape they are saved in
(``shapes.current()``, as shape.json) when the folder has none.

A file already there is left as it is: the corpus holds what earlier versions of the app saved, and a file made
again by today's app would hold nothing of them."""

import gzip
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent


def make(names: list[str]) -> None:
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    from republic.games.archive.export import SCHEMA, dumps, export_game
    from tests.saved_games import shapes
    from tests.saved_games.plays import PLAYS

    setup_test_environment()
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    folder = HERE / SCHEMA.replace("/", "-")
    folder.mkdir(exist_ok=True)
    pinned = folder / "shape.json"
    if not pinned.exists():  # the shape this version's files are saved in, pinned with its first files
        pinned.write_text(shapes.dumps(shapes.current()), encoding="utf-8")
        print(f"{pinned.relative_to(HERE)}: {pinned.stat().st_size / 1024:.0f} KB")
    for name, play in PLAYS.items():
        path = folder / f"{name}.json.gz"
        if path.exists() or (names and name not in names):
            continue
        if name != "earlier-record":  # made at the app's first schema, then migrated: see plays.earlier_record
            call_command("migrate", verbosity=0, interactive=False)
        game = play()
        raw = gzip.compress(dumps(export_game(game.pk)), compresslevel=9, mtime=0)
        path.write_bytes(raw)
        print(f"{path.relative_to(HERE)}: {len(raw) / 1024:.0f} KB, {game.events.count()} events")


def main(argv: list[str]) -> int:
    warnings.filterwarnings("ignore", "No directory at")  # the static files are not collected: see uncollected()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "republic.settings")
    os.environ.setdefault("REPUBLIC_SECRET_KEY", "corpus-only-not-secret")
    temporary = Path(tempfile.mkdtemp(prefix="republic-corpus-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{temporary / 'corpus.sqlite3'}"
    try:
        import django

        django.setup()
        from tests.static_files import uncollected

        uncollected()
        make(argv)
    finally:
        from django.db import connections

        connections.close_all()
        shutil.rmtree(temporary, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
