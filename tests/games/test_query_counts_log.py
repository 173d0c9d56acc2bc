"""The turn log and its PDF cost the same queries at two sizes of a club battle, filtered or not, in the game
master's copy and a player's; and a page of a long log costs what a page of a short one does."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from republic.games.models import Seat
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.devices import master_device, seated_device
from tests.games.conftest import HTMX, at_step, brigade, division, fresh, set_state
from tests.games.query_helpers import Costs, Send, Table, battles, brigades_of, divisions_of, go_to, set_each


@pytest.fixture
def costs(db) -> Costs:
    return Costs(battles())


PHONES: dict[int, Client] = {}  # each battle's Union player, by the battle's game


def played(t: Table) -> None:
    """The same history at either size: a Union message, both sides' brigades corrected in two phases of two
    game turns."""
    game = t.game
    phone, _ = seated_device(game, "Union", name="Bob"), seated_device(game, "Union", name="Carl")
    PHONES[game.pk] = phone  # a new game's number is never one of an earlier test's
    carl = Seat.objects.get(game=game, name="Carl")
    phone.post(f"/games/{game.pk}/messages/", {"dispatch-recipient": carl.pk, "dispatch-text": "Hold on"}, **HTMX)
    for step in ("move", "skirmish"):
        go_to(game, step)
        set_each(game, brigades_of(game, "attacker")[:3], m_hits=1)
        set_each(game, brigades_of(game, "defender")[:3], m_hits=2)
    set_state(game, fresh(game), game_turn=2, step="rally")
    set_each(game, brigades_of(game, "defender")[:2], m_hits=0)


def log(t: Table, query: str = "", pdf: bool = False, phone: bool = False) -> Send:
    """The log's page or PDF as the game master (or the battle's Union player) asks for it."""
    device = PHONES[t.game.pk] if phone else t.client
    path = t.path(f"log/{'pdf/' if pdf else ''}{query}")
    return lambda: device.get(path)


def asked(t: Table, seq: int) -> Send:
    """The game master's question before going back to just after event ``seq``."""
    path = t.path(f"back/{seq}/")
    return lambda: t.client.get(path)


def test_the_turn_log_and_its_pdf_cost_the_same_at_every_size(costs):
    costs.each(played)
    union = [t.game.defender.pk for t in costs.tables]
    first = [divisions_of(t.game, "defender")[0].pk for t in costs.tables]

    def of(values: list[int], t: Table) -> int:
        return values[costs.tables.index(t)]

    costs.measure("the turn log", lambda t: log(t), events=0)
    costs.measure("the turn log's first page", lambda t: log(t, "?page=1"), events=0)
    costs.measure("the turn log of a side", lambda t: log(t, f"?side={of(union, t)}"), events=0)
    costs.measure("the turn log of a division", lambda t: log(t, f"?division={of(first, t)}"), events=0)
    costs.measure("the turn log of a phase", lambda t: log(t, "?phase=fire"), events=0)
    costs.measure(
        "the turn log of a side and a phase", lambda t: log(t, f"?side={of(union, t)}&phase=command"), events=0
    )
    costs.measure("a player's copy of the turn log", lambda t: log(t, phone=True), events=0)
    costs.measure("the turn log's PDF", lambda t: log(t, pdf=True), events=0)
    costs.measure("the question before going back to the start", lambda t: asked(t, 0), events=0)
    costs.measure("the question before going back to an entry", lambda t: asked(t, 1), events=0)
    costs.measure(
        "a player's copy of the PDF, of a division",
        lambda t: log(t, f"?division={of(first, t)}", pdf=True, phone=True),
        events=0,
    )
    costs.check()


def queries(device: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as done:
        assert device.get(url).status_code == 200
    return len(done.captured_queries)


def test_a_page_of_a_long_log_costs_what_a_page_of_a_short_one_does(db):
    short, long = (create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8"))) for _ in range(2))
    for game, events in ((short, 50), (long, 600)):
        at_step(game, "move")
        davis, cutler = brigade(game, "Davis's Brigade"), brigade(game, "Cutler's Brigade")
        for n in range(events):
            set_state(game, davis if n % 2 else cutler, m_hits=n % 4)
    master = master_device()
    for query in ("", "?page=1", "?phase=maneuver", "?division={heth}", "?side={union}&page=2"):
        counts = [
            queries(
                master,
                f"/games/{g.pk}/log/"
                + query.format(heth=division(g, "Heth's Division").pk, union=g.sides.get(name="Union").pk),
            )
            for g in (short, long)
        ]
        assert counts[0] == counts[1], (
            f"{query or 'the newest page'}: {counts[0]} queries at 50 events, {counts[1]} at 600"
        )
