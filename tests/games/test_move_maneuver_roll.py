"""The attacker's move step at the table, its panel and the maneuver roll (3.2): a card per attacking unit, the
modifiers derived from the state, typed dice or "Roll for me", htmx and plain POST, the printed chart, bad input,
stale forms, undo."""

import pytest

from republic.games.models import Event
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.move import rows as move_rows
from republic.games.steps.move.state import MoveState
from republic.games.steps.walk import advance
from republic.games.text.terms import commander
from republic.rules.results import Modifier
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import (
    HTMX,
    allowed,
    brigade,
    fresh,
    has_row,
    leader,
    payload,
    set_state,
    state_matches_events,
    summary,
)
from tests.games.move_helpers import at_move, card_of, opened_page, roll_post, text

# --- the panel ----------------------------------------------------------------------------------------------


def test_the_move_step_shows_a_card_per_attacking_unit_and_nothing_is_pending(client, demo):
    game = at_move(demo)
    page = text(client.get(f"/games/{game.pk}/"))
    for name in ("Archer's Brigade", "Davis's Brigade", "Garnett's Battalion"):
        assert has_row(page, brigade(game, name))
    assert not has_row(page, brigade(game, "Iron Brigade (Meredith)"))  # defenders: none
    assert "Maneuver roll for Archer" not in page  # each unit's forms open on tap
    assert "Maneuver roll for Archer" in card_of(
        opened_page(client, game, brigade(game, "Archer's Brigade")), brigade(game, "Archer's Brigade")
    )
    assert "left before moving on" not in page
    advance(game, None, "test")  # no roll is required work
    assert fresh(game).step == "skirmish"


