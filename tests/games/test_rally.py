"""The rally step at the table: derived modifiers, typed or app dice, htmx and plain POST, undo, stale forms."""

import pytest

from republic.games.models import Event, Game
from republic.games.steps.walk import advance
from republic.rules.dice import RollSource
from republic.rules.results import Modifier
from tests.games.conftest import HTMX, brigade, has_row, opened_row, payload, set_state, state_matches_events


def at_rally(game: Game) -> Game:
    advance(game, None, "test")  # messages -> rally
    game.refresh_from_db()
    assert game.step == "rally"
    return game


def rally_post(client, game, unit, die="6", distance="3", roll="typed", htmx=False, version=None, **extra):
    prefix = f"rally-{unit.piece.name}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-division_leader_distance": distance,
        "roll": roll,
        **extra,
    }
    return client.post(f"/games/{game.pk}/act/rally/unit-{unit.pk}/", data, **(HTMX if htmx else {}))


def test_the_rally_step_lists_every_attacking_unit_with_m_hits_and_blocks_next_step(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert has_row(page, davis) and "Rally Davis&#x27;s Brigade" not in page  # its form opens on tap
    assert 'aria-label="Rally Davis&#x27;s Brigade"' in opened_row(client, game, davis)
    assert "rally Davis&#x27;s Brigade (Rattled)" in page  # still to do
    response = client.post(f"/games/{game.pk}/next/", {"version": game.version}, HTTP_HX_REQUEST="true")
    assert "Not yet: rally Davis" in response.content.decode()
    game.refresh_from_db()
    assert game.step == "rally"


def test_a_typed_rally_over_htmx_returns_the_live_fragment_and_records_the_event(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    response = rally_post(client, game, davis, die="9", htmx=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="live"') and "<html" not in body
    event = Event.objects.get(game=game, kind="RallyResolved")
    assert f"Last result · #{event.seq} · Attacker rallies units" in body and "RallyResolved" not in body
    rallied = payload(event)
    assert rallied.inputs.roll.faces == (9,) and rallied.inputs.roll.source is RollSource.TYPED
    assert str(rallied.inputs.division_leader) == "E1"  # Heth, from the state
    assert rallied.result.modifiers == (Modifier("divisional leader's rating (E1), at any distance", 1, "2.3"),)
    assert rallied.result.modified_roll == 10
    davis.refresh_from_db()
    assert davis.m_hits == rallied.result.m_hits
    assert state_matches_events(game)


def test_a_plain_post_redirects_to_the_game_page(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=1)
    game = at_rally(demo)
    response = rally_post(client, game, davis, die="5")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert Event.objects.filter(game=game, kind="RallyResolved").count() == 1


def test_roll_for_me_rolls_and_says_so(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=3)
    game = at_rally(demo)
    rally_post(client, game, davis, die="", roll="app", htmx=True)
    roll = payload(Event.objects.get(game=game, kind="RallyResolved")).inputs.roll
    assert roll.source is RollSource.APP and 1 <= roll.faces[0] <= 10


@pytest.mark.parametrize(
    ("die", "message"),
    [
        ("0", "A d10 shows 1 to 10."),
        ("11", "A d10 shows 1 to 10."),
        ("", "Tap the die you rolled (1-10), or press Roll for me."),
        ("six", "A d10 shows a whole number, 1 to 10."),
    ],
)
def test_a_bad_die_is_refused_at_the_field_and_changes_nothing(client, demo, die, message):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    version = game.version
    response = rally_post(client, game, davis, die=die, htmx=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    game.refresh_from_db()
    davis.refresh_from_db()
    assert (game.version, davis.m_hits) == (version, 2)


def test_a_stale_form_changes_nothing_and_shows_the_fresh_state(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    old_version = game.version
    rally_post(client, game, davis, die="9", htmx=True)
    response = rally_post(client, game, davis, die="9", htmx=True, version=old_version)
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert Event.objects.filter(game=game, kind="RallyResolved").count() == 1


def test_a_unit_of_another_game_is_not_found(client, demo):
    from republic.games.scenario import create_game, parse_scenario
    from republic.scenarios import DEMO_SCENARIO

    other = create_game(parse_scenario(DEMO_SCENARIO.read_text()))
    theirs = brigade(other, "Davis's Brigade")
    game = at_rally(demo)
    response = rally_post(client, game, theirs, die="5")
    assert response.status_code == 404


def test_undo_takes_back_the_rally_and_is_recorded(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    rally_post(client, game, davis, die="10", htmx=True)
    game.refresh_from_db()
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, HTTP_HX_REQUEST="true")
    davis.refresh_from_db()
    assert davis.m_hits == 2
    undo = Event.objects.get(game=game, kind="EventUndone")
    assert undo.undoes.kind == "RallyResolved"
    assert state_matches_events(game)
    assert has_row(client.get(f"/games/{game.pk}/").content.decode(), davis)  # to do again


def test_roll_for_me_with_a_typed_die_is_refused_naming_the_die_and_changes_nothing(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=3)
    game = at_rally(demo)
    version = game.version
    response = rally_post(client, game, davis, die="8", roll="app", htmx=True)
    body = response.content.decode()
    said = "You chose 8 on this die, so the app did not roll: tap the face you rolled to send it, or press Roll for me"
    assert said in body
    # the face is no longer chosen, so that Roll for me pressed again is the player's choice
    die = f"rally-{davis.piece.name}-die"
    assert f"name={die} value=8 aria-pressed=true" not in body and f"type=hidden name={die}" not in body
    game.refresh_from_db()
    assert game.version == version and not Event.objects.filter(game=game, kind="RallyResolved").exists()
    assert brigade(game, "Davis's Brigade").m_hits == 3
