"""A step's state is read once per game version in a request: the form an action checks, the action itself and
the rows of its answer share one reading, and an action that ends (done or refused) forgets what was read."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from republic.games.events.game import CorrectionMade, FieldValue
from republic.games.ledger import ActionRefused, act
from republic.games.readings import readings
from republic.games.steps import first_attacker, skirmish
from tests.games.conftest import HTMX, at_step, brigade, fresh, set_state, state_matches_events

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
