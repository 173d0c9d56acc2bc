"""The phones of a club's day for the load benchmark (tests/load.py), as locust users against the real server.

Each device is a player's phone: it takes a seat with its game's join link, opens the game page, then polls
every 3 s with the headers the page's script sends (htmx's own, and the step rows it shows), taking the fresh
state a poll brings. Now and then a phone opens the page again, as one does waking from its lock screen.
Phones were woken at moments of their own, so each one's polls keep a phase of their own within the 3 s: locust
seats the phones in batches on the second, and phones polling in step would ask all at once, in bursts a club's
phones never make.

Each game's table plays at a rate the benchmark sets: one action every so many seconds, made by one of the
attacking side's phones in turn, with the form the app draws for the step. Where the step has rows, a row is
opened and its die entered from it, as a player enters a die (the maneuver roll of the move step for a fresh
club battle); a step without rows is moved on from; once every row shown has its die, the last action is
undone and its row rolled again, so that a game is played for as long as the benchmark runs. Actions are
sent on the clock, not after the previous answer: players do not wait for each other, so a slow server
gets more actions in flight (up to ``IN_FLIGHT`` a game; an action that would be more is counted as not sent).
Each table's clock starts at a moment of its own: tables do not play in step with each other either.
"""

import random
import re
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import gevent
from gevent.pool import Group
from geventhttpclient.response import HTTPConnectionClosed
from locust import FastHttpUser, task

from tests.load_forms import forms_of, poll_address, refusal, version_in
from tests.load_news import News

POLL_SECONDS = 3.0  # hx-trigger="every 3s" on #poll (templates/games/parts/step_bar.html)
IN_FLIGHT = 8
ATTACKER = "Confederate"  # tests/club_battle.py: the Confederates attack first

JOIN, PAGE, POLL, ROW, ACTION = "join", "page", "poll", "open row", "action"
OK, REFUSED, ERROR = "ok", "refused", "error"

_ROW = re.compile(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"')
_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_SEAT = re.compile(r'name="seat" value="((?:side|command)-\d+)".*?<label[^>]*>\s*([^<]+?)\s*</label>', re.S)


@dataclass
class Record:
    stage: int
    kind: str
    sub: str  # poll: "nothing new", "news", "live part"; action: "dice", "undo", "next step"
    ms: float
    outcome: str
    status: int


@dataclass
class Tally:
    """Every request the devices made, with the stage it was made in; the first errors and the refusals' reasons."""

    stage: int = 0
    records: list[Record] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    unsent: Counter[int] = field(default_factory=Counter)  # actions not sent, by stage: IN_FLIGHT was reached
    resent: Counter[int] = field(default_factory=Counter)  # requests sent again, by stage (``Device.timed``)

    def add(self, kind: str, sub: str, ms: float, outcome: str, status: int, about: str = "") -> None:
        if self.stage < 0:
            return
        self.records.append(Record(self.stage, kind, sub, ms, outcome, status))
        if outcome == ERROR and len(self.errors) < 20:
            self.errors.append(about)
        if outcome == REFUSED:
            self.reasons[about[:120]] += 1


TALLY = Tally()


@dataclass
class Rate:
    """The seconds between two actions at each game, changed by the benchmark from stage to stage."""

    interval: float = 2.0


RATE = Rate()


@dataclass
class Table:
    """One game and its phones: the seats they take, and the state of play its actions go by."""

    game: int
    code: str
    units: int
    phones: int
    devices: list["Device"] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)  # the step rows the side's page shows, in order
    version: int = 0
    done: set[str] = field(default_factory=set)  # rows whose die is in
    claimed: set[str] = field(default_factory=set)  # rows an action in flight is about
    rolled: list[str] = field(default_factory=list)
    in_flight: int = 0
    acting: Group = field(default_factory=Group)  # the actions in flight, stopped with the table
    turn: int = 0
    numbers: int = 0
    news: News = field(default_factory=News)

    def take_number(self) -> int:
        self.numbers += 1
        return self.numbers - 1

    @property
    def attackers(self) -> list["Device"]:
        return [d for d in self.devices if d.attacking]

    def seen(self, text: str, full: bool, attacking: bool) -> None:
        """An answer drawn for this game: its version, and when it is the attacking side's whole live part (a
        page, or an answer or a poll that brought it), the rows its actions go by."""
        version = version_in(text)
        if version is not None:
            self.version = max(self.version, version)
        if full and attacking:
            self.rows = _ROW.findall(text)

    def play(self) -> None:
        """Send an action every ``RATE.interval`` seconds, on the clock, until killed (its actions with it)."""
        try:
            self._play()
        finally:
            self.acting.kill()

    def _play(self) -> None:
        gevent.sleep(random.uniform(0, RATE.interval))
        due = time.monotonic()
        while True:
            if self.attackers and self.in_flight < IN_FLIGHT:
                self.in_flight += 1
                device = self.attackers[self.turn % len(self.attackers)]
                self.turn += 1
                self.acting.spawn(self._act, device)
            elif self.attackers:
                TALLY.unsent[TALLY.stage] += 1
            due += RATE.interval
            gevent.sleep(max(0.0, due - time.monotonic()))

    def next_step(self, device: "Device") -> None:
        if device.post_version(f"/games/{self.game}/next/", "next step", self.version):
            self.done.clear()
            self.rolled.clear()

    def _act(self, device: "Device") -> None:
        try:
            if not self.rows:
                self.next_step(device)
                return
            for subject in [r for r in self.rows if r not in self.done and r not in self.claimed][:3]:
                self.claimed.add(subject)
                try:
                    rolled = device.roll_from_row(subject, self.rows)
                    if rolled is not False:
                        self.done.add(subject)
                    if rolled:
                        self.rolled.append(subject)
                        return
                finally:
                    self.claimed.discard(subject)
            if not all(r in self.done for r in self.rows):
                return
            if not self.rolled:
                # a step whose rows take no die (a leader's move): the table moves on to one whose rows do
                self.next_step(device)
                return
            # every row shown has its die: undo the last and roll its row again, so that the game goes on
            if device.post_version(f"/games/{self.game}/undo/", "undo", self.version):
                self.done.discard(self.rolled.pop())
        finally:
            self.in_flight -= 1


