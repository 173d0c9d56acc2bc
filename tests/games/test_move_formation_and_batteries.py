"""The attacker's move step at the table, formation, skirmishers (2.3) and battery functions (3.5): each change an
event that undoes, refused with the rules' reason when they forbid it; stale and foreign forms."""

import re

import pytest

from republic.games.models import Event
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import HTMX, battery, brigade, fresh, payload, set_state, state_matches_events, summary
from tests.games.move_helpers import at_move, card_of, formation_post, functions_post, opened_page, skirmish_post, text

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
    card = card_of(opened_page(client, game, archer), archer)
    assert "Unformed: may not change formation (2.3)" in card and "/act/formation/" not in card


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


def counts_of(card: str, unit) -> list[tuple[str, bool]]:
    """The skirmish markers' counts the card offers as buttons, each with whether it is the one out now."""
    name = f"skirmishers-{unit.piece.name}-deployed"
    found = re.findall(rf'<button class="die-face" name="{name}" value="(\d+)"( aria-pressed="true" disabled)?>', card)
    return [(value, bool(pressed)) for value, pressed in found]


def test_the_markers_out_are_a_count_tapped_once_the_one_out_now_pressed(client, demo):
    davis = brigade(demo, "Davis's Brigade")  # 2 skirmishers
    game = at_move(demo)
    card = card_of(opened_page(client, game, davis), davis)
    assert counts_of(card, davis) == [("0", True), ("1", False), ("2", False)]
    assert "Set skirmishers" not in card  # one tap: the count is the button
    skirmish_post(client, game, davis, "2")
    card = card_of(opened_page(client, fresh(game), davis), davis)
    assert counts_of(card, davis) == [("0", False), ("1", False), ("2", True)]
    set_state(demo, davis, m_hits=2)  # rattled: it may only recall them
    card = card_of(opened_page(client, fresh(game), davis), davis)
    assert counts_of(card, davis) == [("0", False), ("1", False), ("2", True)]
    set_state(demo, davis, skirmishers_deployed=1)
    assert counts_of(card_of(opened_page(client, fresh(game), davis), davis), davis) == [("0", False), ("1", True)]


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
    assert "No functions left this turn" in card_of(opened_page(client, game, garnett), garnett)
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
    second = body.index(f'id="div_id_functions-unit-{garnett.pk}-function_2"')
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
