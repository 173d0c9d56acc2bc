"""The big screens of the load benchmark (tests/load.py), beside the phones: the room screen through its read-only
link, as the hall's TV shows it, and the game master's dashboard, signed in. Each redraws as its page asks
(``hx-trigger="every 5s"`` on #room in templates/games/room.html and on the dashboard's list in
templates/games/dashboard.html), with the headers htmx sends: htmx swaps the redrawn part in whole and the part
swapped in starts its own 5 s, so a screen asks again 5 s after each answer."""

import random
import re

import gevent
from locust import task

from tests.load_devices import ERROR, OK, TALLY, Timed

SCREEN_SECONDS = 5.0
ROOM, DASHBOARD = "room screen", "dashboard"
MASTER, PASSWORD = "load-master", "load-only-not-secret"  # made with the games (tests/load.py)
SEATED: list["Screen"] = []  # the screens that opened their page

_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Screen(Timed):
    """A screen that stays open on one page; a subclass names the page and how many such screens there are."""

    abstract = True
    kind = ROOM
    path = "/room/"
    target = ""  # the id of the element that redraws, as htmx names it (none for the dashboard's list)

    def on_start(self) -> None:
        self.page_url = f"{self.host}{self.path}"
        if self.kind == DASHBOARD and not self.sign_in():
            return
        if self.draw(htmx=False):
            gevent.sleep(random.uniform(0, SCREEN_SECONDS))  # the moment this screen was opened, within a redraw
            SEATED.append(self)

    def sign_in(self) -> bool:
        status, text, _, ms = self.timed(self.kind, "", "GET", "/accounts/login/")
        token = _TOKEN.search(text)
        fields = [("csrfmiddlewaretoken", token.group(1) if token else ""), ("username", MASTER)]
        fields += [("password", PASSWORD), ("next", self.path)]
        status, _, _, ms = self.timed(
            self.kind,
            "",
            "POST",
            "/accounts/login/",
            data=self._encoded(fields),
            headers=self._form_headers(),
            allow_redirects=False,
        )
        TALLY.add(self.kind, "sign-in", ms, OK if status == 302 else ERROR, status, f"sign-in: {status}")
        return status == 302

    def wait_time(self) -> float:
        return SCREEN_SECONDS

    @task
    def redraw(self) -> None:
        self.draw(htmx=True)

    def draw(self, htmx: bool) -> bool:
        headers = self._htmx(self.target, trigger=self.target) if htmx else {}
        status, _, _, ms = self.timed(self.kind, "", "GET", self.path, headers=headers)
        if status == 200:
            TALLY.add(self.kind, "", ms, OK, status)
        elif status and status < 500:
            TALLY.add(self.kind, "", ms, ERROR, status, f"{self.kind}: {self.path}: {status}")
        return status == 200


def screens(room_key: str, rooms: int, dashboards: int) -> list[type[Screen]]:
    """The locust classes of the room screens (through the link of ``room_key``) and of the dashboards."""
    room = {"kind": ROOM, "path": f"/room/{room_key}/", "target": "room", "fixed_count": rooms, "abstract": False}
    dashboard = {"kind": DASHBOARD, "path": "/dashboard/", "fixed_count": dashboards, "abstract": False}
    return [
        type(name, (Screen,), d) for name, d, n in (("Room", room, rooms), ("Dashboard", dashboard, dashboards)) if n
    ]
