"""The attacker's move step at the table: maneuver rolls, movement allowances, charge bonus, formation and
skirmishers, battery functions; htmx and plain POST, bad input, stale forms, undo, replay."""

import re

import pytest

from republic.games.models import Event, Game, Leader
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.games.text.terms import ACTION_ORDER, commander
from republic.rules.results import Modifier
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import battery, brigade, payload, set_state, state_matches_events, summary

HTMX = {"HTTP_HX_REQUEST": "true"}


def at_move(game: Game) -> Game:
    for _ in range(3):  # messages -> rally -> replace leaders -> move
        advance(game, None, "test")
    game.refresh_from_db()
    assert game.step == "move"
    return game


def leader(game: Game, name: str) -> Leader:
    return Leader.objects.get(game=game, name=name)


def allowed(event: Event) -> list[str]:
    """The actions a maneuver roll allows, in the rules' order."""
    actions = payload(event).result.actions
    return [a.value for a in ACTION_ORDER if a in actions]


def fresh(game: Game) -> Game:
    game.refresh_from_db()
    return game


def roll_post(client, game, unit, die="5", roll="typed", htmx=True, version=None, **fields):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"roll-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-die": die, "roll": roll}
    data.update({f"{prefix}-{k}": v for k, v in fields.items()})
    return client.post(f"/games/{game.pk}/maneuver/roll/{unit.pk}/", data, **(HTMX if htmx else {}))


def move_post(client, game, unit, htmx=True, **fields):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"move-{unit.key}"
    values = {"formation_changes": "0", "formation_changes_in_rough": "0", "passages_of_lines": "0", **fields}
    data = {f"{prefix}-{k}": v for k, v in values.items()}
    return client.post(f"/games/{game.pk}/maneuver/movement/{unit.pk}/", data, **(HTMX if htmx else {}))


def charge_post(client, game, unit, used="1", htmx=True, version=None):
    game.refresh_from_db()  # the state may have been set by another event
    data = {"version": game.version if version is None else version, "used": used}
    return client.post(f"/games/{game.pk}/maneuver/charge/{unit.pk}/", data, **(HTMX if htmx else {}))


def formation_post(client, game, unit, formation, htmx=True, version=None):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"formation-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-formation": formation}
    return client.post(f"/games/{game.pk}/maneuver/formation/{unit.pk}/", data, **(HTMX if htmx else {}))


def skirmish_post(client, game, unit, deployed, htmx=True, version=None):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"skirmishers-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-deployed": deployed}
    return client.post(f"/games/{game.pk}/maneuver/skirmishers/{unit.pk}/", data, **(HTMX if htmx else {}))


def functions_post(client, game, unit, *functions, htmx=True, version=None, **flags):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"functions-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version}
    data.update({f"{prefix}-function_{i + 1}": f for i, f in enumerate(functions)})
    data.update({f"{prefix}-{k}": v for k, v in flags.items()})
    return client.post(f"/games/{game.pk}/maneuver/battery/{unit.pk}/", data, **(HTMX if htmx else {}))


def text(response) -> str:
    return response.content.decode()


def card_of(page: str, unit) -> str:
    """The move card of one unit in the page."""
    match = re.search(
        rf'<article class="unit-card[^"]*" aria-label="[^"]*" id="move-unit'
        rf'{unit.pk}">(.*?)</article>',
        page,
        re.S,
    )
    assert match, f"no move card for {unit}"
    return match.group(1)


# --- the panel ----------------------------------------------------------------------------------------------


def test_the_move_step_shows_a_card_per_attacking_unit_and_nothing_is_pending(client, demo):
    game = at_move(demo)
    page = text(client.get(f"/games/{game.pk}/"))
    for name in ("Archer&#x27;s Brigade", "Davis&#x27;s Brigade", "Garnett&#x27;s Battalion"):
        assert f'aria-label="{name}" id="move-' in page
    assert 'id="move-unit' in page and 'Iron Brigade (Meredith)" id="move-' not in page  # defenders: none
    assert "Maneuver roll for Archer" in page and "Still to do before moving on" not in page
    advance(game, None, "test")  # no roll is required work
    assert fresh(game).step == "skirmish"


