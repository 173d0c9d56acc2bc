"""The events of the maneuver phase: a unit's maneuver roll (3.1), its formation, skirmishers, mount (3.5) and
assault move bonus, a battery's functions, and a forced move blocked by another unit where it would end (3.3),
whichever step made the unit move."""

from dataclasses import dataclass

from republic.games.events.payload import LabelledRoll, UnitEvent
from republic.rules.battery_functions import BatteryFunctionsInput, BatteryFunctionsResult
from republic.rules.forced_moves import BlockedMoveInput, BlockedMoveResult
from republic.rules.maneuver import ManeuverInput, ManeuverResult
from republic.rules.movement import MountInput, MountResult
from republic.rules.troops import BatteryFunction, Formation, UnitKind
from republic.rules.troops import Leader as LeaderValue


@dataclass(frozen=True)
class ManeuverRolled(UnitEvent):
    inputs: ManeuverInput
    result: ManeuverResult
    division_leader: str = ""
    division_leader_value: LeaderValue | None = None
    division_leader_hors_de_combat: bool = False
    leaders_within_2: tuple[str, ...] = ()

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("maneuver", self.inputs.roll),)


@dataclass(frozen=True)
class FormationChanged(UnitEvent):
    before: Formation
    after: Formation


@dataclass(frozen=True)
class MountChanged(UnitEvent):
    """A brigade mounted or dismounted: a formation change of the move step (3.5, R:817-825)."""

    before: UnitKind
    inputs: MountInput
    result: MountResult


@dataclass(frozen=True)
class SkirmishersDeployed(UnitEvent):
    before: int
    after: int
    limit: int


@dataclass(frozen=True)
class ChargeBonusUsed(UnitEvent):
    pass


@dataclass(frozen=True)
class ChargeBonusCleared(UnitEvent):
    pass


@dataclass(frozen=True)
class BatteryFunctionsUsed(UnitEvent):
    inputs: BatteryFunctionsInput
    result: BatteryFunctionsResult
    recorded: tuple[BatteryFunction, ...]
    will_fire: bool = False


@dataclass(frozen=True)
class ForcedMoveBlocked(UnitEvent):
    """A unit's forced move of the turn would end on another unit: it makes the next move down the list instead."""

    inputs: BlockedMoveInput
    result: BlockedMoveResult
