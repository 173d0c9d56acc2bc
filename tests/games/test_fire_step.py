"""The fire phase at the table: skirmish blocks and attacks, artillery fire and saved fire, the hits put on at the
end of the artillery step, and the demoralized panic test. htmx and plain POST, bad input, undo, stale forms."""

import pytest

from republic.games.ledger import undo_last
from republic.games.models import Battery, Command, Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.games.walk import advance
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import brigade, set_state, state_matches_events

HTMX = {"HTTP_HX_REQUEST": "true"}


def battery(game: Game, name: str) -> Battery:
    return Battery.objects.get(game=game, name=name)


def at_step(game: Game, step: str) -> Game:
    set_state(game, game, step=step)
    game.refresh_from_db()
    return game


def page(client, game: Game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def last(game: Game, kind: str) -> Event:
    return Event.objects.filter(game=game, kind=kind).latest("seq")


def is_fragment(response) -> bool:
    body = response.content.decode()
    return response.status_code == 200 and body.lstrip().startswith('<div id="live"') and "<html" not in body


# --- skirmish -------------------------------------------------------------------------------------------------


@pytest.fixture
def screens(demo) -> Game:
    """Davis (attacker, average: Veteran line) has two markers out, the Iron Brigade (defender, crack) one."""
    set_state(demo, brigade(demo, "Davis's Brigade"), skirmishers_deployed=2)
    set_state(demo, brigade(demo, "Iron Brigade (Meredith)"), skirmishers_deployed=1)
    return at_step(demo, "skirmish")


def declare(client, game, blocks: dict, htmx=True, version=None):
    data = {"skirmish-declare-version": game.version if version is None else version}
    for blocker, target in blocks.items():
        data[f"skirmish-declare-block_{blocker.pk}_1"] = target
    return client.post(f"/games/{game.pk}/fire/skirmish/declare/", data, **(HTMX if htmx else {}))


def roll_blocks(client, game, dice: list[str], roll="typed", htmx=True, version=None, **extra):
    data = {"skirmish-rolls-version": game.version if version is None else version, "roll": roll, **extra}
    for i, die in enumerate(dice):
        data[f"skirmish-rolls-die_{i}"] = die
    return client.post(f"/games/{game.pk}/fire/skirmish/blocks/", data, **(HTMX if htmx else {}))


def attack(client, game, unit, target, die="10", rng="1", roll="typed", htmx=True, version=None, **extra):
    prefix = f"skirmish-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-die": die,
            f"{prefix}-range": rng, f"{prefix}-target": target, "roll": roll,
            **{f"{prefix}-{k}": v for k, v in extra.items()}}
    return client.post(f"/games/{game.pk}/fire/skirmish/{unit.pk}/", data, **(HTMX if htmx else {}))


def fresh(game: Game) -> Game:
    game.refresh_from_db()
    return game


