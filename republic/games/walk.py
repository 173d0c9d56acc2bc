"""The walk through the turn sequence (1.6, 1.7): where the game stands, what is still to do, and moving on."""

from republic.games.ledger import Action, ActionRefused, act_on
from republic.games.models import Battery, Brigade, Command, Event, Game, Leader
from republic.games.phases import handler_for
from republic.rules.sequence import Position, StepKey, next_position, step_for


class StepBlocked(ActionRefused):
    def __init__(self, todo: list[str]):
        self.todo = todo
        super().__init__("Not yet: " + "; ".join(todo))


def position(game: Game) -> Position:
    return Position(game.game_turn, game.player_turn, StepKey(game.step))


def pending(game: Game) -> list[str]:
    if game.status != Game.Status.IN_PROGRESS:
        return ["choose the first attacker"] if game.status == Game.Status.SETTING_UP else ["the game is over"]
    return handler_for(game.step).pending(game)


def advance(game: Game, version: int | None, actor: str = "") -> Event:
    """Move to the next step; refused while the step has unresolved work. Leaving a step applies its closing
    effects; leaving the last step of a player turn clears what lasts only one player turn (1.7)."""
    with act_on(game, version, actor) as action:
        current = action.game
        todo = pending(current)
        if todo:
            raise StepBlocked(todo)
        here = position(current)
        on_leave = handler_for(current.step).on_leave
        notes = on_leave(action) if on_leave else []
        following = next_position(here)
        if (following.game_turn, following.player_turn) != (here.game_turn, here.player_turn):
            _end_player_turn(action)
            notes.append(f"end of player turn {here.player_turn} of game turn {here.game_turn}")
        action.set(current, "game_turn", following.game_turn)
        action.set(current, "player_turn", following.player_turn)
        action.set(current, "step", following.step.value)
        step = step_for(following.step)
        summary = f"On to {step.phase.value}: {step.title}" + (f" ({'; '.join(notes)})" if notes else "")
        return action.record("StepAdvanced", summary, inputs={"from": here.step.value, "to": following.step.value})


def _end_player_turn(action: Action) -> None:
    game = action.game
    turn_fields = {
        Brigade: {"p_hits_turn": 0, "base_hits_turn": 0, "p4_event": False, "forced_move": "",
                  "charge_bonus_used": False, "retreated": False},
        Battery: {"p_hits_turn": 0, "base_hits_turn": 0, "p4_event": False, "forced_move": "",
                  "fired_this_turn": False, "functions_used": []},
        Command: {"p4_event": False, "panicked": False},
        Leader: {"replaced_this_turn": False},
    }
    for model, fields in turn_fields.items():
        for row in model.objects.filter(game=game):
            for name, value in fields.items():
                action.set(row, name, value)


def choose_first_attacker(game: Game, side_id: int, version: int | None, actor: str, how: str) -> Event:
    """Start play with the side that attacks first (1.6): by agreement or by the high roller's choice."""
    with act_on(game, version, actor) as action:
        current = action.game
        side = current.sides.get(pk=side_id)
        action.set(current, "first_attacker", side.pk)
        action.set(current, "status", Game.Status.IN_PROGRESS.value)
        return action.record("FirstAttackerChosen", f"{side.name} attack first ({how})", subject=side.name,
                             inputs={"side": side.name, "how": how})
