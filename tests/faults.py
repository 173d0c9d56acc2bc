"""What a club's server survives: phones play real forms while the server is killed outright (SIGKILL to granian's
main process and workers at once) and, on PostgreSQL, while the database stops dead and comes back. After each fault
every action a phone was told was done must be in the event log, and the rows must equal the setup plus the events
replayed: nothing lost, nothing half-written.

    .venv/bin/python -m tests.faults                        # on a temporary SQLite file
    .ci/with-postgres .venv/bin/python -m tests.faults      # on PostgreSQL, with the outage check

It prints what it does and a verdict per check, and exits 1 when a check fails. Every loop is bounded in count and
time: the script stops by itself."""

import argparse
import http.client
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from tests.databases import fresh_database, manage
from tests.page_forms import filled, forms_of
from tests.served import Answer, Ledger, Phone, Server, ledger, rows_in, version_in

_SUBJECT = re.compile(r"/([a-z]+-\d+)/$")
REQUEST_TIMEOUT = 15  # an answer later than this is a hang
OUTAGE_PATIENCE = 5  # how long a player may wait for "cannot save right now" while the database is down


@dataclass
class Done:
    """An action the server answered as done: the event it said it recorded, by whom and from which row."""

    seq: int
    actor: str
    subject: str
    what: str
    at: float


@dataclass
class Heard:
    """One answer a player got (or its absence: status 0), when and how long it took."""

    at: float
    status: int
    seconds: float
    outage: bool
    what: str
    sent: bool  # a form sent, not a page drawn


@dataclass
class Tap:
    """A form a player sends: how, the version it was drawn at, the row it is sent from, in words."""

    send: Callable[[], Answer]
    drawn: int
    subject: str
    what: str


@dataclass
class Player:
    """A phone playing on its own thread: it draws the game page, then opens a step's row and sends one of its
    forms with a die typed, or presses Next step, or Undo, at random."""

    phone: Phone
    chance: random.Random
    done: list[Done] = field(default_factory=list)
    heard: list[Heard] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # 5xx other than the outage's 503, with the answer's start
    held: Tap | None = None  # the last form sent: a player whose page will not load taps it again

    def play(self, stop: threading.Event, until: float, most: int) -> None:
        for _ in range(most):
            if stop.is_set() or time.monotonic() > until:
                return
            try:
                self.turn()
            except (OSError, http.client.HTTPException) as error:  # the server is down: no (whole) answer
                self.heard.append(Heard(time.monotonic(), 0, 0.0, False, f"no answer: {error}", False))
                time.sleep(0.2)

    def hear(self, answer: Answer, what: str, sent: bool = False) -> Answer:
        self.heard.append(Heard(time.monotonic(), answer.status, answer.seconds, answer.outage, what, sent))
        if answer.status >= 500 and not answer.outage:
            self.errors.append(f"{answer.status} on {what}: {answer.body[:300]!r}")
        return answer

    def turn(self) -> None:
        page = self.hear(self.phone.page(timeout=REQUEST_TIMEOUT), "the game page")
        drawn = version_in(page.body) if page.status == 200 else None
        if drawn is None:
            if page.status == 503 and self.held is not None:
                self.settle(self.held)
            time.sleep(0.3)
            return
        rows = rows_in(page.body)
        pick = self.chance.random()
        if rows and pick < 0.75:
            self.from_row(self.chance.choice(rows), rows)
        elif pick < 0.9:
            self.settle(Tap(lambda: self.phone.next_step(drawn, timeout=REQUEST_TIMEOUT), drawn, "", "next step"))
        else:
            self.settle(Tap(lambda: self.phone.undo(drawn, timeout=REQUEST_TIMEOUT), drawn, "", "undo"))

    def from_row(self, subject: str, rows: list[str]) -> None:
        opened = self.hear(self.phone.row(subject, timeout=REQUEST_TIMEOUT), f"open {subject}")
        forms = [form for form in forms_of(opened.body) if form.action] if opened.status == 200 else []
        if not forms:
            return
        form = self.chance.choice(forms)
        data = filled(form, self.chance)
        versions = [int(v[0]) for name, v in data.items() if name.endswith("version") and v and v[0].isdigit()]
        shown = " ".join(rows)
        self.settle(
            Tap(
                lambda: self.phone.post(form.action, data, row=subject, shown=shown, timeout=REQUEST_TIMEOUT),
                versions[0] if versions else self.phone.version,
                acted_on(form.action, subject),
                f"{urllib.parse.urlsplit(form.action).path} from {subject}",
            )
        )

    def settle(self, tap: Tap) -> None:
        self.held = tap
        answer = self.hear(tap.send(), tap.what, sent=True)
        seq = answer.recorded(tap.drawn)
        if seq is not None:
            self.done.append(Done(seq, self.phone.name, tap.subject, tap.what, time.monotonic()))