def test_a_destroyed_brigade_has_no_card(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(demo, archer, destroyed=True)
    assert f'id="move-unit{archer.pk}"' not in text(client.get(f"/games/{game.pk}/"))


# --- 1. the maneuver roll -----------------------------------------------------------------------------------


def test_a_typed_roll_over_htmx_derives_the_modifiers_and_says_the_actions_plainly(client, demo):
    brock = brigade(demo, "Brockenbrough's Brigade")  # green; Heth is E1
    game = at_move(demo)
    version = game.version
    response = roll_post(client, game, brock, die="3")
    body = text(response)
    assert response.status_code == 200 and body.lstrip().startswith('<div id="live"') and "<html" not in body
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
    assert "hors de combat: his class adds nothing" in text(client.get(f"/games/{game.pk}/"))
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
    assert "Maneuver roll for Archer" in text(client.get(f"/games/{game.pk}/"))
    roll_post(client, fresh(game), archer, die="10")
    assert Event.objects.filter(game=game, kind="ManeuverRolled", undone_by__isnull=True).count() == 1
    assert state_matches_events(game)


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
        ({"die": ""}, "Type the die (1-10) or press Roll for me."),
        ({"die": "six"}, "Type the number on the die"),
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
    assert "Select a valid choice" in text(response)
    assert not Event.objects.filter(game=game, kind="ManeuverRolled").exists()


def test_a_stale_roll_changes_nothing(client, demo):
    archer, davis = brigade(demo, "Archer's Brigade"), brigade(demo, "Davis's Brigade")
    game = at_move(demo)
    old = game.version
    roll_post(client, game, archer, die="5")
    response = roll_post(client, fresh(game), davis, die="5", version=old)
    assert "The game moved on since this page was drawn" in text(response)
    assert Event.objects.filter(game=game, kind="ManeuverRolled").count() == 1


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


# --- 2. the movement allowance ------------------------------------------------------------------------------


def test_the_allowance_with_the_charge_bonus_over_htmx_records_nothing(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    version, events = game.version, Event.objects.filter(game=game).count()
    response = move_post(
        client, game, archer, charge_bonus="on", formation_changes="1", terrain_within=["medium_forest"]
    )
    card = card_of(text(response), archer)
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
    assert "provenance-provisional" in card and "Battery damage: 25%" in card
    assert "Used charge bonus" not in card and "may not use the assault move bonus" in card


def test_the_allowance_counts_this_turns_formation_changes(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    formation_post(client, game, archer, "single_line")
    card = card_of(text(client.get(f"/games/{game.pk}/")), archer)
    assert re.search(r'name="move-unit:\d+-formation_changes" value="1"', card)


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
    assert "No maneuver roll this turn" in card_of(text(client.get(f"/games/{game.pk}/")), archer)
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
    response = client.post(f"/games/{game.pk}/maneuver/charge/{archer.pk}/", {}, **HTMX)
    assert "The form was incomplete" in text(response)
    archer.refresh_from_db()
    assert not archer.charge_bonus_used and fresh(game).version == version
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    assert charge_post(client, game, brigade(other, "Archer's Brigade")).status_code == 404


def test_batteries_offer_no_charge_bonus(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    card = card_of(text(client.get(f"/games/{game.pk}/")), garnett)
    assert "/maneuver/charge/" not in card and "Artillery may not use the assault move bonus (3.1)" in card


# --- 4. formation and skirmishers ---------------------------------------------------------------------------


def test_a_formation_change_is_an_event_and_undoes(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    response = formation_post(client, game, archer, "brigade_column")
    assert "changes formation: two line → brigade column" in text(response)
    archer.refresh_from_db()
    assert archer.formation == "brigade_column"
    assert formation_post(client, fresh(game), archer, "single_line", htmx=False).status_code == 302
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    archer.refresh_from_db()
    assert archer.formation == "brigade_column"
    assert state_matches_events(game)


@pytest.mark.parametrize(
    ("state", "formation", "message"),
    [
        ({"m_hits": 1}, "single_line", "Unformed: may not change formation (2.3)"),
        ({"m_hits": 3}, "single_line", "Shaken: may not change formation (2.3)"),
        ({"grade": "untrained"}, "open_order", "Untrained: may not use open order"),
        ({}, "two_line", "is already in two line"),
        ({}, "wedge", "Select a valid choice"),
    ],
)
def test_a_formation_change_the_rules_forbid_is_refused_with_the_reason(client, demo, state, formation, message):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    if state:
        set_state(demo, archer, **state)
    version = fresh(game).version
    response = formation_post(client, game, archer, formation)
    assert message in text(response)
    archer.refresh_from_db()
    assert archer.formation == "two_line" and fresh(game).version == version


def test_an_unformed_brigade_shows_why_it_has_no_formation_form(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(demo, archer, m_hits=1)
    card = card_of(text(client.get(f"/games/{game.pk}/")), archer)
    assert "Unformed: may not change formation (2.3)" in card and "/maneuver/formation/" not in card


def test_a_stale_formation_change_changes_nothing(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    response = formation_post(client, game, archer, "single_line", version=game.version - 1)
    assert "The game moved on" in text(response)
    archer.refresh_from_db()
    assert archer.formation == "two_line"


def test_skirmishers_deploy_and_recall_within_the_allowance(client, demo):
    davis = brigade(demo, "Davis's Brigade")  # 2 skirmishers
    game = at_move(demo)
    response = skirmish_post(client, game, davis, "2")
    assert "deploys skirmishers: 0 → 2 of 2" in text(response)
    assert skirmish_post(client, fresh(game), davis, "1", htmx=False).status_code == 302
    davis.refresh_from_db()
    assert davis.skirmishers_deployed == 1
    assert [e.kind for e in Event.objects.filter(game=game).order_by("-seq")[:2]] == ["SkirmishersDeployed"] * 2
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    davis.refresh_from_db()
    assert davis.skirmishers_deployed == 2
    assert state_matches_events(game)


@pytest.mark.parametrize(
    ("state", "deployed", "message"),
    [
        ({}, "3", "At most 2 for this brigade."),
        ({}, "-1", "0 or more."),
        ({}, "", "Type how many are deployed"),
        ({"m_hits": 2}, "1", "Rattled: may not deploy skirmishers (2.3); it may recall them"),
        ({"grade": "untrained"}, "1", "Untrained: no skirmishers"),
    ],
)
def test_skirmishers_the_rules_forbid_are_refused_with_the_reason(client, demo, state, deployed, message):
    davis = brigade(demo, "Davis's Brigade")
    game = at_move(demo)
    if state:
        set_state(demo, davis, **state)
    version = fresh(game).version
    response = skirmish_post(client, game, davis, deployed)
    assert message in text(response)
    davis.refresh_from_db()
    assert davis.skirmishers_deployed == 0 and fresh(game).version == version


def test_a_rattled_brigade_may_still_recall_and_open_order_deploys_one_per_base(client, demo):
    davis = brigade(demo, "Davis's Brigade")  # 8 bases
    game = at_move(demo)
    set_state(demo, davis, skirmishers_deployed=2, m_hits=2)
    skirmish_post(client, game, davis, "0")
    davis.refresh_from_db()
    assert davis.skirmishers_deployed == 0
    set_state(game, davis, m_hits=0)
    formation_post(client, fresh(game), davis, "open_order")
    skirmish_post(client, fresh(game), davis, "8")
    davis.refresh_from_db()
    assert (davis.formation, davis.skirmishers_deployed) == ("open_order", 8)
    response = formation_post(client, fresh(game), davis, "two_line")
    assert "recall skirmishers to 2 first" in text(response)


# --- 5. battery functions -----------------------------------------------------------------------------------


def test_a_foot_battery_limbers_and_moves_and_loses_its_saved_fire(client, demo):
    garnett = battery(demo, "Garnett's Battalion")  # foot, unlimbered
    game = at_move(demo)
    set_state(demo, garnett, saved_fire=True)
    response = functions_post(client, game, garnett, "limber", "move")
    assert "limber, move (2 of 2 functions); now limbered; saved fire lost" in text(response)
    garnett.refresh_from_db()
    assert (garnett.functions_used, garnett.limbered, garnett.saved_fire) == (["limber", "move"], True, False)
    assert "No functions left this turn" in card_of(text(client.get(f"/games/{game.pk}/")), garnett)
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    garnett.refresh_from_db()
    assert (garnett.functions_used, garnett.limbered, garnett.saved_fire) == ([], False, True)
    assert state_matches_events(game)


def test_functions_add_up_over_the_turn_by_plain_post(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    assert functions_post(client, game, garnett, "limber", htmx=False).status_code == 302
    response = functions_post(client, fresh(game), garnett, "limber")
    assert "a battery may not limber twice in a turn (3.5)" in text(response)
    functions_post(client, fresh(game), garnett, "move")
    garnett.refresh_from_db()
    assert garnett.functions_used == ["limber", "move"] and garnett.limbered


def test_a_horse_battery_may_move_unlimber_and_fire(client, demo):
    pegram = battery(demo, "Pegram's Battalion (rifles)")
    game = at_move(demo)
    set_state(demo, pegram, horse=True, limbered=True)
    functions_post(client, game, pegram, "move", "unlimber", will_fire="on")
    pegram.refresh_from_db()
    assert pegram.functions_used == ["move", "unlimber"] and not pegram.limbered
    event = Event.objects.get(game=game, kind="BatteryFunctionsUsed")
    assert [f.value for f in payload(event).inputs.functions] == ["move", "unlimber", "fire"]
    assert "one kept to fire" in summary(event)


@pytest.mark.parametrize(
    ("state", "functions", "flags", "message"),
    [
        ({}, ("move",), {}, "the battery is unlimbered; it must limber before it can move (3.5)"),
        (
            {"limbered": True},
            ("move", "unlimber"),
            {"will_fire": "on"},
            "foot artillery has 2 functions a turn; fire would be one more (3.5)",
        ),
        ({"limbered": True}, ("move", "move"), {}, "a battery may not move twice in a turn (3.5)"),
        ({"limbered": True, "m_hits": 4}, ("unlimber",), {}, "a demoralized battery may not unlimber (2.3)"),
        ({"m_hits": 3}, ("prolong",), {"toward_enemy": "on"}, "a shaken battery will not prolong toward an enemy"),
        ({}, (), {}, "Choose the function(s) the battery used."),
        ({}, ("fire",), {}, "Select a valid choice"),
    ],
)
def test_battery_functions_the_rules_forbid_are_refused(client, demo, state, functions, flags, message):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    if state:
        set_state(demo, garnett, **state)
    version = fresh(game).version
    response = functions_post(client, game, garnett, *functions, **flags)
    assert message in text(response)
    garnett.refresh_from_db()
    assert garnett.functions_used == [] and fresh(game).version == version


def test_a_refused_function_is_shown_at_its_own_field(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    set_state(demo, garnett, limbered=True)
    body = card_of(text(functions_post(client, game, garnett, "move", "move")), garnett)
    second = body.index(f'id="div_id_functions-unit:{garnett.pk}-function_2"')
    assert body.index("may not move twice") > second


def test_stale_and_foreign_battery_posts_change_nothing(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    response = functions_post(client, game, garnett, "limber", version=game.version - 1)
    assert "The game moved on" in text(response)
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    assert functions_post(client, game, battery(other, "Garnett's Battalion"), "limber").status_code == 404
    garnett.refresh_from_db()
    assert garnett.functions_used == []
