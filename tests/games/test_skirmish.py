"""The skirmish step at the table (4.1): blocks declared before any roll, the blocks rolled, then each unblocked
attacking marker may fire once; its hit waits for the end of the artillery step. htmx and plain POST, bad input,
undo, stale forms."""

import pytest

from republic.games.events.fire import DeclaredBlock
from republic.games.events.payload import LabelledRoll
from republic.games.ledger import undo_last
from republic.games.models import Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.rules.dice import Roll, RollSource
from republic.rules.fire_results import FireHits
from republic.rules.results import Provenance
from republic.rules.troops import Grade
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import (
    HTMX,
    at_step,
    brigade,
    fresh,
    is_fragment,
    last,
    page,
    payload,
    row_of,
    set_state,
    state_matches_events,
    summary,
)


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
    return client.post(f"/games/{game.pk}/act/declare-blocks/game-{game.pk}/", data, **(HTMX if htmx else {}))


def roll_blocks(client, game, dice: list[str], roll="typed", htmx=True, version=None, **extra):
    data = {"skirmish-rolls-version": game.version if version is None else version, "roll": roll, **extra}
    for i, die in enumerate(dice):
        data[f"skirmish-rolls-die_{i}"] = die
    return client.post(f"/games/{game.pk}/act/roll-blocks/game-{game.pk}/", data, **(HTMX if htmx else {}))


def attack(client, game, unit, target, die="10", rng="1", roll="typed", htmx=True, version=None, **extra):
    prefix = f"skirmish-{unit.piece.name}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-die": die,
        f"{prefix}-range": rng,
        f"{prefix}-target": target,
        "roll": roll,
        **{f"{prefix}-{k}": v for k, v in extra.items()},
    }
    return client.post(f"/games/{game.pk}/act/skirmish-attack/unit-{unit.pk}/", data, **(HTMX if htmx else {}))


