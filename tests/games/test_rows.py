"""The step's work as rows: a row opens on tap as its own fragment, an action sent from a row is answered with
the rows it touched, the result and the step bar, and every path also works without scripts."""

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Model
from django.db.models.signals import post_init

from republic.games.models import Event, Leader, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.base import Row
from republic.games.templatetags.work_rows import row_head
from republic.rules.morale import Condition
from tests.club_battle import club_scenario
from tests.games.conftest import (
    HTMX,
    at_step,
    battery,
    brigade,
    fresh,
    has_row,
    opened_row,
    page,
    payload,
    row_of,
    set_state,
    state_matches_events,
)
from tests.games.test_rally import at_rally


def from_row(unit, shown=()) -> dict:
    """The headers of a POST sent from the unit's row, by a phone that shows the rows of ``shown`` (units)."""
    rows = " ".join(f"unit-{u.pk}" for u in shown)
    return {**HTMX, "HTTP_HX_TARGET": f"row-unit-{unit.pk}", "HTTP_ROWS_SHOWN": rows}


def rally_from_row(client, game, unit, die: str = "10"):
    """A rally sent from the unit's row, as a phone sends it once the row is open."""
    data = {
        f"rally-{unit.piece.name}-version": game.version,
        f"rally-{unit.piece.name}-die": die,
        f"rally-{unit.piece.name}-division_leader_distance": "0",
        "roll": "typed",
    }
    return client.post(f"/games/{game.pk}/act/rally/unit-{unit.pk}/", data, **from_row(unit))


@pytest.fixture
def rallying(demo):
    for name in ("Davis's Brigade", "Archer's Brigade"):
        set_state(demo, brigade(demo, name), m_hits=2)
    return at_rally(demo)


def test_a_row_is_drawn_closed_and_opens_and_closes_on_its_own(client, rallying):
    game, davis = rallying, brigade(rallying, "Davis's Brigade")
    body = page(client, game)
    assert has_row(body, davis) and "Rally Davis" not in body
    row = row_of(body, davis)
    assert 'aria-expanded="false"' in row and f'hx-get="/games/{game.pk}/rows/unit-{davis.pk}/"' in row
    opened = opened_row(client, game, davis)
    assert opened.startswith('<li class="work-row') and "<html" not in opened
    assert 'aria-expanded="true"' in opened and 'aria-label="Rally Davis&#x27;s Brigade"' in opened
    closed = client.get(f"/games/{game.pk}/rows/unit-{davis.pk}/?close=1", **HTMX).content.decode()
    assert 'aria-expanded="false"' in closed and "<form" not in closed


def test_without_scripts_the_page_draws_the_row_open(client, rallying):
    game, davis = rallying, brigade(rallying, "Davis's Brigade")
    body = client.get(f"/games/{game.pk}/?open=unit-{davis.pk}").content.decode()
    assert 'aria-label="Rally Davis&#x27;s Brigade"' in body and "Rally Archer" not in body


@pytest.mark.parametrize("row", ["unit-99999", "leader-1", "nonsense"])
def test_a_row_the_step_does_not_have_answers_with_the_step_as_it_is(client, rallying, row):
    response = client.get(f"/games/{rallying.pk}/rows/{row}/", **{**HTMX, "HTTP_HX_TARGET": f"row-{row}"})
    body = response.content.decode()
    assert response.status_code == 200 and response["HX-Retarget"] == "#live"
    assert body.lstrip().startswith('<div id="live"') and "has been done already or is not part of this step" in body


def test_an_action_from_a_row_answers_with_that_row_the_result_and_the_step_bar(client, rallying):
    game, davis = rallying, brigade(rallying, "Davis's Brigade")
    body = rally_from_row(client, game, davis).content.decode()
    event = Event.objects.get(game=game, kind="RallyResolved")
    # the rallied unit has no work left: its row says what happened, where the player is looking
    assert body.startswith(
        f'<li class="work-row is-done" id="row-unit-{davis.pk}">'
        f'<p class="work-result mb-0" id="result-unit-{davis.pk}" data-focus'
    )
    assert "Davis&#x27;s Brigade rallies" in body
    assert '<div id="result-slot" hx-swap-oob="true">' in body and f"#{event.seq}" in body
    assert re.search(r'id="step-bar" aria-label="Moving on" data-drawn="\d+ 0" hx-swap-oob="true"', body)
    assert f'name="version" value="{fresh(game).version}"' in body  # next step and undo carry the new version
    assert "1 left before moving on" in body and "rally Archer" in body
    assert not has_row(body, brigade(game, "Archer's Brigade"))  # untouched rows are not drawn again
    assert len(body) < 8_000


