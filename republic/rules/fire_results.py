"""Artillery fire results (4.5, 4.6): one fire's hits shared over its targets, and all the hits of the fire
phase put on the units together at the end of the artillery step.

Skirmish and artillery fire are simultaneous (4.1, 4.2): every hit waits, as ``FireHits`` on its unit,
until the artillery step ends; then each unit takes the sum of its hits at once (``resolve_fire_hits``). Two hits
land as soon as their fire is resolved (``TargetOutcome.at_once``): enemy artillery's on a battery that prolonged
this turn (3.5, ``battery_functions.prolonged``), and every hit of passing fire, which is fired during the enemy's
move, not in the artillery phase (R:1229-1237, see ``artillery``).
"""

from dataclasses import dataclass, replace
from enum import StrEnum

from republic.rules.battery_functions import prolonged
from republic.rules.chart import Chart
from republic.rules.checks import check_count
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import MAX_M_HITS, Condition, MoraleCause, apply_morale_hits, condition_for
from republic.rules.panic import MAX_PANIC_LEVEL
from republic.rules.results import Explained, Mechanic
from republic.rules.skirmish import lowered_type, skirmisher_type
from republic.rules.troops import Grade
from republic.rules.units import UnitState, after_bases_lost, with_morale

TABLES = ()


@dataclass(frozen=True)
class FireHits:
    """Hits waiting on one unit until the end of the artillery step: M, B (bases, or damage on a battery),
    and B on its packed skirmish markers, which lower its skirmisher type (4.5)."""

    unit: str
    m: int = 0
    b: int = 0
    marker_b: int = 0

    def __post_init__(self) -> None:
        for name in ("m", "b", "marker_b"):
            check_count(getattr(self, name), name)

    def __add__(self, other: "FireHits") -> "FireHits":
        return FireHits(self.unit, self.m + other.m, self.b + other.b, self.marker_b + other.marker_b)

    def __bool__(self) -> bool:
        return bool(self.m or self.b or self.marker_b)


def waiting_hits(hits: "tuple[FireHits, ...] | list[FireHits]") -> dict[str, FireHits]:
    """The hits of the phase so far, summed per unit."""
    totals: dict[str, FireHits] = {}
    for hit in hits:
        totals[hit.unit] = totals[hit.unit] + hit if hit.unit in totals else hit
    return totals


class TargetKind(StrEnum):
    UNIT = "unit"  # infantry or cavalry: each B removes a base
    BATTERY = "battery"  # each B is one damage; base hits never remove a battery by themselves
    SKIRMISH_MARKER = "skirmish_marker"  # a packed marker: M go to its parent, B lower the skirmisher type


class TargetRole(StrEnum):
    MAIN = "main"
    TANDEM = "tandem"
    ADJACENT = "adjacent"
    COMPOUND = "compound"  # an enemy battery within 1" of the main target battery, fired at with it as one


@dataclass(frozen=True)
class FireTarget:
    """A unit hit by the fire. For a skirmish marker, m_hits are its parent's and skirmisher_type is the
    parent's skirmisher type. A battery that prolonged this turn takes the hits before it fires (3.5). ``covered``:
    bases of a brigade still in cover when the fire is at its uncovered ones; they take no B (R:1132-1136)."""

    kind: TargetKind = TargetKind.UNIT
    bases: int = 1
    m_hits: int = 0
    packed_battery: bool = False
    skirmisher_type: Grade | None = None
    prolonged: bool = False
    covered: int = 0

    def __post_init__(self) -> None:
        check_count(self.bases, "bases", 1)
        check_count(self.covered, "covered")
        if self.covered and self.kind is not TargetKind.UNIT:
            raise RulesInputError("covered", f"only a brigade's bases take B, this target is a {self.kind}")
        condition_for(self.m_hits)
        if self.packed_battery and self.kind is not TargetKind.BATTERY:
            raise RulesInputError("packed_battery", f"only a battery can be packed, this target is a {self.kind}")
        if self.kind is TargetKind.SKIRMISH_MARKER and self.skirmisher_type is None:
            raise RulesInputError("skirmisher_type", "give the skirmisher type of the marker's parent")
        if self.kind is not TargetKind.SKIRMISH_MARKER and self.skirmisher_type is not None:
            raise RulesInputError("skirmisher_type", "only a skirmish marker target has a skirmisher type")
        if self.prolonged and self.kind is not TargetKind.BATTERY:
            raise RulesInputError("prolonged", f"only a battery prolongs, this target is a {self.kind}")

    @classmethod
    def of(
        cls,
        unit: UnitState,
        waiting: "FireHits | None" = None,
        packed_skirmishers: bool = False,
        uncovered: int | None = None,
    ) -> "FireTarget":
        """A unit as the fire finds it, with the hits already waiting on it this phase taken into account:
        fire is simultaneous, so B a unit cannot absorb any more pass on (4.5). ``uncovered``: the fire is at that
        many of its bases out of cover, the rest being in cover (R:1132-1136); a battery's B are damage, not bases,
        so it has none to keep from them."""
        waiting = waiting or FireHits(unit.id)
        m_hits = min(MAX_M_HITS, unit.m_hits + waiting.m)
        if uncovered is not None and uncovered > unit.bases:
            raise RulesInputError("uncovered_bases", f"the target has {unit.bases} bases, not {uncovered}")
        if unit.battery:
            return cls(kind=TargetKind.BATTERY, m_hits=m_hits, packed_battery=unit.packed, prolonged=prolonged(unit))
        if packed_skirmishers:
            return cls(kind=TargetKind.SKIRMISH_MARKER, m_hits=m_hits, skirmisher_type=unit.skirmisher_type)
        covered = 0 if uncovered is None else unit.bases - uncovered
        return cls(kind=TargetKind.UNIT, bases=max(1, unit.bases - waiting.b), m_hits=m_hits, covered=covered)

    @property
    def capacity(self) -> int | None:
        """How many B it can absorb before it is wiped out; None: no limit."""
        return self.bases if self.kind is TargetKind.UNIT else None

    @property
    def exposed(self) -> int | None:
        """How many B this fire may put on it: its bases out of cover (any it has left); None: no limit."""
        return None if self.capacity is None else max(0, self.capacity - self.covered)


