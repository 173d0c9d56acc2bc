"""Hits (1.2, 4.6, 5.5): morale (M), base (B, damage on a battery) and panic (P) hits, written as on the chart."""

import re
from dataclasses import dataclass

from republic.rules.chart import Span

_PART = re.compile(r"^(\d{1,9})([MBP])$")  # more digits than any count could need are no count

_OF_A_KIND = Span("a number of hits of one kind", 0, 20)
"""What one result may score of each kind: the heaviest cell of the rules is 4P 2B, and a brigade has far fewer
than 20 bases, so a chart or a printed reading with more is a slip of the pen."""


@dataclass(frozen=True)
class Hits:
    m: int = 0
    b: int = 0
    p: int = 0

    def __post_init__(self) -> None:
        for name in ("m", "b", "p"):
            if getattr(self, name) < 0:
                raise ValueError(f"hits cannot be negative, got {name.upper()}={getattr(self, name)}")

    @classmethod
    def parse(cls, text: str) -> "Hits":
        """'2M 1B', '3P', '-' (no effect)."""
        text = str(text).strip()
        if text in ("-", "", "0", "none"):
            return cls()
        counts = {"M": 0, "B": 0, "P": 0}
        for part in text.split():
            match = _PART.match(part.upper())
            if not match:
                raise ValueError(f"hits are written like '2M 1B' or '-', got {text!r}")
            counts[match[2]] += int(match[1])
        return cls(*(_OF_A_KIND(counts[kind]) for kind in "MBP"))

    def __add__(self, other: "Hits") -> "Hits":
        return Hits(self.m + other.m, self.b + other.b, self.p + other.p)

    def doubled(self) -> "Hits":
        return Hits(self.m * 2, self.b * 2, self.p * 2)

    def __bool__(self) -> bool:
        return bool(self.m or self.b or self.p)

    def __str__(self) -> str:
        parts = [f"{n}{k}" for k, n in (("M", self.m), ("B", self.b), ("P", self.p)) if n]
        return " ".join(parts) or "-"
