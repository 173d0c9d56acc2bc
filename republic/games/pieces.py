"""A piece of the game: a unit, leader, division, side, objective, assault or the game itself, known by its kind
and its number, whatever names it.

Events and the engine name a piece by its key ('unit:12'; an assault by the sequence number of its
declaration); the page by its name ('unit-12'), from which come the element of its step row ('row-unit-12'), the
prefix of each of its forms ('rally-unit-12') and the name of a field about it in another piece's form
('cover-unit-12'). ``Piece.of`` reads any of them back: one identity, one parser."""

import re
from dataclasses import dataclass
from functools import lru_cache

KINDS = ("game", "side", "command", "leader", "unit", "objective", "assault")
_SPELLED = re.compile(r"(?:row-)?([a-z]+)[-:](\d{1,18})")


@dataclass(frozen=True, order=True)
class Piece:
    kind: str
    pk: int

    @property
    def key(self) -> str:
        """How events and the engine name it: 'unit:12'."""
        return f"{self.kind}:{self.pk}"

    @property
    def name(self) -> str:
        """How the page names it, in an address, an element or a form: 'unit-12'."""
        return f"{self.kind}-{self.pk}"

    @property
    def row(self) -> str:
        """The element of its step row: 'row-unit-12'."""
        return f"row-{self.name}"

    def prefix(self, form: str) -> str:
        """The prefix of one of its forms: 'rally-unit-12'."""
        return f"{form}-{self.name}"

    @classmethod
    def of(cls, spelled: str) -> "Piece | None":
        """The piece a key, a name or a row's element names ('unit:12', 'unit-12', 'row-unit-12'); None for
        anything else."""
        return _read(spelled or "")

    @classmethod
    def at(cls, spelled: str) -> "Piece":
        """The piece a trusted key or name names (one the app wrote); a ValueError for anything else."""
        found = cls.of(spelled)
        if found is None:
            raise ValueError(f"{spelled!r} names no piece of the game")
        return found

    @classmethod
    def named(cls, spelled: str, kind: str) -> "Piece | None":
        """The piece of that kind a key or name names; None for another kind or anything else."""
        found = cls.of(spelled)
        return found if found is not None and found.kind == kind else None


def keys_in(value: object, kind: str = "unit") -> set[str]:
    """The keys of the pieces of ``kind`` a stored payload names anywhere in it: what an event is about besides
    its row and the rows it changed. A marker's key ('unit:12#1') names a marker, not its unit."""
    if isinstance(value, str):
        found = Piece.of(value) if value.startswith(f"{kind}:") else None
        return {found.key} if found is not None and found.kind == kind else set()
    if isinstance(value, dict):
        return set().union(*(keys_in(v, kind) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(keys_in(v, kind) for v in value))
    return set()


@lru_cache(maxsize=16384)  # a step's rows name each of a 1,000-unit battle's pieces at every drawing
def _read(spelled: str) -> Piece | None:
    found = _SPELLED.fullmatch(spelled)
    if found is None or found.group(1) not in KINDS:
        return None
    return Piece(found.group(1), int(found.group(2)))