def test_a_destroyed_brigade_has_no_card(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(demo, archer, destroyed=True)
    assert not has_row(text(client.get(f"/games/{game.pk}/")), archer)


# --- 1. the maneuver roll -----------------------------------------------------------------------------------


def test_a_typed_roll_over_htmx_derives_the_modifiers_and_says_the_actions_plainly(client, demo):
    brock = brigade(demo, "Brockenbrough's Brigade")  # green; Heth is E1
    game = at_move(demo)
    version = game.version
    response = roll_post(client, game, brock, die="3")
    body = text(response)
    # the answer of a row: the row itself, with the result, and out of band the result card and the step bar
    assert response.status_code == 200 and body.lstrip().startswith('<li class="work-row') and "<html" not in body
    assert (
        '<div id="result-slot" hx-swap-oob="true">' in body
        and 'id="step-bar" aria-label="Moving on" data-drawn=' in body
        and '" hx-swap-oob="true">' in body.split('id="step-bar"')[1]
    )
    event = Event.objects.get(game=game, kind="ManeuverRolled")
    assert event.changes == [] and fresh(game).version == version + 1
    rolled = payload(event)
    assert rolled.rolls()[0].roll.faces == (3,) and rolled.rolls()[0].roll.source == "typed"
    assert rolled.inputs.grade == "green" and rolled.inputs.division_commander == "E"
    assert rolled.result.modifiers == (Modifier("Energetic division commander", 1, "3.2"),)
    assert rolled.result.modified_roll == 4
    assert allowed(event) == ["advance", "hold", "pull_back"]
    assert event.provisional and not event.printed_chart  # the maneuver table is provisional
    assert "may advance, hold or pull back; may not maneuver or assault" in body
    assert "Maneuver roll for Brockenbrough" not in body  # rolled: the form is gone
    assert "may may" not in body and "may may" not in client.get(f"/games/{game.pk}/").content.decode()
    assert state_matches_events(game)


def test_leaders_within_2_m_hits_and_acting_together_modify_the_roll(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    game = at_move(demo)
    set_state(demo, davis, m_hits=2)
    hill, heth = leader(game, "A. P. Hill"), leader(game, "Henry Heth")
    roll_post(client, game, davis, die="1", leaders_within_2=[str(hill.pk), str(heth.pk)], acting_together="assault")
    event = Event.objects.get(game=game, kind="ManeuverRolled")
    labels = {m.label: m.value for m in payload(event).result.modifiers}
    assert labels == {
        "Multiple brigades acting together": 1,
        "Energetic division commander": 1,
        'Each proficient leader within 2"': 1,
        'Each energetic leader within 2"': 2,
        "Each morale hit (x2)": -2,
    }
    assert payload(event).result.modified_roll == 4
    assert list(payload(event).leaders_within_2) == ["A. P. Hill (P1)", "Henry Heth (E1)"]
    # the +1 for acting together counts toward assault only: maneuver (average 4) is judged on 3
    assert "maneuver" not in allowed(event)


def test_a_cautious_or_just_replaced_division_leader_lowers_the_roll(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(game, leader(game, "Henry Heth"), leader_class="C", replaced_this_turn=True)
    roll_post(client, fresh(game), archer, die="9")
    event = Event.objects.get(game=game, kind="ManeuverRolled")
    assert {m.label: m.value for m in payload(event).result.modifiers} == {
        "Cautious division commander": -1,
        "Leader just replaced": -3,
    }
    assert payload(event).result.modified_roll == 5


def test_a_hors_de_combat_division_leader_adds_no_class_modifier(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(game, leader(game, "Henry Heth"), hors_de_combat=True)
    game = fresh(game)
    assert "hors de combat: his class adds nothing" in card_of(opened_page(client, game, archer), archer)
    roll_post(client, game, archer, die="6")
    event = Event.objects.get(game=game, kind="ManeuverRolled")
    rolled = payload(event)
    assert rolled.inputs.division_commander is None and rolled.result.modifiers == ()
    assert "hors de combat" in commander(
        rolled.division_leader, rolled.division_leader_value, rolled.division_leader_hors_de_combat, False
    )


def test_a_plain_post_redirects_and_roll_for_me_rolls(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    response = roll_post(client, game, archer, die="", roll="app", htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    event = Event.objects.get(game=game, kind="ManeuverRolled")
    roll = payload(event).rolls()[0].roll
    assert roll.source == "app" and 1 <= roll.faces[0] <= 10
    page = text(client.get(f"/games/{game.pk}/"))
    assert "Archer&#x27;s Brigade maneuver: may" in page  # the result card


def test_a_second_roll_for_the_same_brigade_is_refused_until_the_first_is_undone(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    roll_post(client, game, archer, die="2")
    response = roll_post(client, fresh(game), archer, die="10")
    assert "has already rolled its maneuver this turn" in text(response)
    assert Event.objects.filter(game=game, kind="ManeuverRolled").count() == 1
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    assert Event.objects.get(game=game, kind="EventUndone").undoes.kind == "ManeuverRolled"
    assert "Maneuver roll for Archer" in card_of(opened_page(client, game, archer), archer)
    roll_post(client, fresh(game), archer, die="10")
    assert Event.objects.filter(game=game, kind="ManeuverRolled", undone_by__isnull=True).count() == 1
    assert state_matches_events(game)


def test_the_step_lists_its_rows_without_decoding_the_rolls_made(client, demo):
    archer, davis = brigade(demo, "Archer's Brigade"), brigade(demo, "Davis's Brigade")
    game = at_move(demo)
    roll_post(client, game, archer, die="2")
    roll_post(client, fresh(game), davis, die="7")
    state = MoveState(fresh(game))
    rows = {row.subject: row.due for row in move_rows(state)}
    assert rows[archer.piece.name] is rows[davis.piece.name] is False
    # a roll's payload (its results and their reasons) is decoded only for a row that shows it
    assert [event.unit for event in state._events if "payload" in vars(event)] == []
    assert state.rolls[davis.key].inputs.roll.faces == (7,)


def test_the_printed_chart_may_replace_the_table(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    roll_post(client, game, archer, die="1", printed=["advance", "pull_back"])
    event = Event.objects.get(game=game, kind="ManeuverRolled")
    assert event.printed_chart and not event.provisional
    assert allowed(event) == ["advance", "hold", "pull_back"]
    assert payload(event).result.modified_roll == 2  # the engine's own result is kept for reference
    assert "printed chart" in summary(event)


def test_the_printed_chart_does_not_lift_a_demoralized_brigades_restriction(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(demo, archer, m_hits=4)
    roll_post(
        client,
        game,
        archer,
        die="10",
        printed=["assault", "advance", "pull_back"],
        leaders_within_2=[str(leader(game, "Henry Heth").pk)],
    )
    event = Event.objects.get(game=game, kind="ManeuverRolled")
    assert allowed(event) == ["hold", "pull_back"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"die": "0"}, "A d10 shows 1 to 10."),
        ({"die": "11"}, "A d10 shows 1 to 10."),
        ({"die": ""}, "Tap the die you rolled (1-10), or press Roll for me."),
        ({"die": "six"}, "A d10 shows a whole number, 1 to 10."),
        ({"acting_together": "hold"}, "Select a valid choice"),
        ({"printed": ["charge"]}, "Select a valid choice"),
    ],
)
def test_bad_roll_input_is_refused_at_the_field_and_changes_nothing(client, demo, fields, message):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    version = game.version
    response = roll_post(client, game, archer, **{"die": "5", **fields})
    assert response.status_code == 200 and message in text(response)
    assert fresh(game).version == version


def test_a_leader_of_the_other_side_is_not_a_choice(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    reynolds = leader(game, "John F. Reynolds")
    response = roll_post(client, game, archer, leaders_within_2=[str(reynolds.pk)])
    assert "That leader is not one to choose here" in text(response)
    assert not Event.objects.filter(game=game, kind="ManeuverRolled").exists()


def test_a_stale_roll_changes_nothing(client, demo):
    archer, davis = brigade(demo, "Archer's Brigade"), brigade(demo, "Davis's Brigade")
    game = at_move(demo)
    old = game.version
    roll_post(client, game, archer, die="5")
    response = roll_post(client, fresh(game), archer, die="5", version=old)  # a double tap
    assert "The game moved on since this page was drawn" in text(response)
    assert Event.objects.filter(game=game, kind="ManeuverRolled").count() == 1
    # Davis's form, drawn before Archer rolled, is not about Archer: it is not stale
    roll_post(client, fresh(game), davis, die="5", version=old)
    assert Event.objects.filter(game=game, kind="ManeuverRolled").count() == 2


def test_a_unit_of_another_game_is_not_found_and_a_defender_does_not_roll(client, demo):
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    game = at_move(demo)
    assert roll_post(client, game, brigade(other, "Archer's Brigade")).status_code == 404
    response = roll_post(client, game, brigade(game, "Cutler's Brigade"))
    assert "is not an attacking unit in play" in text(response)
    assert not Event.objects.filter(game=game, kind="ManeuverRolled").exists()


def test_no_roll_outside_the_move_step(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    advance(demo, None, "test")
    game = fresh(demo)
    response = roll_post(client, game, archer)
    assert "Units move in the attacker&#x27;s move step" in text(response)
    assert not Event.objects.filter(game=game, kind="ManeuverRolled").exists()
