"""The assault step at the table (5.1-5.5): declaring, the column, rounds written onto the units, follow-up rounds
and ending, the players' printed chart, htmx and plain POST, bad input, undo."""

import pytest

from republic.games.events import AssaultDeclared, AssaultEnded, AssaultRoundResolved
from republic.games.models import Command, Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.games.text.rounds import round_orders
from republic.rules.assault_table import AssaultOutcome
from republic.rules.dice import RollSource
from republic.rules.results import Modifier
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import battery, brigade, payload, set_state, state_matches_events, summary

HTMX = {"HTTP_HX_REQUEST": "true"}


# --- helpers --------------------------------------------------------------------------------------------


def slot(unit: Unit) -> str:
    return unit.slot


def at(game: Game, step: str) -> Game:
    set_state(game, game, step=step)
    game.refresh_from_db()
    assert game.step == step
    return game


def units(game: Game, *names: str) -> list[Unit]:
    return [brigade(game, name) for name in names]


def declare_data(game, attackers, defenders, primary=None, version=None) -> dict:
    game.refresh_from_db()
    data = {"declare-version": game.version if version is None else version}
    for unit, contact in attackers:
        data[f"declare-a-{slot(unit)}"] = contact
    for unit, contact in defenders:
        data[f"declare-d-{slot(unit)}"] = contact
    if primary is not None:
        data["declare-primary"] = slot(primary)
    return data


def declare(client, game, attackers, defenders, primary=None, htmx=True, version=None):
    data = declare_data(game, attackers, defenders, primary, version)
    return client.post(f"/games/{game.pk}/assault/declare/", data, **(HTMX if htmx else {}))


def declared(client, game, attackers, defenders, primary=None) -> int:
    response = declare(client, game, attackers, defenders, primary)
    assert response.status_code == 200
    game.refresh_from_db()
    return Event.objects.filter(game=game, kind="AssaultDeclared").last().seq


def round_data(game, seq, die="5", die2="5", roll="typed", version=None, cover=None, struck="front", **extra):
    game.refresh_from_db()
    prefix = f"round-{seq}"
    declaration: AssaultDeclared = payload(Event.objects.get(game=game, seq=seq))
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-die2": die2,
        f"{prefix}-struck": struck,
        "roll": roll,
    }
    for member in (*declaration.attackers, *declaration.defenders):
        data[f"{prefix}-cover-{member.unit.replace(':', '_')}"] = "none"
    for unit, value in (cover or {}).items():
        data[f"{prefix}-cover-{slot(unit)}"] = value
    for name, value in extra.items():
        data[f"{prefix}-{name}"] = value
    return data


def post_round(client, game, seq, htmx=True, **kwargs):
    data = round_data(game, seq, **kwargs)
    response = client.post(f"/games/{game.pk}/assault/{seq}/round/", data, **(HTMX if htmx else {}))
    game.refresh_from_db()
    return response


def last_round(game) -> Event:
    return Event.objects.filter(game=game, kind="AssaultRoundResolved").last()


def last_payload(game) -> AssaultRoundResolved:
    return payload(last_round(game))


def end(client, game, seq, htmx=True, version=None):
    game.refresh_from_db()
    return client.post(
        f"/games/{game.pk}/assault/{seq}/end/",
        {"version": game.version if version is None else version},
        **(HTMX if htmx else {}),
    )


def fresh(unit):
    unit.refresh_from_db()
    return unit


def outcome(o: AssaultOutcome) -> dict:
    return {"to": o.to.value, "hits": str(o.hits), "action": o.action.value}


@pytest.fixture
def game(demo) -> Game:
    return at(demo, "assaults")


@pytest.fixture
def two(game):
    """Davis's Brigade (average, 8 bases) against Cutler's Brigade (veteran, 7 bases)."""
    return brigade(game, "Davis's Brigade"), brigade(game, "Cutler's Brigade")


# --- declaring ------------------------------------------------------------------------------------------


