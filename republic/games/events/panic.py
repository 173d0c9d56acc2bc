"""The events of panic: a demoralized unit's panic test in the fire phase, and a division's panic test and the
divisions that adjoin it in the panic phase (6.1)."""

from dataclasses import dataclass

from republic.games.events.payload import LabelledRoll, NamedUnit, Payload, UnitEvent
from republic.rules.division_panic import DivisionPanicResult, DivisionUnit, PanicTrigger
from republic.rules.forced_moves import ForcedMove
from republic.rules.panic import DemoralizedPanicInput, DemoralizedPanicResult
from republic.rules.scale import GroundScale


@dataclass(frozen=True)
class DemoralizedPanicTested(UnitEvent):
    inputs: DemoralizedPanicInput
    result: DemoralizedPanicResult
    printed: str = ""


@dataclass(frozen=True)
class AppReading:
    """What the app's chart said of a test the players read off their printed chart."""

    pass_number: int
    held: bool
    move: ForcedMove | None
    loss_number: int


@dataclass(frozen=True)
class DivisionPanicTested(Payload):
    division: str  # the division's id, as the panic phase names it
    name: str
    round: int
    triggers: tuple[PanicTrigger, ...]
    units: tuple[DivisionUnit, ...]
    names: tuple[NamedUnit, ...]
    rolled: tuple[LabelledRoll, ...]
    result: DivisionPanicResult
    scale: GroundScale = GroundScale.MEDIUM
    out_of_town: bool = False
    across_bridge_or_ford: bool = False
    away_from_rear_assault: bool = False
    printed_pass: int | None = None
    printed_result: str = ""
    app: AppReading | None = None

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return self.rolled

    def name_of(self, key: str) -> str:
        return next((u.name for u in self.names if u.unit == key), key)


@dataclass(frozen=True)
class AdjoiningDeclared(Payload):
    division: str
    name: str
    adjoining: tuple[str, ...]
    names: tuple[str, ...]
