"""Hors de combat checks at the table (4.7 after fire, 5.6 after the assaults): who must roll, 2D10 typed or rolled,
the prefilled base hits, passing a leader over, bad input, undo, stale forms."""

import pytest

from republic.games.events.payload import LabelledRoll
from republic.games.ledger import undo_last
from republic.games.models import Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.rules.dice import Roll, RollSource
from republic.rules.leaders import resolve_hors_de_combat
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import (
    HTMX,
    at_step,
    battery,
    brigade,
    fresh,
    last,
    leader,
    opened_row,
    page,
    payload,
    rolled_for_assault,
    set_state,
    state_matches_events,
)


@pytest.fixture
def after_fire(client, demo) -> Game:
    """Calef's guns took two bases from Davis's Brigade in the artillery step; the game is at the checks."""
    set_state(demo, demo, step="artillery_fire")
    demo.refresh_from_db()
    calef, davis = battery(demo, "2nd U.S., Battery A (Calef)"), brigade(demo, "Davis's Brigade")
    prefix = f"fire-{calef.piece.name}"
    client.post(
        f"/games/{demo.pk}/act/artillery-fire/unit-{calef.pk}/",
        {
            f"{prefix}-version": demo.version,
            f"{prefix}-die": "5",
            f"{prefix}-range": "12",
            f"{prefix}-target": davis.key,
            f"{prefix}-cover": "none",
            f"{prefix}-printed": "1M 2B",
            "roll": "typed",
        },
        **HTMX,
    )
    advance(fresh(demo), None, "test")
    assert fresh(demo).step == "fire_hors_de_combat"
    davis.refresh_from_db()
    assert davis.bases == 6
    return demo


def check(client, game, who, die="5", die2="5", hits="0", roll="typed", htmx=True, version=None, **extra):
    prefix = f"hdc-leader-{who.pk}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-die2": die2,
        f"{prefix}-base_hits_within_4": hits,
        "roll": roll,
        **{f"{prefix}-{k}": v for k, v in extra.items()},
    }
    return client.post(f"/games/{game.pk}/act/check-leader/leader-{who.pk}/", data, **(HTMX if htmx else {}))


def skip(client, game, who, htmx=True, version=None):
    data = {"version": game.version if version is None else version}
    return client.post(f"/games/{game.pk}/act/pass-over-leader/leader-{who.pk}/", data, **(HTMX if htmx else {}))


def correct(client, game, unit, change):
    """One of the unit card's one-tap corrections, as the table makes it."""
    return client.post(f"/games/{game.pk}/units/{unit.pk}/{change}/", {"version": fresh(game).version}, **HTMX)


def test_leaders_whose_command_lost_bases_must_roll_before_moving_on(client, after_fire):
    game = after_fire
    body = page(client, game)
    assert "hors de combat check for Henry Heth (Heth&#x27;s Division lost 2 bases)" in body
    assert "hors de combat check for A. P. Hill (Third Corps lost 2 bases)" in body
    assert "hors de combat check for James S. Wadsworth" not in body
    heth = leader(game, "Henry Heth")
    assert f'name="hdc-leader-{heth.pk}-base_hits_within_4" value="2"' in opened_row(client, game, heth)
    assert "Davis&#x27;s Brigade: 2 bases" in body
    refused = client.post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX)
    assert "Not yet: hors de combat check for A. P. Hill" in refused.content.decode()
    assert fresh(game).step == "fire_hors_de_combat"


def test_a_double_with_the_base_hits_fells_the_leader(client, after_fire):
    game, heth = after_fire, leader(after_fire, "Henry Heth")
    response = check(client, game, heth, "5", "5", hits="4")
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="live"')
    event = last(game, "LeaderCheckedForCasualty")
    assert payload(event).rolls() == (LabelledRoll("hors de combat", Roll((5, 5), RollSource.TYPED)),)
    assert payload(event).inputs.base_hits_within_4 == 4
    assert payload(event).result.modified_pair == (9, 9) and payload(event).result.outcome == "hors_de_combat"
    assert event.provisional
    heth.refresh_from_db()
    assert heth.hors_de_combat
    assert "hors de combat check for Henry Heth" not in page(client, game)
    assert state_matches_events(game)
    undo_last(fresh(game), None, "test")
    heth.refresh_from_db()
    assert not heth.hors_de_combat
    assert "hors de combat check for Henry Heth" in page(client, game)
    assert state_matches_events(game)


