"""Twenty phones submit the same form at the same moment, over real HTTP to a real server on its own database
(SQLite by default, PostgreSQL when the suite runs on it): exactly one is applied, and every other one is
refused with the fresh state, never a server error."""

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest

from tests.databases import ROOT, fresh_database, manage

PHONES = 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[str, int]]:
    """The app served by a real server on a free port, with the demo battle loaded; yields its address, the
    demo game's id and its join code."""
    with fresh_database(tmp_path) as database:
        manage(database, "migrate", "--noinput", "-v0")
        loaded = manage(database, "load_demo")
        game = int(re.search(r"/games/(\d+)/", loaded).group(1))
        code = re.search(r"/join/([^/]+)/", loaded).group(1)
        port = _free_port()
        env = {**os.environ, "DATABASE_URL": database, "REPUBLIC_ALLOWED_HOSTS": "127.0.0.1"}
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "runserver", f"127.0.0.1:{port}", "--noreload"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            address = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"{address}/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            yield address, game, code
        finally:
            process.terminate()
            process.wait(timeout=10)


class Phone:
    """A browser of its own: its own cookies and CSRF token, as a player's phone has, seated on the attacking
    side with the join link."""

    def __init__(self, address: str, game: int, code: str):
        self.address, self.game = address, game
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        joining = self.opener.open(f"{address}/join/{code}/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', joining).group(1)
        side = re.search(r'value="(side-\d+)"(?:(?!value=).)*?Confederate: the whole side', joining, re.S).group(1)
        seat = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "name": "Phone", "seat": side}).encode()
        self.opener.open(urllib.request.Request(f"{address}/join/{code}/", data=seat, headers={"Referer": address}))
        page = self.opener.open(f"{address}/games/{game}/").read().decode()
        self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        self.version = int(re.search(r'name="version" value="(\d+)"', page).group(1))

    def next_step(self) -> tuple[int, str]:
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": self.token, "version": self.version}).encode()
        request = urllib.request.Request(
            f"{self.address}/games/{self.game}/next/",
            data=data,
            headers={"HX-Request": "true", "X-CSRFToken": self.token, "Referer": f"{self.address}/games/{self.game}/"},
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")


def test_twenty_phones_pressing_next_step_at_once_move_the_game_exactly_once(server):
    address, game, code = server
    phones = [Phone(address, game, code) for _ in range(PHONES)]
    assert len({phone.version for phone in phones}) == 1
    start = threading.Barrier(PHONES)
    answers: list[tuple[int, str]] = []

    def press(phone: Phone) -> None:
        start.wait()
        answers.append(phone.next_step())

    threads = [threading.Thread(target=press, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert sorted(status for status, _ in answers) == [200] * PHONES
    moved = [body for _, body in answers if "The game moved on" not in body]
    refused = [body for _, body in answers if "The game moved on since this page was drawn" in body]
    assert (len(moved), len(refused)) == (1, PHONES - 1)
    fresh_version = phones[0].version + 1
    assert all(f'name="version" value="{fresh_version}"' in body for body in refused)  # drawn for the fresh state
    assert all("Attacker rallies units" in body for _, body in answers)
    final = Phone(address, game, code)
    assert final.version == fresh_version
