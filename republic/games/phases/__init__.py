"""The table's steps, one module per phase of the turn sequence (1.7)."""

from republic.games.phases import assault, command, fire, hors_de_combat, maneuver, panic
from republic.games.phases.handler import StepHandler
from republic.rules.sequence import StepKey

STEP_HANDLERS: dict[StepKey, StepHandler] = {
    **command.STEPS, **maneuver.STEPS, **fire.STEPS, **hors_de_combat.STEPS, **assault.STEPS, **panic.STEPS,
}
PHASE_URLS = [*command.urls, *maneuver.urls, *fire.urls, *hors_de_combat.urls, *assault.urls, *panic.urls]


def handler_for(step: str) -> StepHandler:
    return STEP_HANDLERS.get(StepKey(step), StepHandler())