def test_blocks_are_declared_before_any_roll_and_the_step_waits_for_them(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    body = page(client, game)
    assert "Union: declare every block first" in body
    assert "Iron Brigade (Meredith), marker 1 (crack) tries to block" in body
    assert "Skirmish attack by Davis" not in body
    # no attack before the blocks are declared
    attack(client, game, davis, iron.key)
    assert not Event.objects.filter(game=game, kind="SkirmishAttacked").exists()
    response = declare(client, fresh(game), {iron: f"{davis.key}#1"})
    assert is_fragment(response)
    event = last(game, "SkirmishBlocksDeclared")
    assert event.inputs["blocks"] == [{"blocker": f"{iron.key}#1", "blocker_name": "Iron Brigade (Meredith), marker 1",
                                       "grade": "crack", "target": f"{davis.key}#1",
                                       "target_name": "Davis's Brigade, marker 1"}]
    assert "roll the 1 declared skirmish block" in page(client, game)
    refused = client.post(f"/games/{game.pk}/next/", {"version": fresh(game).version}, **HTMX)
    assert "Not yet: roll the 1 declared skirmish block" in refused.content.decode()
    assert fresh(game).step == "skirmish"
    assert state_matches_events(game)


def test_a_successful_block_leaves_one_davis_marker_to_fire(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {iron: f"{davis.key}#1"})
    response = roll_blocks(client, fresh(game), ["5"], htmx=False)  # crack blocks on 5 or more
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    event = last(game, "SkirmishBlocksRolled")
    assert event.inputs["blocked"] == [f"{davis.key}#1"]
    assert event.result["attempts"][0]["needed"] == 5 and event.provisional
    assert event.dice == [{"faces": [5], "source": "typed", "label": "Iron Brigade (Meredith), marker 1"}]
    assert "<strong>Davis&#x27;s Brigade</strong>: 1 marker to fire" in page(client, game)


def test_a_failed_block_and_the_printed_chart_override(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {iron: f"{davis.key}#2"})
    roll_blocks(client, fresh(game), ["4"], **{"skirmish-rolls-printed_0": "blocked"})
    event = last(game, "SkirmishBlocksRolled")
    assert event.result["attempts"][0]["blocked"] is False  # the app's chart says no ...
    assert event.inputs["blocked"] == [f"{davis.key}#2"]  # ... the players' chart says yes, and stands
    assert event.printed_chart and not event.provisional


def test_declaring_no_block_goes_straight_to_the_attacks(client, screens):
    game = screens
    declare(client, game, {})
    assert last(game, "SkirmishBlocksDeclared").summary.endswith("no blocks")
    assert "<strong>Davis&#x27;s Brigade</strong>: 2 markers to fire" in page(client, game)


@pytest.mark.parametrize(("die", "message"), [("0", "A d10 shows 1 to 10."), ("11", "A d10 shows 1 to 10."),
                                              ("", "Type the die (1-10) or press Roll for me.")])
def test_a_bad_block_die_changes_nothing(client, screens, die, message):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {iron: f"{davis.key}#1"})
    version = fresh(game).version
    response = roll_blocks(client, game, [die])
    assert message in response.content.decode()
    assert fresh(game).version == version


def test_block_roll_for_me_rolls_every_die(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {iron: f"{davis.key}#1"})
    roll_blocks(client, fresh(game), [""], roll="app")
    event = last(game, "SkirmishBlocksRolled")
    assert event.dice[0]["source"] == "app" and 1 <= event.dice[0]["faces"][0] <= 10


def test_a_declaration_naming_a_marker_that_is_not_there_is_refused(client, screens):
    game, iron = screens, brigade(screens, "Iron Brigade (Meredith)")
    response = declare(client, game, {iron: "brigade:999#1"})
    assert "Select a valid choice" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="SkirmishBlocksDeclared").exists()


def test_an_unblocked_attack_scores_1m_held_to_the_end_of_the_artillery_step(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {})
    response = attack(client, fresh(game), davis, iron.key, die="8", rng="1.5")  # Veteran line, up to 2": 8
    assert is_fragment(response)
    event = last(game, "SkirmishAttacked")
    assert event.inputs["hits"] == [{"unit": iron.key, "m": 1, "b": 0}]
    assert event.result["needed"] == 8 and event.result["band"] == "r1"
    iron.refresh_from_db()
    assert iron.m_hits == 0  # not yet: hits go on at the end of the artillery step
    body = page(client, game)
    assert "Hits waiting for the end of the artillery step" in body and "<strong>1M</strong>" in body
    assert state_matches_events(game)


def test_a_green_marker_that_rolls_low_flees_and_undo_brings_it_back(client, demo):
    brock, iron = brigade(demo, "Brockenbrough's Brigade"), brigade(demo, "Iron Brigade (Meredith)")
    set_state(demo, brock, skirmishers_deployed=1)
    game = at_step(demo, "skirmish")
    attack(client, game, brock, iron.key, die="1", rng="4")
    event = last(game, "SkirmishAttacked")
    assert event.result["fled"] and event.inputs["hits"] == []
    brock.refresh_from_db()
    assert brock.skirmishers_deployed == 0
    assert "Every unblocked attacking skirmish marker has fired" in page(client, game)  # fled
    undo_last(fresh(game), None, "test")
    brock.refresh_from_db()
    assert brock.skirmishers_deployed == 1
    assert "<strong>Brockenbrough&#x27;s Brigade</strong>: 1 marker to fire" in page(client, game)
    assert state_matches_events(game)


