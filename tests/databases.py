"""A database of its own for a test that runs the app in another process: a fresh SQLite file, or a fresh
database on the suite's PostgreSQL when the suite runs on it."""

import os
import subprocess
import sys
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def fresh_database(tmp_path: Path) -> Iterator[str]:
    """The DATABASE_URL of an empty database, removed afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'own.sqlite3'}"
        return
    parts = urllib.parse.urlsplit(url)
    name = f"own_{uuid.uuid4().hex[:12]}"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def manage(database: str, *args: str, **extra_env: str) -> str:
    """Run manage.py on that database in its own process; its standard output."""
    env = {**os.environ, "DATABASE_URL": database, **extra_env}
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    )
    return done.stdout
