"""The fire phase's artillery step (1.7, 4.2-4.6) as the game decides it: which batteries may still fire or save
fire, which may only save it and why, who may join a battery's fire, what a fire and a saved fire change, and what
the phase's waiting hits do to the units they land on.

The step is its ready batteries (with their side), those whose functions leave them only saving fire, and those
that made passing fire in the enemy's move. Fire is simultaneous: the hits of the phase wait and land together,
summed per unit, so the batteries of a step may fire in any order for the same hits (4.1, 4.2)."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from republic.play.refusal import Refused
from republic.rules.artillery import AFTER_PASSING_FIRE, after_firing
from republic.rules.battery_functions import fire_problem
from republic.rules.chart import Chart
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import FireHits, FireHitsResult, after_fire_hits, resolve_fire_hits
from republic.rules.saved_fire import SavedFireInput, SavedFireResult, after_saving_fire, resolve_saved_fire
from republic.rules.units import UnitState


def readiness(
    chart: Chart, ready: Mapping[int, int], used: Mapping[int, UnitState]
) -> tuple[dict[int, int], dict[int, str]]:
    """Of the batteries that may fire (``ready``: battery, side, in the step's order), those still offered and
    those whose functions this turn leave them no fire (3.5), with why. ``used``: the ready batteries that used
    functions this turn, whole (only those can have none left). One with no fire left is offered saving fire if
    it may save it (4.2), else it is not offered at all."""
    found, spent = dict(ready), {}
    for pk, battery in used.items():
        problem = fire_problem(chart, battery)
        if problem and not resolve_saved_fire(chart, SavedFireInput.of(battery)).allowed:
            del found[pk]
        elif problem:
            spent[pk] = problem
    return found, spent


@dataclass(frozen=True)
class FireStep:
    """The batteries that may still fire or save fire (battery: side, in the step's order), those that may only
    save it (battery: why), and those that made passing fire in the enemy's move (battery: name)."""

    ready: Mapping[int, int]
    spent: Mapping[int, str] = field(default_factory=dict)
    passed: Mapping[int, str] = field(default_factory=dict)


def partners(step: FireStep, battery: int) -> tuple[int, ...]:
    """The other batteries of its side that may fire, which may join its fire (4.3)."""
    side = step.ready.get(battery)
    return tuple(pk for pk, owner in step.ready.items() if owner == side and pk not in (battery, *step.spent))


def ready(step: FireStep, battery: int, name: str, refusal: str) -> None:
    """Refused unless the battery may fire or save fire now: one that made passing fire says why (R:1235-1237)."""
    if battery in step.passed:
        raise Refused(f"{name} may not fire now: {AFTER_PASSING_FIRE}.")
    if battery not in step.ready:
        raise Refused(refusal)


def fires(step: FireStep, battery: int, name: str, joined: Iterable[int], refusal: str) -> FireStep:
    """A battery's fire, with the batteries that join it: refused unless it may fire now, has a function left to
    fire with, and each that joins may fire too; the step after it, without them (4.2)."""
    ready(step, battery, name, refusal)
    if battery in step.spent:
        raise Refused(f"{name} may not fire this turn: {step.spent[battery]}.")
    group = {battery, *joined}
    if not group - {battery} <= set(partners(step, battery)):
        raise Refused("A battery chosen for joint fire cannot fire now.")
    return replace(step, ready={pk: side for pk, side in step.ready.items() if pk not in group})


def fired(group: Iterable[UnitState]) -> tuple[UnitState, ...]:
    """The batteries of a fire after it: fired this player turn, their saved fire used up (4.2)."""
    return tuple(after_firing(b) for b in group)


@dataclass(frozen=True)
class Saved:
    """A saved fire: the engine's input and result, the battery after it, whether it kept a marker it had, and the
    step after it."""

    inputs: SavedFireInput
    result: SavedFireResult
    after: UnitState
    kept: bool
    step: FireStep


def save(
    chart: Chart, step: FireStep, battery: UnitState, pk: int, name: str, moved: bool, in_radius: bool, refusal: str
) -> Saved:
    """A battery saves its fire: refused after passing fire (the engine says why), unless it is ready, or when the
    engine does not allow it (on the moved box when that is why); it holds one marker at most (4.2)."""
    if pk in step.passed:
        passing = resolve_saved_fire(chart, SavedFireInput.of(battery, passing_fire_this_turn=True))
        raise Refused(f"{name} may not save fire: {passing.reason}.")
    ready(step, pk, name, refusal)
    inputs = SavedFireInput.of(battery, moved_this_turn=moved, in_command_radius=in_radius)
    result = resolve_saved_fire(chart, inputs)
    if not result.allowed:
        raise RulesInputError("moved_this_turn" if moved else "__all__", f"{name} may not save fire: {result.reason}")
    rest = replace(step, ready={b: side for b, side in step.ready.items() if b != pk})
    return Saved(inputs, result, after_saving_fire(battery), battery.saved_fire, rest)


@dataclass(frozen=True)
class Landed:
    """Hits put on a unit: the engine's result and the unit after it."""

    result: FireHitsResult
    after: UnitState


def land(found: Iterable[tuple[UnitState, FireHits]]) -> tuple[Landed, ...]:
    """Each unit's hits put on it now, as the engine says they change it (4.5, 4.6)."""
    landed = []
    for unit, hit in found:
        result = resolve_fire_hits(unit, hit)
        landed.append(Landed(result, after_fire_hits(unit, result)))
    return tuple(landed)
