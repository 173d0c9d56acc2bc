"""A step's state is read once per game version in a request: the form an action checks, the action itself and
the rows of its answer share one reading, and an action that ends (done or refused) forgets what was read."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from republic.games.events.game import CorrectionMade, FieldValue
from republic.games.ledger import ActionRefused, act
from republic.games.models import Unit
from republic.games.readings import read_once_of, readings
from republic.games.steps import first_attacker, skirmish
from republic.games.steps.walk import together
from tests.games.conftest import HTMX, at_step, brigade, division, fresh, set_state, state_matches_events
from tests.games.test_adjoining_panic import panicked_wadsworth
from tests.games.test_internal_panic import declare_post

SKIRMISH_EVENTS = "SkirmishBlocksRolled"  # a kind only the skirmish state's reading of events asks for


def readings_of_skirmish(queries: CaptureQueriesContext) -> int:
    return sum(SKIRMISH_EVENTS in q["sql"] for q in queries.captured_queries)


def read(game) -> int:
    with CaptureQueriesContext(connection) as queries:
        skirmish.state(game)
    return readings_of_skirmish(queries)


@pytest.fixture
def screens(demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), skirmishers_deployed=2)
    return at_step(demo, "skirmish")


def test_outside_a_request_every_call_reads(screens):
    assert [read(screens), read(screens)] == [1, 1]


def test_inside_a_request_a_version_is_read_once_and_a_new_version_again(screens):
    with readings():
        first = skirmish.state(screens)
        assert read(screens) == 0 and skirmish.state(screens) is first
        moved_on = fresh(screens)
        moved_on.version += 1
        assert read(moved_on) == 1


def test_an_action_refused_part_way_forgets_what_was_read(screens):
    """What an action began to change on the units it read is rolled back: those units are not read again."""
    with readings():
        read_before = skirmish.state(screens)
        davis = next(u for u in read_before.units.values() if u.name == "Davis's Brigade")
        with pytest.raises(ActionRefused), act(screens, screens.version) as action:
            action.set(davis, "skirmishers_deployed", 1)
            raise ActionRefused("refused after a change")
        again = skirmish.state(screens)
        assert again is not read_before
        assert next(u for u in again.units.values() if u.name == "Davis's Brigade").skirmishers_deployed == 2
    assert state_matches_events(screens)


def test_an_attack_sent_from_its_row_reads_the_step_twice(client, screens):
    """Once at the version the form was drawn for (the form's targets and the action), once after (the answer's
    rows and step bar)."""
    game, davis = screens, brigade(screens, "Davis's Brigade")
    version = fresh(game).version
    prefix = f"skirmish-{davis.piece.name}"
    data = {
        f"{prefix}-version": version,
        f"{prefix}-die": "8",
        f"{prefix}-range": "1",
        f"{prefix}-target": brigade(game, "Iron Brigade (Meredith)").name,
        "roll": "typed",
    }
    headers = {**HTMX, "HTTP_HX_TARGET": f"row-unit-{davis.pk}", "HTTP_ROWS_SHOWN": f"unit-{davis.pk}"}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/games/{game.pk}/act/skirmish-attack/unit-{davis.pk}/", data, **headers)
    assert response.status_code == 200 and fresh(game).version == version + 1
    assert readings_of_skirmish(queries) == 2
    assert state_matches_events(game)


def read_shared(game) -> int:
    with readings(shared=True):
        return read(game)


def test_requests_that_change_nothing_share_a_version_read_by_another(screens):
    """Forty phones polling one game: each version of the step's state is read by the first request only."""
    assert [read_shared(screens), read_shared(screens)] == [1, 0]
    moved_on = fresh(screens)
    moved_on.version += 1
    assert [read_shared(moved_on), read_shared(moved_on)] == [1, 0]


def test_an_action_reads_its_own_state_not_a_shared_one(screens):
    assert read_shared(screens) == 1
    with readings():
        assert read(screens) == 1


def test_a_game_being_set_up_is_read_by_every_request(demo):
    """Before the first event the admin may change a game's rows without a new version."""
    assert fresh(demo).version == 0
    with CaptureQueriesContext(connection) as first, readings(shared=True):
        first_attacker.state(demo)
    with CaptureQueriesContext(connection) as second, readings(shared=True):
        first_attacker.state(demo)
    assert len(first.captured_queries) == len(second.captured_queries) > 0


def test_an_action_does_not_change_the_reading_the_pages_share(client, screens):
    """The page reads the state and keeps it for the next page at that version; an action reads its own and
    changes the units it read: the kept reading still shows the version it was read at, the next page's the
    change."""
    game = screens
    assert client.get(f"/games/{game.pk}/").status_code == 200
    with readings(shared=True):
        kept = skirmish.state(fresh(game))
    with readings():
        acting = skirmish.state(fresh(game))
        assert acting is not kept
        davis = next(u for u in acting.units.values() if u.name == "Davis's Brigade")
        with act(game, fresh(game).version, "test") as action:
            action.set(davis, "skirmishers_deployed", 1)
            action.record(
                CorrectionMade(f"unit:{davis.pk}", davis.name, None, (FieldValue("skirmishers_deployed", 1),))
            )
    assert next(u for u in kept.units.values() if u.name == "Davis's Brigade").skirmishers_deployed == 2
    with readings(shared=True):
        now = skirmish.state(fresh(game))
    assert next(u for u in now.units.values() if u.name == "Davis's Brigade").skirmishers_deployed == 1
    assert state_matches_events(game)


