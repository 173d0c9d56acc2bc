"""Charge disorder at the table (5.6): 1M to each unit that charged or retreated, the units the table ticks,
htmx and plain POST, bad input, undo."""

import re

from republic.games.events.assault import ChargeDisorderApplied
from republic.games.models import Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from tests.club_battle import club_scenario
from tests.games.conftest import HTMX, at_step, battery, brigade, fresh, payload, set_state, state_matches_events


def at_disorder(game: Game) -> Game:
    set_state(game, game, step="charge_disorder")
    game.refresh_from_db()
    assert game.step == "charge_disorder"
    return game


def disorder_post(client, game, also=(), htmx=True, version=None):
    game.refresh_from_db()
    data = {"disorder-version": game.version if version is None else version, "disorder-also": list(also)}
    return client.post(f"/games/{game.pk}/act/charge-disorder/game-{game.pk}/", data, **(HTMX if htmx else {}))


def test_charge_disorder_is_pending_and_gives_1m_to_each_unit_that_charged_or_retreated(client, demo):
    davis, archer, cutler, iron = (
        brigade(demo, name)
        for name in ("Davis's Brigade", "Archer's Brigade", "Cutler's Brigade", "Iron Brigade (Meredith)")
    )
    calef = battery(demo, "2nd U.S., Battery A (Calef)")
    set_state(demo, davis, charge_bonus_used=True)
    set_state(demo, archer, forced_move="Re", m_hits=4)
    set_state(demo, cutler, forced_move="Re")
    set_state(demo, iron, charge_bonus_used=True)  # a defender does not charge in the attacker's turn
    set_state(demo, calef, forced_move="Re")
    game = at_disorder(demo)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "apply charge disorder: 1M to" in page
    response = client.post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX)
    assert "Not yet: apply charge disorder" in response.content.decode()
    response = disorder_post(client, game)
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="live"')
    event = Event.objects.get(game=game, kind="ChargeDisorderApplied")
    applied: ChargeDisorderApplied = payload(event)
    assert {u.unit for u in applied.units} == {davis.key, archer.key, cutler.key, calef.key}
    assert (fresh(davis).m_hits, fresh(archer).m_hits, fresh(cutler).m_hits, fresh(calef).m_hits) == (1, 4, 1, 1)
    assert fresh(iron).m_hits == 0
    notes = {u.unit: " ".join(u.result.notes) for u in applied.units}
    assert "charge disorder: used charge bonus → 1M" in notes[davis.key]
    assert "the unit stays Demoralized" in notes[archer.key]
    assert "apply charge disorder" not in body and "Done: Charge disorder" in body
    response = disorder_post(client, game)
    assert "Charge disorder is already applied this turn." in response.content.decode()
    advance(game, game.version, "test")
    game.refresh_from_db()
    assert game.step != "charge_disorder"
    assert state_matches_events(game)


def test_charge_disorder_by_plain_post_with_units_the_table_ticks(client, demo):
    pettigrew = brigade(demo, "Pettigrew's Brigade")
    game = at_disorder(demo)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "no unit used charge movement or retreated" in page
    assert "apply charge disorder" not in page  # nothing pending
    response = disorder_post(client, game, also=[pettigrew.piece.name], htmx=False)
    assert response.status_code == 302
    pettigrew = fresh(pettigrew)
    assert pettigrew.m_hits == 1 and pettigrew.charge_bonus_used
    applied: ChargeDisorderApplied = payload(Event.objects.get(game=game, kind="ChargeDisorderApplied"))
    assert [u.unit for u in applied.units if u.also] == [pettigrew.key]


def test_charge_disorder_bad_input_nothing_to_apply_and_stale(client, demo):
    cutler = brigade(demo, "Cutler's Brigade")
    game = at_disorder(demo)
    version = game.version
    response = disorder_post(client, game, also=[cutler.piece.name])  # a defender's unit is not offered
    assert "That unit is not one to choose here" in response.content.decode()
    response = disorder_post(client, game)
    assert "No unit suffers charge disorder this turn." in response.content.decode()
    response = client.post(f"/games/{game.pk}/act/charge-disorder/game-{game.pk}/", {}, **HTMX)
    assert "The form was incomplete: nothing was changed." in response.content.decode()
    set_state(game, brigade(game, "Davis's Brigade"), forced_move="Re")
    response = disorder_post(client, game, version=version)
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="ChargeDisorderApplied").exists()


def test_charge_disorder_outside_its_step_is_refused_and_undo_takes_it_back(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, charge_bonus_used=True)
    response = disorder_post(client, demo)
    assert "Charge disorder is applied in its own step" in response.content.decode()
    game = at_disorder(demo)
    disorder_post(client, game)
    assert fresh(davis).m_hits == 1
    game.refresh_from_db()
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    assert fresh(davis).m_hits == 0
    assert Event.objects.filter(game=game, kind="EventUndone").last().undoes.kind == "ChargeDisorderApplied"
    assert "apply charge disorder: 1M to Davis" in client.get(f"/games/{game.pk}/").content.decode()
    assert state_matches_events(game)


def test_a_club_battle_offers_its_many_units_by_division_with_a_filter(client, db):
    game = at_step(create_game(parse_scenario(club_scenario(100))), "charge_disorder")
    body = client.get(f"/games/{game.pk}/").content.decode()
    picker = re.search(r'data-pick="disorder-also".*?</fieldset>', body, re.S).group(0)
    assert 'class="form-control pick-filter' in picker and '<details class="pick-group"><summary>Division 1' in picker
    assert 'type="checkbox" name="disorder-also"' in picker and "<select" not in picker
    charged = Unit.objects.filter(game=game, division__side=game.first_attacker, kind="infantry").first()
    disorder_post(client, game, also=[charged.piece.name])
    assert fresh(charged).m_hits == 1 and fresh(charged).charge_bonus_used
