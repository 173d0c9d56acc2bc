"""A seeded random walk over the forms the app really draws: the game page, the rows a phone opens, a division's
page, the turn log and the end of the game, each form filled mostly as a player would (a d10's face, one of the
offered choices) and sometimes wrongly, posted over htmx or plainly, with Next step, undo, going back and a
correction in between. No request may fail on the server, a request that records no event may change no row, and
at the end the rows are the setup with the events replayed."""

import random
from collections import Counter
from typing import Any

from django.test import Client
from django.urls import Resolver404, resolve

from republic.games.ledger import snapshot
from republic.games.models import Command, Event, Game, Unit
from republic.rules.units import Correction
from tests.bench_probe import rows_shown
from tests.bench_walk import prepare
from tests.devices import seated_device
from tests.games.conftest import state_matches_events
from tests.page_forms import Field, Form, as_sent, forms_of

REQUESTS = 1000
STUCK = 45  # requests at one step before the walk moves it on, its work done or not
INCHES = 99  # the top of a distance measured on the table
BAD = ["0", "11", "-1", "x", "", "1e3", "9" * 30, "é✓ 北", "<b>", "10.5", "null"]
SEED = 1863


class Walk:
    """The table at one game: the game master's device and a phone of each side, a seeded choice at each turn."""

    def __init__(self, game: Game, seed: int):
        self.game = game
        self.rng = random.Random(seed)
        self.master = Client()
        self.devices: list[Client] = []
        self.requests = 0
        self.statuses: Counter[int] = Counter()
        self.failures: list[str] = []
        self.steps: Counter[str] = Counter()
        self.at_step = 0  # requests since the game last came to a new step

    def fresh(self) -> Game:
        return Game.objects.get(pk=self.game.pk)

    def url(self, tail: str = "") -> str:
        return f"/games/{self.game.pk}/{tail}"

    def device(self) -> Client:
        """Mostly the game master, sometimes a seated player of either side (refused where it is not his)."""
        return self.rng.choice(self.devices) if self.rng.random() < 0.15 else self.master

    def send(self, device: Client, method: str, url: str, data: Any = None, headers: dict[str, str] | None = None):
        self.requests += 1
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()}
        response = device.get(url, data or {}, **extra) if method == "GET" else device.post(url, data or {}, **extra)
        self.statuses[response.status_code] += 1
        if response.status_code >= 500:
            self.failures.append(f"{method} {url} {data!r} {headers!r}: {response.status_code}")
        return response

    def get(self, url: str, htmx: bool = False, device: Client | None = None) -> str:
        response = self.send(device or self.master, "GET", url, headers={"HX-Request": "true"} if htmx else None)
        return response.content.decode() if response.status_code == 200 else ""

    def forms(self, body: str) -> list[Form]:
        """The forms an answer draws; each must send to an address of the app (a form drawn without one would
        post to the page it sits on)."""
        found = forms_of(body)
        for form in found:
            try:
                resolve(form.action.split("?")[0])
            except Resolver404:
                self.failures.append(f"a form is drawn with no address of the app: {form.action!r} {form.fields}")
        return found

    def post(self, form: Form, shown: str = "", device: Client | None = None) -> None:
        """Post the form filled in, over htmx (from its row, naming the rows the phone shows) or plainly; a post
        that records no event must leave every row as it was."""
        game = self.fresh()
        before, state = game.version, snapshot(game)
        htmx = self.rng.random() < 0.6
        headers = {"HX-Request": "true"} if htmx else {}
        if htmx and form.target:
            headers |= {"HX-Target": form.target, "Rows-Shown": shown}
        data = self.filled(form)
        self.send(device or self.device(), "POST", form.action, data, headers)
        after = self.fresh()
        if after.version == before:
            assert snapshot(after) == state, f"POST {form.action} {data!r} recorded no event but changed rows"
        if after.step != game.step:
            self.at_step = 0

    def filled(self, form: Form) -> dict[str, Any]:
        data: dict[str, Any] = dict(as_sent(form))
        for name, found in form.named().items():
            if self.rng.random() < 0.05:
                data[name] = self.rng.choice(BAD)
            elif self.rng.random() < 0.02:
                data.pop(name, None)
            else:
                value = self.plausible(found)
                if value is None:
                    data.pop(name, None)
                else:
                    data[name] = value
        if form.buttons:
            name, value = self.rng.choice(form.buttons)
            data[name] = value
        if self.rng.random() < 0.03:
            data[f"extra-{self.rng.randrange(99)}"] = self.rng.choice(BAD)
        return data

    def plausible(self, found: list[Field]) -> Any:
        one, rng = found[0], self.rng
        if one.kind == "hidden":
            # the version a form was drawn for: now and then one from before the last change
            stale = one.name.endswith("version") and rng.random() < 0.05 and one.value.isdigit()
            return str(int(one.value) - 1) if stale else one.value
        if one.kind == "checkbox":
            chosen = [f.value for f in found if rng.random() < 0.5]
            return chosen or None
        if one.kind == "radio":
            return rng.choice([f.value for f in found])
        if one.kind == "select":
            options = [o for o in one.options if o] or one.options
            if one.multiple:
                return rng.sample(options, k=rng.randint(0, min(3, len(options))))
            return rng.choice(options) if options else one.value
        if one.kind == "number":
            low = int(float(one.minimum or 0))
            high = int(float(one.maximum or low + 6))
            if high == INCHES:
                return rng.choice(["0", "0.5", "1", "2", "3", "4", "6"])
            return str(rng.randint(low, min(high, low + 9)))
        if one.kind == "file":
            return None
        if one.options:
            # a name typed from the suggestions, or the field left empty as most of a form's slots are
            return rng.choice(one.options) if rng.random() < 0.6 else one.value
        if one.kind == "textarea":
            return rng.choice(["Hold the ridge.", "", "Advance at dawn " * 3])
        return one.value

    # --- what the table does next ---------------------------------------------------------------------------

    def turn(self) -> None:
        game = self.fresh()
        self.steps[game.step] += 1
        self.at_step += 1
        if game.over:
            return self.pressed("undo/", self.master)
        page = self.get(self.url(), htmx=self.rng.random() < 0.2)
        shown = rows_shown(page)
        forms = self.forms(page)
        moving_on = [f for f in forms if f.action.endswith(("/next/", "/next/anyway/", "/undo/"))]
        work = [f for f in forms if f not in moving_on]
        rows = shown.split()
        if self.at_step > STUCK or (not rows and not work):
            return self.move_on()
        roll = self.rng.random()
        if rows and roll < 0.6:
            row = self.rng.choice(rows)
            opened = self.forms(self.get(self.url(f"rows/{row}/"), htmx=True))
            if opened:
                self.post(self.rng.choice(opened), shown)
        elif work and roll < 0.7:
            self.post(self.rng.choice(work), shown)
        elif roll < 0.76:
            self.pressed("next/", self.device())
        elif roll < 0.8:
            self.pressed("undo/", self.device())
        elif roll < 0.88:
            self.on_division_page()
        elif roll < 0.9:
            self.correct()
        elif roll < 0.92:
            self.from_page("log/", lambda forms: forms[-3:])
        elif roll < 0.925:
            self.from_page("end/", lambda forms: forms)
        else:
            self.look()

    def pressed(self, tail: str, device: Client) -> None:
        game = self.fresh()
        version = game.version - (1 if self.rng.random() < 0.05 else 0)
        self.post(Form(self.url(tail), buttons=[("version", str(version))]), device=device)

    def move_on(self) -> None:
        """Next step; the game master's "move on anyway" when work is left."""
        before = self.fresh()
        self.pressed("next/", self.master)
        if self.fresh().version == before.version:
            self.pressed("next/anyway/", self.master)

    def on_division_page(self) -> None:
        division = self.rng.choice(list(Command.objects.filter(game=self.game, level="division")))
        self.from_page(f"divisions/{division.pk}/", lambda forms: forms)

    def from_page(self, tail: str, which: Any) -> None:
        forms = which(self.forms(self.get(self.url(tail))))
        if forms:
            self.post(self.rng.choice(forms))

    def correct(self) -> None:
        unit = self.rng.choice(list(Unit.objects.filter(game=self.game)))
        change = self.rng.choice([c.value for c in Correction] + ["nonsense"])
        self.post(Form(self.url(f"units/{unit.pk}/{change}/"), buttons=[("version", str(self.fresh().version))]))

    def look(self) -> None:
        """What a phone asks for without changing anything: a poll, more rows, the order of battle, the log."""
        version = self.fresh().version
        tail = self.rng.choice(
            [
                f"poll/?since={version - self.rng.randint(0, 5)}",
                "poll/?since=x",
                "rows/?after=3",
                "units/",
                "log/?page=1",
                "log/?page=abc",
                "?shown=500",
                "?open=unit-1",
            ]
        )
        self.get(self.url(tail), htmx=tail.startswith("poll/"), device=self.device())


