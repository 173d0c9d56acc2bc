"""Divisional panic tests, internal panic (1.7, 6.1, 6.2): every division with a unit that had a Panic 4
event this turn rolls its test, all at once."""

from typing import Any

from republic.games.steps.base import Bound, Step
from republic.games.steps.division_panic import PanicState, opened_test, panic_rows, pending_words, played, state


def pending(s: PanicState) -> list[str]:
    return [pending_words(s, t) for t in s.lacking]


def panel(s: PanicState, bound: Bound) -> dict[str, Any]:
    return {
        "tests": len(s.lacking),
        "played": played(s),
        "empty": s.empty,
        "any_p4": any(d.internal for d in s.phase.values()) or bool(s.empty),
    }


STEP = Step(
    "games/steps/panic_internal.html",
    state,
    pending,
    panel,
    rows=panic_rows,
    form="games/rows/panic_test.html",
    opened=opened_test,
)
