"""A player's phone, seated on the attacking side, costs the same number of queries at every size: its step's page
draws his next work open (``views.page.next_work``), and the answer to a die from a row brings the next row down his
list for his phone to fetch open, whatever the battle's size."""

import re
from collections.abc import Callable

import pytest
from django.http import HttpResponse

from republic.games.scenario import create_game, parse_scenario
from republic.games.views.page import ROWS_SHOWN
from tests.bench_probe import rows_shown
from tests.club_battle import club_scenario
from tests.devices import seated_device
from tests.games.conftest import fresh
from tests.games.query_helpers import Costs, Send, Table, batteries_of, battles, brigades_of, go_to, set_each
from tests.games.test_query_counts import rally_post, roll_post, to_rally
from tests.games.test_query_counts_fire import fire_post, under_fire


@pytest.fixture
def seated(db) -> Costs:
    return Costs(battles())


def listing(t: Table) -> None:
    """The work set up (by the game master's device), a phone seated on the attacking side takes over: its page
    drawn, the rows it lists, which it names with a row's form, and its next work open."""
    attacker = fresh(t.game).attacker
    assert attacker is not None
    t.client = seated_device(t.game, attacker.name)
    page = t.client.get(t.path("")).content.decode()
    t.shown = rows_shown(page)
    assert len(re.findall(r'class="work-row[^"]*is-open', page)) == 1, "the next work is not open"


def opening_the_next(send: Send) -> Send:
    """The request, whose answer must open the next row down the list: the row acted on answers, and the next row's
    head comes for the phone to fetch open (read from the answer, not the database: the query count is the
    request's; the fetch is a row opened, measured with the pages)."""

    def sent() -> HttpResponse:
        response = send()
        body = response.content.decode()
        opened = re.findall(r'id="row-[a-z]+-\d+" hx-swap-oob="true" data-next hx-get="[^"]+\?next=1"', body)
        assert len(opened) == 1, body[:300]
        return response

    return sent


def played_seated(costs: Costs, step: str, setup: Callable[[Table], None], what: str, send: Callable[[Table], Send]):
    """The work set up, then the seated phone's pages of the step and its action measured at both sizes."""

    def set_up(t: Table) -> None:
        setup(t)
        listing(t)

    costs.each(set_up)
    costs.pages(f"{step}, seated")
    costs.measure(what, lambda t: opening_the_next(send(t)))
    costs.check()


def test_a_rally_from_a_seated_phone_costs_the_same_at_every_size(seated):
    def shaken(t: Table) -> None:
        set_each(t.game, brigades_of(t.game, "attacker"), m_hits=1)
        go_to(t.game, "rally")

    played_seated(seated, "rally", shaken, "a rally, the next opened", lambda t: rally_post(t, to_rally(t)[0]))


def test_a_maneuver_roll_from_a_seated_phone_costs_the_same_at_every_size(seated):
    first = lambda t: brigades_of(t.game, "attacker")[0]  # noqa: E731
    moving = lambda t: go_to(t.game, "move")  # noqa: E731
    played_seated(seated, "move", moving, "a maneuver roll, the next opened", lambda t: roll_post(t, first(t)))


def test_a_fire_from_a_seated_phone_costs_the_same_at_every_size(seated):
    def firing(t: Table) -> None:
        # a third battery of the attacker's at each size: the battery opened after a fire has others to join it
        # (with none, its form offers none to join)
        set_each(t.game, brigades_of(t.game, "attacker")[-1:], kind="artillery", battery_type="m_rifle")
        under_fire(t, every=0)

    first = lambda t: batteries_of(t.game, "attacker")[0]  # noqa: E731
    played_seated(
        seated, "artillery fire", firing, "a battery fires, the next opened", lambda t: fire_post(t, first(t))
    )


def test_a_fire_from_a_seated_phone_costs_the_same_when_its_side_has_more_batteries_than_a_page_lists(db):
    """In a battle of 1,000 units a side has a hundred batteries: the page lists the first forty, one of them open,
    and the batteries that may join its fire are further down."""
    costs = Costs([Table(n, create_game(parse_scenario(club_scenario(n)))) for n in (20, 120)])

    def firing(t: Table) -> None:
        # the larger battle's attacker keeps a few brigades, whose skirmishers put hits on before the step
        batteries = brigades_of(t.game, "attacker")[4 if t.units > 20 else -1 :]
        set_each(t.game, batteries, kind="artillery", battery_type="m_rifle")
        assert t.units == 20 or len(batteries_of(t.game, "attacker")) > ROWS_SHOWN + 1
        under_fire(t, every=0)

    first = lambda t: batteries_of(t.game, "attacker")[0]  # noqa: E731
    played_seated(costs, "artillery fire", firing, "a battery fires, the next opened", lambda t: fire_post(t, first(t)))
