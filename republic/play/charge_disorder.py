"""The attacker's charge disorder step (1.7, 5.6) as the game decides it: which units suffer it and why, and what
applying it changes.

The step is both sides' units and whether the disorder is applied this turn: 1M to every unit that used charge
movement or retreated or routed, once, each unit on its own, so the units the table adds may be named in any
order for the same end."""

from collections.abc import Iterable
from dataclasses import dataclass, replace

from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.morale import DisorderInput, MoraleResult, resolve_disorder
from republic.rules.units import UnitState, after_morale, disorder_input


@dataclass(frozen=True)
class Disorder:
    """A unit that suffers charge disorder, why, and whether the table named it as having used charge movement
    the game did not see."""

    unit: UnitState
    why: DisorderInput
    also: bool = False


def suffering(attackers: Iterable[UnitState], defenders: Iterable[UnitState]) -> tuple[Disorder, ...]:
    """The units in play that suffer it (5.6): the attacker's brigades that used their charge movement, and every
    unit of either side that retreated or routed this turn; attackers first, each side in the order given."""
    found = []
    for units, attacking in ((attackers, True), (defenders, False)):
        for unit in units:
            why = disorder_input(unit, attacking)
            if not unit.out_of_play and (why.used_charge_bonus or why.retreated_or_routed):
                found.append(Disorder(unit, why))
    return tuple(found)


@dataclass(frozen=True)
class DisorderStep:
    """The units that suffer it, and whether it is applied this turn."""

    due: tuple[Disorder, ...]
    applied: bool = False


def is_due(step: DisorderStep) -> bool:
    """The step waits for the table to apply it: some unit suffers it and it is not applied yet."""
    return bool(step.due) and not step.applied


@dataclass(frozen=True)
class Disordered:
    """One unit's disorder: why, the engine's result and the unit after it."""

    disorder: Disorder
    result: MoraleResult
    after: UnitState


@dataclass(frozen=True)
class Applied:
    done: tuple[Disordered, ...]
    step: DisorderStep


def apply(chart: Chart, step: DisorderStep, also: Iterable[UnitState] = ()) -> Applied:
    """The disorder applied to the units that suffer it and to the attacker's brigades in ``also`` that the table
    says used charge movement too (those are marked as having used it); refused once applied, or with no unit."""
    if step.applied:
        raise Refused("Charge disorder is already applied this turn.")
    units = step.due + tuple(Disorder(u, disorder_input(u, True, also_charged=True), True) for u in also)
    if not units:
        raise Refused("No unit suffers charge disorder this turn.")
    done = []
    for disorder in units:
        result = resolve_disorder(chart, disorder.why)
        after = after_morale(disorder.unit, result)
        done.append(Disordered(disorder, result, replace(after, charge_bonus_used=True) if disorder.also else after))
    return Applied(tuple(done), replace(step, applied=True))