@dataclass(frozen=True)
class ArtilleryHitsInput:
    """One fire result (artillery_fire's `result`, before packed-battery doubling) and the targets it hits;
    ``passing_fire``: fired during the enemy's move, its hits land at once (R:1229-1237); ``compound``: an enemy
    battery within 1" of a main target battery, fired at with it as one target (R:1201-1203)."""

    rolled: Hits
    main: FireTarget
    tandem: FireTarget | None = None
    adjacent: FireTarget | None = None
    passing_fire: bool = False
    compound: FireTarget | None = None

    def __post_init__(self) -> None:
        if self.rolled.p:
            raise RulesInputError("rolled", "artillery fire scores M and B hits, not P")
        if self.compound and {self.main.kind, self.compound.kind} != {TargetKind.BATTERY}:
            raise RulesInputError(
                "compound", 'only enemy batteries within 1" of each other are fired at as one compound target (4.5)'
            )


@dataclass(frozen=True)
class TargetOutcome:
    role: TargetRole
    kind: TargetKind
    share: Hits  # its share of the rolled hits
    taken: Hits  # what it suffers: the share, doubled on a packed battery
    bases_lost: int
    damage: int
    destroyed: bool
    m_before: int
    m_after: int
    condition: Condition
    panic_hits: int
    skirmisher_type: Grade | None  # after the B, for a skirmish marker target
    at_once: bool = False  # the hits land now, not at the end of the artillery step


@dataclass(frozen=True)
class ArtilleryHitsResult(Explained):
    targets: tuple[TargetOutcome, ...]
    unassigned_b: int


