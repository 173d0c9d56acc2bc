"""Dice (1.2): a roll is its faces plus how they were obtained.

A face typed from a physical d10 and a face rolled by the app are equal citizens; the record says which.
The app rolls only from a random source passed in, so resolution stays deterministic and testable.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from republic.rules.errors import RulesInputError


class RollSource(StrEnum):
    TYPED = "typed"
    APP = "app"


class RandomSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class Roll:
    faces: tuple[int, ...]
    source: RollSource = RollSource.TYPED

    def __post_init__(self) -> None:
        if not self.faces:
            raise RulesInputError("roll", "no die faces given")
        for face in self.faces:
            if isinstance(face, bool) or not isinstance(face, int):
                raise RulesInputError("roll", f"a d10 face must be a whole number from 1 to 10, got {face!r}")
            if not 1 <= face <= 10:
                raise RulesInputError("roll", f"a d10 shows 1 to 10, got {face}")

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def is_double(self) -> bool:
        return len(self.faces) == 2 and self.faces[0] == self.faces[1]

    def __str__(self) -> str:
        faces = "-".join(str(f) for f in self.faces)
        return f"{faces} ({self.source})"


def d10(face: int) -> Roll:
    """One d10 typed from a physical die."""
    return Roll((face,))


def roll_d10(rng: RandomSource) -> Roll:
    return Roll((rng.randint(1, 10),), RollSource.APP)


def roll_2d10(rng: RandomSource) -> Roll:
    return Roll((rng.randint(1, 10), rng.randint(1, 10)), RollSource.APP)


def single(roll: Roll, field: str = "roll") -> int:
    """The face of a 1D10 roll; a roll of another size is refused."""
    if len(roll.faces) != 1:
        raise RulesInputError(field, f"this is a 1D10 roll, got {len(roll.faces)} dice")
    return roll.faces[0]


def pair(roll: Roll, field: str = "roll") -> tuple[int, int]:
    """The faces of a 2D10 roll; a roll of another size is refused."""
    if len(roll.faces) != 2:
        raise RulesInputError(field, f"this is a 2D10 roll, got {len(roll.faces)} dice")
    return roll.faces[0], roll.faces[1]
