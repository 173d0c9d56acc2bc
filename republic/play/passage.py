"""Lose/lose passage of lines (5.5, R:1679-1701) as the game decides it: which units of this turn's assaults are
losers that may be sent through friends, and whether each lost both rolls."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from republic.play.assault import Assault
from republic.rules.assault_table import OutcomeSide
from republic.rules.units import UnitState

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class Loser:
    unit: str
    lost_both_rolls: bool


def losers(assaults: Sequence[Assault], units: Mapping[str, UnitState]) -> dict[str, list[Loser]]:
    """Each side's brigades of this turn's assaults driven back by their last round (a forced move on them): the
    ones the rule may send through friends. A unit lost both rolls when its last round's result and its natural
    roll both went against its side."""
    last: dict[str, tuple[str, bool]] = {}
    for assault in assaults:
        for fought in assault.rounds:
            named = {n.unit for n in fought.names}
            for side, keys in zip(SIDES, (assault.attackers, assault.defenders), strict=True):
                against = fought.result.outcome.to in (OutcomeSide(side), OutcomeSide.BOTH)
                both = against and fought.result.natural_loser is OutcomeSide(side)
                last.update({key: (side, both) for key in keys if key in named})
    found: dict[str, list[Loser]] = {side: [] for side in SIDES}
    for key, (side, both) in last.items():
        unit = units.get(key)
        if unit is not None and unit.forced_move and not unit.battery:
            found[side].append(Loser(key, both))
    return found
