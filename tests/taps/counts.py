"""What the taps script counts for each kind of action, and the table it prints: taps, characters typed (and of
them the unit, leader and division names typed), screens scrolled to reach the control, Next-step taps, refusals
the player did not cause, wall time; and the steps whose first work row a phone had to scroll to."""

import math
from collections import defaultdict
from dataclasses import dataclass, field, fields

SCREEN = 740  # px: the phone's screen height, one screen of scrolling


@dataclass
class Count:
    actions: int = 0
    taps: int = 0
    typed: int = 0
    names_typed: int = 0
    screens: int = 0
    next_steps: int = 0
    not_caused: int = 0
    seconds: float = 0.0

    def add(self, other: "Count") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def screens_to(top: float, bottom: float, height: int = SCREEN) -> int:
    """Screens a thumb scrolls from where the page stands to bring a control of that box (its top and bottom
    relative to the screen) into view: 0 when it is on screen, else one swipe a screen of distance, up or down."""
    if top >= 0 and bottom <= height:
        return 0
    if bottom > height:
        return math.ceil((bottom - height) / height)
    return math.ceil(-top / height)


def moved_on(refusal: str) -> bool:
    """A refusal the player did not cause: the game moved on under his form (another device acted)."""
    return "moved on" in refusal.lower()


@dataclass
class Tally:
    kinds: dict[str, Count] = field(default_factory=lambda: defaultdict(Count))
    order: list[str] = field(default_factory=list)
    below_fold: list[str] = field(default_factory=list)  # steps whose first work row was off the first screen
    axe: dict[str, list[str]] = field(default_factory=dict)  # page (device · step) -> its axe problems
    refusals: list[str] = field(default_factory=list)
    taps_of: list[tuple[str, int]] = field(default_factory=list)  # each action's kind and taps, in order
    steps: int = 0  # steps the turn passed through
    passed: list[str] = field(default_factory=list)  # steps the app passed by itself, nobody having work in them
    latest: int = 0  # the game's version after the last action of any device
    ways: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # how dice and names were given

    def count(self, kind: str) -> Count:
        if kind not in self.order:
            self.order.append(kind)
        return self.kinds[kind]

    def most_taps(self, kinds: set[str]) -> int:
        """The most taps one action of those kinds took."""
        return max((taps for kind, taps in self.taps_of if kind in kinds), default=0)

    def total(self) -> Count:
        whole = Count()
        for kind in self.order:
            whole.add(self.kinds[kind])
        return whole

    def table(self) -> str:
        head = ("kind of action", "actions", "taps", "each", "typed", "names", "screens", "next", "moved on", "s")
        rows = [(kind, *self._cells(self.kinds[kind])) for kind in self.order]
        rows.append(("whole game turn", *self._cells(self.total())))
        widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
        rule = "  ".join("-" * w for w in widths)
        text = [
            "  ".join(
                str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
            )
            for r in [head, *rows]
        ]
        return "\n".join([text[0], rule, *text[1:-1], rule, text[-1]])

    @staticmethod
    def _cells(c: Count) -> tuple[object, ...]:
        each = f"{c.taps / c.actions:.1f}" if c.actions else "-"
        return (
            c.actions,
            c.taps,
            each,
            c.typed,
            c.names_typed,
            c.screens,
            c.next_steps,
            c.not_caused,
            f"{c.seconds:.1f}",
        )