def test_skirmish_attack_printed_chart_and_roll_for_me(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {})
    attack(client, fresh(game), davis, iron.key, die="2", printed="hit")
    event = last(game, "SkirmishAttacked")
    assert event.printed_chart and event.inputs["hits"] == [{"unit": iron.key, "m": 1, "b": 0}]
    attack(client, fresh(game), davis, iron.key, die="", roll="app")
    assert last(game, "SkirmishAttacked").dice[0]["source"] == "app"
    set_state(fresh(game), davis, skirmishers_deployed=3)
    attack(client, fresh(game), davis, iron.key, die="9", printed="flee")  # the app's chart: a Veteran-line hit
    event = last(game, "SkirmishAttacked")
    assert event.result["hit"] and event.inputs["fled"] and event.inputs["hits"] == []
    davis.refresh_from_db()
    assert davis.skirmishers_deployed == 2
    assert "Every unblocked attacking skirmish marker has fired" in page(client, game)  # 2 out + 1 fled, 3 fired


@pytest.mark.parametrize(("field", "value", "message"), [
    ("die", "0", "A d10 shows 1 to 10."), ("die", "11", "A d10 shows 1 to 10."),
    ("die", "", "Type the die (1-10) or press Roll for me."), ("range", "", "This field is required."),
    ("range", "-1", "Ensure this value is greater than or equal to 0"),
    ("range", "6", "skirmish fire reaches 5&quot; at the medium scale"),
    ("target", "brigade:1", "Select a valid choice"),  # Archer's: a friendly brigade
])
def test_bad_skirmish_attacks_change_nothing(client, screens, field, value, message):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {})
    values = {"die": "9", "rng": "1", "target": iron.key}
    values[{"range": "rng"}.get(field, field)] = value
    version = fresh(game).version
    response = attack(client, game, davis, values["target"], die=values["die"], rng=values["rng"])
    assert response.status_code == 200 and message in response.content.decode()
    assert fresh(game).version == version


def test_a_blocked_brigade_cannot_fire_and_stale_forms_change_nothing(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    set_state(game, davis, skirmishers_deployed=1)
    declare(client, fresh(game), {iron: f"{davis.key}#1"})
    roll_blocks(client, fresh(game), ["9"])
    response = attack(client, fresh(game), davis, iron.key)
    assert "has no skirmish attack to make now" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="SkirmishAttacked").exists()
    response = declare(client, game, {}, version=game.version - 1)
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = roll_blocks(client, game, ["5"], version=game.version - 1)
    assert "nothing was changed" in response.content.decode()


def test_a_stale_skirmish_attack_changes_nothing(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {})
    old = fresh(game).version
    attack(client, game, davis, iron.key)
    response = attack(client, game, davis, iron.key, version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    assert Event.objects.filter(game=game, kind="SkirmishAttacked").count() == 1


def test_a_brigade_of_another_game_is_not_found(client, screens):
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    theirs = brigade(other, "Davis's Brigade")
    response = attack(client, screens, theirs, brigade(screens, "Iron Brigade (Meredith)").key, htmx=False)
    assert response.status_code == 404


def test_skirmish_fire_is_optional_the_step_moves_on_with_markers_unfired(client, screens):
    game, davis = screens, brigade(screens, "Davis's Brigade")
    assert "Still to do" not in page(client, game)
    advance(fresh(game), None, "test")
    game = fresh(game)
    assert game.step == "artillery_fire"
    response = attack(client, game, davis, brigade(game, "Iron Brigade (Meredith)").key)
    assert "has no skirmish attack to make now" in response.content.decode()  # the step is over


# --- artillery --------------------------------------------------------------------------------------------------


def fire(client, game, unit, target, die="5", rng="3", roll="typed", htmx=True, version=None, **extra):
    prefix = f"fire-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-die": die,
            f"{prefix}-range": rng, f"{prefix}-target": target, f"{prefix}-cover": extra.pop("cover", "none"),
            "roll": roll}
    for key, value in extra.items():
        data[f"{prefix}-{key}"] = value
    return client.post(f"/games/{game.pk}/fire/artillery/{unit.pk}/", data, **(HTMX if htmx else {}))


