"""``make load``: a club's day of phones against the real server (``manage.py serve``), on one database.

    python -m tests.load          (on a temporary SQLite file; under .ci/with-postgres, on PostgreSQL)

It makes a fresh database, migrates, imports one battle of 400 units and four of 80, serves the app in a
process of its own on a free local port, and sends the phones of tests/load_devices.py at it with locust:
40 on the big game and 6 on each small one, each seated with its game's join link, polling every 3 s, and
one action every 2 s at each game; beside them the room screen and the game master's dashboard when asked
(tests/load_screens.py). After that goal run the phones poll on for a few seconds without actions, and it
prints a table per kind of request, the server's processor per request, how soon each battle's actions reached
its other phones (tests/load_news.py) and each server process's resident memory, each beside its goal; then
it raises the rate of actions stage by stage (shorter runs) until the 95th percentile of all requests passes
500 ms, and prints the rate it reached. Last, as many devices ask an answer that reads nothing at the goal run's
rate (tests/load_floor.py): the server's own work a request, which no change to the app can take away. The
server's standard error is kept and its tracebacks are printed.

The environment sets the run (defaults in brackets): LOAD_SECONDS [120] the goal run, LOAD_INTERVAL [2]
seconds between two actions at a game in it, LOAD_RAMP ["1 0.5 0.25 0.125 0.0625 0.03125"] the intervals of
the ramp ("" for none), LOAD_RAMP_SECONDS [40] each ramp stage, LOAD_GAMES ["400:40 80:6 80:6 80:6 80:6"]
units:phones of each game, LOAD_WORKERS and LOAD_THREADS the server's (serve's own defaults when unset),
LOAD_RELOAD_SECONDS [120] how often a phone opens the page again, LOAD_ROOMS and LOAD_DASHBOARDS [0] the
room screens and the game master's dashboards open, LOAD_SPAWN_RATE [8] devices seated a second, LOAD_KEEP=1
keeps the server's logs, LOAD_FLOOR_SECONDS [30] the measure of the server's own work (0 for none).
``make convention`` runs a convention's day: ten battles of 400 units and 40 phones, one room screen and one
dashboard, five minutes, no ramp.
The exit status is 1 when a request failed (a 5xx, a connection error, an unexpected status) or the server
logged a traceback; goals missed are reported, not failed."""

# locust patches the standard library for gevent when imported: before anything else opens a socket
from locust.env import Environment  # isort: skip

import contextlib
import itertools
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import gevent
import psutil

from tests import load_devices as devices
from tests import load_screens as screens
from tests.databases import ROOT, fresh_database, manage
from tests.load_floor import floor, own_work_line, server_ms_per_request
from tests.load_report import Stage, goal_table, memory_lines, news_lines, ramp_header, ramp_line, server_problems

GOAL_P95_MS = 150.0
LIMIT_P95_MS = 500.0
# after the goal run the phones poll on without actions until its last actions reached them all, this long at most
DRAIN_SECONDS = 30.0
CREATE_GAMES = """
from django.contrib.auth.models import User
from republic.games.models import RoomLink
from republic.games.scenario import create_game, parse_scenario
from tests.club_battle import club_scenario
for number, units in enumerate({sizes}, 1):
    game = create_game(parse_scenario(club_scenario(units)), f"Load, game {{number}} of {{units}} units")
    print("game", game.pk, game.join_code, units)
User.objects.create_user({master!r}, password={password!r}, is_staff=True)
print("room", RoomLink.objects.create().key)
"""


def env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        raise SystemExit(f"{name} is a number; got {os.environ[name]!r}") from None


def _count(name: str) -> int:
    try:
        return int(os.environ.get(name, 0))
    except ValueError:
        raise SystemExit(f"{name} is a number of screens; got {os.environ[name]!r}") from None


