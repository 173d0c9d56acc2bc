"""The events of the maneuver phase that change what a unit is: a cavalry or mounted infantry brigade mounting or
dismounting (3.5). ``events`` lists them among every kind."""

from dataclasses import dataclass

from republic.games.payload import UnitEvent
from republic.rules.movement import MountInput, MountResult
from republic.rules.troops import UnitKind


@dataclass(frozen=True)
class MountChanged(UnitEvent):
    """A brigade mounted or dismounted: a formation change of the move step (3.5, R:817-825)."""

    before: UnitKind
    inputs: MountInput
    result: MountResult