def test_an_invalid_form_from_a_row_is_drawn_again_in_its_row(client, rallying):
    game, davis = rallying, brigade(rallying, "Davis's Brigade")
    data = {f"rally-{davis.piece.name}-version": game.version, f"rally-{davis.piece.name}-die": "11", "roll": "typed"}
    response = client.post(f"/games/{game.pk}/act/rally/unit-{davis.pk}/", data, **from_row(davis))
    body = response.content.decode()
    assert response.status_code == 200 and body.startswith(
        f'<li class="work-row condition-rattled is-open" id="row-unit-{davis.pk}"'
    )
    assert "A d10 shows 1 to 10." in body and '<div id="live"' not in body
    assert fresh(game).version == game.version


def test_a_stale_form_from_a_row_answers_with_the_whole_step_in_its_place(client, rallying):
    game, davis = rallying, brigade(rallying, "Davis's Brigade")
    data = {
        f"rally-{davis.piece.name}-version": game.version - 1,
        f"rally-{davis.piece.name}-die": "5",
        "roll": "typed",
    }
    data[f"rally-{davis.piece.name}-division_leader_distance"] = "0"
    response = client.post(f"/games/{game.pk}/act/rally/unit-{davis.pk}/", data, **from_row(davis))
    assert response["HX-Retarget"] == "#live" and response["HX-Reswap"] == "outerHTML"
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="RallyResolved").exists()


def joint_fire(client, demo, shown):
    """Pegram's rifles fire with the Napoleons at the Iron Brigade, sent from the rifles' row by a phone that
    shows the rows of ``shown`` (names of batteries); the answer's body."""
    set_state(demo, brigade(demo, "Davis's Brigade"), skirmishers_deployed=0)
    game = at_step(demo, "artillery_fire")
    rifles, napoleons = battery(game, "Pegram's Battalion (rifles)"), battery(game, "Pegram's Battalion (Napoleons)")
    iron = brigade(game, "Iron Brigade (Meredith)")
    prefix = f"fire-{rifles.piece.name}"
    data = {
        f"{prefix}-version": game.version,
        f"{prefix}-die": "5",
        f"{prefix}-range": "3",
        f"{prefix}-target": iron.name,
        f"{prefix}-cover": "none",
        f"{prefix}-joined": [napoleons.key],
        "roll": "typed",
    }
    headers = from_row(rifles, [battery(game, name) for name in shown])
    body = client.post(f"/games/{game.pk}/act/artillery-fire/unit-{rifles.pk}/", data, **headers).content.decode()
    assert payload(Event.objects.get(game=game, kind="ArtilleryFired")).batteries[1].unit == napoleons.key
    assert body.startswith(f'<li class="work-row is-done" id="row-unit-{rifles.pk}">')
    # the target was never a row of this step: nothing is said about it
    assert f"row-unit-{iron.pk}" not in body
    assert has_row(page(client, game), battery(game, "2nd Maine Light, Battery B (Hall)"))
    assert state_matches_events(game)
    return body


def test_a_joint_fire_takes_away_the_rows_of_every_battery_that_fired(client, demo):
    body = joint_fire(client, demo, ["Pegram's Battalion (rifles)", "Pegram's Battalion (Napoleons)"])
    napoleons = battery(demo, "Pegram's Battalion (Napoleons)")
    assert f'<li id="row-unit-{napoleons.pk}" hx-swap-oob="delete"></li>' in body


def test_an_answer_leaves_alone_the_rows_the_phone_does_not_show(client, demo):
    """A phone that has not drawn the Napoleons' row (further down, before "Show more") gets nothing for it:
    htmx would find no place to put it."""
    body = joint_fire(client, demo, ["Pegram's Battalion (rifles)"])
    napoleons = battery(demo, "Pegram's Battalion (Napoleons)")
    assert f"row-unit-{napoleons.pk}" not in body