def test_a_random_walk_over_the_real_forms_never_fails_and_the_rows_replay(demo, monkeypatch):
    # "Roll for me" rolls from the walk's seed too, so that a failing walk is walked again alike
    monkeypatch.setattr("republic.games.forms._SYSTEM_RANDOM", random.Random(SEED))
    prepare(demo)
    walk = Walk(demo, SEED)
    walk.master.force_login(_master())
    walk.devices = [seated_device(demo, "Confederate"), seated_device(demo, "Union")]
    checked = 0
    while walk.requests < REQUESTS:
        walk.turn()
        if walk.requests >= checked + 100:
            checked = walk.requests
            assert state_matches_events(walk.fresh()), f"the rows left the events after {walk.requests} requests"
    assert not walk.failures, "\n".join(walk.failures[:5])
    assert walk.requests >= REQUESTS and max(walk.statuses) < 500
    assert state_matches_events(walk.fresh())
    # the walk went through the turn sequence and did real work on the way, refused and recorded alike
    assert len(walk.steps) >= 8, walk.steps
    kinds = set(Event.objects.filter(game=demo).values_list("kind", flat=True))
    assert {"StepAdvanced", "EventUndone", "CorrectionMade"} <= kinds and len(kinds) >= 8, kinds
    assert walk.statuses[200] and walk.statuses[302] and walk.statuses[403], walk.statuses