def test_the_step_offers_every_free_unit_of_each_side_to_declare(client, game):
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Declare an assault" in page and "No assault declared yet" in page
    davis, calef = brigade(game, "Davis's Brigade"), battery(game, "2nd U.S., Battery A (Calef)")
    assert f'name="declare-a-{slot(davis)}"' in page and f'name="declare-d-{slot(calef)}"' in page
    for name in (
        "Archer&#x27;s Brigade",
        "Pegram&#x27;s Battalion (rifles)",
        "Iron Brigade (Meredith)",
        "2nd U.S., Battery A (Calef)",
    ):
        assert name in page
    assert "Not yet" not in client.post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX).content.decode()


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
            "Name the primary defender",
        ),
        (
            [("Davis's Brigade", "all_out")],
            [("Cutler's Brigade", "all_out")],
            "Iron Brigade (Meredith)",
            "The primary defender must be one of the defending units",
        ),
        ([("Davis's Brigade", "sideways")], [("Cutler's Brigade", "all_out")], None, "Select a valid choice"),
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
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'name="declare-a-{slot(davis)}"' not in page  # busy units are not offered
    assert "In an open assault already: Cutler&#x27;s Brigade, Davis&#x27;s Brigade" in page
    version = game.version
    response = declare(client, game, [(davis, "all_out")], [(iron, "all_out")])
    assert "already in open assault 1" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version
    end(client, game, seq)
    response = declare(client, game, [(davis, "all_out")], [(iron, "all_out")])
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 2
    assert "Assault 2 · round 1" in response.content.decode()


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
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Column: Pitched Battle" in page and "no advantage either way" in page
    preview = client.get(
        f"/games/{game.pk}/assault/{seq}/column/", {f"round-{seq}-cover-{slot(cutler)}": "medium"}, **HTMX
    ).content.decode()
    assert "Column: Defender Advantage" in preview
    assert "troops in the open assaulting troops in cover" in preview
    preview = client.get(
        f"/games/{game.pk}/assault/{seq}/column/",
        {f"round-{seq}-cover-{slot(cutler)}": "medium", f"round-{seq}-column": "attacker_advantage"},
    ).content.decode()
    assert "Column: Attacker Advantage" in preview and "the rules give Defender Advantage" in preview
    assert client.get(f"/games/{game.pk}/assault/9999/column/").status_code == 404


def test_open_order_from_the_state_decides_the_column(client, game, two):
    davis, cutler = two
    set_state(game, cutler, formation="open_order")
    declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    page = client.get(f"/games/{game.pk}/").content.decode()
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


# --- a round --------------------------------------------------------------------------------------------


