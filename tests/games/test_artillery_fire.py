"""The artillery fire step at the table (4.2-4.6): every battery of both sides that may fire fires or saves its
fire, joint, tandem and adjacent fire, the printed chart; then the end of the step, which puts every skirmish and
artillery hit of the phase on at once. htmx and plain POST, bad input, undo, stale and foreign forms."""

import re

import pytest

from republic.games.ledger import undo_last
from republic.games.models import Event
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.rules.fire_results import FireHits
from republic.rules.hits import Hits
from republic.rules.results import Modifier
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import (
    HTMX,
    at_step,
    battery,
    brigade,
    fresh,
    has_row,
    is_fragment,
    last,
    opened_row,
    page,
    payload,
    set_state,
    state_matches_events,
    summary,
)


def attack(client, game, unit, target, die="10", rng="1", roll="typed", htmx=True, version=None):
    """A skirmish attack, for the hits that wait with the artillery's."""
    prefix = f"skirmish-{unit.piece.name}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-range": rng,
        f"{prefix}-target": target,
        "roll": roll,
    }
    return client.post(f"/games/{game.pk}/act/skirmish-attack/unit-{unit.pk}/", data, **(HTMX if htmx else {}))


def fire(client, game, unit, target, die="5", rng="3", roll="typed", htmx=True, version=None, **extra):
    prefix = f"fire-{unit.piece.name}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-range": rng,
        f"{prefix}-target": target,
        f"{prefix}-cover": extra.pop("cover", "none"),
        "roll": roll,
    }
    for key, value in extra.items():
        data[f"{prefix}-{key}"] = value
    return client.post(f"/games/{game.pk}/act/artillery-fire/unit-{unit.pk}/", data, **(HTMX if htmx else {}))


def save(client, game, unit, htmx=True, version=None, **extra):
    prefix = f"save-{unit.piece.name}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        **{f"{prefix}-{k}": v for k, v in extra.items()},
    }
    return client.post(f"/games/{game.pk}/act/save-fire/unit-{unit.pk}/", data, **(HTMX if htmx else {}))


# --- firing and saving fire ---------------------------------------------------------------------------------


def test_every_battery_of_both_sides_that_may_fire_is_listed(client, demo):
    set_state(demo, battery(demo, "Garnett's Battalion"), m_hits=4)  # silenced
    set_state(demo, battery(demo, "2nd U.S., Battery A (Calef)"), limbered=True)
    game = at_step(demo, "artillery_fire")
    body = page(client, game)
    assert "Batteries of both sides that may still fire (3)" in body
    assert has_row(body, battery(game, "Pegram's Battalion (rifles)"))
    assert has_row(body, battery(game, "2nd Maine Light, Battery B (Hall)"))
    assert not has_row(body, battery(game, "Garnett's Battalion"))
    assert not has_row(body, battery(game, "2nd U.S., Battery A (Calef)"))
    assert "left before moving on" not in body  # fire is not mandatory (4.2)
    pegram = battery(game, "Pegram's Battalion (rifles)")
    opened = opened_row(client, game, pegram)
    assert 'aria-label="Fire Pegram&#x27;s Battalion (rifles)"' in opened
    # the targets: the enemy's units in play, each chosen by a tap; no name is typed
    main = re.search(r'data-pick="fire-unit-\d+-target".*?</fieldset>', opened, re.S).group(0)
    assert re.search(r'<label><input type="radio" name="fire-unit-\d+-target" value="unit:\d+">Iron Brigade', main)
    assert "Davis&#x27;s Brigade" not in main and "<datalist" not in opened and "<input list" not in opened
    # the secondary targets offer the enemy's units again: fetched only when their fold is opened
    assert 'data-pick="fire-unit-' + str(pegram.pk) + '-tandem"' not in opened and "?fold=secondary-targets" in opened
    fold = client.get(f"/games/{game.pk}/rows/unit-{pegram.pk}/?fold=secondary-targets", HTTP_HX_REQUEST="true")
    folded = fold.content.decode()
    assert folded.lstrip().startswith("<details") and " open>" in folded and "Iron Brigade" in folded
    # only an enemy battery is a compound target (4.5)
    compound = re.search(r'data-pick="fire-unit-\d+-compound".*?</fieldset>', folded, re.S).group(0)
    assert "2nd U.S., Battery A (Calef)" in compound and "Iron Brigade" not in compound


