"""Declaring an assault at the table (5.1-5.3): the units each side may commit, the primary defender first,
htmx and plain POST, bad and stale declarations, a unit in one open assault at a time; and the column a round is
read on, from cover and open order or as the table names it."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from republic.games.events.assault import AssaultDeclared
from republic.games.events.game import CorrectionMade, FieldValue
from republic.games.ledger import act
from republic.games.models import Event, Unit
from republic.games.readings import readings
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.assaults.state import choosable
from republic.rules.results import Modifier
from republic.scenarios import DEMO_SCENARIO
from tests.club_battle import club_scenario
from tests.games.assault_helpers import (
    assault_page,
    declare,
    declare_data,
    declared,
    end,
    last_payload,
    post_round,
    units,
)
from tests.games.conftest import (
    HTMX,
    at_step,
    battery,
    brigade,
    division,
    fresh,
    payload,
    rolled_for_assault,
    set_state,
    slot,
    state_matches_events,
    summary,
)

# --- declaring ------------------------------------------------------------------------------------------


def picker(page: str, name: str) -> str:
    return re.search(rf'<fieldset class="pick[^"]*" data-pick="{name}".*?</fieldset>', page, re.S).group(0)


def offered(page: str, side: str) -> list[str]:
    """The names of the units a side's picker of the declaration offers, as their labels start."""
    return re.findall(r'<div class="pick-item"><label><input type="checkbox"[^>]*>([^<]*)', picker(page, side))


def not_offered(page: str, side: str) -> str:
    found = re.search(r'<details class="pick-not.*?</details>', picker(page, side), re.S)
    return found.group(0) if found else ""


def test_the_step_offers_every_free_unit_of_each_side_to_declare_by_a_tap(client, game):
    page = assault_page(client, game)
    assert "Declare an assault" in page and "No assault declared yet" in page
    # each side's units in play, each a check box of its own: no name is typed, no empty places are drawn
    attackers, defenders = offered(page, "declare-attackers"), offered(page, "declare-defenders")
    assert "Davis&#x27;s Brigade" in attackers and "Archer&#x27;s Brigade" in attackers
    assert "Pegram&#x27;s Battalion (rifles)" in attackers  # a battery joins an assault: no roll of its own
    assert "Iron Brigade (Meredith)" in defenders and "2nd U.S., Battery A (Calef)" in defenders
    assert not set(attackers) & set(defenders)
    assert "<input list=" not in page and "<datalist" not in page and 'name="declare-a1"' not in page
    assert "Not yet" not in client.post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX).content.decode()


def test_a_unit_is_chosen_by_tap_whatever_the_apostrophe_a_phone_would_have_typed(client, game):
    """A phone's keyboard types a curly apostrophe: "Archer’s Brigade" was refused as a typed name. Chosen by tap,
    the key is sent; a name an older page sends is taken with either apostrophe."""
    archer, cutler = brigade(game, "Archer's Brigade"), brigade(game, "Cutler's Brigade")
    data = declare_data(game, [(archer, "all_out")], [(cutler, "general")])
    data["declare-attackers"] = ["Archer\u2019s Brigade"]
    response = client.post(f"/games/{game.pk}/act/declare-assault/game-{game.pk}/", data, **HTMX)
    assert response.status_code == 200
    declaration: AssaultDeclared = payload(Event.objects.get(game=game, kind="AssaultDeclared"))
    assert [(a.unit, a.contact) for a in declaration.attackers] == [(archer.key, "all_out")]
    assert [(d.unit, d.contact) for d in declaration.defenders] == [(cutler.key, "general")]


def readings_of_sides(queries: CaptureQueriesContext) -> int:
    """The queries that read units as a list to choose from shows them: each names the unit's division."""
    return sum('AS "division__name"' in q["sql"] for q in queries.captured_queries)


def test_the_declaration_reads_both_sides_units_once_and_declaring_reads_them_once(client, game):
    """A club battle's declaration lists each side's 500 units: they are read once for both pickers, and a
    declaration, which changes no unit, is checked and answered with one reading of them."""
    with CaptureQueriesContext(connection) as queries:
        drawn = client.get(f"/games/{game.pk}/parts/declare-assault/", **HTMX).content.decode()
    assert readings_of_sides(queries) == 1
    assert "Davis&#x27;s Brigade" in offered(drawn, "declare-attackers")
    assert "Iron Brigade (Meredith)" in offered(drawn, "declare-defenders")
    davis, iron = units(game, "Davis's Brigade", "Iron Brigade (Meredith)")
    with CaptureQueriesContext(connection) as queries:
        answer = declare(client, game, [(davis, "all_out")], [(iron, "general")]).content.decode()
    assert readings_of_sides(queries) == 1
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 1
    assert "Iron Brigade (Meredith)" in answer and "Davis&#x27;s Brigade" in answer