class Timed(FastHttpUser):
    """A device whose requests are timed and tallied."""

    abstract = True
    network_timeout = 30.0
    connection_timeout = 10.0
    page_url = ""

    def timed(self, kind: str, sub: str, method: str, url: str, **extra: Any) -> tuple[int, str, Any, float]:
        start = time.perf_counter()
        response = self.client.request(method, url, name=kind, **extra)
        if isinstance(getattr(response, "error", None), HTTPConnectionClosed):
            # the server closed a kept-alive connection (idle past its keep-alive) as the request went out, before
            # any answer: a browser sends the request again on a fresh connection, whatever its method, and so do
            # the phones here, counted (the server never read the first)
            TALLY.resent[TALLY.stage] += 1
            response = self.client.request(method, url, name=kind, **extra)
        ms = (time.perf_counter() - start) * 1000
        status = response.status_code or 0
        text = response.text or "" if status else ""
        if status == 0 or status >= 500:
            TALLY.add(kind, sub, ms, ERROR, status, f"{kind}: {method} {url}: {status} {response.error or text[:300]}")
        return status, text, response, ms

    def _token(self) -> str:
        return next((c.value for c in self.client.cookiejar if c.name == "csrftoken"), "")

    def _htmx(self, target: str, trigger: str = "") -> dict[str, str]:
        headers = {"HX-Request": "true", "HX-Current-URL": self.page_url}
        if target:
            headers["HX-Target"] = target
        if trigger:
            headers["HX-Trigger"] = trigger
        return headers

    def _form_headers(self) -> dict[str, str]:
        return {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self._token()}

    @staticmethod
    def _encoded(fields: list[tuple[str, str]]) -> str:
        return urllib.parse.urlencode(fields)


