"""Panic in one sentence: a demoralized unit's panic test, a division's panic test with its arithmetic, and the
divisions that adjoin it."""

import re
from collections.abc import Callable
from typing import Any

from republic.games.events.panic import AdjoiningDeclared, DemoralizedPanicTested, DivisionPanicTested
from republic.games.events.payload import Payload
from republic.games.text.maneuver import VERBS
from republic.games.text.terms import inches
from republic.rules.division_panic import DivisionPanicResult
from republic.rules.troops import UnitKind


def _demoralized_panic(p: DemoralizedPanicTested) -> str:
    r, battery = p.result, p.inputs.kind is UnitKind.ARTILLERY
    words = [r.instruction]
    if r.surrendered:
        words.append(f"all {p.inputs.bases} base{'s' if p.inputs.bases > 1 else ''} taken")
    if r.deserters:
        words.append(f"{r.deserters} base{'s' if r.deserters > 1 else ''} desert")
        if not r.bases_after:
            words.append("abandoned" if battery else "destroyed")
    if r.abandoned and r.bases_after:
        words.append("a battery required to rout is abandoned")
    if r.p4_event:
        words.append("Panic 4 event: the division tests in the panic phase")
    return f"{p.name} ({p.inputs.panic_hits}P) panics: {'; '.join(words)}"


def panic_arithmetic(result: DivisionPanicResult) -> str:
    """'7 + 2 unshaken = 9 against 6': the die, the die modifiers, the pass number."""
    taken = next(t for t in result.rolls if t.trigger is result.trigger)
    terms = [str(taken.roll.faces[0])]
    for m in result.modifiers:
        if m.label.startswith("loss number"):
            continue
        # a test recorded by an earlier version says "each demoralized unit present (3)"
        label = re.sub(r"^(each demoralized unit|demoralized units?) present", "demoralized", m.label)
        label = label.replace("rolling division is ", "")
        terms.append(f"{'+' if m.value >= 0 else '−'} {abs(m.value)} {label}")
    sum_text = " ".join(terms) + (f" = {taken.modified}" if len(terms) > 1 else "")
    both = ""
    if len(result.rolls) > 1:
        both = ", ".join(f"{t.trigger.value} {t.modified}" for t in result.rolls) + "; the worse stands: "
    return f"{both}{sum_text} against {result.pass_number}"


def _division_panic(p: DivisionPanicTested) -> str:
    """What the table reads: who holds, who panics, how far every unit goes, who deserts."""
    result = p.result
    if result.held or result.move is None:
        return f"{p.name} holds ({panic_arithmetic(result)})"
    verb = VERBS[result.move]
    distances = [u.distance for u in result.units if u.move is not None]
    if distances:
        usual = max(distances, key=distances.count)
        others = [
            f"{p.name_of(u.id)} {inches(u.distance)}"
            if u.move is not None
            else f"{p.name_of(u.id)} already moved as far"
            for u in result.units
            if u.move is None or u.distance != usual
        ]
        moves = f"every unit {verb} {inches(usual)}" + (f" ({', '.join(others)})" if others else "")
    else:
        moves = f"every unit has already moved as far as the division's {result.move.title}"
    parts = [f"{p.name} panics ({panic_arithmetic(result)}): {moves}"]
    for u in result.units:
        if u.deserters:
            gone = " (none left)" if not u.bases_after else ""
            parts.append(
                f"{u.deserters} base{'s desert' if u.deserters > 1 else ' deserts'} from {p.name_of(u.id)}{gone}"
            )
    if any(u.m_hits for u in result.units):
        parts.append("1M on each unit not yet demoralized")
    parts.append("orders reset to Defend when the panic phase ends")
    return "; ".join(parts)


def _adjoining(p: AdjoiningDeclared) -> str:
    return f"Adjoining {p.name}: {', '.join(p.names)}" if p.names else f"No division adjoins {p.name}"


PANIC_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    DemoralizedPanicTested: _demoralized_panic,
    DivisionPanicTested: _division_panic,
    AdjoiningDeclared: _adjoining,
}
