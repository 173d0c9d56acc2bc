"""The events of a game: one frozen payload type per kind (its class name), named in the past tense. It holds
what the action was given (the engine's inputs, the table's answers, the dice and how they were obtained) and the
engine's result with its reasons; the rows it changed are the event's ``changes``. ``payload_of`` gives it back
typed. Names of units and leaders are kept beside their keys: an event says who it was about by itself. The
assault phase's kinds live in ``assault_events``, the chain of command's in ``command_events``, a blocked forced
move's in ``forced_move_events``, passing fire in ``fire_events``, a brigade mounting in ``maneuver_events`` and
the payload base in ``payload``; all are named here so that ``KINDS`` holds every kind."""

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from republic.games.assault_events import AssaultDeclared as AssaultDeclared
from republic.games.assault_events import AssaultEnded as AssaultEnded
from republic.games.assault_events import AssaultFollowedUp as AssaultFollowedUp
from republic.games.assault_events import AssaultRoundResolved as AssaultRoundResolved
from republic.games.assault_events import ChargeDisorderApplied as ChargeDisorderApplied
from republic.games.assault_events import Disordered as Disordered
from republic.games.assault_events import LinesPassedThrough as LinesPassedThrough
from republic.games.assault_events import LocalBreakthroughDeclared as LocalBreakthroughDeclared
from republic.games.assault_events import Member as Member
from republic.games.assault_events import RoundConditions as RoundConditions
from republic.games.assault_events import SupportingBrigadeHit as SupportingBrigadeHit
from republic.games.assault_events import UnitCover as UnitCover
from republic.games.assault_events import UnitFollowUp as UnitFollowUp
from republic.games.command_events import LeaderMoved as LeaderMoved
from republic.games.command_events import ObjectiveTaken as ObjectiveTaken
from republic.games.command_events import UnitReassigned as UnitReassigned
from republic.games.fire_events import PassingFireConducted as PassingFireConducted
from republic.games.fire_events import UnitFireHits as UnitFireHits
from republic.games.forced_move_events import ForcedMoveBlocked as ForcedMoveBlocked
from republic.games.maneuver_events import MountChanged as MountChanged
from republic.games.payload import LabelledRoll as LabelledRoll
from republic.games.payload import NamedUnit as NamedUnit
from republic.games.payload import Payload as Payload
from republic.games.payload import Stored as Stored
from republic.games.payload import UnitEvent as UnitEvent
from republic.rules.artillery import ArtilleryFireInput, ArtilleryFireResult
from republic.rules.battery_functions import BatteryFunctionsInput, BatteryFunctionsResult
from republic.rules.codec import decode, encode
from republic.rules.division_panic import DivisionPanicResult, DivisionUnit, PanicTrigger
from republic.rules.fire_results import ArtilleryHitsResult, FireHits
from republic.rules.forced_moves import ForcedMove
from republic.rules.hits import Hits
from republic.rules.leaders import (
    HorsDeCombatInput,
    HorsDeCombatOutcome,
    HorsDeCombatResult,
    LeaderReplacementInput,
    LeaderReplacementResult,
)
from republic.rules.maneuver import ManeuverInput, ManeuverResult
from republic.rules.panic import DemoralizedPanicInput, DemoralizedPanicResult
from republic.rules.rally import RallyInput, RallyResult
from republic.rules.saved_fire import SavedFireInput, SavedFireResult
from republic.rules.scale import GroundScale
from republic.rules.sequence import FirstAttackerInput, FirstAttackerResult, StepKey
from republic.rules.skirmish import SkirmishAttackInput, SkirmishAttackResult, SkirmishBlocksInput, SkirmishBlocksResult
from republic.rules.troops import BatteryFunction, Formation, Grade
from republic.rules.troops import Leader as LeaderValue
from republic.rules.units import Correction

# --- the game ---------------------------------------------------------------------------------------


def _first_attacker_rolls(inputs: FirstAttackerInput | None) -> tuple[LabelledRoll, ...]:
    if inputs is None:
        return ()
    return (LabelledRoll(inputs.first_side, inputs.first_roll), LabelledRoll(inputs.second_side, inputs.second_roll))


@dataclass(frozen=True)
class FirstAttackerRolled(Payload):
    """Each side's die for the first attacker (1.6, R:339-346), not tied: the high roller's side chooses next.
    ``sides`` are the keys of the engine's first and second side."""

    sides: tuple[int, int]
    inputs: FirstAttackerInput
    result: FirstAttackerResult

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return _first_attacker_rolls(self.inputs)


@dataclass(frozen=True)
class FirstAttackerAgreed(Payload):
    """A player of one side (``by``) agrees, without a roll, that ``side`` attacks first (1.6, R:342-343): it is
    chosen only once a player of every other side (``waiting_on``, by name) agrees to the same."""

    side: int
    side_name: str
    by: int
    by_name: str
    waiting_on: str


@dataclass(frozen=True)
class FirstAttackerChosen(Payload):
    """The side that attacks first (1.6, R:339-346), agreed by all or chosen by the high roller; an event
    recorded before the dice were kept has neither inputs nor result."""

    side: int
    side_name: str
    how: str  # AGREED or BY_ROLL
    inputs: FirstAttackerInput | None = None
    result: FirstAttackerResult | None = None

    AGREED = "agreed"
    BY_ROLL = "die roll"

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return _first_attacker_rolls(self.inputs)