class Device(Timed):
    """A player's phone on one game; a subclass per game names its table and how many phones it has."""

    abstract = True
    table: Table
    reload_seconds = 120.0  # a phone opens the page again about this often (its lock screen, a tap on a link)

    def on_start(self) -> None:
        self.number = self.table.take_number()
        self.attacking = False
        self.shown: list[str] = []
        self.poll_url = ""
        self.page_url = f"{self.host}/games/{self.table.game}/"
        self.join()
        self.open_page()
        gevent.sleep(random.uniform(0, POLL_SECONDS))  # the moment this phone's page was opened, within a poll
        self.due = time.monotonic()
        self.table.devices.append(self)

    def wait_time(self) -> float:
        """Until this phone's next poll, on its own clock (locust's pacing keeps the phase of the moment it seated
        the phone, on the second)."""
        self.due += POLL_SECONDS
        return max(0.0, self.due - time.monotonic())

    def join(self) -> None:
        status, text, _, ms = self.timed(JOIN, "", "GET", f"/join/{self.table.code}/")
        seats = _SEAT.findall(text)
        attacking = [value for value, label in seats if label.startswith(f"{ATTACKER}:")]
        defending = [value for value, label in seats if not label.startswith(f"{ATTACKER}:")]
        # the sides alternate, each phone on the next seat of its side: the side whole, its corps, its divisions
        mine = (attacking, defending)[self.number % 2]
        if status != 200 or not mine:
            TALLY.add(JOIN, "", ms, ERROR, status, f"join page: {status}, {len(seats)} seats")
            return
        seat = mine[(self.number // 2) % len(mine)]
        self.attacking = self.number % 2 == 0
        token = _TOKEN.search(text)
        data = {"csrfmiddlewaretoken": token.group(1) if token else "", "name": f"Phone {self.number}", "seat": seat}
        status, _, _, ms = self.timed(
            JOIN,
            "",
            "POST",
            f"/join/{self.table.code}/",
            data=self._encoded(list(data.items())),
            headers=self._form_headers(),
            allow_redirects=False,
        )
        TALLY.add(JOIN, "", ms, OK if status == 302 else ERROR, status, f"join: {status}")

    def open_page(self) -> None:
        status, text, _, ms = self.timed(PAGE, "", "GET", self.page_url)
        if status == 200:
            TALLY.add(PAGE, "", ms, OK, status)
            self.take(text, full=True)
        elif status and status < 500:
            TALLY.add(PAGE, "", ms, ERROR, status, f"page: {status}")

    def take(self, text: str, full: bool, acted: bool = False) -> None:
        """The fresh state an answer brought: the poll's next address, the version it shows (``acted``: the answer
        to this phone's accepted action), and the rows when it is the live part."""
        self.poll_url = poll_address(text) or self.poll_url
        version = version_in(text)
        if version is not None:
            record = self.table.news.acted if acted else self.table.news.hold
            record(self.number, version, time.monotonic())
        if full:
            self.shown = _ROW.findall(text)
        self.table.seen(text, full, self.attacking)

    @task
    def poll(self) -> None:
        if random.random() < POLL_SECONDS / self.reload_seconds or not self.poll_url:
            self.open_page()
            return
        headers = {
            **self._htmx("live", trigger="poll"),
            "Rows-Shown": " ".join(self.shown),
            "Rows-Open": "",  # no row open: the acting phone opens one only to send its form
        }
        status, text, response, ms = self.timed(POLL, "", "GET", self.poll_url, headers=headers)
        if status == 204:
            TALLY.add(POLL, "nothing new", ms, OK, status)
        elif status == 200:
            pieces = response.headers.get("HX-Reswap") == "none"
            TALLY.add(POLL, "news" if pieces else "live part", ms, OK, status)
            self.take(text, full=not pieces)
        elif status and status < 500:
            TALLY.add(POLL, "", ms, ERROR, status, f"poll: {self.poll_url}: {status} {text[:300]}")

    def roll_from_row(self, subject: str, rows: list[str]) -> bool | None:
        """Open a row and enter a die with its form: True once accepted, None when the row has no die to enter,
        False when the row could not be opened or the die was refused."""
        headers = self._htmx(f"row-{subject}")
        status, text, _, ms = self.timed(ROW, "", "GET", f"/games/{self.table.game}/rows/{subject}/", headers=headers)
        if status != 200:
            if status and status < 500:
                TALLY.add(ROW, "", ms, ERROR, status, f"open row {subject}: {status}")
            return False
        TALLY.add(ROW, "", ms, OK, status)
        form = next((f for f in forms_of(text) if f.dice), None)
        if form is None or not form.action:
            return None
        fields = [*form.fields, *((name, str(random.randint(1, 10))) for name in form.dice)]
        if form.button and not form.die_faces:
            fields.append(form.button)
        headers = {
            **self._htmx(f"row-{subject}"),
            **self._form_headers(),
            "Rows-Shown": " ".join(rows),
            "Rows-Open": subject,
        }
        status, text, _, ms = self.timed(
            ACTION, "dice", "POST", form.action, data=self._encoded(fields), headers=headers
        )
        return self._answered("dice", status, text, ms, form.action) and 'id="result"' in text

    def post_version(self, url: str, sub: str, version: int) -> bool:
        """A form of the step bar or the result card: its version and nothing else, answered with the live part."""
        fields = [("csrfmiddlewaretoken", self._token()), ("version", str(version))]
        headers = {**self._htmx("live"), **self._form_headers()}
        status, text, _, ms = self.timed(ACTION, sub, "POST", url, data=self._encoded(fields), headers=headers)
        return self._answered(sub, status, text, ms, url)

    def _answered(self, sub: str, status: int, text: str, ms: float, url: str) -> bool:
        if status == 0 or status >= 500:
            return False
        if status != 200:
            outcome = REFUSED if status in (400, 403, 409) else ERROR
            TALLY.add(ACTION, sub, ms, outcome, status, f"{sub}: {url}: {status} {text[:200]}")
            return False
        refused = refusal(text)
        TALLY.add(ACTION, sub, ms, REFUSED if refused else OK, status, f"{sub}: {refused}")
        self.take(text, full='id="live"' in text, acted=not refused)
        return not refused