def test_the_units_to_choose_are_read_again_after_an_action_that_corrects_a_division(game):
    """The reading of each side's units names their divisions: it outlives an action that changes no unit only if
    that action changes no division either."""
    heth = division(game, "Heth's Division")
    with readings():
        before = choosable(fresh(game))
        assert before is choosable(fresh(game))
        renamed = "Heth's Light Division"
        with act(game, fresh(game).version, "test") as action:
            action.set(heth, "name", renamed)
            action.record(CorrectionMade(heth.piece.key, heth.name, None, (FieldValue("name", renamed),)))
        after = choosable(fresh(game))
    davis = next(u for side in after.values() for u in side.units if u.name == "Davis's Brigade")
    assert after is not before and davis.division_name == renamed


def test_a_contact_ticked_general_for_a_unit_not_offered_is_refused_and_changes_nothing(client, game):
    davis, iron = units(game, "Davis's Brigade", "Iron Brigade (Meredith)")
    data = declare_data(game, [(davis, "all_out")], [(iron, "all_out")])
    data["declare-general"] = ["unit:999999"]
    answer = client.post(f"/games/{game.pk}/act/declare-assault/game-{game.pk}/", data, **HTMX).content.decode()
    assert "That unit ticked general is not one to choose here" in answer
    assert not Event.objects.filter(game=game, kind="AssaultDeclared").exists()


def test_the_step_reads_the_leaders_only_to_draw_or_fight_a_round(client, game):
    with CaptureQueriesContext(connection) as queries:
        assault_page(client, game)
    assert not any("games_leader" in q["sql"] for q in queries.captured_queries)
    davis, iron = units(game, "Davis's Brigade", "Iron Brigade (Meredith)")
    declare(client, game, [(davis, "all_out")], [(iron, "general")])
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/games/{game.pk}/").content.decode()
    # a declared assault's row is drawn closed: its round form, with the leaders to pick, opens on tap
    assert "Iron Brigade (Meredith)" in page and "E or P leaders within 2" not in page
    assert not any("games_leader" in q["sql"] for q in queries.captured_queries)
    with CaptureQueriesContext(connection) as queries:
        opened = assault_page(client, game)
    assert "E or P leaders within 2" in opened and any("games_leader" in q["sql"] for q in queries.captured_queries)


