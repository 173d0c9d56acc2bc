"""Passing fire at the table (4.5, R:1229-1237): during the attacker's move, a defending battery fires at an attacking
unit about to leave its arc of fire. Its hits land at once, its saved fire is used, and it neither fires nor saves
fire in that turn's artillery step. htmx and plain POST, bad input, refusals, undo."""

import re

import pytest

from republic.games.ledger import undo_last
from republic.games.models import Event
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.rules.fire_results import FireHits
from republic.rules.results import Modifier
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import (
    HTMX,
    at_step,
    battery,
    brigade,
    fresh,
    has_row,
    is_fragment,
    last,
    opened_row,
    page,
    payload,
    row_of,
    set_state,
    state_matches_events,
    summary,
)
from tests.games.test_artillery_fire import fire, save

HALL, CALEF = "2nd Maine Light, Battery B (Hall)", "2nd U.S., Battery A (Calef)"


def passing(client, game, unit, target, die="5", rng="3", roll="typed", htmx=True, version=None, **extra):
    """Passing fire as the battery's row in the move step sends it."""
    prefix = f"passing-{unit.piece.name}"
    data = {
        f"{prefix}-version": fresh(game).version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-range": rng,
        f"{prefix}-target": target,
        f"{prefix}-cover": extra.pop("cover", "none"),
        "roll": roll,
        **{f"{prefix}-{k}": v for k, v in extra.items()},
    }
    headers = {**HTMX, "HTTP_HX_TARGET": f"row-unit-{unit.pk}"} if htmx else {}
    return client.post(f"/games/{game.pk}/act/passing-fire/unit-{unit.pk}/", data, **headers)


def test_each_defending_battery_that_may_fire_is_a_row_of_the_move_step(client, demo):
    set_state(demo, battery(demo, CALEF), limbered=True)
    game = at_step(demo, "move")
    body = page(client, game)
    hall = battery(game, HALL)
    assert has_row(body, hall) and not has_row(body, battery(game, CALEF))
    assert "Passing fire" in row_of(body, hall) and "Defending Medium Rifle battery" in row_of(body, hall)
    garnett = battery(game, "Garnett's Battalion")  # the attacker's units come first
    assert body.index(f"row-unit-{garnett.pk}") < body.index(f"row-unit-{hall.pk}")
    assert 'id="passing-fire"' in body
    opened = opened_row(client, game, hall)
    assert 'aria-label="Passing fire 2nd Maine Light, Battery B (Hall)"' in opened
    # its targets are the attacker's units in play, each chosen by a tap; no joint fire
    main = re.search(r'data-pick="passing-unit-\d+-target".*?</fieldset>', opened, re.S).group(0)
    assert ">Davis&#x27;s Brigade<small>" in main and "Iron Brigade (Meredith)" not in main
    assert "<datalist" not in opened and "Joint battery fire" not in opened
    fold = client.get(f"/games/{game.pk}/rows/unit-{hall.pk}/?fold=secondary-targets", HTTP_HX_REQUEST="true")
    assert f'data-pick="passing-unit-{hall.pk}-tandem"' in fold.content.decode()
    # the defending players are told the step is the attacker's, but for their batteries' passing fire
    union = seated_device(game, "Union").get(f"/games/{game.pk}/").content.decode()
    assert "your phone follows it as they play. Your batteries may make passing fire at their units (4.5)." in union


def test_passing_fire_puts_its_hits_on_at_once_and_the_battery_has_fired(client, demo):
    game = at_step(demo, "move")
    hall, davis = battery(game, HALL), brigade(game, "Davis's Brigade")
    response = passing(client, game, hall, "Davis's Brigade", die="5", rng="3")  # m_rifle up to 4": 2M, -2 no drift
    assert response.status_code == 200 and 'aria-label="Passing fire 2nd Maine' not in response.content.decode()
    event = last(game, "PassingFireConducted")
    fired = payload(event)
    assert fired.inputs.passing_fire and Modifier("Passing Fire", -2, "4.4") in fired.result.modifiers
    assert str(fired.result.result) == "2M" and [t.unit for t in fired.landed] == [davis.key]
    assert fired.shared.targets[0].at_once
    davis.refresh_from_db()
    hall.refresh_from_db()
    assert davis.m_hits == 2 and hall.fired_this_turn  # on at once, during the move
    assert summary(event) == (
        "2nd Maine Light, Battery B (Hall) makes passing fire at Davis's Brigade: 2M (die 5, typed); "
        "Davis's Brigade: 2M, now Rattled"
    )
    assert not has_row(page(client, game), hall)
    assert state_matches_events(game)
    # the fire phase has nothing waiting from it: the artillery step neither lists it nor puts its hits on again
    advance(fresh(game), None, "test")
    game = at_step(game, "artillery_fire")
    body = page(client, game)
    assert not has_row(body, hall) and has_row(body, battery(game, CALEF))
    assert "Passing fire in the attacker's move: 2nd Maine Light, Battery B (Hall)." in body
    assert "Hits waiting" not in body
    response = fire(client, game, hall, "Davis's Brigade")
    assert "may not fire now: it made passing fire during the enemy&#x27;s move" in response.content.decode()
    response = save(client, game, hall)
    assert "may not save fire: a battery that made passing fire gains no saved fire" in response.content.decode()
    assert fresh(game).version == game.version
    advance(fresh(game), None, "test")
    davis.refresh_from_db()
    assert davis.m_hits == 2