def test_not_a_double_is_no_effect_over_a_plain_post(client, after_fire):
    game, hill = after_fire, leader(after_fire, "A. P. Hill")
    response = check(client, game, hill, "3", "4", hits="9", htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    event = last(game, "LeaderCheckedForCasualty")
    assert not payload(event).result.double and not payload(event).casualty
    hill.refresh_from_db()
    assert not hill.hors_de_combat


def test_the_enemy_skirmisher_modifier_and_the_printed_chart(client, after_fire):
    game, heth = after_fire, leader(after_fire, "Henry Heth")
    check(client, game, heth, "8", "8", hits="0", enemy_skirmishers_within_4="on", printed="no_effect")
    event = last(game, "LeaderCheckedForCasualty")
    checked = payload(event)
    # the printed result is an overlay on the chart: the result is theirs; the app's chart is read again here
    assert checked.result.modified_pair == (9, 9) and checked.result.printed
    app = resolve_hors_de_combat(game.chart, checked.inputs)
    assert app.outcome == "hors_de_combat"  # 8+1 = 9 by the app's chart ...
    assert checked.result.outcome == "no_effect"
    assert event.printed_chart and not event.provisional and not checked.casualty  # ... not by theirs
    heth.refresh_from_db()
    assert not heth.hors_de_combat


def test_roll_for_me_rolls_both_dice(client, after_fire):
    game = after_fire
    check(client, game, leader(game, "Henry Heth"), "", "", hits="2", roll="app")
    event = last(game, "LeaderCheckedForCasualty")
    roll = payload(event).rolls()[0].roll
    assert roll.source == "app" and len(roll.faces) == 2
    assert all(1 <= face <= 10 for face in roll.faces)


def test_passing_leaders_over_clears_the_list(client, after_fire):
    game = after_fire
    response = skip(client, game, leader(game, "Henry Heth"))
    assert response.status_code == 200 and response.content.decode().lstrip().startswith('<div id="live"')
    assert payload(last(game, "HorsDeCombatSkipped")).name == "Henry Heth"
    response = skip(client, fresh(game), leader(game, "A. P. Hill"), htmx=False)
    assert response.status_code == 302
    body = page(client, game)
    assert "Every leader whose command lost bases has rolled or been passed over" in body
    advance(fresh(game), None, "test")
    assert fresh(game).step == "demoralized_panic"
    assert state_matches_events(game)


def test_a_leader_with_nothing_waiting_cannot_be_passed_over_or_roll_twice(client, after_fire):
    game = after_fire
    response = skip(client, game, leader(game, "John F. Reynolds"))
    assert "has no hors de combat check waiting" in response.content.decode()
    check(client, fresh(game), leader(game, "Henry Heth"), "1", "2")
    response = check(client, fresh(game), leader(game, "Henry Heth"), "1", "2")
    assert "has no hors de combat check to make now" in response.content.decode()
    assert Event.objects.filter(game=game, kind__in=["LeaderCheckedForCasualty", "HorsDeCombatSkipped"]).count() == 1


def test_a_leader_outside_the_losses_may_still_roll(client, after_fire):
    game, reynolds = after_fire, leader(after_fire, "John F. Reynolds")
    check(client, game, reynolds, "9", "9", hits="0")
    reynolds.refresh_from_db()
    assert reynolds.hors_de_combat  # 9-9 with nothing added: still a casualty on this chart
    assert "John F. Reynolds (E3)" not in page(client, game)  # hors de combat leaders roll no more


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"die": "0"}, "A d10 shows 1 to 10."),
        ({"die2": "11"}, "A d10 shows 1 to 10."),
        ({"die2": ""}, "Tap the die you rolled (1-10), or press Roll for me."),
        ({"hits": "-1"}, "greater than or equal to 0"),
        ({"hits": "100"}, "less than or equal to 99"),
        ({"hits": "two"}, "Enter a whole number"),
        ({"hits": ""}, "This field is required."),
        ({"printed": "dead"}, "Select a valid choice"),
    ],
)
def test_bad_checks_change_nothing(client, after_fire, values, message):
    game, heth = after_fire, leader(after_fire, "Henry Heth")
    args = {"die": "5", "die2": "5", "hits": "2", **values}
    version = game.version
    response = check(client, game, heth, args.pop("die"), args.pop("die2"), hits=args.pop("hits"), **args)
    assert response.status_code == 200 and message in response.content.decode()
    heth.refresh_from_db()
    assert fresh(game).version == version and not heth.hors_de_combat


