"""The walk through the turn sequence (1.6, 1.7): where the game stands, what is still to do, and moving on.

A step the app knows nobody has anything to do in passes by itself (``move_on``): the table's Next step moves on,
and every step it then comes to that is idle (``Step.idle``: a rally with no unit to rally, no leader to replace,
no leader at risk of hors de combat, no demoralized unit to test, no division to test) is left at once, each by
its own StepAdvanced event, naming why, in the same transaction; so is a step that an action leaves with nobody
having anything to do in it, where its work is only actions nobody may add to (``after_action``: the last fallen
leader replaced). A step in which the table may
still act waits for Next step even when the app sees nothing due: the fire steps (the table decides who fires),
the moves, the assaults (the table declares them), charge disorder (the table may name other units that charged)
and the defenders' messages; so does a step with work for one side only. Undo takes a Next step, or the action,
back with the steps that passed by themselves after it (``undo``); going back to an event (``undo_to``) undoes
event by event, and may stop at a step that passed by itself, which waits there for Next step."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction

from republic.games.events.game import PassedStep, StepAdvanced
from republic.games.events.payload import payload_of
from republic.games.ledger import Action, ActionRefused, StaleGame, act, as_stored, undo_last
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.readings import forget
from republic.games.steps import step_of
from republic.games.steps.base import Step
from republic.rules.sequence import Position, next_position
from republic.rules.units import TURN_CLEARED

_CLEARED = {name: as_stored(value) for name, value in TURN_CLEARED.items()}
"""What a unit's row keeps in each field of the turn once it ends (1.7)."""


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


class _Waits(Exception):
    """The step the game came to has something to do: it does not pass by itself."""


@contextmanager
def together() -> Iterator[None]:
    """Several actions as one, all or nothing (a Next step and the steps that pass by themselves after it). Each
    action carries what it did not change to the next (``act``); rolled back, none of it was ever the game's, so
    what the request read is forgotten."""
    try:
        with transaction.atomic():
            yield
    except BaseException:
        forget()
        raise


def move_on(game: Game, version: int | None, actor: str = "", *, anyway: bool = False) -> Event:
    """The table's Next step: ``advance``, then past every idle step it comes to, one event a step, all or nothing
    in one transaction. The last event is returned: its words name every step that passed by itself."""
    with together():
        return _past_idle(game, advance(game, version, actor, anyway=anyway), actor)


def after_action(game: Game, event: Event, actor: str = "") -> Event:
    """An action that left its step with nothing for anybody to do (``Step.done_passes``: the last fallen leader
    replaced) moves the game on as a Next step would: past that step and every idle one after it, each by its own
    event after the action's, so that Undo takes them back with it. When another device acted meanwhile, the step
    stays and waits for Next step."""
    try:
        with together():
            return _past_idle(game, event, actor)
    except StaleGame:
        return event


def _past_idle(game: Game, event: Event, actor: str) -> Event:
    """Past every idle step from the one ``event`` left the game at, all or nothing; the last event."""
    passed: tuple[PassedStep, ...] = ()
    while True:
        try:
            event = _pass_by_itself(game, event.seq, actor, passed)
        except _Waits:
            return event
        passed = _passes(event)


def _pass_by_itself(game: Game, version: int, actor: str, passed: tuple[PassedStep, ...]) -> Event:
    with act(game, version, actor) as action:
        current = action.game
        step = step_of(current)
        if not current.in_progress or step.idle is None:
            raise _Waits
        state = step.state(current)
        why = step.idle(state)
        if not why:
            raise _Waits
        return _leave(action, step, state, (), (*passed, PassedStep(current.step_key, why)))


def _passes(event: Event) -> tuple[PassedStep, ...]:
    """The steps that passed by themselves up to this event, since the Next step that began them."""
    payload = payload_of(event)
    return payload.by_itself if isinstance(payload, StepAdvanced) else ()


def undo(game: Game, version: int | None, actor: str = "") -> Event:
    """Take back the last action; a step that passed by itself goes back with the Next step that passed it, each
    event by its own undo event, in one transaction: the game stands again where Next step was pressed. The last
    undo (of the Next step) says how many passes went with it."""
    with together():
        event = undo_last(game, version, actor)
        passes = len(_passes(event.undoes)) if event.undoes else 0
        for left in range(passes, 0, -1):
            event = undo_last(game, event.seq, actor, passed=passes if left == 1 else 0)
        return event


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
        return _leave(action, step, state, tuple(todo))


def _leave(
    action: Action, step: Step[Any], state: Any, left_undone: tuple[str, ...], by_itself: tuple[PassedStep, ...] = ()
) -> Event:
    """Leave the step the game is at: its closing effects, the end of the player turn after its last step, and the
    event that records it."""
    current = action.game
    here = position(current)
    closing = step.leave(action, state) if step.leave else {}
    following = next_position(here)
    turn_ended = (following.game_turn, following.player_turn) != (here.game_turn, here.player_turn)
    if turn_ended:
        _end_player_turn(action)
    action.set(current, "game_turn", following.game_turn)
    action.set(current, "player_turn", following.player_turn)
    action.set(current, "step", following.step.value)
    return action.record(
        StepAdvanced(
            here.step, following.step, turn_ended=turn_ended, **closing, left_undone=left_undone, by_itself=by_itself
        )
    )


def _end_player_turn(action: Action) -> None:
    game = action.game
    # only the units with a field of the turn set are read, and only those fields, not every unit of the battle whole
    for unit in Unit.objects.filter(game=game).exclude(**_CLEARED).only(*_CLEARED):
        for name, value in _CLEARED.items():
            action.set(unit, name, value)
    for command in Command.objects.filter(game=game, panicked=True):
        action.set(command, "panicked", False)
    for leader in Leader.objects.filter(game=game, replaced_this_turn=True):
        action.set(leader, "replaced_this_turn", False)
