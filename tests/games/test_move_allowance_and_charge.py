"""The attacker's move step at the table, the movement allowance (3.1, 3.4) and the charge bonus: the allowance in
the game's scale through terrain and formation changes, recording nothing; the charge bonus set, cleared and
undone; bad input, stale and foreign forms."""

import re

import pytest

from republic.games.models import Event
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import HTMX, battery, brigade, fresh, set_state, state_matches_events
from tests.games.move_helpers import (
    at_move,
    card_of,
    charge_post,
    formation_post,
    move_post,
    opened_page,
    roll_post,
    text,
)

# --- 2. the movement allowance ------------------------------------------------------------------------------


def test_the_allowance_adds_the_charge_bonus_the_card_recorded_and_records_nothing_itself(client, demo):
    """One fact, recorded once: the charge bonus is what the unit's card recorded as used, which the allowance
    reads (a box of its own, which recorded nothing, left charge disorder saying no unit charged)."""
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    ground = {"formation_changes": "1", "terrain_within": ["medium_forest"]}
    version, events = game.version, Event.objects.filter(game=game).count()
    card = card_of(text(move_post(client, game, archer, charge_bonus="on", **ground)), archer)
    assert "Allowance 9&quot;" in card and "charge bonus 4" not in card and 'name="move-unit' in card
    assert 'Record "Used charge bonus" above first' in card
    assert "charge_bonus" not in card  # no box of its own
    assert (fresh(game).version, Event.objects.filter(game=game).count()) == (version, events)
    roll_post(client, game, archer, die="10")
    charge_post(client, fresh(game), archer, action="assault")
    assert fresh(archer).charge_bonus_used
    version, events = fresh(game).version, Event.objects.filter(game=game).count()
    card = card_of(text(move_post(client, game, archer, **ground)), archer)
    assert "Allowance 9&quot; + charge bonus 4&quot; = 13&quot;" in card
    assert "Rough: each inch costs 2&quot; of allowance; 4.5&quot; on that ground alone" in card
    assert "-1 Trained formation change (3.4)" in card
    assert "The assault move bonus may not be used in or across: medium forest" in card
    assert (fresh(game).version, Event.objects.filter(game=game).count()) == (version, events)


def test_the_allowance_by_plain_post_shows_the_page_in_the_games_scale(client, demo):
    gamble = brigade(demo, "Davis's Brigade")
    game = at_move(demo)
    set_state(demo, demo, ground_scale="large")
    response = move_post(client, game, gamble, htmx=False)
    assert response.status_code == 200 and "<html" in text(response)
    assert "Allowance 15&quot;" in card_of(text(response), gamble) and "large scale" in text(response)


def test_a_damaged_battery_in_heavy_forest_pays_quadruple_and_the_provisional_cell_is_marked(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    set_state(demo, garnett, damage=1)
    card = card_of(text(move_post(client, game, garnett, terrain_within=["heavy_forest"])), garnett)
    assert "Allowance 7.5&quot;" in card
    assert "Rough: each inch costs 4&quot;" in card and "1.75&quot; on that ground alone" in card
    assert "Double rough: each inch costs 8&quot;" in card
    assert "provisional-mark" in card and "Battery damage: 25%" in card
    assert "Used charge bonus" not in card and "may not use the assault move bonus" in card


def test_the_allowance_counts_this_turns_formation_changes(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    formation_post(client, game, archer, "single_line")
    card = card_of(opened_page(client, game, archer), archer)
    assert re.search(r'name="move-unit-\d+-formation_changes" value="1"', card)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"formation_changes": "-1"}, "0 to 9."),
        ({"formation_changes": "10"}, "0 to 9."),
        ({"passages_of_lines": "6"}, "0 to 5."),
        ({"formation_changes": ""}, "Type a number (0 if none)."),
        ({"formation_changes": "1", "formation_changes_in_rough": "2"}, "2 changes in rough but only 1 changes"),
        ({"terrain_within": ["stone_wall"]}, "Select a valid choice"),
    ],
)
def test_bad_movement_input_is_refused_at_the_field(client, demo, fields, message):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    body = text(move_post(client, game, archer, **fields))
    assert message in body and "Allowance " not in card_of(body, archer)