def test_a_round_over_htmx_applies_the_results_to_the_units_and_shows_the_moves(client, game, two):
    """Davis 10 against Cutler 2: modified 10 to 3 (+7, Pitched Battle): defender 3P 1B carry; Cutler also
    loses the natural roll by 8 (veteran, 3 points a hit: 3M) and the All Out Win/Win adds 1M."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    response = post_round(client, game, seq, die="10", die2="2")
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="live"')
    event = last_round(game)
    p: AssaultRoundResolved = payload(event)
    assert [(r.label, r.roll.faces, r.roll.source) for r in p.rolls()] == [
        ("attacker", (10,), "typed"),
        ("defender", (2,), "typed"),
    ]
    assert outcome(p.result.outcome) == {"to": "defender", "hits": "1B 3P", "action": "carry"}
    assert p.result.defender.natural_m == 3
    assert p.result.win_win is True
    unit = p.on_units.defender.units[0]
    cutler = fresh(cutler)
    assert (cutler.bases, cutler.base_hits_turn) == (unit.bases_after, 1) == (6, 1)
    assert cutler.m_hits == unit.m_after == 4
    assert cutler.p_hits_turn == unit.phase_panic_hits == 3
    assert cutler.forced_move == unit.move == "F"
    assert not cutler.retreated
    assert fresh(davis).m_hits == 0
    assert event.provisional and p.result.provisional  # the assault tables are provisional
    assert "Used a provisional chart cell" in body
    assert "Fall back: move 10&quot; away from the enemy, facing the enemy" in body
    assert "Defender: die 2, +1 troop grade: veteran (greatest share of bases) = <strong>3</strong>" in body
    assert "The attackers may carry the position" in body
    assert "Assault 1 · round 2" in body  # follow-up round offered
    assert "C&quot; bonus from the last round" in body
    assert state_matches_events(game)


def test_a_round_by_plain_post_redirects(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    response = post_round(client, game, seq, htmx=False, die="6", die2="6")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert last_round(game) is not None


def test_roll_for_me_rolls_both_dice_and_says_so(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="", die2="", roll="app")
    rolls = last_payload(game).rolls()
    assert [r.roll.source for r in rolls] == [RollSource.APP, RollSource.APP]
    assert all(1 <= r.roll.faces[0] <= 10 for r in rolls)
    assert state_matches_events(game)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("die", "0", "A d10 shows 1 to 10."),
        ("die", "11", "A d10 shows 1 to 10."),
        ("die2", "0", "A d10 shows 1 to 10."),
        ("die2", "11", "A d10 shows 1 to 10."),
        ("die", "", "Type the die (1-10) or press Roll for me."),
        ("die2", "six", "Type the number on the die"),
        ("struck", "sideways", "Select a valid choice"),
        ("printed", "defender 3Q carry", "Not an assault result"),
        ("printed", "attacker carry", "follows a defender loss"),
    ],
)
def test_bad_round_input_is_refused_at_the_field_and_changes_nothing(client, game, two, field, value, message):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    version = game.version
    kwargs = {"die": "5", "die2": "5", field: value}
    response = post_round(client, game, seq, **kwargs)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert game.version == version and fresh(cutler).m_hits == 0


def test_a_missing_cover_field_or_a_round_without_a_defender_is_refused(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    version = game.version
    data = round_data(game, seq)
    del data[f"round-{seq}-cover-{slot(cutler)}"]
    response = client.post(f"/games/{game.pk}/assault/{seq}/round/", data, **HTMX)
    assert "This field is required." in response.content.decode()
    response = post_round(client, game, seq, cover={cutler: "out"})
    assert "At least one defender unit must be in the round." in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_a_stale_round_changes_nothing(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    old = game.version
    post_round(client, game, seq, die="8", die2="3")
    response = post_round(client, game, seq, die="8", die2="3", version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert Event.objects.filter(game=game, kind="AssaultRoundResolved").count() == 1


def test_an_assault_of_another_game_or_no_assault_is_not_found(client, game):
    other = at(create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8"))), "assaults")
    theirs = declared(
        client,
        other,
        [(brigade(other, "Davis's Brigade"), "all_out")],
        [(brigade(other, "Cutler's Brigade"), "all_out")],
    )
    assert not Event.objects.filter(game=game, seq=theirs, kind="AssaultDeclared").exists()
    data = round_data(other, theirs)
    assert client.post(f"/games/{game.pk}/assault/{theirs}/round/", data).status_code == 404
    assert client.post(f"/games/{game.pk}/assault/{theirs}/end/", {"version": game.version}).status_code == 404
    assert client.post(f"/games/{game.pk}/assault/1/round/", data).status_code == 404  # event 1 is no assault


def test_the_state_fills_in_losses_panic_skirmishers_leaders_and_fresh_batteries(client, game, two):
    davis, cutler = two
    hall, calef = battery(game, "2nd Maine Light, Battery B (Hall)"), battery(game, "2nd U.S., Battery A (Calef)")
    set_state(game, davis, base_hits_turn=2, p_hits_turn=1, skirmishers_deployed=1)
    set_state(game, calef, fired_this_turn=True)
    seq = declared(
        client, game, [(davis, "all_out")], [(cutler, "all_out"), (hall, "general"), (calef, "general")], primary=cutler
    )
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "attacker: 8 bases, 2 lost this turn, worst P 1, skirmishers out 1/2" in page
    assert f'value="{slot(hall)}"  id="id_round-{seq}-fresh_0" checked' in page
    assert f'value="{slot(calef)}"  id="id_round-{seq}-fresh_1">' in page
    heth = game.leaders.get(name="Henry Heth")
    post_round(client, game, seq, die="5", die2="5", fresh=[slot(hall)], attacker_leaders=[str(heth.pk)])
    p = last_payload(game)
    attacker, defender = p.result.attacker.modifiers, p.result.defender.modifiers
    assert Modifier("each own base lost this player turn", -2, "5.4") in attacker
    assert Modifier("each P hit on the worst single unit this phase", -1, "5.4") in attacker
    assert Modifier("each 1/4 of available skirmishers deployed", -2, "5.4") in attacker
    assert Modifier('each E or P leader within 2"', 1, "5.4") in attacker
    assert Modifier("each fresh artillery battery (did not fire this turn)", 1, "5.4") in defender
    assert p.inputs.defender.fresh_batteries == 1


def test_saved_fire_gives_its_bonus_once_and_is_used_up(client, game, two):
    davis, cutler = two
    garnett = battery(game, "Garnett's Battalion")
    set_state(game, garnett, saved_fire=True)
    seq = declared(client, game, [(davis, "all_out"), (garnett, "general")], [(cutler, "all_out")])
    post_round(client, game, seq, die="5", die2="5")
    assert (
        Modifier("tactical bonus: each battery with saved fire", 1, "4.2")
        in last_payload(game).result.attacker.modifiers
    )
    assert fresh(garnett).saved_fire is False
    assert state_matches_events(game)


def test_an_all_out_win_win_carries_the_c_bonus_into_the_next_round(client, game, two):
    """Davis 7 against Cutler 4: 7 to 5 (+2, defender 1P) and the natural roll won by 3: Win/Win."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="7", die2="4")
    first = last_payload(game)
    assert first.result.next_round_tactical_bonus is True
    assert first.result.defender.all_out_extra_m == 1
    post_round(client, game, seq, die="5", die2="5")
    second = last_payload(game)
    assert second.round == 2 and second.inputs.attacker.tactical_bonus is True
    assert Modifier('tactical bonus "C" from an All Out win', 1, "5.1") in second.result.attacker.modifiers


