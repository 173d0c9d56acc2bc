"""A unit's type as the map shows it: the military map symbol of its arm (a frame with an X for infantry, one
diagonal for cavalry, a filled dot for artillery) and its words for a screen reader. The drawings are one sprite
(templates/games/parts/map_symbols.html) that each unit's symbol points to, so 40 rows cost 40 short references."""

from typing import NamedTuple

from republic.rules.troops import UnitKind


class MapSymbol(NamedTuple):
    drawing: str  # the id of its drawing in the sprite
    words: str


INFANTRY = "sym-inf"
CAVALRY = "sym-cav"
ARTILLERY = "sym-art"

# mounted infantry fights as infantry (3.5): the infantry's frame, its words saying how it stands
SYMBOLS = {
    UnitKind.INFANTRY: MapSymbol(INFANTRY, "Infantry"),
    UnitKind.CAVALRY_MOUNTED: MapSymbol(CAVALRY, "Cavalry, mounted"),
    UnitKind.CAVALRY_DISMOUNTED: MapSymbol(CAVALRY, "Cavalry, dismounted"),
    UnitKind.MOUNTED_INFANTRY_MOUNTED: MapSymbol(INFANTRY, "Mounted infantry, mounted"),
    UnitKind.MOUNTED_INFANTRY_DISMOUNTED: MapSymbol(INFANTRY, "Mounted infantry, dismounted"),
    UnitKind.ARTILLERY: MapSymbol(ARTILLERY, "Artillery"),
}


def map_symbol(kind: str) -> MapSymbol:
    """The symbol of a unit's kind as the database stores it ('cavalry_mounted')."""
    return SYMBOLS[UnitKind(kind)]