def save(client, game, unit, htmx=True, version=None, **extra):
    prefix = f"save-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version,
            **{f"{prefix}-{k}": v for k, v in extra.items()}}
    return client.post(f"/games/{game.pk}/fire/artillery/{unit.pk}/save/", data, **(HTMX if htmx else {}))


def test_every_battery_of_both_sides_that_may_fire_is_listed(client, demo):
    set_state(demo, battery(demo, "Garnett's Battalion"), m_hits=4)  # silenced
    set_state(demo, battery(demo, "2nd U.S., Battery A (Calef)"), limbered=True)
    game = at_step(demo, "artillery_fire")
    body = page(client, game)
    assert "Batteries of both sides that may still fire (3)" in body
    assert 'aria-label="Fire Pegram&#x27;s Battalion (rifles)"' in body
    assert 'aria-label="Fire 2nd Maine Light, Battery B (Hall)"' in body
    assert 'aria-label="Fire Garnett&#x27;s Battalion"' not in body
    assert 'aria-label="Fire 2nd U.S., Battery A (Calef)"' not in body
    assert "Still to do" not in body  # fire is not mandatory (4.2)


def test_a_battery_fires_and_its_hits_wait_for_the_end_of_the_step(client, demo):
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    response = fire(client, game, pegram, iron.key, die="5", rng="3")  # m_rifle up to 4": 2M
    assert is_fragment(response)
    event = last(game, "ArtilleryFired")
    assert event.inputs["hits"] == [{"unit": iron.key, "m": 2, "b": 0, "marker_b": 0}]
    assert event.result["fire"]["range_column"] == "r2" and event.result["fire"]["result"] == "2M"
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
    event = last(game, "ArtilleryFired")
    assert event.inputs["fire"]["joint_bases"] == 2
    assert event.result["fire"]["final_column"] == "left1" and event.result["fire"]["result"] == "3M 2B"
    assert event.inputs["hits"] == [{"unit": cutler.key, "m": 3, "b": 2, "marker_b": 0}]
    napoleons.refresh_from_db()
    assert napoleons.fired_this_turn


def test_saved_fire_is_used_and_cleared_and_the_battery_hits_cost_the_die(client, demo):
    pegram = battery(demo, "Pegram's Battalion (rifles)")
    set_state(demo, pegram, saved_fire=True, m_hits=1, damage=1)
    game = at_step(demo, "artillery_fire")
    fire(client, game, pegram, brigade(game, "Iron Brigade (Meredith)").key, die="10", rng="3")
    event = last(game, "ArtilleryFired")
    assert event.inputs["fire"]["saved_fire"] and event.inputs["fire"]["m_hits"] == 1
    assert {"label": "Saved Fire", "value": -1, "section": "4.3"} in event.result["fire"]["shifts"]
    assert {"label": "Each battery M and B hit x 2", "value": -2, "section": "4.4"} in event.result["fire"]["modifiers"]
    pegram.refresh_from_db()
    assert not pegram.saved_fire and pegram.fired_this_turn


def test_tandem_and_adjacent_targets_share_the_hits(client, demo):
    game = at_step(demo, "artillery_fire")
    garnett, napoleons = battery(game, "Garnett's Battalion"), battery(game, "Pegram's Battalion (Napoleons)")
    iron, cutler = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Cutler's Brigade")
    fire(client, game, garnett, iron.key, die="10", rng="1", joined=[napoleons.key], tandem=cutler.key)
    event = last(game, "ArtilleryFired")  # r1 - 2 joint - 2 drift: left3, 4M 3B
    assert event.result["fire"]["result"] == "4M 3B"
    assert event.inputs["hits"] == [{"unit": iron.key, "m": 4, "b": 2, "marker_b": 0},
                                    {"unit": cutler.key, "m": 2, "b": 1, "marker_b": 0}]


