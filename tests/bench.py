"""``make bench``: the app's cost per page and per action at three sizes of battle, on one database.

    python -m tests.bench [SIZE ...]        (or SIZES="13 150" in the environment; 13 is the demo battle)

Without DATABASE_URL it runs on a temporary SQLite file, removed afterwards, never on the developer's
db.sqlite3; with DATABASE_URL (a throw-away PostgreSQL from .ci/with-postgres) it uses that database as it is.
It migrates, then for each size imports the battle, walks one player turn (tests/bench_walk.py) and prints a
table per size (tests/bench_report.py). The exit status is 1 when a request failed or the walk could not go on;
figures over the goals are reported, not failed."""

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SIZES = (13, 150, 400)


def sizes_asked(argv: list[str]) -> tuple[int, ...]:
    words = argv or os.environ.get("SIZES", "").split()
    try:
        sizes = tuple(int(word) for word in words)
    except ValueError:
        raise SystemExit(f"sizes are numbers of units, like 13 150 400; got {' '.join(words)}") from None
    return sizes or DEFAULT_SIZES


def _ensure_postgres_database(url: str) -> None:
    """.ci/with-postgres names a database its fresh cluster does not have yet: create it."""
    import urllib.parse

    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


def main(argv: list[str]) -> int:
    sizes = sizes_asked(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "republic.settings")
    # measured as a server runs: without the debug page and the template debugger
    os.environ.setdefault("REPUBLIC_DEBUG", "0")
    os.environ.setdefault("REPUBLIC_SECRET_KEY", "bench-only-not-secret")
    url = os.environ.get("DATABASE_URL", "")
    temporary = None
    if not url:
        temporary = Path(tempfile.mkdtemp(prefix="republic-bench-"))
        os.environ["DATABASE_URL"] = f"sqlite:///{temporary / 'bench.sqlite3'}"
    elif url.startswith("sqlite") and Path(url.split("///", 1)[-1]).resolve() == (ROOT / "db.sqlite3").resolve():
        print("bench: refusing to write into the developer's db.sqlite3; unset DATABASE_URL", file=sys.stderr)
        return 2
    elif url.startswith("postgres"):
        _ensure_postgres_database(url)
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from tests.static_files import uncollected

        uncollected()

        call_command("migrate", verbosity=0, interactive=False)
        from tests.bench_report import run

        return run(sizes)
    finally:
        if temporary is not None:
            from django.db import connections

            connections.close_all()
            shutil.rmtree(temporary, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
