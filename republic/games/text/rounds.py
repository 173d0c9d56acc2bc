"""What an assault round tells the table to do with each unit, and what may follow it."""

from republic.games.events import AssaultRoundResolved
from republic.games.text.terms import condition, inches
from republic.rules.assault_fixed_hits import UnitHitsResult
from republic.rules.assault_results import UnitLoss
from republic.rules.assault_table import OutcomeAction
from republic.rules.chart import Chart
from republic.rules.scale import GroundScale, scale_ratio, scaled

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