def test_declaring_over_htmx_records_the_assault_with_the_primary_defender_first(client, game):
    davis, archer, iron, cutler = units(
        game, "Davis's Brigade", "Archer's Brigade", "Iron Brigade (Meredith)", "Cutler's Brigade"
    )
    response = declare(
        client,
        game,
        [(davis, "all_out"), (archer, "general")],
        [(iron, "general"), (cutler, "all_out")],
        primary=cutler,
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="live"') and "<html" not in body
    event = Event.objects.get(game=game, kind="AssaultDeclared")
    declaration: AssaultDeclared = payload(event)
    assert [d.unit for d in declaration.defenders] == [cutler.key, iron.key]
    assert [(a.unit, a.contact) for a in declaration.attackers] == [(archer.key, "general"), (davis.key, "all_out")]
    assert event.changes == [] and "Assault 1 declared" in summary(event)
    assert "Assault 1 · round 1" in body
    assert 'aria-label="Round 1 of assault 1"' in body  # the new assault's card is drawn open at its first round
    assert body.count('aria-label="Round 1 of assault') == 1
    assert "finish assault 1" in body  # pending
    response = client.post(f"/games/{game.pk}/next/", {"version": event.seq}, **HTMX)
    assert "Not yet: finish assault 1" in response.content.decode()
    game.refresh_from_db()
    assert game.step == "assaults"
    assert state_matches_events(game)


def test_declaring_by_plain_post_redirects_to_the_game_page(client, game, two):
    davis, cutler = two
    response = declare(client, game, [(davis, "all_out")], [(cutler, "all_out")], htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 1


@pytest.mark.parametrize(
    ("attackers", "defenders", "primary", "message"),
    [
        ([], [("Cutler's Brigade", "all_out")], None, "Choose at least one attacking unit"),
        ([("Davis's Brigade", "all_out")], [], None, "Choose at least one defending unit"),
        (
            [("Garnett's Battalion", "general")],
            [("Cutler's Brigade", "all_out")],
            None,
            "Artillery alone does not initiate an assault",
        ),
        (
            [("Davis's Brigade", "all_out")],
            [("Cutler's Brigade", "all_out"), ("Iron Brigade (Meredith)", "general")],
            None,
            "Choose the primary defender",
        ),
        (
            [("Davis's Brigade", "all_out")],
            [("Cutler's Brigade", "all_out")],
            "Iron Brigade (Meredith)",
            "The primary defender must be one of the defending units",
        ),
        (
            [("Cutler's Brigade", "all_out")],
            [("Davis's Brigade", "all_out")],
            None,
            "That attacking unit is not one to choose here",  # a unit of the other side
        ),
    ],
)
def test_a_bad_declaration_is_refused_with_a_message_and_changes_nothing(
    client, game, attackers, defenders, primary, message
):
    version = game.version
    attackers = [(brigade(game, name), contact) for name, contact in attackers]
    defenders = [(brigade(game, name), contact) for name, contact in defenders]
    primary = brigade(game, primary) if primary else None
    response = declare(client, game, attackers, defenders, primary)
    assert response.status_code == 200
    assert message in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_a_unit_may_not_be_in_two_open_assaults_but_may_join_a_new_one_once_its_assault_ended(client, game, two):
    davis, cutler = two
    iron = brigade(game, "Iron Brigade (Meredith)")
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    page = assault_page(client, game)
    # a busy attacker is offered only to split a bridging formation (5.2); a busy defender is not offered, and why
    assert "Davis&#x27;s Brigade" in offered(page, "declare-attackers")
    assert "in open assault 1: only to split a bridging formation (5.2)" in picker(page, "declare-attackers")
    assert "Cutler&#x27;s Brigade" not in offered(page, "declare-defenders")
    assert "Already in open assault 1</strong>: Cutler&#x27;s Brigade" in not_offered(page, "declare-defenders")
    version = game.version
    response = declare(client, game, [(davis, "all_out")], [(iron, "all_out")])
    assert "already in open assault 1" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version
    end(client, game, seq)
    response = declare(client, game, [(davis, "all_out")], [(iron, "all_out")])
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 2
    assert "Assault 2 · round 1" in response.content.decode()


def test_a_unit_of_another_game_is_refused_and_nothing_is_written(client, game, two):
    davis, cutler = two
    other = at_step(
        rolled_for_assault(create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))), "assaults"
    )
    theirs = brigade(other, "Cutler's Brigade")
    version = fresh(game).version
    data = declare_data(game, [(davis, "all_out")], [(cutler, "all_out")])
    data["declare-defenders"] = [theirs.key]
    body = client.post(f"/games/{game.pk}/act/declare-assault/game-{game.pk}/", data, **HTMX).content.decode()
    assert "That defending unit is not one to choose here: choose one from the list." in body
    assert fresh(game).version == version and not Event.objects.filter(kind="AssaultDeclared").exists()


def test_a_stale_declaration_changes_nothing(client, game, two):
    davis, cutler = two
    old = game.version
    set_state(game, davis, m_hits=1)
    response = declare(client, game, [(davis, "all_out")], [(cutler, "all_out")], version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="AssaultDeclared").exists()


def test_declaring_outside_the_assault_step_is_refused(client, demo):
    davis, cutler = brigade(demo, "Davis's Brigade"), brigade(demo, "Cutler's Brigade")
    response = declare(client, demo, [(davis, "all_out")], [(cutler, "all_out")])
    assert "Assaults are declared in the assault step" in response.content.decode()
    assert not Event.objects.filter(game=demo, kind="AssaultDeclared").exists()


# --- the column (5.2, 5.3) ------------------------------------------------------------------------------