def test_a_target_sent_by_its_name_by_an_older_page_is_taken(client, demo):
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    fire(client, game, pegram, "  iron brigade   (meredith) ", die="5", rng="3")
    assert payload(last(game, "ArtilleryFired")).target.unit == iron.key


def test_a_battery_fires_and_its_hits_wait_for_the_end_of_the_step(client, demo):
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    response = fire(client, game, pegram, iron.key, die="5", rng="3")  # m_rifle up to 4": 2M
    assert is_fragment(response)
    fired = payload(last(game, "ArtilleryFired"))
    assert fired.hits == (FireHits(iron.key, m=2, b=0, marker_b=0),)
    assert fired.result.range_column == "r2" and str(fired.result.result) == "2M"
    pegram.refresh_from_db()
    iron.refresh_from_db()
    assert pegram.fired_this_turn and iron.m_hits == 0
    assert 'aria-label="Fire Pegram&#x27;s Battalion (rifles)"' not in page(client, game)
    assert state_matches_events(game)


def test_joint_fire_shifts_per_base_and_marks_every_battery_fired(client, demo):
    game = at_step(demo, "artillery_fire")
    garnett, napoleons = battery(game, "Garnett's Battalion"), battery(game, "Pegram's Battalion (Napoleons)")
    cutler = brigade(game, "Cutler's Brigade")
    response = fire(client, game, garnett, cutler.key, die="5", rng="3", joined=[napoleons.key], htmx=False)
    assert response.status_code == 302
    fired = payload(last(game, "ArtilleryFired"))
    assert fired.inputs.joint_bases == 2
    assert fired.result.final_column == "left1" and str(fired.result.result) == "3M 2B"
    assert fired.hits == (FireHits(cutler.key, m=3, b=2, marker_b=0),)
    napoleons.refresh_from_db()
    assert napoleons.fired_this_turn


def test_saved_fire_is_used_and_cleared_and_the_battery_hits_cost_the_die(client, demo):
    pegram = battery(demo, "Pegram's Battalion (rifles)")
    set_state(demo, pegram, saved_fire=True, m_hits=1, damage=1)
    game = at_step(demo, "artillery_fire")
    fire(client, game, pegram, brigade(game, "Iron Brigade (Meredith)").key, die="10", rng="3")
    fired = payload(last(game, "ArtilleryFired"))
    assert fired.inputs.saved_fire and fired.inputs.m_hits == 1
    assert Modifier(label="Saved Fire", value=-1, section="4.3") in fired.result.shifts
    assert Modifier(label="Each battery M and B hit x 2", value=-2, section="4.4") in fired.result.modifiers
    pegram.refresh_from_db()
    assert not pegram.saved_fire and pegram.fired_this_turn


def test_tandem_and_adjacent_targets_share_the_hits(client, demo):
    game = at_step(demo, "artillery_fire")
    garnett, napoleons = battery(game, "Garnett's Battalion"), battery(game, "Pegram's Battalion (Napoleons)")
    iron, cutler = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Cutler's Brigade")
    fire(client, game, garnett, iron.key, die="10", rng="1", joined=[napoleons.key], tandem=cutler.key)
    fired = payload(last(game, "ArtilleryFired"))  # r1 - 2 joint - 2 drift: left3, 4M 3B
    assert str(fired.result.result) == "4M 3B"
    assert fired.hits == (FireHits(iron.key, m=4, b=2, marker_b=0), FireHits(cutler.key, m=2, b=1, marker_b=0))


def test_printed_chart_hits_are_shared_and_marked(client, demo):
    game = at_step(demo, "artillery_fire")
    hall, hill_brigade = battery(game, "2nd Maine Light, Battery B (Hall)"), brigade(game, "Davis's Brigade")
    fire(client, game, hall, hill_brigade.key, die="5", rng="12", printed="1M 1B")
    event = last(game, "ArtilleryFired")
    fired = payload(event)
    assert event.printed_chart and not event.provisional and fired.printed == Hits(m=1, b=1)
    assert str(fired.printed) == "1M 1B"
    assert fired.hits == (FireHits(hill_brigade.key, m=1, b=1, marker_b=0),)


