"""A step's rows are listed once for every request that shares its state (``views.page.step_rows``): forty
phones of a battle draw their screens from one reading of a version, and each draws copies of the rows it shows
(``views.page.drawn``), filled in once for them all, each closed row's head drawn once (``Row.heads``)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from republic.games.readings import readings
from republic.games.steps import step_of
from republic.games.steps.artillery_fire import state as artillery_state
from republic.games.templatetags.work_rows import row_head
from republic.games.views.page import drawn, step_rows
from tests.games.conftest import at_step, fresh


def counted(handler, calls):
    def rows(state):
        calls.append(state)
        return handler.rows(state)

    return rows


def test_requests_sharing_a_state_list_its_rows_once_and_each_fills_in_its_own(demo):
    game = at_step(demo, "move")
    handler = step_of(game)
    calls = []
    with readings(shared=True):
        state = handler.state(game)
        first = step_rows(game, counted(handler, calls), state)
        opened = drawn(game, state, first[:1], {}, [first[0].subject])
    assert opened[0].opened and opened[0] is not first[0]
    with readings(shared=True):
        again = fresh(game)
        second = step_rows(again, counted(handler, calls), handler.state(again))
    assert len(calls) == 1 and first
    assert [row.subject for row in second] == [row.subject for row in first]
    assert second[0].opened is None
    assert second[0].address == f"/games/{game.pk}/rows/{second[0].subject}/"


def test_a_state_whose_game_moved_on_in_hand_lists_its_rows_again(demo):
    game = at_step(demo, "move")
    handler = step_of(game)
    calls = []
    with readings():
        state = handler.state(game)
        step_rows(game, counted(handler, calls), state)
        step_rows(game, counted(handler, calls), state)
        state.game.version += 1  # as an action records its event on the game it holds
        step_rows(game, counted(handler, calls), state)
    assert len(calls) == 2


def test_requests_sharing_a_state_fill_in_its_rows_once_and_draw_each_closed_head_once(demo):
    game = at_step(demo, "move")
    handler = step_of(game)
    with readings(shared=True):
        first = drawn(game, handler.state(game), step_rows(game, handler.rows, handler.state(game))[:3], {})
        heads = [row_head(row) for row in first]
    again = fresh(game)
    with readings(shared=True), CaptureQueriesContext(connection) as read:
        state = handler.state(again)
        second = drawn(again, state, step_rows(again, handler.rows, state)[:3], {})
        assert [row_head(row) for row in second] == heads
    assert read.captured_queries == []  # neither the state, nor what its rows show, nor their heads read again
    assert all(row.facts for row in second) and [r.facts for r in second] == [r.facts for r in first]
    assert all(row_head(b) is row_head(a) for a, b in zip(first, second, strict=True))
    # a device that may not act on the row, or whose next work it is, is drawn a head of its own
    second[0].theirs, second[1].by_itself = "The Union acts", True
    assert "work-theirs" in row_head(second[0]) and "work-theirs" not in heads[0]
    assert "data-next" in row_head(second[1]) and "data-next" not in heads[1]
    assert row_head(first[1]) is heads[1]


def test_an_action_draws_its_rows_from_its_own_reading_not_one_filled_for_others(demo):
    game = at_step(demo, "move")
    handler = step_of(game)
    with readings(shared=True):
        shared = drawn(game, handler.state(game), step_rows(game, handler.rows, handler.state(game))[:1], {})
    again = fresh(game)
    with readings(), CaptureQueriesContext(connection) as read:
        state = handler.state(again)
        own = drawn(again, state, step_rows(again, handler.rows, state)[:1], {})
    assert read.captured_queries and own[0].facts == shared[0].facts and own[0].heads is not shared[0].heads


def test_phones_sharing_the_artillery_step_read_its_batteries_and_their_enemies_once(demo):
    game = at_step(demo, "artillery_fire")
    handler = step_of(game)
    with readings(shared=True):
        state = handler.state(game)
        row = step_rows(game, handler.rows, state)[0]
        drawn(game, state, [row], {}, [row.subject])
    again = fresh(game)
    with readings(shared=True), CaptureQueriesContext(connection) as read:
        state = artillery_state(again)
        opened = drawn(again, state, step_rows(again, handler.rows, state)[:1], {}, [row.subject])[0].opened
    assert opened is not None and opened["form"].fields["target"].picks
    assert read.captured_queries == []