def test_blocks_are_declared_before_any_roll_and_the_step_waits_for_them(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    body = page(client, game)
    assert "Union: declare every block first" in body
    assert "has fired" not in body and "The Confederate markers fire once the blocks are declared and rolled." in body
    assert "Iron Brigade (Meredith), marker 1 (crack) tries to block" in body
    assert "Skirmish attack by Davis" not in body
    # no attack before the blocks are declared
    attack(client, game, davis, iron.key)
    assert not Event.objects.filter(game=game, kind="SkirmishAttacked").exists()
    response = declare(client, fresh(game), {iron: f"{davis.key}#1"})
    assert is_fragment(response)
    event = last(game, "SkirmishBlocksDeclared")
    assert payload(event).blocks == (
        DeclaredBlock(
            blocker=f"{iron.key}#1",
            blocker_name="Iron Brigade (Meredith), marker 1",
            grade=Grade.CRACK,
            target=f"{davis.key}#1",
            target_name="Davis's Brigade, marker 1",
        ),
    )
    assert "roll the 1 declared skirmish block" in page(client, game)
    assert "The Confederate markers fire once the declared blocks are rolled." in page(client, game)
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
    rolled = payload(event)
    assert rolled.blocked == (f"{davis.key}#1",)
    assert rolled.result.attempts[0].needed == 5 and event.provisional
    assert rolled.rolls() == (LabelledRoll("Iron Brigade (Meredith), marker 1", Roll((5,), RollSource.TYPED)),)
    assert " bases · 1 marker to fire · " in row_of(page(client, game), brigade(game, "Davis's Brigade"))
    attack(client, fresh(game), davis, iron.key)
    assert "Every unblocked attacking skirmish marker has fired." in page(client, game)


def test_a_failed_block_and_the_printed_chart_override(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {iron: f"{davis.key}#2"})
    roll_blocks(client, fresh(game), ["4"], **{"skirmish-rolls-printed_0": "blocked"})
    event = last(game, "SkirmishBlocksRolled")
    attempt = payload(event).result.attempts[0]
    # the app's chart says no (4 is under the crack block number) ... the printed verdict is now an input of the
    # mechanic, so the attempt itself is blocked and its cell says "printed"
    assert attempt.roll < attempt.needed and attempt.blocked is True
    assert payload(event).result.cells[0].provenance is Provenance.PRINTED
    assert payload(event).blocked == (f"{davis.key}#2",)  # ... the players' chart says yes, and stands
    assert event.printed_chart and not event.provisional


def test_declaring_no_block_goes_straight_to_the_attacks(client, screens):
    game = screens
    declare(client, game, {})
    assert summary(last(game, "SkirmishBlocksDeclared")).endswith("no blocks")
    assert " bases · 2 markers to fire · " in row_of(page(client, game), brigade(game, "Davis's Brigade"))


@pytest.mark.parametrize(
    ("die", "message"),
    [
        ("0", "A d10 shows 1 to 10."),
        ("11", "A d10 shows 1 to 10."),
        ("", "Tap the die you rolled (1-10), or press Roll for me."),
    ],
)
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
    roll = payload(last(game, "SkirmishBlocksRolled")).rolls()[0].roll
    assert roll.source is RollSource.APP and 1 <= roll.faces[0] <= 10


def test_a_declaration_naming_a_marker_that_is_not_there_is_refused(client, screens):
    game, iron = screens, brigade(screens, "Iron Brigade (Meredith)")
    response = declare(client, game, {iron: "unit:999#1"})
    assert "That attacking marker is not one to choose here" in response.content.decode()
    assert not Event.objects.filter(game=game, kind="SkirmishBlocksDeclared").exists()


def test_an_unblocked_attack_scores_1m_held_to_the_end_of_the_artillery_step(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {})
    response = attack(client, fresh(game), davis, iron.key, die="8", rng="1.5")  # Veteran line, up to 2": 8
    assert is_fragment(response)
    attacked = payload(last(game, "SkirmishAttacked"))
    assert attacked.hits == (FireHits(iron.key, m=1, b=0),)
    assert attacked.result.needed == 8 and attacked.result.band == "r1"
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
    attacked = payload(last(game, "SkirmishAttacked"))
    assert attacked.result.fled and attacked.hits == ()
    brock.refresh_from_db()
    assert brock.skirmishers_deployed == 0
    assert "Every unblocked attacking skirmish marker has fired" in page(client, game)  # fled
    undo_last(fresh(game), None, "test")
    brock.refresh_from_db()
    assert brock.skirmishers_deployed == 1
    assert " bases · 1 marker to fire · " in row_of(page(client, game), brigade(game, "Brockenbrough's Brigade"))
    assert state_matches_events(game)


def test_skirmish_attack_printed_chart_and_roll_for_me(client, screens):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {})
    attack(client, fresh(game), davis, iron.key, die="2", printed="hit")
    event = last(game, "SkirmishAttacked")
    assert event.printed_chart and payload(event).hits == (FireHits(iron.key, m=1, b=0),)
    attack(client, fresh(game), davis, iron.key, die="", roll="app")
    assert payload(last(game, "SkirmishAttacked")).rolls()[0].roll.source is RollSource.APP
    set_state(fresh(game), davis, skirmishers_deployed=3)
    attack(client, fresh(game), davis, iron.key, die="9", printed="flee")  # the app's chart: a Veteran-line hit
    attacked = payload(last(game, "SkirmishAttacked"))
    # the printed verdict is an input of the mechanic: the result is the players' flee, the app's chart a hit
    assert attacked.result.roll >= attacked.result.needed and not attacked.result.hit
    assert attacked.result.fled and attacked.hits == ()
    davis.refresh_from_db()
    assert davis.skirmishers_deployed == 2
    assert "Every unblocked attacking skirmish marker has fired" in page(client, game)  # 2 out + 1 fled, 3 fired


FRIENDLY = "friendly:Archer's Brigade"  # a brigade of the attacker's own side: its key is looked up in the test


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("die", "0", "A d10 shows 1 to 10."),
        ("die", "11", "A d10 shows 1 to 10."),
        ("die", "", "Tap the die you rolled (1-10), or press Roll for me."),
        ("range", "", "This field is required."),
        ("range", "-1", "Ensure this value is greater than or equal to 0"),
        ("range", "6", "skirmish fire reaches 5&quot; at the medium scale"),
        ("target", FRIENDLY, "That enemy unit is not one to choose here"),  # Archer's: a friendly brigade
    ],
)
def test_bad_skirmish_attacks_change_nothing(client, screens, field, value, message):
    game, davis, iron = screens, brigade(screens, "Davis's Brigade"), brigade(screens, "Iron Brigade (Meredith)")
    declare(client, game, {})
    if value.startswith("friendly:"):
        value = brigade(game, value.partition(":")[2]).key
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