class Table:
    """The game being played, its server and its phones."""

    def __init__(self, database: str, work: Path, game: int, code: str, phones: int, seed: int):
        self.database, self.game = database, game
        self.server = Server(database, work)
        self.server.start()
        chance = random.Random(seed)
        try:
            self.players = [
                Player(
                    Phone(
                        self.server.address,
                        game,
                        code,
                        side="Union" if i % 3 == 2 else "Confederate",
                        name=f"Phone {i}",
                    ),
                    random.Random(chance.random()),
                )
                for i in range(phones)
            ]
        except BaseException:
            self.server.stop()  # a phone that cannot be seated ends the run, and no server is left behind
            raise

    def play(self, seconds: float, most: int = 400) -> tuple[threading.Event, list[threading.Thread]]:
        """Every player plays on his own thread until stopped, for ``seconds`` at most."""
        stop = threading.Event()
        until = time.monotonic() + seconds
        threads = [threading.Thread(target=p.play, args=(stop, until, most), daemon=True) for p in self.players]
        for thread in threads:
            thread.start()
        return stop, threads

    @staticmethod
    def halt(stop: threading.Event, threads: list[threading.Thread]) -> None:
        stop.set()
        for thread in threads:
            thread.join(timeout=REQUEST_TIMEOUT + 5)

    def done(self) -> list[Done]:
        return [one for player in self.players for one in player.done]

    def errors(self) -> list[str]:
        return [one for player in self.players for one in player.errors]

    def heard(self) -> list[Heard]:
        return [one for player in self.players for one in player.heard]


def acted_on(action: str, row: str) -> str:
    """The subject an action records: the piece its address names (an opened row's answer may draw other rows with
    it, out of band, their forms among its own), else the row it was sent from."""
    named = _SUBJECT.search(urllib.parse.urlsplit(action).path)
    return named.group(1) if named else row


def kept(found: Ledger, done: list[Done]) -> list[str]:
    """Each acknowledged action missing from the log (no event of its number, or one by someone else or about
    another row), in words."""
    missing = []
    for one in done:
        event = found.event(one.seq)
        if event is None or (event[2], event[3]) != (one.actor, one.subject):
            missing.append(f"#{one.seq} {one.what} by {one.actor}: the log has {event and event[:4]}")
    return missing


class Verdicts:
    def __init__(self) -> None:
        self.failed: list[str] = []

    def check(self, name: str, ok: bool, detail: str) -> bool:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)
        if not ok:
            self.failed.append(name)
        return ok


