"""Holding what a page or an action costs: one battle at two sizes, the same work waiting at both, the same
request sent to both, and the number of queries compared. No count is written down: a page that costs 40
queries is fine as long as it costs 40 at every size. A failure names both counts and the queries the larger
one made beyond the other, so the query that grows with the battle is read off the message."""

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext

from republic.games.models import Command, Game, Leader, Unit
from republic.games.readings import forget_shared
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps import hors_de_combat
from tests.club_battle import club_scenario
from tests.devices import master_device
from tests.games.conftest import HTMX, fresh, set_state, state_matches_events

SIZES = (20, 60)
"""Two battles of the same shape: two divisions a side in one corps, and six a side in two corps."""

Send = Callable[[], HttpResponse]


@dataclass
class Table:
    """One battle of a size, and the phone that plays it. While work is being put in front of it (``setting``),
    its actions are plain POSTs, answered with a redirect instead of a drawn page, and each must record its event."""

    units: int
    game: Game
    client: Client = field(default_factory=master_device)
    setting: bool = False
    shown: str = ""  # the rows the phone lists (its script sends them with a row's form), when it says

    def path(self, tail: str) -> str:
        return f"/games/{self.game.pk}/{tail}"

    def post(self, tail: str, data: dict[str, Any], target: str = "") -> Send:
        """A POST ready to be sent: as htmx sends it (from the element ``target``, a step's row 'row-unit-12' or a
        division's page 'division-3', as a phone sends it), or a plain one while setting."""
        if not self.setting:
            headers = {**HTMX, **({"HTTP_HX_TARGET": target} if target else {})}
            if target and self.shown:
                headers["HTTP_ROWS_SHOWN"] = self.shown
            return lambda: self.client.post(self.path(tail), data, **headers)

        def setting_up() -> HttpResponse:
            before = fresh(self.game).version
            response = self.client.post(self.path(tail), data)
            assert fresh(self.game).version == before + 1, f"{tail} did nothing at {self.units} units"
            return response

        return setting_up

    def page(self, htmx: bool = False) -> Send:
        return lambda: self.client.get(self.path(""), **(HTMX if htmx else {}))

    def get(self, tail: str) -> Send:
        return lambda: self.client.get(self.path(tail), **HTMX)

    def parts(self) -> list[str]:
        """The folded parts of the step's panel on the page, which a tap fetches open."""
        return re.findall(r'hx-get="/games/\d+/parts/([a-z-]+)/"', self.client.get(self.path("")).content.decode())

    def first_row(self) -> str:
        """The address of the step's first row on the page, '' when the step has none."""
        found = re.search(r'hx-get="(/games/\d+/rows/[a-z]+-\d+/)"', self.client.get(self.path("")).content.decode())
        return found.group(1) if found else ""

    def poll(self, back: int, whole: bool) -> Send:
        """The page's poll, drawn ``back`` events ago, showing the rows the page shows now and the row of the
        latest event; answered with the ``whole`` live part, or with its pieces."""
        game = fresh(self.game)
        page = self.client.get(self.path("")).content.decode()
        shown = re.findall(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"', page)
        latest = game.events.order_by("seq").last()
        headers = {**HTMX, "HTTP_ROWS_SHOWN": " ".join([*shown, latest.subject if latest else ""])}

        def send() -> HttpResponse:
            since = max(0, game.version - back)  # a page is drawn at a version of the game, never before it
            response = self.client.get(self.path(f"poll/?since={since}&letter=0"), **headers)
            assert (response.get("HX-Reswap") != "none") == whole, f"{response.get('HX-Reswap')} at {self.units}"
            return response

        return send

    def next_step(self) -> Send:
        return self.post("next/", {"version": fresh(self.game).version})


def battles() -> list[Table]:
    return [Table(n, create_game(parse_scenario(club_scenario(n)))) for n in SIZES]


def _shape(sql: str) -> str:
    """A query without its values, so the same query for another row reads the same."""
    sql = re.sub(r'"s\d+_x\d+"', '"s…"', sql)  # a savepoint's name
    sql = re.sub(r"'(?:[^']|'')*'", "'…'", sql)
    sql = re.sub(r"\b\d+(\.\d+)?\b", "N", sql)
    return re.sub(r"IN \([^()]*\)", "IN (…)", sql)


def _excess(more: list[str], fewer: list[str]) -> str:
    extra = Counter(map(_shape, more)) - Counter(map(_shape, fewer))
    lines = [f"  {n} × {sql[:400]}" for sql, n in extra.most_common(8)]
    return "\n".join(lines) or "  (the same queries, in other numbers)"


@dataclass
class Costs:
    """The measurements of one test, checked together at its end, so one growing query does not hide the next."""

    tables: list[Table]
    problems: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def each(self, prepare: Callable[[Table], Any]) -> None:
        """Put the same work in front of every battle (not measured)."""
        for table in self.tables:
            table.setting = True
            try:
                prepare(table)
            finally:
                table.setting = False
            fresh(table.game)

    def measure(self, what: str, request: Callable[[Table], Send], events: int | None = 1) -> None:
        """Send the request ``request(table)`` builds to each battle and compare the queries it made; an action
        must record ``events`` events (None: whatever it records), so a refusal is not measured by mistake."""
        captured = []
        for table in self.tables:
            fresh(table.game)
            send = request(table)
            before = table.game.version
            # measured as the first request to read the game at its version, as after an action: a reading
            # shared with an earlier request (``readings``) would hide what the first one costs
            forget_shared()
            with CaptureQueriesContext(connection) as queries:
                response = send()
            assert response.status_code in (200, 302), f"{what} at {table.units} units: {response.status_code}"
            recorded = fresh(table.game).version - before
            assert events is None or recorded == events, f"{what} at {table.units} units recorded {recorded} events"
            captured.append([q["sql"] for q in queries.captured_queries])
        counts = [len(c) for c in captured]
        self.seen.append(f"{what}: " + " / ".join(f"{n}" for n in counts))
        small, large = captured
        if len(small) != len(large):
            more, fewer = (large, small) if len(large) > len(small) else (small, large)
            sizes = " and ".join(f"{n} queries at {t.units} units" for n, t in zip(counts, self.tables, strict=True))
            self.problems.append(f"{what}: {sizes}; the extra ones:\n{_excess(more, fewer)}")

    def pages(self, step: str) -> None:
        """The game page and its htmx fragment at this step, each folded part of its panel opened, its first row
        opened and its next rows."""
        self.measure(f"{step} page", lambda t: t.page(), events=0)
        self.measure(f"{step} page over htmx", lambda t: t.page(htmx=True), events=0)
        parts = [t.parts() for t in self.tables]
        assert all(found == parts[0] for found in parts), f"{step}: the parts differ with the size: {parts}"
        for part in parts[0]:
            self.measure(f"{step}: its {part} opened", lambda t, part=part: t.get(f"parts/{part}/"), events=0)
        rows = [t.first_row() for t in self.tables]
        if all(rows):
            self.measure(
                f"{step}: a row opened", lambda t: t.get(rows[self.tables.index(t)][len(t.path("")) :]), events=0
            )
            self.measure(f"{step}: more rows", lambda t: t.get("rows/?after=1"), events=0)

    def leave(self, step: str, passing: int = 0) -> None:
        """Next step from ``step``, and past the ``passing`` steps after it that pass by themselves."""
        self.measure(f"leaving {step}", lambda t: t.next_step(), events=1 + passing)

    def check(self) -> None:
        print("\n".join(self.seen))
        assert not self.problems, "\n".join(self.problems)
        # however the rows were written, they are still the setup plus the events
        assert all(state_matches_events(table.game) for table in self.tables)


# --- the battle as the tests need it ----------------------------------------------------------------


def units_of(game: Game, side: str) -> list[Unit]:
    """A side's units in play, in the order of battle; ``side`` is 'attacker' or 'defender'."""
    owner = game.attacker if side == "attacker" else game.defender
    return list(Unit.objects.filter(game=game, division__side=owner).in_play().in_battle_order())


def brigades_of(game: Game, side: str) -> list[Unit]:
    return [u for u in units_of(game, side) if not u.battery]


def batteries_of(game: Game, side: str) -> list[Unit]:
    return [u for u in units_of(game, side) if u.battery]


def divisions_of(game: Game, side: str) -> list[Command]:
    owner = game.attacker if side == "attacker" else game.defender
    return list(Command.objects.filter(game=game, side=owner, level=Command.Level.DIVISION).order_by("order"))


def leaders_of(game: Game, side: str, level: str) -> list[Leader]:
    owner = game.attacker if side == "attacker" else game.defender
    return list(Leader.objects.filter(game=game, command__side=owner, command__level=level).order_by("command__order"))


def set_each(game: Game, rows: Iterable[Any], **fields: Any) -> None:
    """The same fields set on every row, each by its own event as the table would."""
    for row in rows:
        set_state(game, row, **fields)


def go_to(game: Game, step: str, player_turn: int | None = None) -> None:
    fields: dict[str, Any] = {"step": step}
    if player_turn is not None:
        fields["player_turn"] = player_turn
    set_state(game, fresh(game), **fields)
    fresh(game)


# --- hors de combat, after either phase -----------------------------------------------------------------


def check_post(t: Table, leader_pk: int) -> Send:
    prefix = f"hdc-leader-{leader_pk}"
    data = {
        f"{prefix}-version": fresh(t.game).version,
        f"{prefix}-die": "3",
        f"{prefix}-die2": "4",
        f"{prefix}-base_hits_within_4": "2",
        "roll": "typed",
    }
    return t.post(f"act/check-leader/leader-{leader_pk}/", data, f"row-leader-{leader_pk}")


def skip_post(t: Table, leader_pk: int) -> Send:
    return t.post(
        f"act/pass-over-leader/leader-{leader_pk}/", {"version": fresh(t.game).version}, f"row-leader-{leader_pk}"
    )


def waiting_leaders(t: Table) -> list[int]:
    return [leader.pk for leader, _ in hors_de_combat.state(fresh(t.game)).pending()]


def leader_checks_cost_the_same(costs: Costs, step: str, passing: int = 0) -> None:
    """A hors de combat step, its work put in front of both battles: its pages, a check, a leader passed over,
    and leaving it once every leader is done (past the ``passing`` steps after it that pass by themselves)."""
    costs.pages(step)
    costs.measure("a hors de combat check", lambda t: check_post(t, waiting_leaders(t)[0]))
    costs.measure("a leader passed over", lambda t: skip_post(t, waiting_leaders(t)[0]))
    costs.each(lambda t: [skip_post(t, pk)() for pk in waiting_leaders(t)])
    costs.leave(step, passing)
    costs.check()