@pytest.fixture
def big_move(db):
    game = create_game(parse_scenario(club_scenario(120)))  # 60 attacking units: rows past the first 40
    return at_step(game, "move")


def defending_batteries(game) -> list[Unit]:
    """The defender's batteries, each a row of the move step after the attacker's units: it may make passing fire."""
    defending = Unit.objects.filter(game=game).exclude(division__side=game.first_attacker).batteries()
    return list(defending.order_by("division__order", "order"))


def test_a_long_step_draws_its_first_rows_and_the_next_on_request(client, big_move):
    game = big_move
    units = list(Unit.objects.filter(game=game, division__side=game.first_attacker).in_battle_order())
    batteries = defending_batteries(game)
    left = len(units) + len(batteries) - 40
    assert 0 < len(batteries) < 20 and left < 40
    body = page(client, game)
    assert body.count('<li class="work-row') == 40
    assert has_row(body, units[39]) and not has_row(body, units[40])
    assert f"Show {left} more ({left} left)" in body and f'hx-get="/games/{game.pk}/rows/?after=40"' in body
    more = client.get(f"/games/{game.pk}/rows/?after=40", **HTMX).content.decode()
    assert more.count('<li class="work-row') == left and "Show" not in more
    assert has_row(more, units[59]) and has_row(more, batteries[-1])
    assert more.index(f"row-unit-{units[59].pk}") < more.index(f"row-unit-{batteries[0].pk}")
    # without scripts, the link draws the page with more rows
    assert page_of(client, f"/games/{game.pk}/?shown=80").count('<li class="work-row') == 40 + left
    # a row opened further down is drawn, open
    opened = page_of(client, f"/games/{game.pk}/?open=unit-{units[50].pk}")
    assert 'class="work-form"' in row_of(opened, units[50])


def built_by(request: Callable[[], Any]) -> tuple[list[Model], Any]:
    """The model rows a request builds, and what it answered."""
    built: list[Model] = []

    def count(sender, instance, **kwargs):
        built.append(instance)

    post_init.connect(count)
    try:
        answer = request()
    finally:
        post_init.disconnect(count)
    return built, answer


def of(kind: type[Model], built: list[Model]) -> int:
    return sum(isinstance(m, kind) for m in built)


def test_the_move_step_reads_only_the_units_of_the_rows_it_draws(client, big_move):
    game = big_move
    units = list(Unit.objects.filter(game=game, division__side=game.first_attacker).in_battle_order())
    first, body = built_by(lambda: page(client, game))
    more_url = f"/games/{game.pk}/rows/?after=40"
    then, more = built_by(lambda: client.get(more_url, **HTMX).content.decode())
    # 60 attacking units and the defender's batteries: the page reads the 40 it draws, "Show more" the others,
    # each row as it shows it; the leaders who may help a roll are read for a row opened to roll, not for the page
    batteries = defending_batteries(game)
    assert of(Unit, first) == 40 and of(Unit, then) == 20 + len(batteries) and of(Leader, first + then) == 0
    assert f"{units[0].bases}/{units[0].bases_start} bases" in row_of(body, units[0])
    assert units[59].name in row_of(more, units[59])
    assert f"Defending {batteries[0].battery_label} battery" in row_of(more, batteries[0])


# steps whose rows are every leader or every battery: a battle big enough for more than 40, each row's subject
# in the step's order, and what its row says
WHOLE_SIDE_STEPS = {
    "fire_hors_de_combat": (
        200,
        lambda game: Leader.objects.filter(game=game).in_action().order_by("command__side__order", "command__order"),
        lambda leader: f"{leader.name} ({leader.value})",
    ),
    "artillery_fire": (
        250,
        lambda game: Unit.objects.filter(game=game).batteries().order_by("division__side__order", "order"),
        lambda battery: f"{battery.battery_label} battery",
    ),
}


@pytest.mark.parametrize("step", WHOLE_SIDE_STEPS)
def test_a_step_of_every_leader_or_battery_reads_only_the_rows_it_draws(client, db, step):
    size, listed, says = WHOLE_SIDE_STEPS[step]
    game = at_step(create_game(parse_scenario(club_scenario(size))), step)
    subjects = list(listed(game))
    assert len(subjects) > 40
    built, body = built_by(lambda: page(client, game))
    assert of(type(subjects[0]), built) == 40
    assert has_row(body, subjects[39]) and not has_row(body, subjects[40])
    assert says(subjects[0]) in row_of(body, subjects[0])


