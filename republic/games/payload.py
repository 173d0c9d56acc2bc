"""What every event's payload is made of: the payload base, a unit event, a named unit and a labelled roll.
The kinds themselves are in ``events`` and ``assault_events``."""

from dataclasses import dataclass
from typing import Any, Protocol

from republic.rules.dice import Roll


@dataclass(frozen=True)
class LabelledRoll:
    """A roll as the log shows it: what it was for, its faces and how they were obtained."""

    label: str
    roll: Roll


@dataclass(frozen=True)
class Payload:
    def rolls(self) -> tuple[LabelledRoll, ...]:
        return ()


@dataclass(frozen=True)
class UnitEvent(Payload):
    """An event about one unit: its key ('unit:12') and its name."""

    unit: str
    name: str


class Stored(Protocol):
    kind: str
    payload: Any


@dataclass(frozen=True)
class NamedUnit:
    unit: str
    name: str
