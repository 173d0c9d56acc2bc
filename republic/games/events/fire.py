"""The events of the fire phase: skirmish blocks and attacks, a battery's or a joint group's fire, a saved fire,
a defending battery's passing fire during the attacker's move (R:1229-1237), and a unit's fire hits as they are
put on: leaving the artillery step, or at once on a battery that prolonged (3.5) and from passing fire."""

from dataclasses import dataclass

from republic.games.events.payload import LabelledRoll, NamedUnit, Payload, UnitEvent
from republic.rules.artillery import ArtilleryFireInput, ArtilleryFireResult
from republic.rules.fire_results import ArtilleryHitsResult, FireHits, FireHitsResult
from republic.rules.hits import Hits
from republic.rules.saved_fire import SavedFireInput, SavedFireResult
from republic.rules.skirmish import SkirmishAttackInput, SkirmishAttackResult, SkirmishBlocksInput, SkirmishBlocksResult
from republic.rules.troops import Grade


@dataclass(frozen=True)
class DeclaredBlock:
    """A defending skirmish marker's block on an attacking one; markers are '<unit key>#<number>'."""

    blocker: str
    blocker_name: str
    grade: Grade
    target: str
    target_name: str


@dataclass(frozen=True)
class SkirmishBlocksDeclared(Payload):
    side: str
    blocks: tuple[DeclaredBlock, ...]
    markers: tuple[str, ...]  # the attacking markers as they stood


@dataclass(frozen=True)
class SkirmishBlocksRolled(Payload):
    side: str
    declared: tuple[DeclaredBlock, ...]
    inputs: SkirmishBlocksInput
    result: SkirmishBlocksResult
    blocked: tuple[str, ...]  # the attacking markers blocked

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return tuple(LabelledRoll(b.blocker, b.roll) for b in self.inputs.blocks)


@dataclass(frozen=True)
class SkirmishAttacked(UnitEvent):
    target: str
    target_name: str
    inputs: SkirmishAttackInput
    result: SkirmishAttackResult
    hits: tuple[FireHits, ...] = ()

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("skirmish attack", self.inputs.roll),)


@dataclass(frozen=True)
class UnitFireHits:
    """One unit's fire hits, put on: those of the fire phase at the end of the artillery step, or one fire's that
    land at once."""

    unit: str
    name: str
    result: FireHitsResult


@dataclass(frozen=True)
class ArtilleryFired(Payload):
    """A battery's fire, or a joint group's (the first battery named leads it)."""

    batteries: tuple[NamedUnit, ...]
    target: NamedUnit
    tandem: NamedUnit | None
    adjacent: NamedUnit | None
    inputs: ArtilleryFireInput
    printed: Hits | None
    result: ArtilleryFireResult
    shared: ArtilleryHitsResult
    hits: tuple[FireHits, ...] = ()  # those that wait for the end of the artillery step
    worst: str = ""  # a joint group's most hit battery, whose M and damage the die reads
    landed: tuple[UnitFireHits, ...] = ()  # those put on at once: on a battery that prolonged this turn (3.5)
    compound: NamedUnit | None = None  # a battery within 1" of the target battery, fired at with it as one (4.5)

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("artillery", self.inputs.roll),)

    def name_of(self, key: str) -> str:
        units = [*self.batteries, self.target, *(u for u in (self.tandem, self.adjacent, self.compound) if u)]
        return next((u.name for u in units if u.unit == key), key)


@dataclass(frozen=True)
class FireSaved(UnitEvent):
    inputs: SavedFireInput
    result: SavedFireResult
    kept: bool = False  # it held a saved fire marker already


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