def test_printed_chart_hits_are_shared_and_marked(client, demo):
    game = at_step(demo, "artillery_fire")
    hall, hill_brigade = battery(game, "2nd Maine Light, Battery B (Hall)"), brigade(game, "Davis's Brigade")
    fire(client, game, hall, hill_brigade.key, die="5", rng="12", printed="1M 1B")
    event = last(game, "ArtilleryFired")
    assert event.printed_chart and not event.provisional and event.inputs["printed"] == "1M 1B"
    assert event.inputs["hits"] == [{"unit": hill_brigade.key, "m": 1, "b": 1, "marker_b": 0}]


@pytest.mark.parametrize(("extra", "message"), [
    ({"die": "0"}, "A d10 shows 1 to 10."), ({"die": "11"}, "A d10 shows 1 to 10."),
    ({"die": ""}, "Type the die (1-10) or press Roll for me."),
    ({"rng": ""}, "This field is required."), ({"rng": "100"}, "less than or equal to 99"),
    ({"rng": "24"}, "out of range"), ({"rng": "30"}, "no battery reaches"), ({"target": ""}, "This field is required."),
    ({"target": "brigade:2"}, "Select a valid choice"),  # Davis's: a friendly brigade
    ({"printed": "3X"}, "Write the hits as on the chart"), ({"printed": "2P"}, "not P"),
    ({"tandem": "SAME"}, "another unit than the main target"),
    ({"deep_target": "on", "cover": "heavy"}, "must all be in open terrain"),
    ({"moving_cavalry": "on"}, "is not mounted cavalry"),
    ({"packed_skirmishers": "on"}, "has no skirmish markers out"),
    ({"cover": "deep"}, "Select a valid choice"),
])
def test_bad_artillery_fire_changes_nothing(client, demo, extra, message):
    game = at_step(demo, "artillery_fire")
    pegram, iron = battery(game, "Pegram's Battalion (rifles)"), brigade(game, "Iron Brigade (Meredith)")
    values = {"die": "5", "rng": "3", "target": iron.key, **extra}
    if values.get("tandem") == "SAME":
        values["tandem"] = iron.key
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
    assert hall.saved_fire and last(game, "FireSaved").result["allowed"]
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
    response = save(client, game, battery(game, "Pegram's Battalion (rifles)"), version=version - 1)
    assert "The game moved on" in response.content.decode()
    assert 'aria-label="Fire 2nd Maine Light, Battery B (Hall)"' not in page(client, game)


def test_fire_in_the_wrong_step_is_refused(client, demo):
    game = at_step(demo, "skirmish")
    response = fire(client, game, battery(game, "Pegram's Battalion (rifles)"),
                    brigade(game, "Iron Brigade (Meredith)").key)
    assert "cannot fire now" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="ArtilleryFired").exists()


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
    assert last(game, "FireSaved").summary.endswith("(it keeps its one saved fire marker)")
    event = advance(fresh(game), None, "test")
    assert "Iron Brigade (Meredith): 4M 2B, now Demoralized, 2P, 5 bases left" in event.summary
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
    event = last(game, "ArtilleryFired")  # 3M 2B; -2 on the die does not reach a drift
    assert event.inputs["hits"] == [{"unit": iron.key, "m": 3, "b": 0, "marker_b": 2}]
    advance(fresh(game), None, "test")
    iron.refresh_from_db()
    assert (iron.m_hits, iron.bases, iron.skirmisher_grade) == (3, 7, "green")  # crack, two lines down


def test_a_unit_with_more_b_than_bases_is_destroyed(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, bases=1)
    game = at_step(demo, "artillery_fire")
    fire(client, game, battery(game, "2nd Maine Light, Battery B (Hall)"), archer.key, rng="12", printed="1M 2B")
    assert last(game, "ArtilleryFired").inputs["hits"] == [{"unit": archer.key, "m": 1, "b": 1, "marker_b": 0}]
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


# --- the demoralized panic test (4.7) ---------------------------------------------------------------------------


def panic(client, game, unit, htmx=True, version=None, **extra):
    prefix = f"panic-{unit.key}"
    data = {f"{prefix}-version": game.version if version is None else version,
            **{f"{prefix}-{k}": v for k, v in extra.items()}}
    kind = unit._meta.model_name
    return client.post(f"/games/{game.pk}/fire/panic/{kind}/{unit.pk}/", data, **(HTMX if htmx else {}))