def test_a_mixed_assault_keeps_the_extra_m_but_wins_no_c_bonus(client, game, two):
    davis, cutler = two
    archer = brigade(game, "Archer's Brigade")
    seq = declared(client, game, [(davis, "all_out"), (archer, "general")], [(cutler, "all_out")])
    post_round(client, game, seq, die="7", die2="3")
    p = last_payload(game)
    assert p.result.assault_type == "mixed" and p.result.win_win
    assert p.result.defender.all_out_extra_m == 1
    assert p.result.next_round_tactical_bonus is False


def test_a_general_assault_wins_no_c_bonus(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "general")], [(cutler, "all_out")])
    post_round(client, game, seq, die="7", die2="4")
    assert last_payload(game).result.next_round_tactical_bonus is False
    post_round(client, game, seq, die="5", die2="5")
    assert last_payload(game).inputs.attacker.tactical_bonus is False


def test_panic_4_marks_the_unit_and_its_division_and_a_must_breakthrough_uses_the_charge_bonus(client, game, two):
    """Davis 10 against a demoralized Cutler's 1: 10 to -2 (+12): defender 4P 2B must breakthrough."""
    davis, cutler = two
    set_state(game, cutler, m_hits=4)
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="1")
    assert last_payload(game).result.outcome.action == "must_breakthrough"
    cutler = fresh(cutler)
    assert cutler.p4_event and Command.objects.get(pk=cutler.division_id).p4_event
    assert cutler.forced_move == "Re" and cutler.retreated and cutler.bases == 5
    assert fresh(davis).charge_bonus_used
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Retreat: move 12&quot; away from the enemy, turning away from the enemy" in page
    assert "must break through" in page
    assert state_matches_events(game)


