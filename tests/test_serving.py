"""The app as a club serves it: `manage.py serve` (granian) with debug off, static files compressed and cached
by the app itself, a secret key made once and kept, SQLite that waits for a writer instead of failing, and
`check --deploy` clean in the HTTPS configuration the README describes."""

import gzip
import http.cookiejar
import json
import os
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import psycopg
import pytest

from republic.games.management.commands.serve import collect_static
from tests.databases import ROOT, manage, migrated_database
from tests.served import STATIC_ROOT

WHITENOISE = "whitenoise.storage.CompressedManifestStaticFilesStorage"
HTTPS_WARNINGS = ("security.W004", "security.W008", "security.W012", "security.W016")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _check_deploy(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check", "--deploy", "--fail-level", "WARNING"],
        env={**os.environ, "REPUBLIC_VAR_DIR": str(tmp_path), **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_check_deploy_passes_with_no_warning_over_https(tmp_path):
    done = _check_deploy(tmp_path, REPUBLIC_HTTPS="1")
    assert done.returncode == 0, done.stderr
    assert "no issues (0 silenced)" in done.stdout


def test_on_plain_http_check_deploy_names_only_what_https_would_change(tmp_path):
    done = _check_deploy(tmp_path)
    assert done.returncode != 0
    assert sorted(re.findall(r"security\.W\d+", done.stderr)) == sorted(HTTPS_WARNINGS)


def _secret(tmp_path) -> str:
    read = "from django.conf import settings; print(settings.SECRET_KEY)"
    return manage("sqlite:///unused", "shell", "-v0", "-c", read, REPUBLIC_VAR_DIR=str(tmp_path)).strip()


def test_the_secret_key_is_made_once_kept_in_a_private_file_and_read_again(tmp_path, monkeypatch):
    monkeypatch.delenv("REPUBLIC_SECRET_KEY", raising=False)
    first = _secret(tmp_path)
    kept = tmp_path / "secret_key"
    assert kept.read_text().strip() == first and len(first) >= 50
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert _secret(tmp_path) == first
    assert _secret(tmp_path / "another") != first


def test_sqlite_writes_ahead_and_a_second_writer_waits_for_the_first(tmp_path):
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    manage(database, "migrate", "--noinput", "-v0", REPUBLIC_VAR_DIR=str(tmp_path))
    read = (
        "from django.db import connection as c; c.ensure_connection(); cursor = c.cursor(); "
        "print(cursor.execute('PRAGMA journal_mode').fetchone()[0], "
        "cursor.execute('PRAGMA busy_timeout').fetchone()[0], c.settings_dict['OPTIONS']['transaction_mode'])"
    )
    assert manage(database, "shell", "-v0", "-c", read, REPUBLIC_VAR_DIR=str(tmp_path)).split() == [
        "wal",
        "20000",
        "IMMEDIATE",
    ]


def _modes(folder: Path) -> dict[str, int]:
    return {path.name: stat.S_IMODE(path.stat().st_mode) for path in folder.glob("club.sqlite3*")}


def test_the_sqlite_database_and_the_files_beside_it_are_readable_by_the_server_alone(tmp_path):
    """The file holds the game master's password hash and each side's messages: made private as the secret key is,
    whatever the umask, and an earlier version's file readable by all is made private when opened."""
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    write_and_look = (
        "import stat; from pathlib import Path; from django.db import connection as c; c.ensure_connection(); "
        "cursor = c.cursor(); cursor.execute('CREATE TABLE IF NOT EXISTS probe (x)'); "
        "cursor.execute('INSERT INTO probe VALUES (1)'); print(cursor.execute('PRAGMA journal_mode').fetchone()[0]); "
        f"print(sorted((p.name, oct(stat.S_IMODE(p.stat().st_mode))) for p in Path({str(tmp_path)!r}).glob('club*')))"
    )
    umask = os.umask(0o022)
    try:
        manage(database, "migrate", "--noinput", "-v0", REPUBLIC_VAR_DIR=str(tmp_path))
        assert _modes(tmp_path) == {"club.sqlite3": 0o600}
        journal, seen = manage(database, "shell", "-v0", "-c", write_and_look, REPUBLIC_VAR_DIR=str(tmp_path)).split(
            "\n", 1
        )
        assert journal == "wal"
        assert seen.strip() == str(
            [("club.sqlite3", "0o600"), ("club.sqlite3-shm", "0o600"), ("club.sqlite3-wal", "0o600")]
        )
        # a database of an earlier version, readable by all with its log
        for path in tmp_path.glob("club.sqlite3*"):
            path.unlink()
        earlier = sqlite3.connect(tmp_path / "club.sqlite3")
        earlier.execute("PRAGMA journal_mode=WAL")
        earlier.execute("CREATE TABLE kept (x)")
        for path in tmp_path.glob("club.sqlite3*"):
            path.chmod(0o644)
        manage(database, "migrate", "--noinput", "-v0", REPUBLIC_VAR_DIR=str(tmp_path))
        assert _modes(tmp_path) == {"club.sqlite3": 0o600, "club.sqlite3-shm": 0o600, "club.sqlite3-wal": 0o600}
        earlier.close()
    finally:
        os.umask(umask)


@contextmanager
def serving(tmp_path, **env: str) -> Iterator[tuple[str, str, str, int]]:
    """`manage.py serve` on a fresh database with the demo loaded; its address, its database, its log file and its
    process (granian's main process, which starts the workers)."""
    with migrated_database(tmp_path) as database:
        env = {"REPUBLIC_VAR_DIR": str(tmp_path), "REPUBLIC_STATIC_ROOT": str(STATIC_ROOT), **env}
        manage(database, "load_demo", "--host", "127.0.0.1", **env)
        port = _free_port()
        log = tmp_path / "server.log"
        with log.open("w") as out:
            process = subprocess.Popen(
                [sys.executable, str(ROOT / "manage.py"), "serve", "--port", str(port)],
                env={**os.environ, "DATABASE_URL": database, "REPUBLIC_ALLOWED_HOSTS": "127.0.0.1", **env},
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            address = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"{address}/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            yield address, database, str(log), process.pid
        finally:
            process.terminate()
            process.wait(timeout=20)


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[str, str]]:
    with serving(tmp_path) as (address, _, log, _):
        yield address, Path(log).read_text()


def _get(url: str, **headers: str):
    try:
        return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)
    except urllib.error.HTTPError as error:
        return error


def test_serve_runs_granian_with_debug_off_and_prints_where_phones_open_it(served):
    address, printed = served
    home = _get(f"{address}/")
    assert home.status == 200 and home.headers["Server"] == "granian"
    # every interface by default: the address printed is one a phone on the club's network can open
    assert re.search(r"served at http://[\d.]+:\d+/", printed)
    missing = _get(f"{address}/no-such-page/")
    assert missing.status == 404 and b"Traceback" not in missing.read() and "DEBUG" not in missing.headers


def test_a_worker_that_dies_is_replaced_and_the_phones_are_answered_on(tmp_path):
    with serving(tmp_path, REPUBLIC_WORKERS="2") as (address, _, _, pid):
        workers = psutil.Process(pid).children()
        assert len(workers) == 2
        workers[0].kill()  # as the kernel's out-of-memory killer would
        workers[0].wait(timeout=10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(psutil.Process(pid).children()) < 2:
            time.sleep(0.2)
        now = psutil.Process(pid).children()
        assert len(now) == 2 and workers[0] not in now
        for _ in range(6):  # spread over both workers
            assert _get(f"{address}/").status == 200


def test_serve_serves_static_files_compressed_under_hashed_names_cached_for_a_year(served):
    address, _ = served
    page = _get(f"{address}/").read().decode()
    stylesheet = re.search(r'href="(/static/css/republic\.[0-9a-f]{12}\.css)"', page).group(1)
    answer = _get(f"{address}{stylesheet}", **{"Accept-Encoding": "gzip"})
    assert answer.status == 200 and answer.headers["Content-Encoding"] == "gzip"
    assert "immutable" in answer.headers["Cache-Control"] and "max-age=315360000" in answer.headers["Cache-Control"]
    assert b".bg-republic" in gzip.decompress(answer.read())
    script = re.search(r'src="(/static/vendor/htmx/htmx\.min\.[0-9a-f]{12}\.js)"', page).group(1)
    assert _get(f"{address}{script}", **{"Accept-Encoding": "br"}).headers["Content-Encoding"] == "br"


def test_serve_collects_the_static_files_again_only_when_one_changed(tmp_path, settings):
    source = tmp_path / "source"
    (source / "css").mkdir(parents=True)
    sheet = source / "css" / "club.css"
    sheet.write_text(".bg-club { color: navy }")
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = root = tmp_path / "static"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": WHITENOISE}}
    manifest = root / "staticfiles.json"

    def collected() -> list[str]:
        return sorted(path.name for path in (root / "css").iterdir())

    assert collect_static()
    first = collected()
    assert len(first) == 2 and "club.css" in first  # and its copy under a hashed name
    written = manifest.stat().st_mtime_ns
    assert not collect_static()  # the same files: nothing collected, nothing written
    assert manifest.stat().st_mtime_ns == written and collected() == first
    sheet.write_text(".bg-club { color: maroon }")
    assert collect_static()
    assert json.loads(manifest.read_text())["paths"]["css/club.css"] not in first
    # a collection cut off before it ended left no stamp: the next start collects again
    (root / ".sources").unlink()
    assert collect_static()
    assert not collect_static()


class Phone:
    """A player's phone over real HTTP: its own cookies, seated on the attacking side with the join link."""

    def __init__(self, address: str, code: str):
        self.address = address
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        joining = self.opener.open(f"{address}/join/{code}/").read().decode()
        side = re.search(r'value="(side-\d+)"(?:(?!value=).)*?Confederate: the whole side', joining, re.S).group(1)
        self.post(f"/join/{code}/", {"name": "Phone", "seat": side}, page=joining)

    def post(self, path: str, data: dict[str, object], page: str = "") -> tuple[int, str]:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1) if page else self.token
        self.token = token
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **data}).encode()
        headers = {"HX-Request": "true", "X-CSRFToken": token, "Referer": self.address}
        request = urllib.request.Request(f"{self.address}{path}", data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")


@contextmanager
def database_closed(database: str) -> Iterator[None]:
    """The database made unreachable for real: SQLite's file held by another writer, PostgreSQL's database closed
    to new connections and its open ones ended."""
    if database.startswith("sqlite"):
        holder = sqlite3.connect(database.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    parts = urllib.parse.urlsplit(database)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])
        try:
            yield
        finally:
            admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')


