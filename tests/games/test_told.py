"""Your turn, told: the step bar of a seated phone says which step the game is at and how much of its work waits on
this seat (``views.page.seat_work``), and each message he received is marked, for his phone to tell him of
(static/js/told.js). The game master's screen follows the game and is told nothing; the mark costs the same queries
at every size."""

import re

import pytest

from republic.games.models import Dispatch, Seat
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, page, set_state
from tests.games.query_helpers import Costs, Table, battles, brigades_of, go_to, set_each
from tests.games.test_query_counts import rally_post, to_rally
from tests.games.test_query_counts_seated import listing

SHAKEN = ("Davis's Brigade", "Archer's Brigade")


def told(html: str) -> dict[str, str]:
    """The step bar's mark: the step, its title and this seat's work ({} when there is no mark)."""
    bar = re.search(r'<section class="step-bar[^>]*>', html)
    assert bar, "no step bar"
    return dict(re.findall(r'data-told-?([a-z]*)="([^"]*)"', bar.group(0)))


@pytest.fixture
def rally(demo, client):
    game = demo
    for name in SHAKEN:  # two attacking (Confederate) brigades to rally
        set_state(game, brigade(game, name), m_hits=1)
    return at_step(game, "rally")


def test_the_step_bar_tells_a_seat_the_work_that_waits_on_him_and_no_one_else(rally, client):
    game = rally
    ann, bob = seated_device(game, "Confederate", "Ann"), seated_device(game, "Union", "Bob")
    mark = told(page(ann, game))
    assert mark == {"": str(game.pk), "step": "1.1.rally", "title": "Attacker rallies units", "work": "2"}
    assert told(page(bob, game))["work"] == "0"  # the other side's step: nothing waits on him
    assert told(page(client, game)) == {}  # the game master's screen is told nothing


def test_the_news_brings_the_seats_work_as_it_goes_down(rally, client):
    game = rally
    phone = Table(13, game, seated_device(game, "Confederate", "Ann"))
    assert rally_post(phone, brigade(game, "Davis's Brigade"))().status_code == 200
    # another phone of his side, drawn before the rally, gets it as pieces by its poll, the step bar among them
    news = phone.poll(back=1, whole=False)().content.decode()
    assert told(news)["work"] == "1"


def test_a_message_is_marked_for_its_recipient_alone(demo, client):
    game = at_step(demo, "messages")
    bob, carl = seated_device(game, "Union", "Bob"), seated_device(game, "Union", "Carl")
    ann = seated_device(game, "Confederate", "Ann")
    seats = {seat.name: seat for seat in Seat.objects.filter(game=game)}
    bob.post(f"/games/{game.pk}/messages/", {"dispatch-recipient": seats["Carl"].pk, "dispatch-text": "Hold"}, **HTMX)
    letter = Dispatch.objects.get()
    mark = f'data-told-letter="{letter.pk}" data-told-from="Bob" data-told-text="Hold"'
    assert mark in page(carl, game)
    assert "data-told-letter" not in page(bob, game)  # his own, sent
    assert "data-told-letter" not in page(ann, game)  # the other side's
    assert "data-told-letter" not in page(client, game)


def test_a_seats_marked_step_costs_the_same_at_every_size(db):
    costs = Costs(battles())

    def shaken(t: Table) -> None:
        set_each(t.game, brigades_of(t.game, "attacker"), m_hits=1)
        go_to(t.game, "rally")
        listing(t)
        # every brigade of his to rally counts, not only the rows drawn
        assert told(t.client.get(t.path("")).content.decode())["work"] == str(len(brigades_of(t.game, "attacker")))

    costs.each(shaken)
    costs.pages("rally, told")
    costs.measure("a rally", lambda t: rally_post(t, to_rally(t)[0]))
    costs.measure("the poll's news, told", lambda t: t.poll(back=1, whole=False), events=0)
    costs.check()
