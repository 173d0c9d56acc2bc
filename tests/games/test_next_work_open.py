"""A player's next work is drawn open on his phone (``views.page.next_work``, ``Row.due``): his first row of the step
that still asks for its die when the page is drawn, and after his own action the next such row down the list, so
that a die is one tap from the step's page. The answer to an action brings the next row's head, which the phone
fetches open at once (the answer to a die is held to few bytes). The game master's device follows the game and
opens nothing by itself; a row whose work is done (a brigade that rolled, a battery with nothing left to fire) is
not opened; a row opened by itself takes no focus from the row the player tapped."""

import re

import pytest

from republic.games.models import Event, Game, Unit
from tests.devices import seated_device
from tests.games.conftest import at_step, brigade, page, set_state
from tests.games.phone_screen import Screen

RALLYING = ("Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade")


def open_rows(html: str) -> list[str]:
    return re.findall(r'<li class="work-row[^"]*is-open[^"]*" id="row-([a-z]+-\d+)"', html)


def rows_listed(html: str) -> list[str]:
    return re.findall(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"', html)


@pytest.fixture
def rallying(demo) -> Game:
    for name in RALLYING:
        set_state(demo, brigade(demo, name), m_hits=1)
    return at_step(demo, "rally")


def rally_url(game: Game, unit: Unit) -> str:
    return f"/games/{game.pk}/act/rally/unit-{unit.pk}/"


def rally_data(unit: Unit, die: str = "6") -> dict[str, str]:
    prefix = f"rally-{unit.piece.name}"
    return {f"{prefix}-die": die, f"{prefix}-division_leader_distance": "2", "roll": "typed"}


def test_the_acting_seat_finds_its_first_row_open_and_nobody_else_does(client, rallying):
    ann = page(seated_device(rallying, "Confederate"), rallying)
    first = rows_listed(ann)[0]
    assert open_rows(ann) == [first]
    opened = re.search(rf'id="row-{first}".*?</li>', ann, re.S)
    assert opened is not None and "die-pad" in opened.group(0)
    assert "data-focus" not in opened.group(0)  # drawn open by itself: the page's focus is not pulled to it
    assert open_rows(page(seated_device(rallying, "Union"), rallying)) == []  # the rows say who acts
    assert open_rows(page(client, rallying)) == []  # the game master follows


def test_the_answer_to_a_die_opens_the_next_row_down_the_list(rallying):
    ann = seated_device(rallying, "Confederate")
    screen = Screen(ann, f"/games/{rallying.pk}/")
    archer, davis, pettigrew = (brigade(rallying, name) for name in RALLYING)
    assert [row.get("id") for row in screen.rows()] == [f"row-unit-{u.pk}" for u in (archer, davis, pettigrew)]
    # the player skips the open row and rallies the second: the third opens, the first stays open
    response = screen.post(rally_url(rallying, davis), rally_data(davis))
    assert Event.objects.filter(game=rallying, kind="RallyResolved").count() == 1
    opened = {row.get("id") for row in screen.rows() if "is-open" in row.get("class", "")}
    assert opened == {f"row-unit-{archer.pk}", f"row-unit-{pettigrew.pk}"}
    # the answer brings its head, held to few bytes, and the phone fetches its form at once
    head = f'id="row-unit-{pettigrew.pk}" hx-swap-oob="true" data-next hx-get="/games/{rallying.pk}/rows/'
    assert head in response.content.decode() and "die-pad" not in response.content.decode().split(head)[1][:600]
    opened_now = screen.by_id(f"row-unit-{pettigrew.pk}")
    assert opened_now is not None and opened_now.find(".//*[@class='work-form']") is not None
    assert opened_now.find(".//*[@data-focus]") is None  # opened by itself: the focus stays on Davis's result
    assert screen.seen() == Screen(ann, f"/games/{rallying.pk}/").seen()
    # the last one down the list rallied: the list starts again from the top, where the first is still open
    screen.post(rally_url(rallying, pettigrew), rally_data(pettigrew))
    assert [row.get("id") for row in screen.rows() if "is-open" in row.get("class", "")] == [f"row-unit-{archer.pk}"]
    # the die that needs no tap to open its row
    screen.post(rally_url(rallying, archer), rally_data(archer))
    assert Event.objects.filter(game=rallying, kind="RallyResolved").count() == 3


def roll_url(game: Game, unit: Unit) -> str:
    return f"/games/{game.pk}/act/maneuver-roll/unit-{unit.pk}/"


def test_a_brigade_that_rolled_is_not_opened_again_and_batteries_never_are(demo):
    game = at_step(demo, "move")
    ann = seated_device(game, "Confederate")
    brigades = list(Unit.objects.filter(game=game, division__side__name="Confederate").brigades())
    screen = Screen(ann, f"/games/{game.pk}/")
    first = screen.rows()[0].get("id")
    assert [row.get("id") for row in screen.rows() if "is-open" in row.get("class", "")] == [first]
    for unit in sorted(brigades, key=lambda u: [r.get("id") for r in screen.rows()].index(f"row-unit-{u.pk}")):
        before = [row.get("id") for row in screen.rows() if "is-open" in row.get("class", "")]
        screen.post(roll_url(game, unit), {f"roll-{unit.piece.name}-die": "6", "roll": "typed"})
        after = [row.get("id") for row in screen.rows() if "is-open" in row.get("class", "")]
        assert f"row-unit-{unit.pk}" in before and f"row-unit-{unit.pk}" in after  # its result and its moves
    # every brigade rolled: a reload opens nothing, the batteries recording functions, not a die
    assert open_rows(page(ann, game)) == []


def test_a_battery_with_no_function_left_to_fire_is_not_opened(demo):
    pegram = Unit.objects.get(game=demo, name="Pegram's Battalion (rifles)")
    garnett = Unit.objects.get(game=demo, name="Garnett's Battalion")
    set_state(demo, garnett, functions_used=["limber", "unlimber"])  # spent, but it did not move: it may save
    game = at_step(demo, "artillery_fire")
    html = page(seated_device(game, "Confederate"), game)
    assert rows_listed(html)[0] == f"unit-{garnett.pk}"  # first in the list, it may still save its fire
    assert open_rows(html) == [f"unit-{pegram.pk}"]
