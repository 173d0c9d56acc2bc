"""The walk through the turn sequence (1.6, 1.7): where the game stands, what is still to do, and moving on."""

from republic.games.events.game import StepAdvanced
from republic.games.ledger import Action, ActionRefused, act
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.steps import step_of
from republic.rules.sequence import Position, next_position
from republic.rules.units import TURN_FIELDS, new_player_turn


class StepBlocked(ActionRefused):
    def __init__(self, todo: list[str]):
        self.todo = todo
        super().__init__("Not yet: " + "; ".join(todo))


def position(game: Game) -> Position:
    return Position(game.game_turn, game.player_turn, game.step_key)


def not_in_play(game: Game) -> list[str]:
    """What stands in the way of a game that is not being played: setting it up, or its end."""
    return ["the game is over"] if game.over else ["choose the first attacker"]


def pending(game: Game) -> list[str]:
    if game.status != Game.Status.IN_PROGRESS:
        return not_in_play(game)
    step = step_of(game)
    return step.pending(step.state(game))


def advance(game: Game, version: int | None, actor: str = "", *, anyway: bool = False) -> Event:
    """Move to the next step; refused while the step has unresolved work, unless the game master moves on
    ``anyway`` (a player has gone home, a table settled it by hand): the work left is named in the event. Leaving
    a step applies its closing effects; leaving the last step of a player turn clears what lasts only one
    player turn (1.7)."""
    with act(game, version, actor) as action:
        current = action.game
        if not current.in_progress:
            raise StepBlocked(pending(current))
        step = step_of(current)
        state = step.state(current)
        todo = step.pending(state)
        if todo and not anyway:
            raise StepBlocked(todo)
        here = position(current)
        closing = step.leave(action, state) if step.leave else {}
        following = next_position(here)
        turn_ended = (following.game_turn, following.player_turn) != (here.game_turn, here.player_turn)
        if turn_ended:
            _end_player_turn(action)
        action.set(current, "game_turn", following.game_turn)
        action.set(current, "player_turn", following.player_turn)
        action.set(current, "step", following.step.value)
        left_undone = tuple(todo)
        return action.record(
            StepAdvanced(here.step, following.step, turn_ended=turn_ended, **closing, left_undone=left_undone)
        )


def _end_player_turn(action: Action) -> None:
    game = action.game
    # a unit has something to clear when one of its fields of the turn is set (they are all empty once cleared):
    # only those are read as rows, not every unit of the battle
    marked = [pk for pk, *turn in Unit.objects.filter(game=game).values_list("pk", *TURN_FIELDS) if any(turn)]
    for unit in Unit.objects.filter(pk__in=marked):
        action.apply(unit, new_player_turn(unit.to_rules()))
    for command in Command.objects.filter(game=game, panicked=True):
        action.set(command, "panicked", False)
    for leader in Leader.objects.filter(game=game, replaced_this_turn=True):
        action.set(leader, "replaced_this_turn", False)
