"""The walk through the turn sequence and the event ledger: every change an event, undo, replay, go back."""

import pytest
from django.db import connection

from republic.games.events.game import CorrectionMade
from republic.games.ledger import NothingToUndo, StaleGame, act, this_turn, undo_last, undo_to
from republic.games.models import Command, Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import StepBlocked, advance
from republic.rules.sequence import STEPS, StepKey
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import battery, brigade, fresh, payload, set_state, state_matches_events


def note(unit: Unit) -> CorrectionMade:
    """A correction's payload for changes a test makes by hand."""
    return CorrectionMade(unit.key, unit.name, None, ())


def test_correction_events_change_state_and_replay_rebuilds_it(demo):
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, m_hits=3, bases=2)
    archer.refresh_from_db()
    assert (archer.m_hits, archer.bases) == (3, 2)
    assert state_matches_events(demo)


def test_a_stale_version_is_refused_and_changes_nothing(demo):
    archer = brigade(demo, "Archer's Brigade")
    with pytest.raises(StaleGame), act(demo, demo.version + 5, "test") as action:
        action.set(archer, "m_hits", 2)
        action.record(note(archer))
    archer.refresh_from_db()
    assert archer.m_hits == 0 and not Event.objects.filter(game=demo).exists()


def test_undo_last_takes_back_the_latest_event_then_the_one_before(demo):
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, m_hits=1)
    set_state(demo, archer, m_hits=2)
    undo_last(demo, None, "test")
    archer.refresh_from_db()
    assert archer.m_hits == 1
    undo_last(demo, None, "test")
    archer.refresh_from_db()
    assert archer.m_hits == 0
    with pytest.raises(NothingToUndo):
        undo_last(demo, None, "test")
    assert Event.objects.filter(game=demo, kind="EventUndone").count() == 2
    assert state_matches_events(demo)


def test_a_game_master_goes_back_to_any_earlier_event_and_every_undo_is_recorded(demo):
    archer = brigade(demo, "Archer's Brigade")
    for m in (1, 2, 3):
        set_state(demo, archer, m_hits=m)
    undone = undo_to(demo, 1, None, "gm")
    archer.refresh_from_db()
    assert archer.m_hits == 1 and len(undone) == 2
    assert state_matches_events(demo)


def test_a_whole_game_turn_walks_every_step_and_swaps_the_attacker(demo):
    seen = []
    for _ in range(2 * len(STEPS)):
        demo.refresh_from_db()
        seen.append((demo.player_turn, demo.step, demo.attacker.name))
        advance(demo, None, "test")
    demo.refresh_from_db()
    assert (demo.game_turn, demo.player_turn, demo.step) == (2, 1, "messages")
    assert [s for t, s, _ in seen if t == 1] == [s.key.value for s in STEPS]
    assert {a for t, _, a in seen if t == 1} == {"Confederate"}
    assert {a for t, _, a in seen if t == 2} == {"Union"}
    assert state_matches_events(demo)


def test_the_end_of_a_player_turn_clears_what_lasts_one_player_turn(demo):
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, p_hits_turn=2, base_hits_turn=1, forced_move="F")
    for _ in range(len(STEPS)):
        advance(demo, None, "test")
    archer.refresh_from_db()
    assert (archer.p_hits_turn, archer.base_hits_turn, archer.forced_move) == (0, 0, "")
    undo_last(demo, None, "test")  # the turn's last StepAdvanced comes back, with the per-turn state
    archer.refresh_from_db()
    assert (archer.p_hits_turn, archer.base_hits_turn, archer.forced_move) == (2, 1, "F")
    assert state_matches_events(demo)


@pytest.mark.parametrize(
    "field, value, cleared",
    [
        ("p_hits_turn", 2, 0),
        ("p_hits_assault", 1, 0),
        ("base_hits_turn", 1, 0),
        ("p4_event", True, False),
        ("forced_move", "F", ""),
        ("charge_bonus_used", True, False),
        ("fired_this_turn", True, False),
        ("functions_used", ["move"], []),
    ],
)
def test_any_one_field_of_the_turn_is_cleared_and_units_with_none_are_left_alone(demo, field, value, cleared):
    unit = (
        battery(demo, "Pegram's Battalion (rifles)") if field == "functions_used" else brigade(demo, "Archer's Brigade")
    )
    for _ in range(len(STEPS) - 1):
        advance(demo, None, "test")
    set_state(demo, unit, **{field: value})  # at the last step (a Panic 4 event makes a test there: left undone)
    ended = advance(demo, None, "test", anyway=True)
    unit.refresh_from_db()
    assert getattr(unit, field) == cleared
    assert {(c["model"], c["id"]) for c in ended.changes if c["model"] == "unit"} == {("unit", unit.pk)}
    assert state_matches_events(demo)


