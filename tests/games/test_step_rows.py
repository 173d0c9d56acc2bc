"""A step's rows are listed once for every request that shares its state (``views.page.step_rows``): forty
phones of a battle draw their screens from one reading of a version, and each fills in copies of the rows it draws
(``views.page.drawn``)."""

from republic.games.readings import readings
from republic.games.steps import step_of
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
