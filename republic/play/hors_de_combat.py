"""The hors de combat checks (4.7 after the fire phase, 5.6 after the assaults) as the game decides them: what
each unit lost in the phase, what each command lost with those below it, which leaders must roll or be passed
over, which may still roll, and what a check changes.

The step is the phase's losses, the chain of command of the units that lost something, the leaders in action
and those already checked or passed over: a check reads only its leader and these, so the checks of a step may
be entered in any order for the same end."""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.leaders import HorsDeCombatInput, HorsDeCombatOutcome, HorsDeCombatResult, resolve_hors_de_combat


@dataclass(frozen=True)
class Change:
    """A change the phase recorded on a unit: the bases a brigade lost and the damage a battery took by it (a
    table's correction giving bases back is negative)."""

    unit: str
    bases: int
    damage: int


def losses(changes: Iterable[Change], batteries: frozenset[str]) -> dict[str, int]:
    """Bases lost by brigades, and damage taken by batteries, per unit, over the phase's changes: a unit that
    ends the phase even or better lost nothing."""
    lost: dict[str, int] = defaultdict(int)
    for change in changes:
        lost[change.unit] += change.damage if change.unit in batteries else change.bases
    return {unit: n for unit, n in lost.items() if n > 0}


@dataclass(frozen=True)
class CheckStep:
    """The phase's losses per unit, each losing unit's chain of command (its division up, by id), the leaders in
    action as (leader, command) in the order the table lists them, and those who rolled or were passed over."""

    lost: Mapping[str, int]
    chains: Mapping[str, Sequence[int]]
    leaders: tuple[tuple[int, int], ...]
    checked: frozenset[int] = field(default=frozenset())


def by_command(step: CheckStep) -> dict[int, int]:
    """Bases lost this phase under each command: by its own units and those of the commands below it."""
    lost: dict[int, int] = defaultdict(int)
    for unit, n in step.lost.items():
        for command in step.chains[unit]:
            lost[command] += n
    return dict(lost)


def to_check(step: CheckStep) -> dict[int, int]:
    """The leaders in action who have neither rolled nor been passed over this step, with their command: any of
    them may stand within 4" of a loss."""
    return {leader: command for leader, command in step.leaders if leader not in step.checked}


def must(step: CheckStep) -> dict[int, int]:
    """Those of them whose own command lost bases this phase, with the bases: each must roll or be passed over as
    not within 4"."""
    lost = by_command(step)
    return {leader: lost[command] for leader, command in to_check(step).items() if lost.get(command)}


@dataclass(frozen=True)
class Checked:
    """A check rolled: the engine's result, whether the leader is hors de combat by it, and the step after it."""

    result: HorsDeCombatResult
    casualty: bool
    step: CheckStep


def check(chart: Chart, step: CheckStep, leader: int, inputs: HorsDeCombatInput, refusal: str) -> Checked:
    """A leader's check: refused with ``refusal`` unless he is still to check; only the engine's outcome puts him
    out of action."""
    if leader not in to_check(step):
        raise Refused(refusal)
    result = resolve_hors_de_combat(chart, inputs)
    casualty = result.outcome is HorsDeCombatOutcome.HORS_DE_COMBAT
    return Checked(result, casualty, replace(step, checked=step.checked | {leader}))


def pass_over(step: CheckStep, leader: int, refusal: str) -> CheckStep:
    """A leader passed over as not within 4": refused with ``refusal`` unless his command lost bases and he has
    not checked (a leader whose command lost nothing has nothing to be passed over from)."""
    if leader not in must(step):
        raise Refused(refusal)
    return replace(step, checked=step.checked | {leader})
