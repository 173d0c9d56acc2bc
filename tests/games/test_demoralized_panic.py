"""The demoralized panic test at the table (4.7): demoralized units whose excess M from fire became P make their
Panic Index move; a Panic 4 event flags the division; a battery that must rout is abandoned; the printed chart.
htmx and plain POST, bad input, undo, stale and foreign forms."""

import pytest

from republic.games.ledger import undo_last
from republic.games.models import Command, Event
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import advance
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import (
    HTMX,
    at_step,
    battery,
    brigade,
    fresh,
    is_fragment,
    last,
    page,
    payload,
    set_state,
    state_matches_events,
)
from tests.games.test_artillery_fire import fire


def panic(client, game, unit, htmx=True, version=None, **extra):
    prefix = f"panic-{unit.piece.name}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        **{f"{prefix}-{k}": v for k, v in extra.items()},
    }
    return client.post(f"/games/{game.pk}/act/demoralized-panic-test/unit-{unit.pk}/", data, **(HTMX if htmx else {}))


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
    result = payload(last(game, "DemoralizedPanicTested")).result
    assert result.move == "F" and result.distance == 10.0  # average P2: fall back
    davis.refresh_from_db()
    assert (davis.forced_move, davis.bases, davis.p4_event, davis.retreated) == ("F", 8, False, False)
    advance(fresh(game), None, "test")
    assert fresh(game).step == "assaults"
    assert state_matches_events(game)


def test_a_demoralized_unit_whose_panic_move_the_enemy_blocks_surrenders(client, demo):
    """R:1318 brings the demoralized panic move under 5.5's Group Surrender (R:1673-1678): the table ticks that
    Davis cannot move back without passing through an enemy formation, and it surrenders whole instead of
    falling back; undone, it stands again."""
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, p_hits_turn=2)
    game = at_step(demo, "demoralized_panic")
    opened = client.get(f"/games/{game.pk}/?open=unit-{davis.pk}").content.decode()
    assert "Cannot move back without passing through an enemy formation" in opened
    response = panic(client, game, davis, surrounded="on")
    assert "surrenders: its fall back would pass through an enemy formation; all 8 bases taken" in (
        response.content.decode()
    )
    p = payload(last(game, "DemoralizedPanicTested"))
    assert p.inputs.retreat_blocked and p.result.surrendered
    davis.refresh_from_db()
    assert (davis.bases, davis.surrendered, davis.base_hits_turn) == (0, True, 8)
    assert state_matches_events(game)
    undo_last(fresh(game), None, "test")
    davis.refresh_from_db()
    assert (davis.bases, davis.surrendered) == (8, False)


def test_a_panic_4_routs_deserts_and_flags_the_division(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, p_hits_turn=5)
    game = at_step(demo, "demoralized_panic")
    response = panic(client, game, davis, htmx=False)
    assert response.status_code == 302
    result = payload(last(game, "DemoralizedPanicTested")).result
    assert result.p4_event and result.deserters == 1
    davis.refresh_from_db()
    assert (davis.forced_move, davis.bases, davis.base_hits_turn, davis.p4_event, davis.retreated) == (
        "Rt",
        7,
        1,
        True,
        True,
    )
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
    assert event.printed_chart and payload(event).result.move == "Re"
    pegram.refresh_from_db()
    assert pegram.forced_move == "Re" and not pegram.abandoned


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"printed": "X 2"}, "Write the move as D, W, F, Re or Rt"),
        ({"version": ""}, "The form was incomplete: nothing was changed."),
    ],
)
def test_bad_panic_forms_change_nothing(client, demo, extra, message):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, p_hits_turn=2)
    game = at_step(demo, "demoralized_panic")
    version = game.version
    response = panic(client, game, davis, **extra)
    assert response.status_code == 200 and message in response.content.decode()
    assert fresh(game).version == version


def test_a_panic_test_at_another_step_is_refused_naming_the_unit(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, p_hits_turn=2)
    game = at_step(demo, "artillery_fire")
    response = panic(client, game, davis)
    assert "Davis&#x27;s Brigade has no demoralized panic test to make now." in response.content.decode()
    assert fresh(game).version == game.version


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


def test_a_demoralized_unit_destroyed_by_fire_with_panic_4_still_makes_its_division_test(client, demo):
    """R:1270-1272 and R:1866-1868: a unit wiped out by fire makes no panic move, but its Panic 4 still makes its
    division test for internal panic."""
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, bases=1)
    game = at_step(demo, "artillery_fire")
    fire(client, game, battery(game, "2nd Maine Light, Battery B (Hall)"), "Davis's Brigade", printed="4M 2B")
    advance(fresh(game), None, "test")  # the fire phase's hits go on as the step is left
    davis.refresh_from_db()
    assert (davis.bases, davis.destroyed, davis.p_hits_turn, davis.p4_event) == (0, True, 4, True)
    assert "demoralized panic test for Davis" not in page(client, at_step(fresh(game), "demoralized_panic"))
    game = at_step(fresh(game), "internal_panic")
    assert "roll the internal panic test of Heth&#x27;s Division" in page(client, game)
    assert state_matches_events(game)