def test_next_step_says_what_is_left_and_does_not_move(demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=1)
    advance(demo, None, "test")
    with pytest.raises(StepBlocked, match="rally Davis's Brigade"):
        advance(demo, None, "test")


def test_the_game_master_moves_a_stuck_step_on_and_the_log_names_what_was_left(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=1)
    assert "Stuck?" not in client.get(f"/games/{demo.pk}/").content.decode()  # nothing left: the usual way on
    advance(demo, None, "test")
    game = fresh(demo)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Stuck? As game master you may move on without them" in page and "Move on, leaving 1 undone" in page
    union = seated_device(game, "Union")
    assert "Stuck?" not in union.get(f"/games/{game.pk}/").content.decode()  # the game master's alone
    assert union.post(f"/games/{game.pk}/next/anyway/", {"version": game.version}).status_code == 403
    response = client.post(f"/games/{game.pk}/next/anyway/", {"version": game.version}, HTTP_HX_REQUEST="true")
    game = fresh(game)
    # no attacking leader has fallen: the replacement step passes by itself after the rally step moved on
    assert game.step == "move"
    said = response.content.decode()
    assert "Attacker replaces hors de combat leaders: no attacking leader is hors de combat" in said
    moved, passed = game.events.order_by("-seq")[1], game.events.order_by("-seq")[0]
    assert payload(moved).left_undone == ("rally Davis's Brigade (Unformed)",) and not payload(passed).left_undone
    log = client.get(f"/games/{game.pk}/log/").content.decode()
    assert "moved on by the game master with 1 left undone: rally Davis&#x27;s Brigade (Unformed)" in log
    davis.refresh_from_db()
    assert davis.m_hits == 1 and state_matches_events(game)


@pytest.mark.parametrize("htmx", [True, False])
def test_next_step_over_htmx_and_plain_post(client, demo, htmx):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(f"/games/{demo.pk}/next/", {"version": demo.version}, **headers)
    demo.refresh_from_db()
    assert demo.step == "move"  # the rally and the replacement of leaders pass by themselves: nobody has work there
    if htmx:
        assert response.status_code == 200 and "Attacker moves units" in response.content.decode()
    else:
        assert response.status_code == 302


def test_next_step_without_a_version_changes_nothing(client, demo):
    response = client.post(f"/games/{demo.pk}/next/", {}, HTTP_HX_REQUEST="true")
    assert "The form was incomplete" in response.content.decode()
    demo.refresh_from_db()
    assert demo.step == "messages"


@pytest.mark.parametrize(("change", "field", "after"), [("m_plus", "m_hits", 1), ("base_minus", "bases", 3)])
def test_one_tap_corrections_are_events(client, demo, change, field, after):
    archer = brigade(demo, "Archer's Brigade")
    client.post(f"/games/{demo.pk}/units/{archer.pk}/{change}/", {"version": demo.version}, HTTP_HX_REQUEST="true")
    archer.refresh_from_db()
    assert getattr(archer, field) == after
    assert payload(Event.objects.get(game=demo, kind="CorrectionMade")).fields[0].field == field


