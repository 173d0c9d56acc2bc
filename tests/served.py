"""The app as a club serves it (``manage.py serve``: granian's main process and workers in a process group of their
own) on a database of its own, and phones speaking real HTTP to it, each with its own cookies and seat, posting the
forms the pages draw. Shared by the race tests and the fault script (tests/faults.py)."""

import atexit
import html
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path

from tests.databases import ROOT, manage

_RESULT = re.compile(r"Last result · #(\d+) · ")
_ERROR = re.compile(r'<div class="alert alert-danger" role="alert" id="error"[^>]*>([^<]*)<')
_VERSION = re.compile(r'name="version" value="(\d+)"')
_TOKEN = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
_ROW = re.compile(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"')
# one static root for every server a test process starts: the first start collects it, the others find it up to date
STATIC_ROOT = Path(tempfile.mkdtemp(prefix="republic-static-"))
atexit.register(shutil.rmtree, STATIC_ROOT, ignore_errors=True)
MOVED_ON = "The game moved on since this page was drawn"
OUTAGE = "The server cannot save right now"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``manage.py serve`` on ``database`` at a port, its standard error kept in a file for the checks to read."""

    def __init__(self, database: str, work: Path, port: int | None = None, secret: str = ""):
        self.database, self.work = database, work
        self.port = port or free_port()
        self.address = f"http://127.0.0.1:{self.port}"
        self.stderr_path = work / "server-stderr.log"
        self.process: subprocess.Popen[bytes] | None = None
        # the phones' seats live in cookies signed with this key: they stay valid when the server starts again
        self.secret = secret or os.urandom(24).hex()

    def start(self, timeout: float = 60) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database,
            "REPUBLIC_ALLOWED_HOSTS": "127.0.0.1",
            "REPUBLIC_STATIC_ROOT": str(STATIC_ROOT),
            "REPUBLIC_SECRET_KEY": self.secret,
        }
        command = [sys.executable, str(ROOT / "manage.py"), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        with open(self.stderr_path, "ab") as stderr:
            # a session of its own: the master and its workers are one process group, killed together
            self.process = subprocess.Popen(
                command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped at start: {self.stderr()[-2000:]}")
            try:
                urllib.request.urlopen(f"{self.address}/", timeout=2).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s")

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once, as a power cut or the OOM killer leaves them."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path.exists() else ""


@dataclass
class Answer:
    status: int
    body: str
    seconds: float
    # read by name whatever its case, as a browser reads them: a server may send names in lower case
    headers: Message = field(default_factory=Message)

    @property
    def error(self) -> str:
        """The refusal the answer shows ('' when none)."""
        found = _ERROR.search(self.body)
        return html.unescape(found.group(1)).strip() if found else ""

    @property
    def moved_on(self) -> bool:
        return self.status == 200 and MOVED_ON in self.error

    @property
    def outage(self) -> bool:
        return self.status == 503 and OUTAGE in self.body

    def recorded(self, drawn: int) -> int | None:
        """The sequence number of the event this answer says was recorded for a form drawn at version ``drawn``:
        a 200 without a refusal, whose result card is of an event after ``drawn``; None otherwise."""
        if self.status != 200 or self.error:
            return None
        found = _RESULT.search(self.body)
        seq = int(found.group(1)) if found else 0
        return seq if seq > drawn else None


def rows_in(body: str) -> list[str]:
    """The subjects of the step's rows a page draws ('unit-12'), as a phone's script lists them."""
    return _ROW.findall(body)


def version_in(body: str) -> int | None:
    found = _VERSION.search(body)
    return int(found.group(1)) if found else None


class Phone:
    """A browser of its own: its own cookies and CSRF token, as a player's phone has, seated with the join link on
    one side's whole seat (``side``: the side's name as the join page words it)."""

    def __init__(self, address: str, game: int, code: str, side: str = "Confederate", name: str = "Phone"):
        self.address, self.game, self.name = address, game, name
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        joining = self.opener.open(f"{address}/join/{code}/", timeout=30).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', joining).group(1)
        seat = re.search(rf'value="(side-\d+)"(?:(?!value=).)*?{side}: the whole side', joining, re.S).group(1)
        sitting = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "name": name, "seat": seat}).encode()
        joined = urllib.request.Request(f"{address}/join/{code}/", data=sitting, headers={"Referer": address})
        self.opener.open(joined, timeout=30).close()
        page = self.page()
        # every page gives its token to htmx's requests; a page of the side not at work may have no form
        self.token = _TOKEN.search(page.body).group(1)
        self.version = version_in(page.body) or 0

    @property
    def url(self) -> str:
        return f"{self.address}/games/{self.game}/"

    def send(self, request: urllib.request.Request, timeout: float) -> Answer:
        began = time.monotonic()
        try:
            with self.opener.open(request, timeout=timeout) as response:
                body = response.read().decode(errors="replace")
                return Answer(response.status, body, time.monotonic() - began, response.headers)
        except urllib.error.HTTPError as error:
            body = error.read().decode(errors="replace")
            return Answer(error.code, body, time.monotonic() - began, error.headers)

    def get(self, path: str, row: str = "", timeout: float = 60) -> Answer:
        headers = {"HX-Request": "true", "HX-Target": f"row-{row}"} if row else {}
        return self.send(urllib.request.Request(f"{self.address}{path}", headers=headers), timeout)

    def page(self, timeout: float = 60) -> Answer:
        return self.get(f"/games/{self.game}/", timeout=timeout)

    def row(self, subject: str, timeout: float = 60) -> Answer:
        """A step's row opened, as a tap on it asks for its form."""
        return self.get(f"/games/{self.game}/rows/{subject}/", row=subject, timeout=timeout)

    def post(
        self, path: str, data: dict[str, list[str]], row: str = "", shown: str = "", timeout: float = 60
    ) -> Answer:
        """POST over htmx, from the step row ``row`` when given, by a phone that shows the rows ``shown``."""
        headers = {"HX-Request": "true", "X-CSRFToken": self.token, "Referer": self.url}
        if row:
            headers |= {"HX-Target": f"row-{row}", "Rows-Shown": shown}
        encoded = urllib.parse.urlencode({"csrfmiddlewaretoken": self.token, **data}, doseq=True).encode()
        return self.send(urllib.request.Request(f"{self.address}{path}", data=encoded, headers=headers), timeout)

    def next_step(self, version: int | None = None, timeout: float = 60) -> Answer:
        drawn = self.version if version is None else version
        return self.post(f"/games/{self.game}/next/", {"version": [str(drawn)]}, timeout=timeout)

    def undo(self, version: int, timeout: float = 60) -> Answer:
        return self.post(f"/games/{self.game}/undo/", {"version": [str(version)]}, timeout=timeout)


