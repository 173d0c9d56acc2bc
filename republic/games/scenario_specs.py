"""A scenario as read from its file: the order of battle, its leaders and objectives, before any game is made."""

from dataclasses import dataclass, field

from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryType, Formation, Grade, UnitKind
from republic.rules.troops import Leader as LeaderValue


@dataclass(frozen=True)
class LeaderSpec:
    name: str
    value: LeaderValue


@dataclass(frozen=True)
class BrigadeSpec:
    name: str
    grade: Grade
    bases: int
    kind: UnitKind = UnitKind.INFANTRY
    formation: Formation = Formation.TWO_LINE
    skirmishers: int = 0
    repeaters: bool = False
    m_hits: int = 0


@dataclass(frozen=True)
class BatterySpec:
    name: str
    battery_type: BatteryType
    horse: bool = False
    grade: Grade = Grade.AVERAGE
    damage: int = 0
    limbered: bool = False


@dataclass(frozen=True)
class CommandSpec:
    level: str
    name: str
    leader: LeaderSpec
    orders: str = "defend"
    commands: tuple["CommandSpec", ...] = ()
    brigades: tuple[BrigadeSpec, ...] = ()
    batteries: tuple[BatterySpec, ...] = ()

    def units(self) -> int:
        """Its brigades and batteries and those of every command under it."""
        return len(self.brigades) + len(self.batteries) + sum(c.units() for c in self.commands)


@dataclass(frozen=True)
class ObjectiveSpec:
    name: str
    held_by: str = ""  # a side's name; empty while no one holds it


@dataclass(frozen=True)
class SideSpec:
    name: str
    players: str
    commands: tuple[CommandSpec, ...]


@dataclass(frozen=True)
class Scenario:
    title: str
    sides: tuple[SideSpec, ...]
    description: str = ""
    demo: bool = False
    ground_scale: GroundScale = GroundScale.MEDIUM
    chart: str = ""
    first_attacker: str = ""
    advanced_rules: tuple[str, ...] = field(default_factory=tuple)
    objectives: tuple[ObjectiveSpec, ...] = ()