def group_of(pid: int) -> list[int]:
    """The live processes of a process group (the server's master and workers), read from /proc; a killed worker
    left a zombie until its new parent reaps it, and a zombie runs nothing."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def ledger_checks(verdicts: Verdicts, table: Table, label: str, since: int) -> None:
    found = ledger(table.database, table.game)
    done = table.done()
    missing = kept(found, done)
    verdicts.check(
        f"{label}: every acknowledged action is in the log",
        bool(done) and not missing,
        f"{len(done)} acknowledged, {len(missing)} missing" + (f": {'; '.join(missing[:5])}" if missing else ""),
    )
    numbered = [event[0] for event in found.events] == list(range(1, found.version + 1))
    verdicts.check(
        f"{label}: the rows are the setup plus the events replayed",
        found.replays and numbered,
        f"{len(found.events)} events ({len(found.events) - since} new), game version {found.version}, "
        f"step {found.step}, replay {'equals' if found.replays else 'DIFFERS FROM'} the rows"
        + ("" if numbered else ", event numbers have gaps"),
    )


def sigkill(verdicts: Verdicts, table: Table, kills: int, seconds: float) -> None:
    print(f"SIGKILL: {len(table.players)} phones play; the server is killed {kills} times mid-play", flush=True)
    for round_ in range(1, kills + 1):
        since = ledger(table.database, table.game).version
        stop, threads = table.play(seconds + 5)
        time.sleep(seconds * (0.6 + 0.8 * random.random()))
        assert table.server.process is not None
        group = group_of(table.server.process.pid)
        before = len(table.done())
        killed = time.monotonic()
        table.server.kill()
        left = group_of(group[0]) if group else []
        for _ in range(20):  # the kernel tears the processes down on its own time: a moment
            if not left:
                break
            time.sleep(0.1)
            left = group_of(group[0])
        Table.halt(stop, threads)
        # a request the kill cut off is reset or ends short; one sent after it finds nothing listening
        cut = [h for h in table.heard() if h.at >= killed and h.status == 0 and "refused" not in h.what]
        print(
            f"  round {round_}: killed process group {group[0]} ({len(group)} processes: master and workers) after "
            f"{before} acknowledged actions in all, {len(cut)} requests cut off; {len(left)} left running",
            flush=True,
        )
        verdicts.check(f"kill {round_}: the whole process group is gone", not left, f"{len(left)} processes left")
        began = time.monotonic()
        table.server.start()
        print(f"  round {round_}: restarted on the same database in {time.monotonic() - began:.1f} s", flush=True)
        ledger_checks(verdicts, table, f"kill {round_}", since)
        page = table.players[0].phone.page(timeout=REQUEST_TIMEOUT)
        verdicts.check(f"kill {round_}: the game opens again", page.status == 200, f"status {page.status}")
    errors = table.errors()
    verdicts.check("SIGKILL: no server error reached a player", not errors, "; ".join(errors[:3]) or "none")


def postgres_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]))
    if not found:
        raise SystemExit("faults: no pg_ctl under /usr/lib/postgresql")
    return found[-1]


def pg_ctl(data: str, *args: str) -> None:
    """pg_ctl on the suite's cluster, as the user that runs it (.ci/with-postgres runs it as postgres when root)."""
    command = [str(postgres_bin()), "-D", data, *args]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, check=True, capture_output=True, timeout=60)


