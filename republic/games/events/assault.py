"""The events of the assault phase: declarations, rounds, their ends, the charge disorder and the hits the
assault's moves put on other brigades (5.5)."""

from dataclasses import dataclass

from republic.games.events.payload import LabelledRoll, NamedUnit, Payload, UnitEvent
from republic.rules.assault import AssaultRoundInput, AssaultRoundResult
from republic.rules.assault_fixed_hits import PassageInput, PassageResult, SupportingBrigadeInput, UnitHitsResult
from republic.rules.assault_moves import FollowUpInput, FollowUpResult, LocalBreakthroughInput, LocalBreakthroughResult
from republic.rules.assault_on_units import RoundOnUnits
from republic.rules.assault_sides import Contact
from republic.rules.assault_table import AssaultColumn, AssaultOutcome, Struck
from republic.rules.morale import DisorderInput, MoraleResult
from republic.rules.troops import Cover


@dataclass(frozen=True)
class Member:
    unit: str
    name: str
    contact: Contact


@dataclass(frozen=True)
class AssaultDeclared(Payload):
    """An assault, known by its event's sequence number; the primary defender is listed first."""

    number: int
    attackers: tuple[Member, ...]
    defenders: tuple[Member, ...]


@dataclass(frozen=True)
class UnitCover:
    unit: str
    cover: Cover | None  # None: not in this round
    bases: int | None = None  # the bases it counted when not all: a supporting unit's in the window (5.2)


@dataclass(frozen=True)
class RoundConditions:
    """What the table said of a round: cover, where struck, column, leaders within 2", fresh guns, rare cases."""

    cover: tuple[UnitCover, ...]
    struck: Struck = Struck.FRONT
    column: AssaultColumn | None = None
    rules_column: AssaultColumn | None = None
    attacker_leaders: tuple[int, ...] = ()
    defender_leaders: tuple[int, ...] = ()
    fresh: tuple[str, ...] = ()
    surrounded: tuple[str, ...] = ()
    out_of_town: tuple[str, ...] = ()
    across_water: tuple[str, ...] = ()
    stalled: bool = False
    printed: str = ""

    def cover_of(self, unit: str) -> Cover | None:
        return next((c.cover for c in self.cover if c.unit == unit), Cover.NONE)

    def bases_of(self, unit: str) -> int | None:
        return next((c.bases for c in self.cover if c.unit == unit), None)


@dataclass(frozen=True)
class AssaultRoundResolved(Payload):
    assault: int  # the declaration's sequence number
    number: int
    round: int
    names: tuple[NamedUnit, ...]
    conditions: RoundConditions
    inputs: AssaultRoundInput
    result: AssaultRoundResult
    on_units: RoundOnUnits
    app_outcome: AssaultOutcome | None = None  # what the app's chart said, when the players read their own

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (
            LabelledRoll("attacker", self.inputs.attacker.roll),
            LabelledRoll("defender", self.inputs.defender.roll),
        )

    def name_of(self, key: str) -> str:
        return next((u.name for u in self.names if u.unit == key), key)


@dataclass(frozen=True)
class AssaultEnded(Payload):
    assault: int
    number: int
    rounds: int
    title: str


@dataclass(frozen=True)
class Disordered:
    unit: str
    name: str
    inputs: DisorderInput
    result: MoraleResult
    also: bool = False  # the table ticked it: charge movement the app did not see


@dataclass(frozen=True)
class SupportingBrigadeHit(UnitEvent):
    primary: str  # the primary defender it supported, whose move decided its hit (5.5)
    inputs: SupportingBrigadeInput
    result: UnitHitsResult


@dataclass(frozen=True)
class LinesPassedThrough(UnitEvent):
    """A friendly unit that lose/lose losers passed through, and its hits from them (5.5)."""

    passers: tuple[NamedUnit, ...]
    inputs: PassageInput
    result: PassageResult


@dataclass(frozen=True)
class UnitFollowUp:
    unit: str
    name: str
    inputs: FollowUpInput
    result: FollowUpResult


@dataclass(frozen=True)
class AssaultFollowedUp(Payload):
    """The attackers' moves after a round of an assault (its number; 0: before any, every defender gone)."""

    assault: int
    number: int
    round: int
    moves: tuple[UnitFollowUp, ...]


@dataclass(frozen=True)
class LocalBreakthroughDeclared(UnitEvent):
    inputs: LocalBreakthroughInput
    result: LocalBreakthroughResult


@dataclass(frozen=True)
class ChargeDisorderApplied(Payload):
    units: tuple[Disordered, ...]
