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

    def count(self, brigades: bool) -> int:
        """Its brigades (or its batteries) and those of every command under it."""
        own = len(self.brigades) if brigades else len(self.batteries)
        return own + sum(c.count(brigades) for c in self.commands)

    def levels(self, level: str) -> int:
        """The commands of this level it is or holds."""
        return (self.level == level) + sum(c.levels(level) for c in self.commands)


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
    turns: int | None = None  # the game turns the day holds, 40 minutes each (1.1)
    sources: tuple[str, ...] = ()

    def brigades(self) -> int:
        return sum(c.count(brigades=True) for side in self.sides for c in side.commands)

    def batteries(self) -> int:
        return sum(c.count(brigades=False) for side in self.sides for c in side.commands)

    def players(self) -> tuple[int, int]:
        """The fewest and most players the order of battle seats, besides the game master: a side needs one
        player for each corps (one in all where it has none), and takes at most one for each division."""
        fewest = sum(max(1, sum(c.levels("corps") for c in side.commands)) for side in self.sides)
        most = sum(c.levels("division") for side in self.sides for c in side.commands)
        return fewest, max(fewest, most)