FRIENDLY = "friendly:Davis's Brigade"  # a brigade of the firing battery's own side: its key is looked up


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"die": "0"}, "A d10 shows 1 to 10."),
        ({"die": "11"}, "A d10 shows 1 to 10."),
        ({"die": ""}, "Tap the die you rolled (1-10), or press Roll for me."),
        ({"rng": ""}, "This field is required."),
        ({"rng": "100"}, "less than or equal to 99"),
        ({"rng": "24"}, "out of range"),
        ({"rng": "30"}, "no battery reaches"),
        ({"target": ""}, "Choose one from the list."),
        ({"target": FRIENDLY}, "That enemy unit is not one to choose here"),  # Davis's: a friendly brigade
        ({"target": "Nobody's Brigade"}, "No enemy unit to choose here is called “Nobody&#x27;s Brigade”"),
        ({"printed": "3X"}, "Write the hits as on the chart"),
        ({"printed": "2P"}, "not P"),
        ({"tandem": "SAME"}, "another unit than the main target"),
        ({"deep_target": "on", "cover": "heavy"}, "must all be in open terrain"),
        ({"moving_cavalry": "on"}, "is not mounted cavalry"),
        ({"packed_skirmishers": "on"}, "has no skirmish markers out"),
        ({"cover": "deep"}, "Select a valid choice"),
    ],
)
def test_bad_artillery_fire_changes_nothing(client, demo, extra, message):
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    values = {"die": "5", "rng": "3", "target": iron.key, **extra}
    if values.get("tandem") == "SAME":
        values["tandem"] = iron.key
    if values["target"].startswith("friendly:"):
        values["target"] = brigade(game, values["target"].partition(":")[2]).key
    die, rng, target = values.pop("die"), values.pop("rng"), values.pop("target")
    version = game.version
    response = fire(client, game, pegram, target, die=die, rng=rng, **values)
    assert response.status_code == 200 and message in response.content.decode()
    pegram.refresh_from_db()
    assert fresh(game).version == version and not pegram.fired_this_turn


def test_a_battery_fires_once_a_turn_and_stale_or_foreign_posts_change_nothing(client, demo):
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    old = game.version
    fire(client, game, pegram, iron.key)
    response = fire(client, fresh(game), pegram, iron.key)
    assert "cannot fire now" in response.content.decode()
    response = fire(client, game, battery(game, "Garnett's Battalion"), iron.key, version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert Event.objects.filter(game=game, kind="ArtilleryFired").count() == 1
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    assert fire(client, game, battery(other, "Garnett's Battalion"), iron.key).status_code == 404
    assert save(client, game, battery(other, "Garnett's Battalion")).status_code == 404


def test_saving_fire_over_htmx_and_plain_post_and_its_refusals(client, demo):
    set_state(demo, battery(demo, "Garnett's Battalion"), m_hits=2)
    game = at_step(demo, "artillery_fire")
    hall, calef = battery(game, "2nd Maine Light, Battery B (Hall)"), battery(game, "2nd U.S., Battery A (Calef)")
    assert is_fragment(save(client, game, hall))
    hall.refresh_from_db()
    assert hall.saved_fire and payload(last(game, "FireSaved")).result.allowed
    assert save(client, fresh(game), calef, htmx=False).status_code == 302
    version = fresh(game).version
    response = save(client, game, battery(game, "Pegram's Battalion (rifles)"), moved_this_turn="on")
    assert "may not save fire: the battery moved this player turn" in response.content.decode()
    response = save(client, game, battery(game, "Pegram's Battalion (rifles)"), out_of_command_radius="on")
    assert "out of command radius may not save fire" in response.content.decode()
    response = save(client, game, battery(game, "Garnett's Battalion"))
    assert "rattled or worse may not save fire" in response.content.decode()
    assert fresh(game).version == version
    response = save(client, game, hall)  # already saved this step
    assert "cannot save fire now" in response.content.decode()
    response = save(client, game, hall, version=version - 2)  # drawn before Hall saved
    assert "The game moved on" in response.content.decode()
    assert fresh(game).version == version
    # drawn before Hall and Calef saved, but about neither: another battery's form is not stale
    save(client, game, battery(game, "Pegram's Battalion (rifles)"), version=version - 2)
    pegram = battery(game, "Pegram's Battalion (rifles)")
    assert fresh(game).version == version + 1 and payload(last(game, "FireSaved")).unit == pegram.key
    assert 'aria-label="Fire 2nd Maine Light, Battery B (Hall)"' not in page(client, game)


def test_fire_in_the_wrong_step_is_refused(client, demo):
    game = at_step(demo, "skirmish")
    response = fire(
        client, game, battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)").key
    )
    assert "Pegram&#x27;s Battalion (rifles) cannot fire now." in response.content.decode()
    response = save(client, game, battery(game, "Pegram's Battalion (rifles)"))
    assert "Pegram&#x27;s Battalion (rifles) cannot save fire now." in response.content.decode()
    assert not Event.objects.filter(game=game, kind__in=["ArtilleryFired", "FireSaved"]).exists()