def test_terrain_impassable_to_the_unit_is_refused_at_its_field(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    body = text(move_post(client, game, garnett, terrain_within=["marshland"], obstacles_crossed=["treeline"]))
    assert "Marshland is impassable to artillery" in card_of(body, garnett)


def test_an_unformed_unit_may_not_count_a_formation_change(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(demo, archer, m_hits=1)
    card = card_of(text(move_post(client, game, archer, formation_changes="1")), archer)
    assert "Unformed: may not change formation (2.3)" in card and "Allowance " not in card
    card = card_of(text(move_post(client, game, archer)), archer)
    assert "Allowance 10&quot;" in card


def test_the_allowance_of_another_games_unit_is_not_found(client, demo):
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    game = at_move(demo)
    assert move_post(client, game, brigade(other, "Archer's Brigade")).status_code == 404


# --- 3. the charge bonus ------------------------------------------------------------------------------------


def test_the_charge_bonus_needs_a_roll_that_allows_moving_forward(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    assert "No maneuver roll this turn" in card_of(opened_page(client, game, archer), archer)
    response = charge_post(client, game, archer)
    assert "a brigade that has not rolled holds (3.2)" in text(response)
    archer.refresh_from_db()
    assert not archer.charge_bonus_used


def test_a_roll_allowing_only_hold_or_pull_back_refuses_the_charge_bonus(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    roll_post(client, game, archer, die="1", printed=["pull_back"])
    response = charge_post(client, fresh(game), archer)
    assert "Its roll allows only hold or pull back" in text(response)
    archer.refresh_from_db()
    assert not archer.charge_bonus_used


def test_a_brigade_whose_roll_allows_more_is_asked_its_action_and_refused_the_bonus_when_it_pulled_back(client, demo):
    """R:650-653: "Brigades pulling back may not use the assault move bonus", whatever else the roll allowed."""
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    roll_post(client, game, archer, die="10")
    assert 'name="action"' in card_of(opened_page(client, fresh(game), archer), archer)
    pulled_back = text(charge_post(client, fresh(game), archer, action="pull_back"))
    assert "It pulled back: a brigade pulling back may not use the assault move bonus" in pulled_back
    held = text(charge_post(client, fresh(game), archer, action="hold"))
    assert "It held" in held
    unasked = text(charge_post(client, fresh(game), archer, action=""))
    assert "Which action did it take this turn?" in unasked
    archer.refresh_from_db()
    assert not archer.charge_bonus_used and not Event.objects.filter(game=game, kind="ChargeBonusUsed").exists()
    charge_post(client, fresh(game), archer, action="assault")
    archer.refresh_from_db()
    assert archer.charge_bonus_used


def test_the_charge_bonus_toggle_sets_and_clears_and_undoes(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    roll_post(client, game, archer, die="10")
    response = charge_post(client, fresh(game), archer)
    assert "Charge bonus used:" in card_of(text(response), archer)
    archer.refresh_from_db()
    assert archer.charge_bonus_used
    assert Event.objects.filter(game=game, kind="ChargeBonusUsed").count() == 1
    response = charge_post(client, fresh(game), archer, used="0", htmx=False)
    assert response.status_code == 302
    archer.refresh_from_db()
    assert not archer.charge_bonus_used and Event.objects.filter(game=game, kind="ChargeBonusCleared").exists()
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    archer.refresh_from_db()
    assert archer.charge_bonus_used
    assert state_matches_events(game)


def test_bad_or_stale_charge_posts_change_nothing(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    roll_post(client, game, archer, die="10")
    game = fresh(game)
    version = game.version
    assert "The form was incomplete" in text(charge_post(client, game, archer, used="maybe"))
    assert "The game moved on" in text(charge_post(client, game, archer, version=game.version - 1))
    response = client.post(f"/games/{game.pk}/act/charge-bonus/unit-{archer.pk}/", {}, **HTMX)
    assert "The form was incomplete" in text(response)
    archer.refresh_from_db()
    assert not archer.charge_bonus_used and fresh(game).version == version
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    assert charge_post(client, game, brigade(other, "Archer's Brigade")).status_code == 404


def test_batteries_offer_no_charge_bonus(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    card = card_of(opened_page(client, game, garnett), garnett)
    assert "/act/charge-bonus/" not in card and "Artillery may not use the assault move bonus (3.1)" in card
