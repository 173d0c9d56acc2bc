"""Values that describe troops, leaders and divisions' orders (1.3, 1.4, 2.2, 2.3, 3)."""

import re
from dataclasses import dataclass
from enum import StrEnum

from republic.rules.errors import RulesInputError


class Grade(StrEnum):
    """Troop grades, best first. Average is missing from the list in 2.3 but used everywhere else."""

    CRACK = "crack"
    VETERAN = "veteran"
    AVERAGE = "average"
    GREEN = "green"
    UNTRAINED = "untrained"

    @property
    def trained(self) -> bool:
        return self is not Grade.UNTRAINED

    @property
    def rank(self) -> int:
        """0 for the best grade; larger is worse."""
        return list(Grade).index(self)

    def lowered(self, steps: int = 1) -> "Grade":
        grades = list(Grade)
        return grades[min(len(grades) - 1, self.rank + steps)]


class UnitKind(StrEnum):
    INFANTRY = "infantry"
    CAVALRY_MOUNTED = "cavalry_mounted"
    CAVALRY_DISMOUNTED = "cavalry_dismounted"
    MOUNTED_INFANTRY_MOUNTED = "mounted_infantry_mounted"
    MOUNTED_INFANTRY_DISMOUNTED = "mounted_infantry_dismounted"
    ARTILLERY = "artillery"

    @property
    def horse(self) -> bool:
        """Moves at horse speed and takes double forced moves (3.1, 5.5)."""
        return self in (UnitKind.CAVALRY_MOUNTED, UnitKind.MOUNTED_INFANTRY_MOUNTED)

    @property
    def mounts(self) -> bool:
        """Cavalry and mounted infantry, which mount and dismount (3.5)."""
        return self not in (UnitKind.INFANTRY, UnitKind.ARTILLERY)


class DivisionOrders(StrEnum):
    """A division's orders, what its player wants it to do (3, R:589-594). Hold binds its units' movement
    (5.2, R:1441-1442); a division that panicked is reset to Defend when the panic phase ends (6.1, R:1849-1852)."""

    ATTACK = "attack"
    DEFEND = "defend"
    HOLD = "hold"
    MANEUVER = "maneuver"


class Formation(StrEnum):
    SINGLE_LINE = "single_line"
    TWO_LINE = "two_line"
    THREE_LINE = "three_line"
    BRIGADE_COLUMN = "brigade_column"
    ROAD_COLUMN = "road_column"
    OPEN_ORDER = "open_order"

    @property
    def close_order(self) -> bool:
        return self is not Formation.OPEN_ORDER


class BatteryType(StrEnum):
    H_RIFLE = "h_rifle"
    M_RIFLE = "m_rifle"
    M_SB = "m_sb"
    L_SB = "l_sb"


class BatteryFunction(StrEnum):
    """What a battery does with its functions of a turn (3.5)."""

    MOVE = "move"
    UNLIMBER = "unlimber"
    FIRE = "fire"
    PROLONG = "prolong"
    LIMBER = "limber"


class LeaderClass(StrEnum):
    ENERGETIC = "E"
    PROFICIENT = "P"
    CAUTIOUS = "C"


_LEADER_VALUE = re.compile(r"^([EPC])(-?\d)$")


@dataclass(frozen=True)
class Leader:
    """A leader's value: class and rating, written as in the rules (E4, C0, P-1)."""

    leader_class: LeaderClass
    rating: int

    def __post_init__(self) -> None:
        if not -1 <= self.rating <= 4:
            raise RulesInputError("rating", f"a leader rating runs from -1 to 4, got {self.rating}")

    @classmethod
    def parse(cls, text: str, field: str = "leader") -> "Leader":
        match = _LEADER_VALUE.match(text.strip().upper()) if isinstance(text, str) else None
        if not match:
            raise RulesInputError(field, f"a leader is written as class E, P or C and a rating, like E4; got {text!r}")
        return cls(LeaderClass(match[1]), int(match[2]))

    def __str__(self) -> str:
        return f"{self.leader_class}{self.rating}"


class Cover(StrEnum):
    """Cover classes of the Cover Points table (5.2): light 1, medium 2, heavy 3 points."""

    NONE = "none"
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"