def test_a_correction_out_of_range_is_refused(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    response = client.post(
        f"/games/{demo.pk}/units/{archer.pk}/m_minus/", {"version": demo.version}, HTTP_HX_REQUEST="true"
    )
    assert "cannot go to -1" in response.content.decode()
    assert not Event.objects.filter(game=demo).exists()


def test_the_first_attacker_is_chosen_before_play(client, db):
    text = DEMO_SCENARIO.read_text().replace("first_attacker: Confederate\n", "")
    game = create_game(parse_scenario(text))
    assert game.status == Game.Status.SETTING_UP
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Who attacks first?" in page
    union = game.sides.get(name="Union")
    dice = {"first-attacker-version": game.version, "first-attacker-die": 2, "first-attacker-die2": 7, "roll": "typed"}
    client.post(f"/games/{game.pk}/act/first-attacker-roll/game-{game.pk}/", dice)
    game.refresh_from_db()
    client.post(
        f"/games/{game.pk}/act/first-attacker/game-{game.pk}/",
        {"version": game.version, "side": union.pk, "how": "die roll"},
    )
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.attacker == union


def test_the_log_prints_every_event_and_only_game_masters_may_go_back(client, demo):
    set_state(demo, brigade(demo, "Archer's Brigade"), m_hits=1)
    player = seated_device(demo, "Confederate")
    page = player.get(f"/games/{demo.pk}/log/").content.decode()
    assert "Game turn 1</h2>" in page and "Player turn 1: Confederate attacking</h3>" in page
    assert "Go back to here" not in page
    assert "#1 Defenders exchange messages · test" in page and "ground scale medium" in page
    response = player.post(f"/games/{demo.pk}/back/0/", {"version": demo.version})
    assert response.status_code == 403 and brigade(demo, "Archer's Brigade").m_hits == 1
    assert "Go back to here" in client.get(f"/games/{demo.pk}/log/").content.decode()
    client.post(f"/games/{demo.pk}/back/0/", {"version": Game.objects.get(pk=demo.pk).version})
    assert brigade(demo, "Archer's Brigade").m_hits == 0


def test_a_row_read_twice_in_one_action_is_saved_whole(demo):
    archer = brigade(demo, "Archer's Brigade")
    with act(demo, None, "test") as action:
        action.set(Unit.objects.get(pk=archer.pk), "m_hits", 2)
        action.set(Unit.objects.get(pk=archer.pk), "bases", 3)
        event = action.record(note(archer))
    archer.refresh_from_db()
    assert (archer.m_hits, archer.bases) == (2, 3)
    assert [c["before"] for c in event.changes] == [0, 4]
    assert state_matches_events(demo)


def test_a_field_set_twice_in_one_action_is_one_change_and_undoes_cleanly(demo):
    archer = brigade(demo, "Archer's Brigade")
    with act(demo, None, "test") as action:
        action.set(archer, "m_hits", 1)
        action.set(archer, "m_hits", 3)
        action.set(archer, "bases", 3)
        action.set(archer, "bases", 4)
        event = action.record(note(archer))
    assert event.changes == [{"model": "unit", "id": archer.pk, "field": "m_hits", "before": 0, "after": 3}]
    undo_last(demo, None, "test")
    archer.refresh_from_db()
    assert (archer.m_hits, archer.bases) == (0, 4)
    assert state_matches_events(demo)


@pytest.mark.parametrize("htmx", [True, False])
def test_a_divisions_orders_change_as_an_event(client, demo, htmx):
    heth = Command.objects.get(game=demo, name="Heth's Division")
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    client.post(f"/games/{demo.pk}/divisions/{heth.pk}/orders/", {"version": demo.version, "orders": "hold"}, **headers)
    heth.refresh_from_db()
    assert heth.orders == "hold"
    assert payload(Event.objects.get(game=demo, kind="OrdersChanged")).orders == "hold"
    assert state_matches_events(demo)


@pytest.mark.parametrize(
    ("orders", "target", "message"),
    [
        ("attack", "Heth's Division", "already has orders to attack"),
        ("retreat", "Heth's Division", "Select a valid choice"),
        ("hold", "Third Corps", "is not a division"),
    ],
)
def test_bad_orders_change_nothing(client, demo, orders, target, message):
    command = Command.objects.get(game=demo, name=target)
    response = client.post(
        f"/games/{demo.pk}/divisions/{command.pk}/orders/",
        {"version": demo.version, "orders": orders},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert not Event.objects.filter(game=demo).exists()
    assert message in response.content.decode()


def test_a_battery_is_marked_packed_and_back(client, demo):
    hall = battery(demo, "2nd Maine Light, Battery B (Hall)")
    client.post(f"/games/{demo.pk}/units/{hall.pk}/packed/", {"version": demo.version})
    hall.refresh_from_db()
    assert hall.packed
    assert "packed" in client.get(f"/games/{demo.pk}/").content.decode()
    client.post(f"/games/{demo.pk}/units/{hall.pk}/unpacked/", {"version": Game.objects.get().version})
    hall.refresh_from_db()
    assert not hall.packed and state_matches_events(demo)


def test_the_advanced_rules_in_use_show_on_the_game_page_and_the_log(client, demo):
    Game.objects.filter(pk=demo.pk).update(advanced_rules=["101"])
    page = client.get(f"/games/{demo.pk}/").content.decode()
    assert "Advanced rules (played by hand): 101 Cavalry Skirmishers" in page
    assert "advanced rules 101 Cavalry Skirmishers" in client.get(f"/games/{demo.pk}/log/").content.decode()


def test_a_turn_s_events_come_in_order_and_are_found_by_the_turn_not_the_whole_history(demo):
    archer = brigade(demo, "Archer's Brigade")
    for hits in (1, 2, 0):
        set_state(demo, archer, m_hits=hits)
    advance(demo, None, "test")
    set_state(demo, archer, m_hits=1)
    game = fresh(demo)
    found = this_turn(game.pk, game.game_turn, game.player_turn, (StepKey.MESSAGES.value, StepKey.RALLY.value))
    assert [e.seq for e in found] == sorted(e.seq for e in found) and len(found) == 5
    if connection.vendor == "sqlite":  # PostgreSQL plans by its own statistics
        assert "game_turn=?" in found.explain()