def test_a_battery_saving_fire_uses_it_in_passing_fire_and_the_plain_post_redirects(client, demo):
    set_state(demo, battery(demo, HALL), saved_fire=True)
    game = at_step(demo, "move")
    hall = battery(game, HALL)
    response = passing(client, game, hall, brigade(game, "Archer's Brigade").key, htmx=False)
    assert response.status_code == 302
    fired = payload(last(game, "PassingFireConducted"))
    assert fired.inputs.saved_fire and Modifier("Saved Fire", -1, "4.3") in fired.result.shifts
    hall.refresh_from_db()
    assert not hall.saved_fire and hall.fired_this_turn


def test_hits_on_the_tandem_land_at_once_too_and_undo_takes_them_back(client, demo):
    game = at_step(demo, "move")
    hall, davis, archer = battery(game, HALL), brigade(game, "Davis's Brigade"), brigade(game, "Archer's Brigade")
    passing(client, game, hall, davis.key, rng="3", printed="3M 3B", tandem=archer.key)
    fired = payload(last(game, "PassingFireConducted"))
    assert [(t.unit, t.result.hits) for t in fired.landed] == [
        (davis.key, FireHits(davis.key, 3, 2)),
        (archer.key, FireHits(archer.key, 1, 1)),
    ]
    davis.refresh_from_db()
    archer.refresh_from_db()
    assert (davis.m_hits, davis.bases, archer.m_hits, archer.bases) == (3, 6, 1, 3)
    undo_last(fresh(game), None, "test")
    davis.refresh_from_db()
    hall.refresh_from_db()
    assert (davis.m_hits, davis.bases, hall.fired_this_turn) == (0, 8, False)
    assert state_matches_events(game)


FRIENDLY = "Iron Brigade (Meredith)"  # the firing battery's own side


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"die": "0"}, "A d10 shows 1 to 10."),
        ({"die": ""}, "Tap the die you rolled (1-10), or press Roll for me."),
        ({"rng": ""}, "This field is required."),
        ({"rng": "30"}, "no battery reaches"),
        ({"target": ""}, "Choose one from the list."),
        ({"target": FRIENDLY}, "No enemy unit to choose here is called “Iron Brigade (Meredith)”"),
        ({"printed": "2P"}, "not P"),
        ({"tandem": "Davis's Brigade"}, "another unit than the main target"),
        ({"cover": "deep"}, "Select a valid choice"),
    ],
)
def test_bad_passing_fire_changes_nothing(client, demo, extra, message):
    game = at_step(demo, "move")
    hall = battery(game, HALL)
    values = {"die": "5", "rng": "3", "target": "Davis's Brigade", **extra}
    die, rng, target = values.pop("die"), values.pop("rng"), values.pop("target")
    response = passing(client, game, hall, target, die=die, rng=rng, **values)
    assert response.status_code == 200 and message in response.content.decode()
    hall.refresh_from_db()
    assert fresh(game).version == game.version and not hall.fired_this_turn


def test_only_a_defending_battery_that_may_fire_makes_passing_fire_and_only_in_the_move(client, demo):
    set_state(demo, battery(demo, CALEF), limbered=True)
    game = at_step(demo, "move")
    hall, calef, pegram = battery(game, HALL), battery(game, CALEF), battery(game, "Pegram's Battalion (rifles)")
    for unit in (calef, pegram):
        response = passing(client, game, unit, "Davis's Brigade")
        assert "cannot make passing fire now" in response.content.decode()
    drawn = fresh(game).version
    passing(client, game, hall, "Davis's Brigade")
    response = passing(client, game, hall, "Davis's Brigade", version=drawn)  # its form drawn before it fired
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = passing(client, game, hall, "Davis's Brigade")  # once a player turn
    assert "cannot make passing fire now" in response.content.decode()
    assert Event.objects.filter(game=game, kind="PassingFireConducted").count() == 1
    game = at_step(game, "artillery_fire")
    response = passing(client, game, battery(game, CALEF), "Davis's Brigade")
    assert "Passing fire is made during the attacker&#x27;s move" in response.content.decode()
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    assert passing(client, game, battery(other, HALL), "Davis's Brigade").status_code == 404
    assert Event.objects.filter(game=game, kind="PassingFireConducted").count() == 1


def test_the_artillery_step_has_no_passing_fire_any_more(client, demo):
    game = at_step(demo, "artillery_fire")
    opened = opened_row(client, game, battery(game, HALL))
    assert "passing_fire" not in opened and "Passing fire" not in opened
    assert is_fragment(fire(client, game, battery(game, HALL), "Davis's Brigade", passing_fire="on"))
    assert not payload(last(game, "ArtilleryFired")).inputs.passing_fire


def test_the_defending_players_make_passing_fire_and_the_attacking_ones_may_not(demo):
    game = at_step(demo, "move")
    hall = battery(game, HALL)
    confederate, union = seated_device(game, "Confederate"), seated_device(game, "Union")
    assert passing(confederate, game, hall, "Davis's Brigade").status_code == 403
    assert passing(union, game, hall, "Davis's Brigade").status_code == 200
    assert last(game, "PassingFireConducted").side.name == "Union"