def _games_asked() -> list[tuple[int, int]]:
    words = os.environ.get("LOAD_GAMES", "400:40 80:6 80:6 80:6 80:6").split()
    try:
        return [(int(units), int(phones)) for units, _, phones in (w.partition(":") for w in words)]
    except ValueError:
        raise SystemExit(f"LOAD_GAMES is units:phones for each game, like 400:40 80:6; got {words}") from None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(database: str, port: int, folder: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "REPUBLIC_ALLOWED_HOSTS": "127.0.0.1",
        "REPUBLIC_STATIC_ROOT": str(folder / "static"),
        "REPUBLIC_DEBUG": "0",
        "REPUBLIC_SECRET_KEY": os.environ.get("REPUBLIC_SECRET_KEY", "load-only-not-secret"),
    }
    sizes = [
        f"--{name}={os.environ[f'LOAD_{name.upper()}']}"
        for name in ("workers", "threads")
        if os.environ.get(f"LOAD_{name.upper()}")
    ]
    # the access log gives each request's time inside the server, beside the time a phone waited for it
    command = [sys.executable, str(ROOT / "manage.py"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    command.append("--access-log")
    with (folder / "server.out").open("wb") as out, (folder / "server.err").open("wb") as err:
        return subprocess.Popen([*command, *sizes], env=env, cwd=ROOT, stdout=out, stderr=err)


def _wait_until_served(process: subprocess.Popen[bytes], port: int, folder: Path) -> None:
    """collectstatic first, then granian: wait for an answer to a plain GET (a minute at most)."""
    import http.client

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"load: the server stopped ({process.returncode}):\n{(folder / 'server.err').read_text()}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/")
            connection.getresponse().read()
            connection.close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("load: the server did not answer within a minute")


@contextlib.contextmanager
def serving(database: str, folder: Path) -> Iterator[tuple[str, "Cpu"]]:
    """The app served on that database (``manage.py serve``, its logs in ``folder``) on a free local port: its
    address and the measure of its processor; stopped afterwards."""
    port = _free_port()
    process = _serve(database, port, folder)
    try:
        _wait_until_served(process, port, folder)
        yield f"http://127.0.0.1:{port}", Cpu(process.pid, database)
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()  # granian stops its workers gracefully on SIGTERM
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


class Cpu:
    """The processor time the server (its workers too), this process, the whole machine and PostgreSQL used: on a
    shared machine a slow stage may be the server's own work or another program's."""

    def __init__(self, server: int, database: str):
        self.server = psutil.Process(server)
        self.postmaster = _postmaster(database)

    def sample(self) -> tuple[float, float, float, float, float]:
        # a worker granian replaced (a crash, a kill) took its time along: the master, which waited for it, keeps
        # it among its children's
        master = self.server.cpu_times()
        server = master.children_user + master.children_system
        for process in [self.server, *self.server.children(recursive=True)]:
            try:
                times = process.cpu_times()
                server += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        own = psutil.Process().cpu_times()
        machine = psutil.cpu_times()
        busy = sum(machine) - machine.idle - getattr(machine, "iowait", 0.0)
        return time.monotonic(), server, own.user + own.system, busy, self._database()

    def _database(self) -> float:
        """PostgreSQL's processor time: its postmaster, the backends and helpers it runs and those it ran."""
        if self.postmaster is None:
            return 0.0
        times = self.postmaster.cpu_times()
        used = times.user + times.system + times.children_user + times.children_system
        for process in self.postmaster.children():
            try:
                times = process.cpu_times()
                used += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return used

    @staticmethod
    def cores(start: tuple[float, ...], end: tuple[float, ...]) -> tuple[float, float, float, float]:
        """Cores used between two samples: by the server, by the phones (this process), by the machine, by
        PostgreSQL."""
        seconds = end[0] - start[0] or 1.0
        return tuple((b - a) / seconds for a, b in zip(start[1:], end[1:], strict=True))  # type: ignore[return-value]

    def memory(self) -> list[tuple[str, int, float]]:
        """Each server process's resident memory in MB: the master (granian's, serving in manage.py serve) first."""
        found = []
        for process in [self.server, *self.server.children(recursive=True)]:
            try:
                role = "master" if process.pid == self.server.pid else "worker"
                found.append((role, process.pid, process.memory_info().rss / 2**20))
            except psutil.NoSuchProcess:
                pass
        return found


def _postmaster(database: str) -> psutil.Process | None:
    """The PostgreSQL server of that DATABASE_URL on this machine, by the port it was started with (None on SQLite
    or when it serves elsewhere)."""
    if not database.startswith("postgres"):
        return None
    port = str(urllib.parse.urlsplit(database).port or 5432)
    for process in psutil.process_iter(["name", "cmdline"]):
        words = process.info["cmdline"] or []
        if process.info["name"] == "postgres" and any(a == "-p" and b == port for a, b in itertools.pairwise(words)):
            return process
    return None


def _run(address: str, tables: list[devices.Table], room_key: str, cpu: Cpu) -> tuple[Stage, list[Stage]]:
    """The goal run, then the ramp; the stages measured."""
    classes: list[type[devices.Timed]] = [
        type(f"Game{t.game}", (devices.Device,), {"table": t, "fixed_count": t.phones, "abstract": False})
        for t in tables
    ]
    for user_class in classes:
        user_class.reload_seconds = env_number("LOAD_RELOAD_SECONDS", 120)
    rooms, dashboards = _count("LOAD_ROOMS"), _count("LOAD_DASHBOARDS")
    classes.extend(screens.screens(room_key, rooms, dashboards))
    environment = Environment(user_classes=classes, host=address)
    runner = environment.create_local_runner()
    phones = sum(t.phones for t in tables)
    devices.RATE.interval = env_number("LOAD_INTERVAL", 2)
    devices.TALLY.stage = 0  # seating: the joins and first pages, before any game moves
    spawn_rate = env_number("LOAD_SPAWN_RATE", 8)
    runner.start(phones + rooms + dashboards, spawn_rate=spawn_rate)

    def seated() -> int:
        return sum(len(t.devices) for t in tables) + len(screens.SEATED)

    deadline = time.monotonic() + 60 + (phones + rooms + dashboards) / spawn_rate
    while seated() < phones + rooms + dashboards and time.monotonic() < deadline:
        gevent.sleep(0.5)
    screens_seated = len(screens.SEATED)
    print(f"seated {seated() - screens_seated} of {phones} phones, {screens_seated} of {rooms + dashboards} screens")
    if seated() < phones + rooms + dashboards:
        runner.quit()
        raise SystemExit(f"load: only {seated()} of {phones} phones and screens opened their page (see above)")
    players = [gevent.spawn(t.play) for t in tables]
    try:
        goal = _stage(
            1, f"goal run, an action every {devices.RATE.interval:g} s a game", tables, "LOAD_SECONDS", 120, cpu
        )
        devices.TALLY.stage = -1
        gevent.killall(players)
        _drain(tables, goal)
        goal.memory = cpu.memory()
        players = [gevent.spawn(t.play) for t in tables]
        ramp: list[Stage] = []
        intervals = [float(w) for w in os.environ.get("LOAD_RAMP", "1 0.5 0.25 0.125 0.0625 0.03125").split()]
        if intervals:
            print(ramp_header(), flush=True)
        for number, interval in enumerate(intervals, 2):
            devices.RATE.interval = interval
            stage = _stage(number, f"ramp, an action every {interval:g} s a game", tables, "LOAD_RAMP_SECONDS", 40, cpu)
            ramp.append(stage)
            print(ramp_line(stage), flush=True)
            if stage.p95() > LIMIT_P95_MS:
                break
        return goal, ramp
    finally:
        devices.TALLY.stage = -1  # what is still in flight belongs to no stage
        gevent.killall(players)
        runner.quit()


def _drain(tables: list[devices.Table], goal: Stage) -> None:
    started = time.monotonic()
    end = goal.began + goal.seconds
    while any(t.news.delays(goal.began, end)[1] for t in tables) and time.monotonic() - started < DRAIN_SECONDS:
        gevent.sleep(1)
    waited = time.monotonic() - started
    print(f"the phones polled on without actions for {waited:.0f} s, for the goal run's last news to reach them")


def _own_work(address: str, devices_open: int, rate: float, cpu: Cpu) -> tuple[int, int, float, int, float] | None:
    """The server's own work a request at the goal run's rate (tests/load_floor.py), unless LOAD_FLOOR_SECONDS is 0:
    the requests answered and failed, the seconds, the devices and the server's cores."""
    seconds = env_number("LOAD_FLOOR_SECONDS", 30)
    if seconds <= 0:
        return None
    print(f"the server's own work: {devices_open} devices ask the web manifest, {rate:.0f} a second, {seconds:g} s...")
    answered, failed, cores = floor(address, devices_open, rate, seconds, cpu)
    return answered, failed, seconds, devices_open, cores[0]


SERVER_LOG: list[Path] = []  # the server's access log, once it is started
SERVER_MS: dict[int, list[float]] = {}  # each stage's requests, by their time inside the server
_SERVER_TIME = re.compile(rb" (\d+)ms$", re.M)


def _stage(number: int, title: str, tables: list[devices.Table], length: str, default: float, cpu: Cpu) -> Stage:
    seconds = env_number(length, default)
    devices.TALLY.stage = number
    print(f"{title}: {seconds:g} s...", flush=True)
    before = cpu.sample()
    logged = SERVER_LOG[0].stat().st_size if SERVER_LOG else 0
    gevent.sleep(seconds)
    after = cpu.sample()
    if SERVER_LOG:
        with SERVER_LOG[0].open("rb") as log:
            log.seek(logged)
            SERVER_MS[number] = sorted(float(ms) for ms in _SERVER_TIME.findall(log.read()))
    records = [r for r in devices.TALLY.records if r.stage == number]
    asked = len(tables) / devices.RATE.interval
    cores = Cpu.cores(before, after)
    return Stage(title, asked, after[0] - before[0], records, devices.TALLY.unsent[number], cores, before[0])


def main() -> int:
    games = _games_asked()
    folder = Path(tempfile.mkdtemp(prefix="republic-load-"))
    keep = os.environ.get("LOAD_KEEP") == "1"
    database_kind = "PostgreSQL" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
    try:
        with fresh_database(folder) as database:
            manage(database, "migrate", "--noinput", "-v0")
            started = time.monotonic()
            sizes = [units for units, _ in games]
            made = manage(
                database,
                "shell",
                "-c",
                CREATE_GAMES.format(sizes=sizes, master=screens.MASTER, password=screens.PASSWORD),
            )
            print(f"{len(sizes)} games made in {time.monotonic() - started:.0f} s", flush=True)
            found = re.findall(r"^game (\d+) (\S+) (\d+)$", made, re.M)
            room_key = re.findall(r"^room (\S+)$", made, re.M)[0]
            tables = [
                devices.Table(int(pk), code, int(units), phones)
                for (pk, code, units), (_, phones) in zip(found, games, strict=True)
            ]
            SERVER_LOG[:] = [folder / "server.out"]
            with serving(database, folder) as (address, cpu):
                print(f"load on {database_kind}: {', '.join(f'{t.units} units x {t.phones} phones' for t in tables)}")
                goal, ramp = _run(address, tables, room_key, cpu)
                open_ = sum(t.phones for t in tables) + len(screens.SEATED)
                own = _own_work(address, open_, len(goal.records) / goal.seconds, cpu)
        errors = goal.errors() + sum(s.errors() for s in ramp) + (own[1] if own else 0)
        print()
        inside = SERVER_MS.get(1, [])
        print("\n".join(goal_table(goal, database_kind, GOAL_P95_MS, LIMIT_P95_MS, ramp, len(inside))))
        print("\n".join(news_lines(goal, tables)))
        print("\n".join(memory_lines(goal.memory)))
        if own:
            whole = server_ms_per_request(goal.cores[0], goal.seconds, len(inside) or len(goal.records))
            print(own_work_line(*own, whole))
        if inside:
            p50, p95 = inside[len(inside) // 2], inside[min(len(inside) - 1, int(len(inside) * 0.95))]
            print(
                f"inside the server, goal run: {len(inside)} requests, p50 {p50:.0f} ms, p95 {p95:.0f} ms "
                "(granian's own time for each; the rest of a phone's wait is its connection and the queue)"
            )
        problems = server_problems((folder / "server.err").read_text(errors="replace"))
        print("\n".join(problems or ["server: no traceback, no worker timeout"]))
        for line in devices.TALLY.errors[:10]:
            print(f"error: {line}")
        if keep:
            print(f"server logs kept in {folder}")
        return 1 if errors or problems else 0
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