def outage(verdicts: Verdicts, table: Table, down: float) -> None:
    with psycopg.connect(table.database) as connection:
        data = str(connection.execute("SHOW data_directory").fetchone()[0])
    print(f"PostgreSQL outage: the cluster at {data} stops dead for {down:.0f} s while the phones play", flush=True)
    since = ledger(table.database, table.game).version
    stop, threads = table.play(down + 12)
    time.sleep(2)
    before = len(table.done())
    pg_ctl(data, "-m", "immediate", "-w", "stop")
    stopped = time.monotonic()
    print(f"  PostgreSQL stopped (immediate) after {before} acknowledged actions", flush=True)
    time.sleep(down)
    restarted = time.monotonic()
    # restart reuses the options the cluster was last started with (postmaster.opts): its port, socket, settings
    pg_ctl(data, "-w", "-l", str(Path(data).parent / "server.log"), "restart")
    back = time.monotonic()
    print(f"  PostgreSQL started again after {restarted - stopped:.1f} s", flush=True)
    time.sleep(6)
    Table.halt(stop, threads)
    heard = [h for h in table.heard() if h.at >= stopped - 1]
    during = [h for h in heard if stopped + 0.5 <= h.at - h.seconds and h.at <= restarted]
    told = [h for h in during if h.outage]
    forms_told = [h for h in told if h.sent]
    other = [h for h in during if h.status != 200 and not h.outage]
    slowest = max((h.seconds for h in during), default=0.0)
    verdicts.check(
        "outage: players are told the server cannot save right now (503)",
        bool(told) and bool(forms_told) and not other,
        f"{len(during)} answers while it was down: {len(told)} were 503 with the message "
        f"({len(forms_told)} of them to forms sent), "
        f"{len(other)} other than 200 or that" + (f" (e.g. {other[0].status} on {other[0].what})" if other else ""),
    )
    verdicts.check(
        "outage: no answer hangs",
        slowest <= OUTAGE_PATIENCE,
        f"slowest answer while it was down {slowest:.2f} s (at most {OUTAGE_PATIENCE} s)",
    )
    after = [one for one in table.done() if one.at > back]
    later = [h for h in heard if h.at - h.seconds > back]
    statuses = Counter(h.status for h in later)
    # a refusal by seat (403: the other side's step or action) is the game playing on; no answer or a 5xx is not
    settled = [h for h in later if h.status not in (200, 403)]
    verdicts.check(
        "outage: the game plays on once PostgreSQL is back",
        bool(after) and not settled,
        f"answers after the restart by status {dict(sorted(statuses.items()))}, {len(after)} actions acknowledged"
        + (f"; {settled[0].status} on {settled[0].what}" if settled else ""),
    )
    errors = table.errors()
    verdicts.check("outage: no server error reached a player", not errors, "; ".join(errors[:3]) or "none")
    ledger_checks(verdicts, table, "outage", since)


def server_log(verdicts: Verdicts, table: Table, postgres: bool) -> None:
    log = table.server.stderr()
    tracebacks = log.count("Traceback")
    locked = len(re.findall(r"database is locked", log))
    # the outage is logged once per refused request, by the middleware that answers 503: expected on PostgreSQL
    verdicts.check(
        "server log: no traceback and no locked database",
        tracebacks == 0 and locked == 0,
        f"{tracebacks} tracebacks, {locked} 'database is locked'"
        + (f"; first: {log[log.find('Traceback') :][:800]}" if tracebacks else "")
        + ("; outage lines expected on PostgreSQL" if postgres else ""),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=3, help="how many times the server is killed mid-play")
    parser.add_argument("--play", type=float, default=4.0, help="seconds of play before each kill, about")
    parser.add_argument("--down", type=float, default=5.0, help="seconds PostgreSQL stays down")
    parser.add_argument("--phones", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1863)
    args = parser.parse_args(argv)
    postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    verdicts = Verdicts()
    random.seed(args.seed)
    work = Path(tempfile.mkdtemp(prefix="republic-faults-"))
    table: Table | None = None
    try:
        with fresh_database(work) as database:
            print(f"faults: the demo battle on {'PostgreSQL' if postgres else 'SQLite'} ({database})", flush=True)
            manage(database, "migrate", "--noinput", "-v0")
            loaded = manage(database, "load_demo", "--host", "127.0.0.1")
            game = int(re.search(r"/games/(\d+)/", loaded).group(1))
            code = re.search(r"/join/([^/]+)/", loaded).group(1)
            table = Table(database, work, game, code, args.phones, args.seed)
            print(f"  served at {table.server.address}; {args.phones} phones seated", flush=True)
            sigkill(verdicts, table, args.kills, args.play)
            if postgres:
                outage(verdicts, table, args.down)
            else:
                print("PostgreSQL outage: not run (DATABASE_URL is not PostgreSQL)", flush=True)
            server_log(verdicts, table, postgres)
            table.server.stop()
    finally:
        if table is not None:
            table.server.stop()
        shutil.rmtree(work, ignore_errors=True)
    if verdicts.failed:
        print(f"faults: {len(verdicts.failed)} check(s) failed: {'; '.join(verdicts.failed)}", flush=True)
        return 1
    print("faults: every check passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