# --- the end of the artillery step: all hits at once ------------------------------------------------------------


def test_the_end_of_the_artillery_step_puts_every_hit_on_at_once(client, demo):
    davis, iron = brigade(demo, "Davis's Brigade"), brigade(demo, "Iron Brigade (Meredith)")
    cutler = brigade(demo, "Cutler's Brigade")
    set_state(demo, davis, skirmishers_deployed=1)
    set_state(demo, iron, m_hits=2)
    hall = battery(demo, "2nd Maine Light, Battery B (Hall)")
    set_state(demo, hall, saved_fire=True)
    game = at_step(demo, "skirmish")
    attack(client, game, davis, iron.key, die="10", rng="1")  # 1M
    advance(fresh(game), None, "test")
    garnett, napoleons = battery(game, "Garnett's Battalion"), battery(game, "Pegram's Battalion (Napoleons)")
    pegram = battery(game, "Pegram's Battalion (rifles)")
    fire(client, fresh(game), garnett, iron.key, die="5", rng="3", joined=[napoleons.key])  # 3M 2B
    fire(client, fresh(game), pegram, hall.key, die="5", rng="3")  # 2M on Hall, damage 0
    calef = battery(game, "2nd U.S., Battery A (Calef)")
    fire(client, fresh(game), calef, davis.key, die="5", rng="12", printed="1M 1B")
    save(client, fresh(game), hall)  # Hall already has saved fire: kept
    assert summary(last(game, "FireSaved")).endswith("(it keeps its one saved fire marker)")
    event = advance(fresh(game), None, "test")
    assert "Iron Brigade (Meredith): 4M 2B, now Demoralized, 2P, 5 bases left" in summary(event)
    iron.refresh_from_db()
    assert (iron.m_hits, iron.p_hits_turn, iron.bases, iron.base_hits_turn) == (4, 2, 5, 2)
    hall.refresh_from_db()
    assert hall.m_hits == 2 and not hall.saved_fire  # rattled: loses its saved fire (4.2)
    davis.refresh_from_db()
    assert (davis.m_hits, davis.bases, davis.base_hits_turn) == (1, 7, 1)
    assert cutler.m_hits == 0
    assert fresh(game).step == "fire_hors_de_combat"
    assert state_matches_events(game)
    # undo of the step takes every hit back
    undo_last(fresh(game), None, "test")
    iron.refresh_from_db()
    assert (iron.m_hits, iron.bases, iron.p_hits_turn) == (2, 7, 0) and fresh(game).step == "artillery_fire"
    assert state_matches_events(game)