def test_a_break_off_costs_each_attacking_brigade_1m_unless_stalled(client, game, two):
    """Davis 3 against Cutler 5: 3 to 6 (-3 on Pitched Battle): attacker break off; Davis also loses the
    natural roll by 2 (average: 1M), then takes the break-off 1M."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="3", die2="5")
    p = last_payload(game)
    assert p.result.outcome.action == "break_off"
    assert fresh(davis).m_hits == 2 and p.on_units.broke_off[0].result.m_after == 2
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "The attackers broke off: contact has ended." in page
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    assert fresh(davis).m_hits == 0
    post_round(client, game, seq, die="3", die2="5", stalled="on")
    assert fresh(davis).m_hits == 1 and last_payload(game).on_units.broke_off == ()


def test_a_surrounded_unit_forced_back_surrenders(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="1", surrounded=[slot(cutler)])
    cutler = fresh(cutler)
    assert cutler.surrendered and cutler.bases == 0 and cutler.out_of_play
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "surrenders" in page
    assert "One side has no unit left in play: end this assault." not in page
    response = post_round(client, game, seq)
    assert "One side has no unit left in play: end this assault." in response.content.decode()


def test_a_battery_forced_back_limbers_or_is_abandoned(client, game, two):
    davis = two[0]
    hall = battery(game, "2nd Maine Light, Battery B (Hall)")
    seq = declared(client, game, [(davis, "all_out")], [(hall, "all_out")])
    post_round(client, game, seq, die="10", die2="1")
    loss = last_payload(game).on_units.defender.units[0]
    hall = fresh(hall)
    assert hall.damage == loss.damage_after and hall.limbered == loss.limbered_after
    assert hall.abandoned == loss.abandoned
    assert hall.forced_move == (loss.move or "")
    assert state_matches_events(game)


# --- the players' printed chart -------------------------------------------------------------------------


def test_the_printed_chart_outcome_is_applied_with_the_engine_s_natural_m(client, game, two):
    """Davis 5 against Cutler 4 reads 5 to 5, 'both 1M roll again' in the app; the table's printed chart says
    'defender 2P drive away'. The natural roll, won by the attacker by 1, still costs Cutler 1M."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="5", die2="4", printed="defender 2P drive away")
    event = last_round(game)
    p: AssaultRoundResolved = payload(event)
    assert event.printed_chart and not event.provisional
    assert outcome(p.app_outcome) == {"to": "both", "hits": "1M", "action": "roll_again"}  # the app's
    assert str(p.result.outcome) == "defender 2P drive away"
    assert p.conditions.printed == "defender 2P drive away"
    assert fresh(davis).m_hits == 0
    loss = p.on_units.defender.units[0]
    assert loss.m_taken == 2  # 1M natural + 1M All Out Win/Win, as the engine works them out
    assert fresh(cutler).p_hits_turn == 2
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "printed chart: defender 2P drive away" in page
    assert "Result read from the players&#x27; printed chart." in page


def test_a_printed_surrender_takes_the_side_s_units(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="6", die2="5", printed="defender surrender")
    cutler = fresh(cutler)
    assert cutler.surrendered and cutler.bases == 0 and cutler.base_hits_turn == 7
    assert round_orders(last_payload(game))[0]["text"] == "surrenders"
    assert state_matches_events(game)


# --- follow-up rounds and the end of an assault ---------------------------------------------------------