@pytest.mark.parametrize("after", ["", "0", "999"])
def test_more_rows_from_a_strange_place_answers_plainly(client, big_move, after):
    response = client.get(f"/games/{big_move.pk}/rows/?after={after}", **HTMX)
    assert response.status_code == 200 and "<html" not in response.content.decode()


@pytest.mark.parametrize(("url", "name"), [("rows/?after=", "after"), ("?shown=", "shown"), ("log/?page=", "page")])
@pytest.mark.parametrize("value", ["x", "-3", "²", "٣", "1.5", "9" * 40])
def test_a_query_number_that_is_no_number_is_refused_naming_it(client, big_move, url, name, value):
    response = client.get(f"/games/{big_move.pk}/{url}{value}", **HTMX)
    assert response.status_code == 400
    said = html.unescape(response.content.decode())
    assert f"?{name}= takes a whole number from 0 to" in said and "digits 0-9" in said


@pytest.mark.parametrize(
    ("query", "said"),
    [("log/pdf/?paper=a3", "?paper= takes a4 or letter"), ("rows/unit-1/?close=yes", "?close= takes 1 or 0")],
)
def test_a_query_choice_that_is_none_of_its_choices_is_refused_naming_them(client, big_move, query, said):
    response = client.get(f"/games/{big_move.pk}/{query}")
    assert response.status_code == 400 and said in html.unescape(response.content.decode())


def page_of(client, url: str) -> str:
    return client.get(url).content.decode()


def test_the_last_result_stays_while_it_is_news(client, rallying):
    game, davis = rallying, brigade(rallying, "Davis's Brigade")
    rally_from_row(client, game, davis)
    set_state(game, brigade(game, "Archer's Brigade"), m_hits=1)  # another event, in the same step
    assert "Last result" in page(client, game)
    at_step(game, "move")  # the game moves on: the rally is no longer what the phone needs to see first
    assert "Last result" not in page(client, game)


def test_a_row_head_escapes_what_it_shows_and_says_its_state():
    row = Row("unit-7", "Smith's <Brigade>", "2 M & more", "Rally", Condition.SHAKEN, address="/games/1/rows/unit-7/")
    closed = str(row_head(row))
    assert closed.startswith('<li class="work-row condition-shaken" id="row-unit-7">')
    assert "Smith&#x27;s &lt;Brigade&gt;" in closed and "2 M &amp; more" in closed
    assert 'href="?open=unit-7#row-unit-7"' in closed and 'aria-expanded="false"' in closed
    assert '<span class="condition-badge">Shaken</span>' in closed and ">Rally</span>" in closed
    row.opened = {"form": None}
    opened = str(row_head(row, oob=True))
    assert 'class="work-row condition-shaken is-open" id="row-unit-7" hx-swap-oob="true"' in opened
    assert 'hx-get="/games/1/rows/unit-7/?close=1"' in opened and ">Close</span>" in opened


def test_an_action_from_a_row_brings_the_phones_other_open_rows_at_the_new_version(client, rallying):
    """The phone had Archer's row open while it rallied Davis: Archer's form comes again at the game's new version,
    as a reload draws it, and no row the phone does not have open is drawn."""
    game, davis, archer = rallying, brigade(rallying, "Davis's Brigade"), brigade(rallying, "Archer's Brigade")
    headers = {**from_row(davis, [davis, archer]), "HTTP_ROWS_OPEN": f"unit-{davis.pk} unit-{archer.pk}"}
    data = {
        f"rally-{davis.piece.name}-version": game.version,
        f"rally-{davis.piece.name}-die": "10",
        f"rally-{davis.piece.name}-division_leader_distance": "0",
        "roll": "typed",
    }
    body = client.post(f"/games/{game.pk}/act/rally/unit-{davis.pk}/", data, **headers).content.decode()
    assert f'id="row-unit-{archer.pk}" hx-swap-oob="true"' in body
    assert f'name="rally-{archer.piece.name}-version" value="{fresh(game).version}"' in body
