"""Divisional panic tests, internal panic (1.7, 6.1, 6.2): every division with a unit that had a Panic 4
event this turn rolls its test, all at once."""

from typing import Any

from republic.games.steps.base import Bound
from republic.games.steps.division_panic import PanicState, division_test_step, pending_words, played


def pending(s: PanicState) -> list[str]:
    return [pending_words(s, t) for t in s.lacking]


def panel(s: PanicState, bound: Bound) -> dict[str, Any]:
    return {
        "tests": len(s.lacking),
        "played": played(s),
        "empty": s.empty,
        "any_p4": any(d.internal for d in s.phase.values()) or bool(s.empty),
    }


def idle(s: PanicState) -> str:
    if s.lacking or s.tests:
        return ""
    if s.empty:
        return "no unit left to test in " + ", ".join(d.name for d in s.empty)
    return "no division had a Panic 4 event"


STEP = division_test_step("games/steps/panic_internal.html", pending, panel, idle=idle)