def share_hits(
    rolled: Hits,
    main: FireTarget,
    tandem: FireTarget | None = None,
    adjacent: FireTarget | None = None,
    compound: FireTarget | None = None,
) -> tuple[dict[TargetRole, Hits], int]:
    """Each target's share of one fire result, and the B that found no target (4.5, R:1174-1198).

    The tandem takes half the main target's M, rounded down, in addition, and one third of the B, rounded
    down, out of the total; the main target takes the other B. B a wiped-out target cannot absorb pass to the
    tandem, then back to the main target if the tandem's own third wiped it out, then to the adjacent target
    once main and tandem are both wiped out. An adjacent target suffers "in place of" the main target
    (R:1178-1179), so when it is reached it also takes the main target's M instead of it; with no adjacent
    target the wiped-out main target keeps its M, whose P still count for division panic (R:1270-1272).
    This reproduces both cases of the rules' example (R:1255-1262).

    Fire at the uncovered bases of a covered main target puts no B on its bases in cover (R:1132-1136): it takes
    B on its uncovered bases only, and being not wiped out, passes none on; the rest are lost. A compound target
    of two batteries (R:1201-1203) is one target: the main target's share is split between them, the odd hit
    to the main target, so the fire does no more than it would to one battery.
    """
    main_cap, tandem_cap, main_room = main.capacity, tandem.capacity if tandem else 0, main.exposed

    def absorb(offered: int, room: int | None) -> int:
        return offered if room is None else min(offered, room)

    tandem_b = rolled.b // 3 if tandem else 0
    main_b = absorb(rolled.b - tandem_b, main_room)
    left = rolled.b - tandem_b - main_b
    main_wiped = main_cap is not None and main_b >= main_cap
    sheltered = 0 if main_wiped else left  # B that fall on bases still in cover
    left -= sheltered
    if tandem:
        offered = tandem_b + left
        tandem_b = absorb(offered, tandem_cap)
        left = offered - tandem_b
        extra = absorb(left, None if main_room is None else main_room - main_b)
        main_b, left = main_b + extra, left - extra
    main_wiped = main_cap is not None and main_b >= main_cap
    tandem_wiped = tandem is None or (tandem_cap is not None and tandem_b >= tandem_cap)
    shares = {TargetRole.MAIN: Hits(m=rolled.m, b=main_b)}
    if tandem:
        shares[TargetRole.TANDEM] = Hits(m=rolled.m // 2, b=tandem_b)
    if adjacent:
        reached = main_wiped and tandem_wiped
        adjacent_b = absorb(left, adjacent.capacity) if reached else 0
        left -= adjacent_b
        adjacent_m = rolled.m if reached else 0
        if adjacent_m:
            shares[TargetRole.MAIN] = Hits(m=0, b=main_b)
        shares[TargetRole.ADJACENT] = Hits(m=adjacent_m, b=adjacent_b)
    if compound:
        whole = shares[TargetRole.MAIN]
        shares[TargetRole.MAIN] = Hits(m=whole.m - whole.m // 2, b=whole.b - whole.b // 2)
        shares[TargetRole.COMPOUND] = Hits(m=whole.m // 2, b=whole.b // 2)
    return shares, left + sheltered


def _outcome(role: TargetRole, target: FireTarget, share: Hits, at_once: bool) -> tuple[TargetOutcome, tuple[str, ...]]:
    taken = share.doubled() if target.packed_battery else share
    morale = apply_morale_hits(target.m_hits, taken.m, MoraleCause.FIRE)
    notes = [f"{role} target: {note}" for note in morale.notes]
    if target.packed_battery and share:
        notes.append(f"{role} target is a packed battery: {share} becomes {taken} (4.6)")
    new_type = None
    if target.kind is TargetKind.SKIRMISH_MARKER and target.skirmisher_type is not None:  # a marker has one
        new_type = lowered_type(target.skirmisher_type, taken.b)
        if taken.m:
            notes.append(f"{role} target: the marker's {taken.m}M pass to its parent unit (4.5)")
        if taken.b:
            notes.append(
                f"{role} target: {taken.b}B lower the parent's skirmisher type from "
                f"{skirmisher_type(target.skirmisher_type)} to {new_type} (4.5)"
            )
    bases_lost = taken.b if target.kind is TargetKind.UNIT else 0
    outcome = TargetOutcome(
        role=role,
        kind=target.kind,
        share=share,
        taken=taken,
        bases_lost=bases_lost,
        damage=taken.b if target.kind is TargetKind.BATTERY else 0,
        destroyed=target.kind is TargetKind.UNIT and bases_lost >= target.bases,
        m_before=morale.m_before,
        m_after=morale.m_after,
        condition=morale.condition_after,
        panic_hits=morale.panic_hits,
        skirmisher_type=new_type,
        at_once=at_once,
    )
    return outcome, tuple(notes)


def resolve_artillery_hits(chart: Chart, inputs: ArtilleryHitsInput) -> ArtilleryHitsResult:
    """Share one fire result over its targets, then put each target's M through the morale ladder
    (demoralized: each further M is a P, 4.6). A packed battery's share is doubled when it takes it, after
    the sharing, so the shares always add up to the rolled hits."""
    shares, unassigned = share_hits(inputs.rolled, inputs.main, inputs.tandem, inputs.adjacent, inputs.compound)
    # the targets given; share_hits shares only among them
    given = {
        role: target
        for role, target in (
            (TargetRole.MAIN, inputs.main),
            (TargetRole.TANDEM, inputs.tandem),
            (TargetRole.ADJACENT, inputs.adjacent),
            (TargetRole.COMPOUND, inputs.compound),
        )
        if target is not None
    }
    outcomes: list[TargetOutcome] = []
    notes: list[str] = []
    for role, share in shares.items():
        target = given[role]
        outcome, more = _outcome(role, target, share, inputs.passing_fire or target.prolonged)
        outcomes.append(outcome)
        notes.extend(more)
        if target.prolonged and not inputs.passing_fire:
            notes.append(f"{role} target prolonged this turn: it suffers these hits now, before it fires (3.5)")
    if inputs.main.covered:
        notes.append(f"main target: its {inputs.main.covered} bases in cover take no B from fire at its uncovered ones")
    if inputs.compound:
        notes.append('main and compound targets: batteries within 1" fired at as one, sharing its hits (4.5)')
    if unassigned:
        notes.append(f"{unassigned}B found no target")
    if inputs.passing_fire:
        notes.append("passing fire: the hits take effect at once, during the move (R:1229-1237)")
    elif not all(o.at_once for o in outcomes):
        notes.append("hits take effect at the end of the artillery phase (4.2)")
    return ArtilleryHitsResult(targets=tuple(outcomes), unassigned_b=unassigned, notes=tuple(notes))


def fire_hits(
    result: ArtilleryHitsResult, units: dict[TargetRole, str], *, at_once: bool = False
) -> tuple[FireHits, ...]:
    """What one fire leaves waiting on each unit it hit (``at_once``: what it puts on them now, see the module's
    notes): a skirmish marker target's M go to its brigade and its B to the brigade's skirmishers; a battery's B
    are damage."""
    found = []
    for outcome in (o for o in result.targets if o.at_once == at_once):
        b = outcome.bases_lost if outcome.kind is TargetKind.UNIT else outcome.damage
        marker_b = outcome.taken.b if outcome.kind is TargetKind.SKIRMISH_MARKER else 0
        hit = FireHits(units[outcome.role], outcome.taken.m, b, marker_b)
        if hit:
            found.append(hit)
    return tuple(found)


# --- the end of the artillery step (4.1, 4.2, 4.5, 4.6) ----------------------------------------------


@dataclass(frozen=True)
class FireHitsResult(Explained):
    """A unit's fire hits of the phase, put on at once. ``lost``: the unit left play before they came."""

    hits: FireHits
    lost: bool
    m_after: int
    condition_after: Condition
    panic_hits: int
    bases_lost: int
    bases_after: int
    destroyed: bool
    damage_after: int
    skirmisher_type: Grade | None  # the brigade's markers' type after B on them, when they took any
    saved_fire_lost: bool
    p4_event: bool = False  # destroyed with P hits of Panic 4 this turn: its division still tests (6.1)


def resolve_fire_hits(unit: UnitState, hits: FireHits) -> FireHitsResult:
    """M walk the morale ladder and beyond Demoralized become P (4.6); B remove bases from a brigade and
    damage a battery; B on packed markers lower the skirmisher type (4.5); a battery with saved fire loses it
    on becoming Rattled or worse (4.2, R:1080-1081)."""
    if unit.out_of_play:
        return FireHitsResult(
            hits,
            True,
            unit.m_hits,
            unit.condition,
            0,
            0,
            unit.bases,
            unit.destroyed,
            unit.damage,
            None,
            False,
            notes=("out of play: its hits are lost",),
        )
    morale = apply_morale_hits(unit.m_hits, hits.m, MoraleCause.FIRE)
    notes = list(morale.notes)
    lost = 0 if unit.battery else min(hits.b, unit.bases)
    new_type = lowered_type(unit.skirmisher_type, hits.marker_b) if hits.marker_b and not unit.battery else None
    saved_fire_lost = unit.saved_fire and morale.condition_after.m_hits >= Condition.RATTLED.m_hits
    if saved_fire_lost:
        notes.append("rattled or worse: it loses its saved fire (4.2)")
    destroyed = not unit.battery and lost > 0 and lost == unit.bases
    # a destroyed unit makes no demoralized panic test (4.7), but "any panic hits inflicted are still active for
    # purposes of division panic even if B hits completely destroy the unit" (R:1270-1272), and "if the unit(s)
    # which experienced the P4 hit were entirely destroyed ... the division still reacts" (R:1866-1868): the
    # Panic 4 the test would have read (P hits of the turn, read as at most 4) is marked here
    p4 = destroyed and morale.panic_hits > 0 and unit.p_hits_turn + morale.panic_hits >= MAX_PANIC_LEVEL
    if p4:
        notes.append("destroyed with Panic 4: its division still tests for internal panic (R:1270-1272, 6.1)")
    return FireHitsResult(
        hits=hits,
        lost=False,
        m_after=morale.m_after,
        condition_after=morale.condition_after,
        panic_hits=morale.panic_hits,
        bases_lost=lost,
        bases_after=unit.bases - lost,
        destroyed=destroyed,
        damage_after=unit.damage + (hits.b if unit.battery else 0),
        skirmisher_type=new_type,
        saved_fire_lost=saved_fire_lost,
        p4_event=p4,
        notes=tuple(notes),
    )


def after_fire_hits(unit: UnitState, result: FireHitsResult) -> UnitState:
    if result.lost:
        return unit
    hit = with_morale(unit, result.m_after, result.panic_hits)
    return replace(
        after_bases_lost(hit, result.bases_lost),
        damage=result.damage_after,
        skirmisher_grade=result.skirmisher_type or unit.skirmisher_grade,
        p4_event=unit.p4_event or result.p4_event,
    )


MECHANICS = (
    Mechanic(
        "artillery_hits",
        "4.5, 4.6",
        "Share a fire result over main, tandem and adjacent targets",
        ArtilleryHitsInput,
        resolve_artillery_hits,
    ),
)