def test_hits_on_packed_skirmishers_go_to_the_brigade_and_lower_its_skirmishers(client, demo):
    iron = brigade(demo, "Iron Brigade (Meredith)")
    set_state(demo, iron, skirmishers_deployed=2)
    game = at_step(demo, "artillery_fire")
    garnett, napoleons = battery(game, "Garnett's Battalion"), battery(game, "Pegram's Battalion (Napoleons)")
    fire(client, game, garnett, iron.key, die="5", rng="3", joined=[napoleons.key], packed_skirmishers="on")
    fired = payload(last(game, "ArtilleryFired"))  # 3M 2B; -2 on the die does not reach a drift
    assert fired.hits == (FireHits(iron.key, m=3, b=0, marker_b=2),)
    advance(fresh(game), None, "test")
    iron.refresh_from_db()
    assert (iron.m_hits, iron.bases, iron.skirmisher_grade) == (3, 7, "green")  # crack, two lines down


def test_a_unit_with_more_b_than_bases_is_destroyed(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, bases=1)
    game = at_step(demo, "artillery_fire")
    fire(client, game, battery(game, "2nd Maine Light, Battery B (Hall)"), archer.key, rng="12", printed="1M 2B")
    assert payload(last(game, "ArtilleryFired")).hits == (FireHits(archer.key, m=1, b=1, marker_b=0),)
    advance(fresh(game), None, "test")
    archer.refresh_from_db()
    assert archer.bases == 0 and archer.destroyed
    assert state_matches_events(game)


def test_undo_of_a_fire_takes_its_pending_hits_back(client, demo):
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    fire(client, game, pegram, iron.key)
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    pegram.refresh_from_db()
    assert not pegram.fired_this_turn
    assert last(game, "EventUndone").undoes.kind == "ArtilleryFired"
    assert "Hits waiting" not in page(client, game)
    advance(fresh(game), None, "test")
    iron.refresh_from_db()
    assert iron.m_hits == 0
    assert state_matches_events(game)


# --- functions used in the maneuver phase (3.5, R:835-838) ---------------------------------------------------


def test_a_foot_battery_that_moved_and_unlimbered_is_not_offered_fire_and_is_refused(client, demo):
    """R:835-838: "a foot battery may move and unlimber during its movement phase but it may not fire on that
    turn's fire phase. If it were to unlimber in place (without moving), it could fire that turn.\""""
    pegram, calef = battery(demo, "Pegram's Battalion (rifles)"), battery(demo, "2nd U.S., Battery A (Calef)")
    hall, napoleons = (
        battery(demo, "2nd Maine Light, Battery B (Hall)"),
        battery(demo, "Pegram's Battalion (Napoleons)"),
    )
    set_state(demo, pegram, functions_used=["move", "unlimber"])  # foot: both its functions spent
    set_state(demo, calef, functions_used=["move", "unlimber"])  # horse: a third function left to fire with
    set_state(demo, hall, functions_used=["unlimber"])  # unlimbered in place: it may fire
    set_state(demo, napoleons, functions_used=["limber", "unlimber"])  # spent, but it did not move: it may save
    game = at_step(demo, "artillery_fire")
    body = page(client, game)
    assert not has_row(body, pegram) and has_row(body, calef) and has_row(body, hall) and has_row(body, napoleons)
    response = fire(client, game, pegram, "Iron Brigade (Meredith)")
    assert "cannot fire now" in response.content.decode() and fresh(game).version == game.version
    fire(client, game, calef, "Davis's Brigade")
    fire(client, fresh(game), hall, "Davis's Brigade")
    assert Event.objects.filter(game=game, kind="ArtilleryFired").count() == 2
    opened = opened_row(client, fresh(game), napoleons)
    assert "No fire this turn:</strong> foot artillery has 2 functions a turn; fire would be one more (3.5)" in opened
    assert (
        'aria-label="Fire Pegram' not in opened
        and 'aria-label="Save fire Pegram&#x27;s Battalion (Napoleons)"' in opened
    )
    response = fire(client, fresh(game), napoleons, "Iron Brigade (Meredith)")
    assert "may not fire this turn: foot artillery has 2 functions a turn" in response.content.decode()
    assert Event.objects.filter(game=game, kind="ArtilleryFired").count() == 2
    save(client, fresh(game), napoleons)
    assert payload(last(game, "FireSaved")).unit == napoleons.key


