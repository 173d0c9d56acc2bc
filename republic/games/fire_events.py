"""The events of fire outside the artillery step's simultaneous fire: a defending battery's passing fire during the
attacker's move (R:1229-1237), and a unit's hits put on, as leaving the artillery step, a fire at a battery that
prolonged (3.5) and passing fire record them. ``events`` lists them among every kind."""

from dataclasses import dataclass

from republic.games.payload import LabelledRoll, NamedUnit, UnitEvent
from republic.rules.artillery import ArtilleryFireInput, ArtilleryFireResult
from republic.rules.fire_results import ArtilleryHitsResult, FireHitsResult
from republic.rules.hits import Hits


@dataclass(frozen=True)
class UnitFireHits:
    """One unit's fire hits, put on: those of the fire phase at the end of the artillery step, or one fire's that
    land at once."""

    unit: str
    name: str
    result: FireHitsResult


@dataclass(frozen=True)
class PassingFireConducted(UnitEvent):
    """A defending battery's passing fire at an enemy unit about to leave its arc of fire: the battery is ``unit``,
    and its hits are on at once (``landed``)."""

    target: NamedUnit
    tandem: NamedUnit | None
    adjacent: NamedUnit | None
    inputs: ArtilleryFireInput
    printed: Hits | None
    result: ArtilleryFireResult
    shared: ArtilleryHitsResult
    landed: tuple[UnitFireHits, ...] = ()
    compound: NamedUnit | None = None  # a battery within 1" of the target battery, fired at with it as one (4.5)

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("passing fire", self.inputs.roll),)