def test_stale_and_foreign_checks_change_nothing(client, after_fire):
    game, heth = after_fire, leader(after_fire, "Henry Heth")
    old = game.version
    check(client, game, heth, "1", "2")
    response = check(client, game, heth, "5", "5", version=old)  # a double tap
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = skip(client, game, heth, version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = check(client, game, heth, "5", "5", version="")
    assert "The form was incomplete" in response.content.decode()
    assert Event.objects.filter(game=game, kind__in=["LeaderCheckedForCasualty", "HorsDeCombatSkipped"]).count() == 1
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    assert check(client, game, leader(other, "A. P. Hill")).status_code == 404
    assert skip(client, game, leader(other, "A. P. Hill")).status_code == 404


def test_no_losses_no_pending_checks(client, demo):
    set_state(demo, demo, step="fire_hors_de_combat")
    game = fresh(demo)
    body = page(client, game)
    assert "No unit lost bases in this phase: no leader needs to roll." in body
    assert "hors de combat check for" not in body
    advance(game, None, "test")
    assert fresh(game).step == "demoralized_panic"


def test_after_the_assaults_only_the_assault_losses_count(client, after_fire):
    game = after_fire
    iron, archer = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Archer's Brigade")
    set_state(game, game, step="assaults")
    # the bases lost in the phase are read from its events: here the table's own corrections in the assaults step
    for _ in range(2):
        correct(client, game, iron, "base_minus")  # lost two bases in the assaults
    correct(client, game, archer, "m_plus")  # no bases lost
    iron.refresh_from_db()
    assert iron.bases == 5
    set_state(fresh(game), game, step="assault_hors_de_combat")
    body = page(client, fresh(game))
    assert "hors de combat check for James S. Wadsworth (Wadsworth&#x27;s Division lost 2 bases)" in body
    assert "hors de combat check for John F. Reynolds (I Corps lost 2 bases)" in body
    assert "hors de combat check for Henry Heth" not in body  # his losses were in the fire phase
    check(client, fresh(game), leader(game, "James S. Wadsworth"), "2", "2")
    assert last(game, "LeaderCheckedForCasualty").step == "assault_hors_de_combat"
    skip(client, fresh(game), leader(game, "John F. Reynolds"))
    advance(fresh(game), None, "test")
    assert fresh(game).step == "charge_disorder"
    assert state_matches_events(game)


def test_the_assault_rounds_losses_and_surrenders_count_and_a_base_put_back_is_taken_off(client, demo):
    """After the assaults the bases lost are read from the rounds' losses and surrenders and the table's own
    corrections in the step (not from the rows' values)."""
    game = at_step(rolled_for_assault(demo), "assaults")
    archer, iron = brigade(game, "Archer's Brigade"), brigade(game, "Iron Brigade (Meredith)")
    client.post(
        f"/games/{game.pk}/act/declare-assault/game-{game.pk}/",
        {"declare-version": game.version, "declare-attackers": [archer.key], "declare-defenders": [iron.key]},
        **HTMX,
    )
    seq = last(game, "AssaultDeclared").seq
    prefix = f"round-assault-{seq}"
    client.post(
        f"/games/{game.pk}/act/assault-round/assault-{seq}/",
        {
            f"{prefix}-version": fresh(game).version,
            f"{prefix}-die": "5",
            f"{prefix}-die2": "5",
            f"{prefix}-struck": "front",
            f"{prefix}-cover-{iron.piece.name}": "none",
            f"{prefix}-cover-{archer.piece.name}": "none",
            f"{prefix}-printed": "defender surrender",
            "roll": "typed",
        },
        **HTMX,
    )
    iron.refresh_from_db()
    assert iron.surrendered and iron.bases == 0  # its 7 bases are taken
    correct(client, game, archer, "base_minus")
    correct(client, game, archer, "base_minus")
    correct(client, game, archer, "base_plus")  # one of them put back: one base lost
    client.post(f"/games/{game.pk}/act/end-assault/assault-{seq}/", {"version": fresh(game).version}, **HTMX)
    advance(fresh(game), None, "test")
    game = fresh(game)
    assert game.step == "assault_hors_de_combat"
    body = page(client, game)
    assert "hors de combat check for James S. Wadsworth (Wadsworth&#x27;s Division lost 7 bases)" in body
    assert "hors de combat check for Henry Heth (Heth&#x27;s Division lost 1 base)" in body
    assert "Iron Brigade (Meredith): 7 bases" in body and "Archer&#x27;s Brigade: 1 base" in body