def test_rounds_follow_until_the_table_ends_contact(client, game, two):
    """5 to 5 on Pitched Battle: both 1M and roll again; then contact ends and Next step is free."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    response = post_round(client, game, seq, die="5", die2="4")
    assert last_payload(game).result.outcome.action == "roll_again"
    body = response.content.decode()
    assert "Roll again: resolve the next round." in body and "Assault 1 · round 2" in body
    assert "finish assault 1" in body
    post_round(client, game, seq, die="6", die2="6")
    assert last_payload(game).round == 2
    response = end(client, game, seq)
    ended = Event.objects.get(game=game, kind="AssaultEnded")
    over: AssaultEnded = payload(ended)
    assert (over.assault, over.rounds) == (seq, 2)
    assert "contact ended after 2 rounds" in summary(ended)
    body = response.content.decode()
    assert "Assaults over this turn" in body and "finish assault" not in body
    response = end(client, game, seq)
    assert "Assault 1 has already ended." in response.content.decode()
    response = post_round(client, game, seq)
    assert "Assault 1 has ended." in response.content.decode()
    advance(game, game.version, "test")
    game.refresh_from_db()
    assert game.step == "assault_hors_de_combat"
    assert state_matches_events(game)


def test_ending_by_plain_post_and_a_stale_end(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    old = game.version
    response = end(client, game, seq, htmx=False)
    assert response.status_code == 302
    assert "called off before any round" in summary(Event.objects.get(game=game, kind="AssaultEnded"))
    response = end(client, game, seq, version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = client.post(f"/games/{game.pk}/assault/{seq}/end/", {}, **HTMX)
    assert "The form was incomplete" in response.content.decode()
    assert Event.objects.filter(game=game, kind="AssaultEnded").count() == 1


def test_several_assaults_are_declared_and_resolved_one_after_another(client, game):
    davis, cutler, archer, iron = units(
        game, "Davis's Brigade", "Cutler's Brigade", "Archer's Brigade", "Iron Brigade (Meredith)"
    )
    first = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    second = declared(client, game, [(archer, "general")], [(iron, "all_out")])
    post_round(client, game, second, die="4", die2="4")
    assert last_payload(game).assault == second
    post_round(client, game, first, die="4", die2="4")
    assert last_payload(game).assault == first
    end(client, game, first)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "finish assault 2" in page and "finish assault 1" not in page


def test_a_large_assault_of_every_unit_on_the_table_is_declared_and_fought(client, game):
    """Nine units in one general assault: each of them is locked and written in one step, on either database."""
    attackers = units(game, "Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade", "Brockenbrough's Brigade")
    defenders = [
        *units(game, "Iron Brigade (Meredith)", "Cutler's Brigade", "Gamble's Brigade", "Devin's Brigade"),
        battery(game, "2nd Maine Light, Battery B (Hall)"),
    ]
    seq = declared(
        client, game, [(unit, "general") for unit in attackers], [(unit, "all_out") for unit in defenders], defenders[1]
    )
    declaration: AssaultDeclared = payload(Event.objects.get(game=game, seq=seq))
    assert len(declaration.attackers) == 4 and len(declaration.defenders) == 5
    assert declaration.defenders[0].unit == defenders[1].key
    response = post_round(client, game, seq, die="9", die2="2")
    assert response.status_code == 200
    fought = last_payload(game)
    assert fought.assault == seq and fought.on_units.defender is not None
    assert {loss.id for loss in fought.on_units.defender.units} <= {unit.key for unit in defenders}
    assert state_matches_events(game)


# --- undo -----------------------------------------------------------------------------------------------


def test_undo_takes_back_a_round_then_the_declaration(client, game, two):
    davis, cutler = two
    set_state(game, cutler, m_hits=4)
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="1")
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    cutler, davis = fresh(cutler), fresh(davis)
    assert (cutler.bases, cutler.p_hits_turn, cutler.p4_event, cutler.forced_move, cutler.retreated) == (
        7,
        0,
        False,
        "",
        False,
    )
    assert not Command.objects.get(pk=cutler.division_id).p4_event and not davis.charge_bonus_used
    assert Event.objects.filter(game=game, kind="EventUndone").last().undoes.kind == "AssaultRoundResolved"
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Assault 1 · round 1" in page
    game.refresh_from_db()
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "No assault declared yet" in page
    assert state_matches_events(game)


def test_undo_of_an_end_reopens_the_assault(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    end(client, game, seq)
    game.refresh_from_db()
    response = client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    assert "finish assault 1" in response.content.decode()
