"""A database of its own for a test that runs the app in another process: a fresh SQLite file, or a fresh
database on the suite's PostgreSQL when the suite runs on it; empty, or migrated."""

import atexit
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, closing, contextmanager
from functools import cache
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def fresh_database(tmp_path: Path, template: str = "") -> Iterator[str]:
    """The DATABASE_URL of an empty database (a copy of ``template``'s when given), removed afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        own = tmp_path / "own.sqlite3"
        if template:
            with (
                closing(sqlite3.connect(template.removeprefix("sqlite:///"))) as source,
                closing(sqlite3.connect(own)) as copy,
            ):
                source.backup(copy)
        yield f"sqlite:///{own}"
        return
    parts = urllib.parse.urlsplit(url)
    name = f"own_{uuid.uuid4().hex[:12]}"
    admin = parts._replace(path="/postgres").geturl()
    copied = f' TEMPLATE "{urllib.parse.urlsplit(template).path[1:]}"' if template else ""
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"{copied}')
    try:
        yield parts._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@cache
def _migrated() -> str:
    """The DATABASE_URL of the database this process migrated once, to copy for each test that asks for one
    (migrating takes seconds, a copy none); removed when the process ends."""
    kept = ExitStack()
    atexit.register(kept.close)
    folder = Path(tempfile.mkdtemp(prefix="republic-migrated-"))
    kept.callback(shutil.rmtree, folder, ignore_errors=True)
    url = kept.enter_context(fresh_database(folder))
    manage(url, "migrate", "--noinput", "-v0")
    return url


@contextmanager
def migrated_database(tmp_path: Path) -> Iterator[str]:
    """The DATABASE_URL of a database with every migration applied and nothing in it, removed afterwards."""
    with fresh_database(tmp_path, template=_migrated()) as database:
        yield database


def manage(database: str, *args: str, **extra_env: str) -> str:
    """Run manage.py on that database in its own process; its standard output."""
    env = {**os.environ, "DATABASE_URL": database, **extra_env}
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    )
    return done.stdout
