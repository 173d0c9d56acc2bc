"""Skirmish fire (1.7, 4.1) as the game decides it: each side's markers, which stage the step is at (the blocks
declared, rolled, then the attacks), which attacking markers a roll blocks, which brigades may still attack and
what an attack changes.

The step is the markers of both sides as they stood when it began, the blocks declared and those that held, and
the attacks made. Blocks and attacks are optional ("may"); blocks once declared must be rolled. Each unblocked
marker fires once and an attack reads only its own brigade, so the brigades may attack in any order for the same
end; the hits wait for the end of the artillery step."""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.fire_results import FireHits
from republic.rules.skirmish import (
    SkirmishAttackInput,
    SkirmishAttackResult,
    SkirmishBlocksResult,
    after_skirmish_attack,
    resolve_skirmish_attack,
)
from republic.rules.units import UnitState


@dataclass(frozen=True)
class Marker:
    """One skirmish marker of a brigade (by its id): markers of a brigade are alike, so they are counted."""

    brigade: str
    number: int

    @property
    def id(self) -> str:
        return f"{self.brigade}#{self.number}"


def markers(brigades: Iterable[UnitState], fled: Sequence[str]) -> tuple[Marker, ...]:
    """A side's markers as the step began: each brigade in play's deployed markers, and those that fled back to
    it this step (a marker that flees returns to its brigade, 4.1); batteries have none."""
    found: list[Marker] = []
    for unit in brigades:
        if not unit.battery and not unit.destroyed and not unit.surrendered:
            count = unit.skirmishers_deployed + fled.count(unit.id)
            found.extend(Marker(unit.id, n) for n in range(1, count + 1))
    return tuple(found)


@dataclass(frozen=True)
class SkirmishStep:
    """Both sides' markers as the step began, the blocks declared (blocking marker, attacking marker; None before
    the defenders declare), the attacking markers blocked (None before the blocks are rolled), and the brigades
    that attacked, once per attack."""

    attackers: tuple[Marker, ...]
    defenders: tuple[Marker, ...]
    declared: tuple[tuple[str, str], ...] | None = None
    blocked: tuple[str, ...] | None = None
    attacked: tuple[str, ...] = ()


def stage(step: SkirmishStep) -> str:
    """'declare' the blocks, 'roll' them, then 'attack': blocks are all declared before any die (4.1)."""
    if not step.attackers:
        return "attack"
    if step.declared is None:
        return "declare" if step.defenders else "attack"
    if step.declared and step.blocked is None:
        return "roll"
    return "attack"


def attacks_left(step: SkirmishStep) -> dict[str, int]:
    """Attacking brigades with unblocked markers that have not attacked yet, with how many; attacking is optional
    (4.1)."""
    if stage(step) != "attack":
        return {}
    used = Counter(marker.partition("#")[0] for marker in step.blocked or ()) + Counter(step.attacked)
    counts = Counter(marker.brigade for marker in step.attackers)
    left = {brigade: n - used[brigade] for brigade, n in counts.items()}
    return {brigade: n for brigade, n in left.items() if n > 0}


def declare(step: SkirmishStep, chosen: Mapping[str, str], refusal: str) -> SkirmishStep:
    """The defenders' blocks (blocking marker: the attacking marker it tries), those naming an attacking marker,
    in the order of the defending markers; refused with ``refusal`` unless the step waits for them."""
    if stage(step) != "declare":
        raise Refused(refusal)
    targets = {m.id for m in step.attackers}
    blocks = tuple((m.id, chosen[m.id]) for m in step.defenders if chosen.get(m.id) in targets)
    return replace(step, declared=blocks)


def rolled(step: SkirmishStep, result: SkirmishBlocksResult, refusal: str) -> SkirmishStep:
    """The declared blocks rolled: an attacking marker any block held is blocked, once, in the order declared
    (several defenders may try the same marker, R:990-999); refused with ``refusal`` unless they wait."""
    if stage(step) != "roll" or step.declared is None:
        raise Refused(refusal)
    blocked: list[str] = []
    for (_, target), outcome in zip(step.declared, result.attempts, strict=True):
        if outcome.blocked and target not in blocked:
            blocked.append(target)
    return replace(step, blocked=tuple(blocked))


@dataclass(frozen=True)
class Attacked:
    """A skirmish attack: the engine's result, the brigade after it (a marker that fled is back with it), the hits
    that wait on the target, and the step after it."""

    result: SkirmishAttackResult
    after: UnitState
    hits: tuple[FireHits, ...]
    step: SkirmishStep


def may_attack(step: SkirmishStep, brigade: str, target: str | None, refusal: str) -> None:
    """Refused with ``refusal`` unless the brigade has an unblocked marker left to fire and the target is a
    defending unit in play (None when there is none)."""
    if brigade not in attacks_left(step) or target is None:
        raise Refused(refusal)


def attack(
    chart: Chart, step: SkirmishStep, brigade: UnitState, target: str | None, inputs: SkirmishAttackInput, refusal: str
) -> Attacked:
    """A brigade's marker fires at ``target``, if it may (``may_attack``)."""
    may_attack(step, brigade.id, target, refusal)
    assert target is not None
    result = resolve_skirmish_attack(chart, inputs)
    hits = (FireHits(target, m=result.m_hits),) if result.hit else ()
    after = after_skirmish_attack(brigade, result)
    return Attacked(result, after, hits, replace(step, attacked=(*step.attacked, brigade.id)))