def test_demoralized_units_with_p_hits_must_test(client, demo):
    davis, iron = brigade(demo, "Davis's Brigade"), brigade(demo, "Iron Brigade (Meredith)")
    set_state(demo, davis, m_hits=4, p_hits_turn=2)
    set_state(demo, iron, m_hits=4)  # demoralized, but no P: no test
    game = at_step(demo, "demoralized_panic")
    body = page(client, game)
    assert "demoralized panic test for Davis&#x27;s Brigade (2P)" in body
    assert "demoralized panic test for Iron" not in body
    refused = client.post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX)
    assert "Not yet: demoralized panic test for Davis" in refused.content.decode()
    response = panic(client, game, davis)
    assert is_fragment(response)
    event = last(game, "DemoralizedPanicTested")
    assert event.result["move"] == "F" and event.result["distance"] == 10.0  # average P2: fall back
    davis.refresh_from_db()
    assert (davis.forced_move, davis.bases, davis.p4_event, davis.retreated) == ("F", 8, False, False)
    advance(fresh(game), None, "test")
    assert fresh(game).step == "assaults"
    assert state_matches_events(game)


def test_a_panic_4_routs_deserts_and_flags_the_division(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, p_hits_turn=5)
    game = at_step(demo, "demoralized_panic")
    response = panic(client, game, davis, htmx=False)
    assert response.status_code == 302
    event = last(game, "DemoralizedPanicTested")
    assert event.result["p4_event"] and event.result["deserters"] == 1
    davis.refresh_from_db()
    assert (davis.forced_move, davis.bases, davis.base_hits_turn, davis.p4_event, davis.retreated) == (
        "Rt", 7, 1, True, True)
    assert Command.objects.get(pk=davis.division_id).p4_event
    undo_last(fresh(game), None, "test")
    davis.refresh_from_db()
    assert (davis.bases, davis.p4_event, davis.forced_move) == (8, False, "")
    assert not Command.objects.get(pk=davis.division_id).p4_event
    assert state_matches_events(game)


def test_a_battery_that_must_rout_is_abandoned_and_the_printed_chart_may_decide(client, demo):
    garnett, pegram = battery(demo, "Garnett's Battalion"), battery(demo, "Pegram's Battalion (rifles)")
    set_state(demo, garnett, m_hits=4, p_hits_turn=4)
    set_state(demo, pegram, m_hits=4, p_hits_turn=1)
    game = at_step(demo, "demoralized_panic")
    panic(client, game, garnett)
    garnett.refresh_from_db()
    assert garnett.abandoned
    panic(client, fresh(game), pegram, printed="Re 0")
    event = last(game, "DemoralizedPanicTested")
    assert event.printed_chart and event.result["applied"]["move"] == "Re"
    pegram.refresh_from_db()
    assert pegram.forced_move == "Re" and not pegram.abandoned


@pytest.mark.parametrize(("extra", "message"), [({"printed": "X 2"}, "Write the move as D, W, F, Re or Rt"),
                                                ({"version": ""}, "The form was incomplete: nothing was changed.")])
def test_bad_panic_forms_change_nothing(client, demo, extra, message):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, p_hits_turn=2)
    game = at_step(demo, "demoralized_panic")
    version = game.version
    response = panic(client, game, davis, **extra)
    assert response.status_code == 200 and message in response.content.decode()
    assert fresh(game).version == version


def test_panic_tests_refused_when_stale_twice_or_foreign(client, demo):
    davis, iron = brigade(demo, "Davis's Brigade"), brigade(demo, "Iron Brigade (Meredith)")
    set_state(demo, davis, m_hits=4, p_hits_turn=2)
    game = at_step(demo, "demoralized_panic")
    old = game.version
    panic(client, game, davis)
    response = panic(client, game, davis, version=old)
    assert "The game moved on" in response.content.decode()
    response = panic(client, fresh(game), davis)
    assert "has no demoralized panic test to make now" in response.content.decode()
    response = panic(client, fresh(game), iron)
    assert "has no demoralized panic test" in response.content.decode()
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    assert panic(client, game, brigade(other, "Davis's Brigade")).status_code == 404
    assert Event.objects.filter(game=game, kind="DemoralizedPanicTested").count() == 1