def _master():
    from django.contrib.auth import get_user_model

    users = get_user_model()
    return users.objects.filter(username="master").first() or users.objects.create_user("master", is_staff=True)


def test_the_forms_are_read_as_a_browser_sends_them():
    page = (
        '<div hx-target="#row-unit-3"><form method="post" hx-post="/games/1/act/rally/unit-3/">'
        '<input type="hidden" name="p-version" value="4"><input type="checkbox" name="p-l" value="1" checked>'
        '<input type="checkbox" name="p-l" value="2"><select name="p-s"><option value="a">A</option>'
        '<option value="b" selected>B</option></select><input name="p-t">'
        '<input type="search" class="pick-filter"><input type="radio" name="p-u" value="unit:1">'
        '<input type="radio" name="p-u" value="unit:2" checked>'
        '<button type="submit" name="roll" value="app">Roll</button></form></div>'
        '<form method="post" action="/accounts/logout/"></form>'
    )
    (form,) = forms_of(page)
    assert (
        form.action == "/games/1/act/rally/unit-3/"
        and form.target == "row-unit-3"
        and form.buttons == [("roll", "app")]
    )
    # a picker's filter has no name: a browser sends nothing of it
    assert as_sent(form) == {"p-version": "4", "p-l": ["1"], "p-s": "b", "p-t": "", "p-u": "unit:2"}