# --- a battery that prolonged loses simultaneous fire against enemy artillery (3.5, R:839-841) ------------------


def test_enemy_artillery_hits_a_prolonged_battery_at_once_and_its_own_fire_reads_them(client, demo):
    """R:839-841: "Artillery which prolongs loses simultaneous fire privilege against enemy artillery, they suffer
    enemy artillery effects before they fire"; its die then counts the hits (R:1152-1155)."""
    pegram, hall = battery(demo, "Pegram's Battalion (rifles)"), battery(demo, "2nd Maine Light, Battery B (Hall)")
    set_state(demo, pegram, functions_used=["prolong"])
    game = at_step(demo, "artillery_fire")
    opened = opened_row(client, game, pegram)
    assert f'id="prolonged-{pegram.piece.name}"' in opened and "enemy artillery hits it before it fires" in opened
    fire(client, game, hall, pegram.key, rng="3", printed="2M 1B")
    fired = payload(last(game, "ArtilleryFired"))
    assert fired.hits == () and [(t.unit, t.result.m_after, t.result.damage_after) for t in fired.landed] == [
        (pegram.key, 2, 1)
    ]
    assert summary(last(game, "ArtilleryFired")).endswith(
        "; Pegram's Battalion (rifles) at once, as it prolonged (3.5): 2M 1B, now Rattled, damage 1"
    )
    pegram.refresh_from_db()
    assert (pegram.m_hits, pegram.damage) == (2, 1)  # on now, not at the end of the step
    assert "Hits waiting" not in page(client, game)
    fire(client, fresh(game), pegram, brigade(game, "Iron Brigade (Meredith)").key, die="7", rng="3")
    own = payload(last(game, "ArtilleryFired"))
    assert (own.inputs.m_hits, own.inputs.damage) == (2, 1) and own.result.modified_roll == 4
    advance(fresh(game), None, "test")
    pegram.refresh_from_db()
    assert (pegram.m_hits, pegram.damage) == (2, 1)  # not put on twice
    assert state_matches_events(game)


def test_a_prolonged_battery_demoralized_by_enemy_artillery_is_silenced_before_it_fires(client, demo):
    pegram = battery(demo, "Pegram's Battalion (rifles)")
    set_state(demo, pegram, functions_used=["prolong"], m_hits=3)
    game = at_step(demo, "artillery_fire")
    fire(client, game, battery(game, "2nd U.S., Battery A (Calef)"), pegram.key, rng="3", printed="1M")
    assert not has_row(page(client, game), pegram)
    response = fire(client, fresh(game), pegram, brigade(game, "Iron Brigade (Meredith)").key)
    assert "cannot fire now" in response.content.decode()
    undo_last(fresh(game), None, "test")
    pegram.refresh_from_db()
    assert pegram.m_hits == 3 and has_row(page(client, game), pegram)


def test_fire_at_a_prolonged_battery_after_its_own_fire_is_refused(client, demo):
    pegram, hall = battery(demo, "Pegram's Battalion (rifles)"), battery(demo, "2nd Maine Light, Battery B (Hall)")
    set_state(demo, pegram, functions_used=["prolong"])
    game = at_step(demo, "artillery_fire")
    fire(client, game, pegram, brigade(game, "Iron Brigade (Meredith)").key)
    version = fresh(game).version
    response = fire(client, game, hall, brigade(game, "Davis's Brigade").key, tandem=pegram.key, printed="2M")
    assert "has already fired, but enemy artillery hits a prolonging battery before it fires" in (
        response.content.decode()
    )
    pegram.refresh_from_db()
    assert fresh(game).version == version and pegram.m_hits == 0 and not battery(game, hall.name).fired_this_turn
    # an unprolonged battery that fired takes enemy fire with the rest of the phase, as before
    garnett = battery(game, "Garnett's Battalion")
    fire(client, fresh(game), garnett, brigade(game, "Iron Brigade (Meredith)").key)
    fire(client, fresh(game), hall, garnett.key, printed="2M")
    assert payload(last(game, "ArtilleryFired")).hits == (FireHits(garnett.key, m=2, b=0, marker_b=0),)