def _game_of(database: str, tmp_path) -> tuple[int, int, int]:
    """The demo game's id, version and number of events, read from its database by another process."""
    read = "from republic.games.models import Game; g = Game.objects.get(); print(g.pk, g.version, g.events.count())"
    found = manage(database, "shell", "-v0", "-c", read, REPUBLIC_VAR_DIR=str(tmp_path)).split()
    return int(found[0]), int(found[1]), int(found[2])


def test_a_database_that_does_not_answer_gets_a_clear_answer_and_nothing_half_written(tmp_path):
    """A real outage: SQLite's file held by another writer past the server's wait, or PostgreSQL's database closed
    to connections. The player is told the server cannot save, nothing is written, and the same tap works once the
    database is back."""
    with serving(tmp_path, REPUBLIC_SQLITE_TIMEOUT="1", REPUBLIC_CONN_MAX_AGE="0") as (address, database, log, _):
        game, version, events = _game_of(database, tmp_path)
        read = "from republic.games.models import Game; print(Game.objects.get().join_code)"
        code = manage(database, "shell", "-v0", "-c", read, REPUBLIC_VAR_DIR=str(tmp_path)).strip()
        phone = Phone(address, code)
        page = phone.opener.open(f"{address}/games/{game}/").read().decode()
        with database_closed(database):
            status, body = phone.post(f"/games/{game}/next/", {"version": version}, page=page)
            assert status == 503 and "The server cannot save right now" in body and 'id="refusal"' in body
        assert _game_of(database, tmp_path) == (game, version, events)
        status, body = phone.post(f"/games/{game}/next/", {"version": version})
        # the messages step left, and the rally and the replacement of leaders, with nothing to do, passed by themselves
        assert status == 200 and _game_of(database, tmp_path)[1:] == (version + 3, events + 3)
        assert "Traceback" not in Path(log).read_text()