def test_the_column_is_shown_with_its_reasons_and_read_again_for_the_table_s_cover(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    page = assault_page(client, game)
    assert "Column: Pitched Battle" in page and "no advantage either way" in page
    preview = client.get(
        f"/games/{game.pk}/assault/{seq}/column/", {f"round-assault-{seq}-cover-{slot(cutler)}": "medium"}, **HTMX
    ).content.decode()
    assert "Column: Defender Advantage" in preview
    assert "troops in the open assaulting troops in cover" in preview
    preview = client.get(
        f"/games/{game.pk}/assault/{seq}/column/",
        {f"round-assault-{seq}-cover-{slot(cutler)}": "medium", f"round-assault-{seq}-column": "attacker_advantage"},
    ).content.decode()
    assert "Column: Attacker Advantage" in preview and "the rules give Defender Advantage" in preview
    assert client.get(f"/games/{game.pk}/assault/9999/column/").status_code == 404


@pytest.mark.parametrize("bases", ["²", "٣", "99999999999999999999", "-1", "x"])
def test_the_column_preview_reads_bases_as_typed_and_leaves_out_what_is_no_count(client, game, two, bases):
    # the preview follows the round form as it is typed: a count it cannot read is as if not typed yet
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    query = {f"round-assault-{seq}-bases-{slot(davis)}": bases}
    response = client.get(f"/games/{game.pk}/assault/{seq}/column/", query, **HTMX)
    assert response.status_code == 200 and "Column: Pitched Battle" in response.content.decode()


def test_open_order_from_the_state_decides_the_column(client, game, two):
    davis, cutler = two
    set_state(game, cutler, formation="open_order")
    declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    page = assault_page(client, game)
    assert "Column: Attacker Advantage" in page and "open-order defender" in page


def test_a_round_reads_the_column_from_the_cover_or_the_one_the_table_names(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="5", die2="5", cover={cutler: "medium"})
    p = last_payload(game)
    assert p.result.column == "defender_advantage"
    assert p.conditions.cover_of(cutler.key) == "medium"
    assert Modifier("defender: cover points: medium (greatest share of bases)", 2, "5.2, 5.4") in p.result.modifiers
    post_round(client, game, seq, die="5", die2="5", cover={cutler: "medium"}, column="attacker_advantage")
    p = last_payload(game)
    assert p.result.column == "attacker_advantage"
    assert p.conditions.rules_column == "defender_advantage"
    assert "column named by the table: Attacker Advantage" in p.result.notes


# --- who may initiate an assault (3.2, 2.3) --------------------------------------------------------------


def test_a_brigade_without_a_roll_allowing_an_assault_is_refused_at_its_name(client, demo):
    """R:631-635: a brigade that did not roll high enough for Assault "may not voluntarily initiate assaults".
    Archer rolled and may; Davis has no roll this turn."""
    davis, archer, cutler = (
        brigade(demo, "Davis's Brigade"),
        brigade(demo, "Archer's Brigade"),
        brigade(demo, "Cutler's Brigade"),
    )
    game = at_step(rolled_for_assault(demo, [archer]), "assaults")
    page = assault_page(client, game)
    assert "Davis&#x27;s Brigade" not in offered(page, "declare-attackers")
    assert "Archer&#x27;s Brigade" in offered(page, "declare-attackers")
    refused = not_offered(page, "declare-attackers")
    assert "<summary>Not offered (" in refused
    assert "No maneuver roll this turn: a brigade that has not rolled may not initiate an assault" in refused
    assert "Davis&#x27;s Brigade" in refused
    response = declare(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    body = response.content.decode()
    assert "Davis&#x27;s Brigade may not assault: no maneuver roll this turn" in body and "R:631-635" in body
    assert not Event.objects.filter(game=game, kind="AssaultDeclared").exists()
    declared(client, game, [(archer, "all_out")], [(cutler, "all_out")])
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 1


def test_a_rattled_brigade_does_not_assault_artillery(client, game):
    """R:494-502: "Rattled - ... Infantry will not assault artillery.\""""
    davis, cutler = brigade(game, "Davis's Brigade"), brigade(game, "Cutler's Brigade")
    hall = battery(game, "2nd Maine Light, Battery B (Hall)")
    set_state(game, davis, m_hits=2)
    body = declare(client, game, [(davis, "all_out")], [(cutler, "all_out"), (hall, "general")], primary=cutler)
    assert "Davis&#x27;s Brigade may not assault: Rattled: infantry will not assault artillery (2.3)" in (
        body.content.decode()
    )
    assert not Event.objects.filter(game=game, kind="AssaultDeclared").exists()
    declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])  # infantry alone it may assault


def test_a_club_battles_grouped_lists_draw_a_units_contact_once_it_is_chosen(client, db):
    """A 1,000-unit battle lists 500 defenders: each one's contact and primary defender choices are drawn once it
    is chosen (a script draws them as it is ticked, from the picker's one template), and a declaration sent back
    for its primary defender draws them for the defenders chosen."""
    game = create_game(parse_scenario(club_scenario(60)))
    attacker = Unit.objects.filter(game=game, division__side=game.attacker, kind="infantry").order_by("pk").first()
    game = at_step(rolled_for_assault(game, [attacker]), "assaults")
    defending = picker(assault_page(client, game), "declare-defenders")
    assert 'class="pick-group"' in defending and defending.count("<template") == 1
    assert defending.count('class="pick-aside"') == 2  # the template's two choices, and no unit's
    first, second = Unit.objects.filter(game=game, division__side=game.defender).order_by("pk")[:2]
    refused = declare(client, game, [(attacker, "all_out")], [(first, "all_out"), (second, "general")]).content
    assert "Choose the primary defender" in refused.decode()
    defending = picker(refused.decode(), "declare-defenders")
    for unit in (first, second):
        item = re.search(rf'<div class="pick-item"><label><input[^>]*value="{unit.key}".*?</div>', defending).group(0)
        assert (
            f'name="declare-general" value="{unit.key}"' in item
            and f'name="declare-primary" value="{unit.key}"' in item
        )
    assert f'name="declare-general" value="{second.key}" checked' in defending
