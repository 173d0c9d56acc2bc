"""The assault phase's events in one sentence (declarations, rounds, their ends, the attackers' moves after a
round, the hits from outside the assault table, the charge disorder), and what a round tells the table to do with
each unit and what may follow it."""

from collections.abc import Callable
from typing import Any

from republic.games.events.assault import (
    AssaultDeclared,
    AssaultEnded,
    AssaultFollowedUp,
    AssaultRoundResolved,
    ChargeDisorderApplied,
    LinesPassedThrough,
    LocalBreakthroughDeclared,
    SupportingBrigadeHit,
)
from republic.games.events.payload import Payload
from republic.games.text.terms import condition, inches
from republic.rules.assault_fixed_hits import UnitHitsResult
from republic.rules.assault_results import UnitLoss
from republic.rules.assault_sides import Contact
from republic.rules.assault_table import OutcomeAction, OutcomeSide
from republic.rules.chart import Chart
from republic.rules.scale import GroundScale, scale_ratio, scaled

# --- the log's sentences ----------------------------------------------------------------------------


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


# --- what an assault round tells the table ----------------------------------------------------------


def loss_text(loss: UnitLoss) -> str:
    parts = []
    if loss.base_hits:
        parts.append(f"loses {loss.base_hits} base(s)")
    if loss.prisoners:
        parts.append(f"{loss.prisoners} taken prisoner")
    if loss.damage_taken:
        parts.append(f"{loss.damage_taken} damage")
    if loss.m_taken:
        parts.append(f"{loss.m_taken}M")
    if loss.panic_hits:
        parts.append(f"Panic {loss.panic_level}" + (" (P4 event)" if loss.p4_event else ""))
    parts.append(f"now {loss.condition_after.value.capitalize()}")
    for flag, words in (
        (loss.destroyed, "destroyed"),
        (loss.surrendered, "surrenders"),
        (loss.abandoned, "abandoned"),
        (loss.battery_action is not None and not loss.abandoned, "limbers up"),
    ):
        if flag:
            parts.append(words)
    return ", ".join(parts)


def _break_off(result: UnitHitsResult) -> tuple[str, str]:
    text = f"breaks off, {result.hits_taken}: now {condition(result.m_after)}"
    if result.panic_hits:
        text += f"; Panic {result.panic_level}"
    return text, result.instruction or 'Break off: withdraw out of assault contact range (beyond 4" of the enemy).'


def round_orders(p: AssaultRoundResolved) -> list[dict[str, str]]:
    """Each unit's part of the round, side by side, then the attackers' break offs."""
    lines = []
    on_units = p.on_units
    for side in ("attacker", "defender"):
        losses = getattr(on_units, side)
        if on_units.surrendered and p.result.outcome.to.value == side:
            lines += [
                {"name": p.name_of(key), "text": "surrenders", "instruction": "Remove the unit: it surrendered."}
                for key in on_units.surrendered
            ]
        elif losses is not None:
            lines += [
                {"name": p.name_of(loss.id), "text": loss_text(loss), "instruction": loss.instruction}
                for loss in losses.units
            ]
    for broke in on_units.broke_off:
        text, instruction = _break_off(broke.result)
        lines.append({"name": p.name_of(broke.unit), "text": text, "instruction": instruction})
    return lines


FOLLOW_UP = {
    OutcomeAction.CARRY: "The attackers may carry the position: advance into the ground the defenders left (5.5).",
    OutcomeAction.DRIVE_AWAY: "Drive away: the attackers hold where they are; the defenders' position is left "
    "empty (5.5).",
    OutcomeAction.MAY_BREAKTHROUGH: "The attackers may break through (or carry the position instead), within "
    "their full assault move (5.5).",
    OutcomeAction.MUST_BREAKTHROUGH: "The attackers must break through to the limit of their full assault move "
    "(5.5); they take charge disorder at the end of the phase.",
    OutcomeAction.OVERRUN: "Overrun: the mounted cavalry may ride on and assault units behind (5.5).",
    OutcomeAction.BREAK_OFF: "The attackers break off out of assault contact range; each that is not stalled takes its "
    "break-off hit (5.5).",
    OutcomeAction.ROLL_AGAIN: "Roll again: resolve another round; it reads the new conditions (5.1).",
}


def next_hint(p: AssaultRoundResolved) -> str:
    """What the table decides after a round: another round while units face each other within 2"."""
    action = p.result.outcome.action
    if action is OutcomeAction.ROLL_AGAIN:
        return "Roll again: resolve the next round."
    if action in (OutcomeAction.MAY_BREAKTHROUGH, OutcomeAction.MUST_BREAKTHROUGH, OutcomeAction.OVERRUN):
        return (
            'After the breakthrough moves: if attackers face these defenders within 2", resolve another round; '
            "otherwise contact has ended."
        )
    if action is OutcomeAction.BREAK_OFF and not p.conditions.stalled:
        return "The attackers broke off: contact has ended."
    return (
        'After the moves: if attackers still face an enemy within 2" (all-out contact), resolve another round; '
        "otherwise contact has ended."
    )


# --- hits from outside the assault table -------------------------------------------------------------


def passage_rule(chart: Chart, scale: GroundScale) -> str:
    """The pass-through rule in a sentence, its hits and reach read from the game's chart and scale."""
    hits = {
        key: chart.entry("passage_of_lines_hits", key)[0] for key in ("shaken", "demoralized", "retreated", "routed")
    }
    ratio = scale_ratio(chart, scale)[0]
    foot, horse = (inches(scaled(chart.entry("passage_of_lines_reach", key)[0], ratio)) for key in ("foot", "horse"))
    return (
        f"A loser that lost both rolls and passes through friends within {foot} (horse {horse}) behind it gives "
        f"them {hits['shaken']} if Shaken, {hits['demoralized']} if Demoralized, {hits['retreated']} if it "
        f"retreats, {hits['routed']} if it routs; only the two worst of each kind count, and a friend already "
        "Demoralized goes to Panic 4."
    )
