"""The fire phase's events in one sentence: skirmish blocks and attacks, a battery's or a joint group's fire in
the artillery step, a saved fire, passing fire during the enemy's move, and a unit's fire hits as they are put
on."""

from collections.abc import Callable
from typing import Any

from republic.games.events.fire import (
    ArtilleryFired,
    FireSaved,
    PassingFireConducted,
    SkirmishAttacked,
    SkirmishBlocksDeclared,
    SkirmishBlocksRolled,
    UnitFireHits,
)
from republic.games.events.payload import Payload
from republic.games.text.terms import condition, hits, roll
from republic.rules.fire_results import FireHitsResult


def fire_hits(r: FireHitsResult) -> str:
    """A unit's fire hits put on, as the table reads them: '4M 2B, now Demoralized, 2P, 5 bases left'."""
    words = [hits(m=r.hits.m, b=r.hits.b), f"now {condition(r.m_after)}"]
    if r.panic_hits:
        words.append(f"{r.panic_hits}P")
    if r.bases_lost:
        words.append(f"{r.bases_after} bases left")
        if r.destroyed:
            words.append("destroyed")
    if r.skirmisher_type:
        words.append(f"skirmishers now {r.skirmisher_type.value}")
    if r.hits.b and not r.bases_lost:  # B on a battery: damage, not bases
        words.append(f"damage {r.damage_after}")
    if r.saved_fire_lost:
        words.append("loses its saved fire")
    return ", ".join(words)


def taken_words(taken: UnitFireHits) -> str:
    """'Iron Brigade: 2M, now Shaken', or what became of the hits of a unit already out of play."""
    if taken.result.lost:
        return f"{taken.name} is out of play: its {hits(taken.result.hits.m, taken.result.hits.b)} are lost"
    return f"{taken.name}: {fire_hits(taken.result)}"


def _blocks_rolled(p: SkirmishBlocksRolled) -> str:
    names = {b.target: b.target_name for b in p.declared}
    blocked = [names.get(marker, marker) for marker in p.blocked]
    return f"Skirmish blocks: {', '.join(blocked)} blocked" if blocked else "Skirmish blocks: none succeeded"


def _skirmish_attack(p: SkirmishAttacked) -> str:
    r = p.result
    outcome = (
        f"1M on {p.target_name}, held to the end of the artillery step"
        if r.hit
        else "the marker flees back to its brigade"
        if r.fled
        else "no effect"
    )
    return f"{p.name}'s skirmishers fire at {p.target_name}: {outcome} (die {roll(p.inputs.roll)})"


def _how(printed: object, die: str) -> str:
    return "printed chart" if printed is not None else f"die {die}"


def _artillery(p: ArtilleryFired) -> str:
    names = " and ".join(b.name for b in p.batteries)
    verb = "fires" if len(p.batteries) == 1 else "fire"
    parts = []
    if p.hits:
        waiting = "; ".join(f"{p.name_of(h.unit)} {hits(m=h.m, b=h.b + h.marker_b)}" for h in p.hits)
        parts.append(f"{waiting}, held to the end of the artillery step")
    parts += [
        taken_words(taken)
        if taken.result.lost
        else f"{taken.name} at once, as it prolonged (3.5): {fire_hits(taken.result)}"
        for taken in p.landed
    ]
    outcome = "; ".join(parts) or "no effect"
    target = p.target.name + (f" and {p.compound.name} as one" if p.compound else "")
    return f"{names} {verb} at {target}: {p.result.result} ({_how(p.printed, roll(p.inputs.roll))}); {outcome}"


def _passing_fire(p: PassingFireConducted) -> str:
    outcome = "; ".join(taken_words(taken) for taken in p.landed) or "no effect"
    return (
        f"{p.name} makes passing fire at {p.target.name}{f' and {p.compound.name} as one' if p.compound else ''}: "
        f"{p.result.result} "
        f"({_how(p.printed, roll(p.inputs.roll))}); {outcome}"
    )


FIRE_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    SkirmishBlocksDeclared: lambda p: (
        f"{p.side} declare skirmish blocks: "
        + ("; ".join(f"{b.blocker_name} on {b.target_name}" for b in p.blocks) or "no blocks")
    ),
    SkirmishBlocksRolled: _blocks_rolled,
    SkirmishAttacked: _skirmish_attack,
    ArtilleryFired: _artillery,
    FireSaved: lambda p: f"{p.name} saves its fire{' (it keeps its one saved fire marker)' if p.kept else ''}",
    PassingFireConducted: _passing_fire,
}
