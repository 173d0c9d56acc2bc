"""The steps of the turn sequence (1.7), one module each; the two hors de combat steps share one, as do the
two panic steps their division panic tests."""

from typing import Any

from republic.games.models import Game
from republic.games.steps import (
    adjoining_panic,
    artillery_fire,
    assaults,
    charge_disorder,
    demoralized_panic,
    first_attacker,
    hors_de_combat,
    internal_panic,
    move,
    rally,
    replace_leaders,
    skirmish,
)
from republic.games.steps.base import NOTHING_TO_RESOLVE, Act, Step
from republic.rules.sequence import StepKey

STEPS: dict[StepKey, Step[Any]] = {
    StepKey.MESSAGES: NOTHING_TO_RESOLVE,
    StepKey.RALLY: rally.STEP,
    StepKey.REPLACE_LEADERS: replace_leaders.STEP,
    StepKey.MOVE: move.STEP,
    StepKey.SKIRMISH: skirmish.STEP,
    StepKey.ARTILLERY_FIRE: artillery_fire.STEP,
    StepKey.FIRE_HORS_DE_COMBAT: hors_de_combat.STEP,
    StepKey.DEMORALIZED_PANIC: demoralized_panic.STEP,
    StepKey.ASSAULTS: assaults.STEP,
    StepKey.ASSAULT_HORS_DE_COMBAT: hors_de_combat.STEP,
    StepKey.CHARGE_DISORDER: charge_disorder.STEP,
    StepKey.INTERNAL_PANIC: internal_panic.STEP,
    StepKey.ADJOINING_PANIC: adjoining_panic.STEP,
}


def step_of(game: Game) -> Step[Any]:
    return STEPS[game.step_key]


def acting_step(game: Game) -> Step[Any] | None:
    """The step whose actions the game takes now: the turn sequence's while in progress, the choice of the first
    attacker before it; none once the game is over."""
    if game.in_progress:
        return step_of(game)
    return None if game.over else first_attacker.STEP


# every action a step offers, by its name: one view takes them all (views/act.py)
ACTIONS: dict[str, tuple[Step[Any], Act]] = {
    act.name: (step, act)
    for step in {id(step): step for step in [*STEPS.values(), first_attacker.STEP]}.values()
    for act in step.actions
}