@dataclass(frozen=True)
class GameEnded(Payload):
    """The game master's word that the game is over: the winning side (None: a draw) and what decided it."""

    winner: int | None
    winner_name: str
    note: str = ""


@dataclass(frozen=True)
class StepAdvanced(Payload):
    """The next step: leaving the artillery step puts the fire phase's hits on, leaving the panic phase puts the
    divisions that panicked back on Defend (``orders_reset``: their names), the turn's last step ends it."""

    left: StepKey
    to: StepKey
    fire_hits: tuple[UnitFireHits, ...] = ()
    orders_reset: tuple[str, ...] = ()
    turn_ended: bool = False
    left_undone: tuple[str, ...] = ()  # the work the game master moved on without


@dataclass(frozen=True)
class EventUndone(Payload):
    seq: int


@dataclass(frozen=True)
class FieldValue:
    field: str
    value: Any


@dataclass(frozen=True)
class CorrectionMade(Payload):
    """A row ('unit:12') put right by hand: one of a unit card's corrections, or fields set directly."""

    target: str
    name: str
    correction: Correction | None
    fields: tuple[FieldValue, ...]


@dataclass(frozen=True)
class OrdersChanged(Payload):
    division: int
    name: str
    orders: str


# --- command phase ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RallyResolved(UnitEvent):
    inputs: RallyInput
    result: RallyResult
    leaders_within_4: tuple[str, ...] = ()

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("rally", self.inputs.roll),)


@dataclass(frozen=True)
class LeaderReplaced(Payload):
    leader: int
    name: str
    command: str
    inputs: LeaderReplacementInput
    result: LeaderReplacementResult
    successor: str = ""  # who takes over a corps or an army; a division leader returns himself
    fresh: str = ""  # the fresh leader of the division the successor left, as "name (value)"


# --- maneuver phase ---------------------------------------------------------------------------------


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


# --- fire phase -------------------------------------------------------------------------------------


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
class DemoralizedPanicTested(UnitEvent):
    inputs: DemoralizedPanicInput
    result: DemoralizedPanicResult
    printed: str = ""


@dataclass(frozen=True)
class LeaderCheckedForCasualty(Payload):
    leader: int
    name: str
    command: str
    inputs: HorsDeCombatInput
    result: HorsDeCombatResult

    @property
    def casualty(self) -> bool:
        return self.result.outcome is HorsDeCombatOutcome.HORS_DE_COMBAT

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return (LabelledRoll("hors de combat", self.inputs.roll),)


@dataclass(frozen=True)
class HorsDeCombatSkipped(Payload):
    leader: int
    name: str


# --- panic phase ------------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class EarlierRecord(Payload):
    """An event recorded before events were typed: its kind and its words, as the log showed them."""

    kind: str
    summary: str


def _leaves(base: type[Payload]) -> list[type[Payload]]:
    return [leaf for sub in base.__subclasses__() for leaf in (_leaves(sub) if sub.__subclasses__() else [sub])]


KINDS: dict[str, type[Payload]] = {kind.__name__: kind for kind in _leaves(Payload)}
"""Every kind of event, by name: each payload type here and in ``assault_events``, ``command_events``,
``fire_events``, ``forced_move_events`` and ``maneuver_events``."""


def kind_of(payload: Payload) -> str:
    return type(payload).__name__


def stored(payload: Payload) -> dict[str, Any]:
    data: dict[str, Any] = encode(payload)
    return data


_DECODED: dict[tuple[Any, ...], Payload] = {}
DECODED_KEPT = 50_000
"""How many decoded payloads a server process keeps: a club day's events, a few kilobytes each."""


def payload_of(event: Stored) -> Payload:
    """The event's payload, as its kind's type.

    A recorded event never changes, and forty phones polling one game draw the same rows from the same events
    every few seconds: each process decodes an event once. It is known by its id and the moment it was recorded
    (an id alone may come back after a rolled-back transaction); an event not yet saved is decoded every time."""
    fields = vars(event)
    key = (fields.get("id"), fields.get("created"), event.kind)
    if key[0] is not None and key[1] is not None:
        found = _DECODED.get(key)
        if found is not None:
            return found
    payload: Payload = decode(KINDS[event.kind], event.payload)
    if key[0] is not None and key[1] is not None:
        if len(_DECODED) >= DECODED_KEPT:
            _DECODED.clear()
        _DECODED[key] = payload
    return payload


P = TypeVar("P", bound=Payload)


def read_all(found: Iterable[Stored], kind: type[P]) -> list[P]:
    """The payloads of the events of this kind among ``found``, in order."""
    return [payload for event in found if event.kind == kind.__name__ if isinstance(payload := payload_of(event), kind)]


def named_in(found: Iterable[Stored], kind: type[Payload], name: str) -> list[Any]:
    """One plain field (a unit's key) of the payloads of this kind, read without decoding the rest (cheap)."""
    if name not in {f.name for f in fields(kind)}:
        raise AttributeError(f"{kind.__name__} has no field {name}")
    return [event.payload[name] for event in found if event.kind == kind.__name__]