# Run by ``manage.py shell`` on the server's database: the game's events, and whether its rows are the setup plus
# every event's changes replayed (as tests/games/conftest.py ``state_matches_events`` holds it).
_LEDGER = """
import json
from republic.games.ledger import replay, snapshot
from republic.games.models import Event, Game
game = Game.objects.get(pk=GAME)
current, rebuilt = snapshot(game), replay(game)
events = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "kind", "actor", "subject", "payload"))
print(json.dumps({
    "version": game.version,
    "step": game.step,
    "events": [[seq, kind, actor, subject, json.dumps(payload)] for seq, kind, actor, subject, payload in events],
    "replays": set(current) == set(rebuilt)
    and all(rebuilt[key] == {f: current[key][f] for f in rebuilt[key]} for key in current),
}))
"""


@dataclass
class Ledger:
    version: int
    step: str
    events: list[tuple[int, str, str, str, str]]  # seq, kind, actor, subject, payload as JSON
    replays: bool

    def event(self, seq: int) -> tuple[int, str, str, str, str] | None:
        return next((e for e in self.events if e[0] == seq), None)


def ledger(database: str, game: int) -> Ledger:
    found = json.loads(manage(database, "shell", "-c", _LEDGER.replace("GAME", str(game))).strip().splitlines()[-1])
    events = [(e[0], e[1], e[2], e[3], e[4]) for e in found["events"]]
    return Ledger(found["version"], found["step"], events, found["replays"])
