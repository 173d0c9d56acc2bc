"""Each kind of event of the assault phase in one sentence: declarations, rounds, their ends, the hits from
outside the assault table and the charge disorder."""

from collections.abc import Callable
from typing import Any

from republic.games.assault_events import (
    AssaultDeclared,
    AssaultEnded,
    AssaultFollowedUp,
    AssaultRoundResolved,
    ChargeDisorderApplied,
    LinesPassedThrough,
    LocalBreakthroughDeclared,
    SupportingBrigadeHit,
)
from republic.games.payload import Payload
from republic.games.text.terms import condition
from republic.rules.assault_fixed_hits import UnitHitsResult
from republic.rules.assault_sides import Contact
from republic.rules.assault_table import OutcomeSide


def _member(name: str, contact: Contact) -> str:
    return f"{name} ({'all-out' if contact is Contact.ALL_OUT else 'general'})"


def _declared(p: AssaultDeclared) -> str:
    parts = [_member(m.name, m.contact) for m in p.defenders]
    parts[0] += ", primary"
    return (
        f"Assault {p.number} declared: {', '.join(_member(m.name, m.contact) for m in p.attackers)} "
        f"against {'; '.join(parts)}"
    )


def _round(p: AssaultRoundResolved) -> str:
    r = p.result
    natural = ""
    if r.natural_loser is not OutcomeSide.NONE:
        loser = r.natural_loser.value
        natural = f"; natural roll lost by the {loser}: {getattr(r, loser).natural_m}M"
    how = f"printed chart: {p.conditions.printed}" if p.conditions.printed else f"{r.difference:+d} on {r.column.title}"
    summary = (
        f"Assault {p.number}, round {p.round}: {r.attacker.modified} to {r.defender.modified} ({how}) → "
        f"{r.outcome}{natural}"
    )
    return summary + ("; Win/Win" if r.win_win else "")


def _ended(p: AssaultEnded) -> str:
    how = (
        f"contact ended after {p.rounds} round{'s' if p.rounds != 1 else ''}"
        if p.rounds
        else "called off before any round"
    )
    return f"Assault {p.number} over: {how} ({p.title})"


def _hit(who: str, r: UnitHitsResult, nothing: str) -> str:
    """A unit's hits from outside the assault table: what they leave it in, its panic and its move."""
    if not r.hits_taken.m and not r.hits_taken.p:
        return f"{who}: {nothing}"
    text = f"{who}: {r.hits_taken}, now {condition(r.m_after)}"
    text += f"; Panic {r.panic_level}" if r.panic_hits else ""
    return text + (f"; {r.instruction}" if r.instruction else "")


def _supporting(p: SupportingBrigadeHit) -> str:
    held = "no hit, the primary defender held or gave ground facing the enemy"
    return _hit(f"{p.name}, supporting {p.primary}", p.result, held)


def _passed_through(p: LinesPassedThrough) -> str:
    return _hit(f"{p.name}, passed through by {', '.join(named.name for named in p.passers)}", p.result, "no hits")


def _disorder(p: ChargeDisorderApplied) -> str:
    return f"Charge disorder: 1M to {', '.join(f'{u.name} ({condition(u.result.m_after)})' for u in p.units)}"


_BONUS = " with its assault move bonus (1M at the end of the turn)"


def _followed_up(p: AssaultFollowedUp) -> str:
    when = f"after round {p.round}" if p.round else "before any round, every defender gone"
    moves = "; ".join(
        f"{m.name} {m.result.move.words}"
        + (" with its assault move bonus (1M at the end of the turn)" if m.result.bonus_used else "")
        for m in p.moves
    )
    return f"Assault {p.number}, {when}: {moves}"


def _local_breakthrough(p: LocalBreakthroughDeclared) -> str:
    return f"{p.name} makes a local breakthrough to fresh targets{_BONUS if p.result.bonus_used else ''} (5.2)"


ASSAULT_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    AssaultDeclared: _declared,
    AssaultRoundResolved: _round,
    AssaultEnded: _ended,
    SupportingBrigadeHit: _supporting,
    LinesPassedThrough: _passed_through,
    ChargeDisorderApplied: _disorder,
    AssaultFollowedUp: _followed_up,
    LocalBreakthroughDeclared: _local_breakthrough,
}