def test_a_request_that_acts_reads_its_own_state_from_then_on(screens):
    """Should a request that began as a reader act, the action still never changes a reading others share."""
    with readings(shared=True):
        kept = skirmish.state(fresh(screens))
        with act(screens, fresh(screens).version, "test") as action:
            acting = skirmish.state(fresh(screens))
            assert acting is not kept
            davis = next(u for u in acting.units.values() if u.name == "Davis's Brigade")
            action.set(davis, "skirmishers_deployed", 1)
            action.record(
                CorrectionMade(f"unit:{davis.pk}", davis.name, None, (FieldValue("skirmishers_deployed", 1),))
            )
        assert read(fresh(screens)) == 1
    assert next(u for u in kept.units.values() if u.name == "Davis's Brigade").skirmishers_deployed == 2
    assert state_matches_events(screens)


units_read: list[int] = []


@read_once_of(Unit)
def skirmishers(game) -> dict[str, int]:
    """A reading of the game's units alone, as the division panic reads them."""
    units_read.append(game.version)
    return dict(Unit.objects.filter(game=game).values_list("name", "skirmishers_deployed"))


def corrected(game, row, field, value) -> None:
    with act(game, fresh(game).version, "test") as action:
        action.set(row, field, value)
        action.record(CorrectionMade(row.piece.key, row.name, None, (FieldValue(field, value),)))


def test_a_reading_of_units_outlives_an_action_that_changes_no_unit_and_no_other(screens):
    """Naming a division's neighbours or leaving a step changes no unit: its answer does not read every unit of
    the battle again. Every other reading (the step's, which reads events) is made again."""
    units_read.clear()
    with readings():
        before = skirmishers(fresh(screens))
        assert read(fresh(screens)) == 1
        corrected(screens, division(screens, "Heth's Division"), "orders", "hold")
        game = fresh(screens)
        assert skirmishers(game) is before and read(game) == 1
    assert units_read == [game.version - 1]
    assert before == skirmishers(game) and units_read == [game.version - 1, game.version]


def test_an_action_that_changes_a_unit_has_the_units_read_again(screens):
    units_read.clear()
    with readings():
        assert skirmishers(fresh(screens))["Davis's Brigade"] == 2
        corrected(screens, brigade(screens, "Davis's Brigade"), "skirmishers_deployed", 1)
        assert skirmishers(fresh(screens))["Davis's Brigade"] == 1
    assert len(units_read) == 2 and state_matches_events(screens)


def test_an_action_refused_forgets_the_units_read_too(screens):
    units_read.clear()
    with readings():
        skirmishers(fresh(screens))
        with pytest.raises(ActionRefused), act(screens, fresh(screens).version) as action:
            action.set(division(screens, "Heth's Division"), "orders", "hold")
            raise ActionRefused("refused after a change")
        skirmishers(fresh(screens))
    assert len(units_read) == 2


def test_actions_rolled_back_together_leave_nothing_they_carried(screens):
    """A Next step whose last pass fails is rolled back whole: the reading its first action carried to a version
    that never was must not stand for the version another device's action makes next."""
    with readings():
        skirmishers(fresh(screens))
        with pytest.raises(RuntimeError), together():
            corrected(screens, division(screens, "Heth's Division"), "orders", "hold")
            raise RuntimeError("a step after it failed")
        with readings():  # another device's request
            corrected(screens, brigade(screens, "Davis's Brigade"), "skirmishers_deployed", 1)
        assert skirmishers(fresh(screens))["Davis's Brigade"] == 1


def test_naming_adjoining_divisions_reads_the_battles_units_once(client, demo):
    """The form's check, the action and its answer's rows share one reading of every unit: the action changes none."""
    game = panicked_wadsworth(client, demo)
    wadsworth, buford = division(game, "Wadsworth's Division"), division(game, "Buford's Cavalry Division")
    version = game.version
    with CaptureQueriesContext(connection) as queries:
        response = declare_post(client, game, wadsworth, [buford])
    assert response.status_code == 200 and fresh(game).version == version + 1
    assert sum('AS "p4"' in q["sql"] for q in queries.captured_queries) == 1
    assert "Adjoining Wadsworth&#x27;s Division: Buford&#x27;s Cavalry Division" in response.content.decode()


def test_next_step_reads_the_step_it_came_to_once(client, demo):
    """The step Next step came to is read to see whether it passes by itself; it does not, and that reading is the
    answer's: an action refused before it changed anything leaves what was read."""
    set_state(demo, brigade(demo, "Davis's Brigade"), skirmishers_deployed=2)
    game = at_step(demo, "move")
    version = game.version
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/games/{game.pk}/next/", {"version": version}, **HTMX)
    assert response.status_code == 200 and fresh(game).step == "skirmish" and game.version == version + 1
    assert readings_of_skirmish(queries) == 1
    assert "Davis&#x27;s Brigade" in response.content.decode()
