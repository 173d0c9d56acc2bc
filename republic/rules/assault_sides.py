"""The sides of an assault round (5.1, 5.2, 5.4): the units taking part, what the greatest share of a
side's bases makes it, and each side's die modifiers.

"The greatest percentage of bases" (5.4): when shares tie, the tie goes the side's way (the better grade,
the better cover, the better morale condition), as the cover rule's "rounding up" says (R:1573-1575); the
morale rule's "over half" (R:1562) stays strict. Unit kind ties go to the unit listed first, so list the
primary unit first.
"""

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from republic.rules.assault_table import OutcomeSide, Struck
from republic.rules.chart import DIE_MODIFIER, Chart, KeyedSpec, Span
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.morale import Condition, condition_for
from republic.rules.results import CellUse, Modifier
from republic.rules.troops import Cover, Formation, Grade, UnitKind
from republic.rules.units import UnitState, skirmisher_limit

# --- chart tables -----------------------------------------------------------------------------------


OUTNUMBERING_STEPS = ("3:2", "2:1", "3:1", "4:1")

MODIFIER_KEYS = (
    "repeaters",
    "leader_within_2",
    "fresh_battery",
    "base_lost",
    "worst_panic_hit",
    "skirmish_quarter",
    "outflanked",
    "rear",
)

TACTICAL_BONUSES = ("all_out_win", "saved_fire")


_GRADES = tuple(g.value for g in Grade)

_POINTS_PER_HIT = Span("natural-roll points per M hit", 1, 10)
"""A natural roll is 1 to 10; a hit per more points than that would never be lost (5.1)."""

_COVER_POINTS = Span("cover points", 0, 10)  # cover only ever adds to the defender's roll (R:1500-1516)

TABLES = (
    KeyedSpec("assault_grade_modifiers", "5.4", "Assault modifiers: troop grade", _GRADES, DIE_MODIFIER),
    KeyedSpec(
        "assault_condition_modifiers",
        "5.4",
        "Assault modifiers: morale hits",
        tuple(c.value for c in Condition),
        DIE_MODIFIER,
    ),
    KeyedSpec(
        "assault_outnumbering",
        "5.4",
        "Assault modifiers: outnumbered ratio, for the lesser side",
        OUTNUMBERING_STEPS,
        DIE_MODIFIER,
    ),
    KeyedSpec(
        "assault_natural_points", "5.1", "Natural-roll points lost per M hit, by grade", _GRADES, _POINTS_PER_HIT
    ),
    KeyedSpec("assault_modifiers", "5.4", "Assault modifiers", MODIFIER_KEYS, DIE_MODIFIER),
    KeyedSpec("assault_cover_points", "5.2, 5.4", "Cover points", tuple(c.value for c in Cover), _COVER_POINTS),
    KeyedSpec("assault_tactical_bonuses", "4.2, 5.1", "Assault tactical bonuses", TACTICAL_BONUSES, DIE_MODIFIER),
)


# --- the units and the sides ------------------------------------------------------------------------


class Contact(StrEnum):
    """How close a unit stands to the enemy it assaults (5.1): within 2" or within 4"."""

    ALL_OUT = "all_out"
    GENERAL = "general"


class AssaultType(StrEnum):
    ALL_OUT = "all_out"
    GENERAL = "general"
    MIXED = "mixed"


@dataclass(frozen=True)
class AssaultUnit:
    """A unit taking part in the round. ``bases`` are the bases it counts toward the strength total
    (a supporting unit counts only its bases inside the attacker's window, 5.2; a battery counts one)."""

    grade: Grade
    bases: int
    m_hits: int = 0
    kind: UnitKind = UnitKind.INFANTRY
    contact: Contact = Contact.GENERAL
    cover: Cover = Cover.NONE
    open_order: bool = False
    repeaters: bool = False
    skirmishers_deployed: int = 0
    skirmishers_available: int = 0

    def __post_init__(self) -> None:
        if self.bases < 1:
            raise RulesInputError("bases", f"a unit taking part has at least 1 base, got {self.bases}")
        condition_for(self.m_hits)
        if self.open_order and self.kind is UnitKind.ARTILLERY:
            raise RulesInputError("open_order", "artillery has no open order")
        if self.skirmishers_available < 0:
            raise RulesInputError("skirmishers_available", f"cannot be negative, got {self.skirmishers_available}")
        if not 0 <= self.skirmishers_deployed <= self.skirmishers_available:
            raise RulesInputError(
                "skirmishers_deployed",
                f"from 0 to the {self.skirmishers_available} available, got {self.skirmishers_deployed}",
            )

    @property
    def condition(self) -> Condition:
        return condition_for(self.m_hits)

    @classmethod
    def of(
        cls, unit: UnitState, contact: Contact, cover: Cover = Cover.NONE, bases: int | None = None
    ) -> "AssaultUnit":
        """A unit as it stands, with its contact and the cover the table gives it for the round; ``bases``: the
        bases it counts when not all of them, a supporting unit's inside the attacker's window (5.2, R:1431-1435)."""
        if bases is not None and not 1 <= bases <= unit.bases:
            raise RulesInputError("bases", f"from 1 to the {unit.bases} bases it has, got {bases}")
        if unit.battery:
            return cls(unit.grade, unit.bases, unit.m_hits, UnitKind.ARTILLERY, contact, cover)
        return cls(
            unit.grade,
            unit.bases if bases is None else bases,
            unit.m_hits,
            unit.kind,
            contact,
            cover,
            open_order=unit.formation is Formation.OPEN_ORDER,
            repeaters=unit.repeaters,
            skirmishers_deployed=unit.skirmishers_deployed,
            skirmishers_available=skirmishers_in_assault(unit),
        )


def skirmishers_in_assault(unit: UnitState) -> int:
    """The markers a brigade counts as available for the 1/4 skirmishers out modifier (5.3, R:1595-1599).

    In open order one marker per combat base is available, not only its troop list's (R:269-270). That limits
    deploying, not keeping: no rule takes a marker away with a base, so a brigade in open order that loses a
    base to fire with a marker out per base keeps them all out, and its markers out are all it has: the
    available count is never below the markers out (all out: four quarters, never more)."""
    return max(skirmisher_limit(unit), unit.skirmishers_deployed)


@dataclass(frozen=True)
class AssaultSide:
    """One side of a round: its natural 1D10, its units, and what the table knows about it.
    ``tactical_bonus`` is the "C" bonus won by an All Out Win/Win in the round before (5.1)."""

    roll: Roll
    units: tuple[AssaultUnit, ...]
    leaders_within_2: int = 0
    fresh_batteries: int = 0
    saved_fire_batteries: int = 0
    bases_lost: int = 0
    worst_panic: int = 0
    outflanked: bool = False
    rear: bool = False
    tactical_bonus: bool = False

    def __post_init__(self) -> None:
        single(self.roll, "roll")
        if not self.units:
            raise RulesInputError("units", "a side needs at least one unit")
        for name in ("leaders_within_2", "fresh_batteries", "saved_fire_batteries", "bases_lost", "worst_panic"):
            if getattr(self, name) < 0:
                raise RulesInputError(name, f"cannot be negative, got {getattr(self, name)}")
        batteries = sum(u.bases for u in self.units if u.kind is UnitKind.ARTILLERY)
        for name in ("fresh_batteries", "saved_fire_batteries"):
            if getattr(self, name) > batteries:
                raise RulesInputError(name, f"more than the {batteries} artillery bases taking part")

    @property
    def bases(self) -> int:
        return sum(u.bases for u in self.units)

    @classmethod
    def of(
        cls,
        roll: Roll,
        members: tuple[tuple[UnitState, Contact, Cover], ...],
        *,
        leaders_within_2: int = 0,
        fresh_batteries: int = 0,
        struck: Struck | None = None,
        tactical_bonus: bool = False,
        counted: Mapping[str, int] | None = None,
    ) -> "AssaultSide":
        """A side from its units as they stand: their batteries with saved fire, the bases they lost this
        turn and the worst P hits of the phase on any one of them (5.4). ``struck`` is for the defender;
        ``counted``: the bases a unit counts when not all of them, by its id (a supporting unit, 5.2)."""
        units = [unit for unit, _, _ in members]
        counted = counted or {}
        return cls(
            roll,
            tuple(AssaultUnit.of(unit, contact, cover, counted.get(unit.id)) for unit, contact, cover in members),
            leaders_within_2=leaders_within_2,
            fresh_batteries=fresh_batteries,
            saved_fire_batteries=sum(1 for u in units if u.battery and u.saved_fire),
            bases_lost=sum(u.base_hits_turn for u in units),
            # "the maximum number of panic hits suffered so far during the current assault phase by the single
            # worst-case participating unit" (R:1591-1593): not those of the fire phase
            worst_panic=max(u.p_hits_assault for u in units),
            outflanked=struck is Struck.FLANK,
            rear=struck is Struck.REAR,
            tactical_bonus=tactical_bonus,
        )

    @property
    def struck(self) -> Struck:
        return Struck.REAR if self.rear else Struck.FLANK if self.outflanked else Struck.FRONT


T = TypeVar("T")


def _greatest_share(
    units: Iterable[AssaultUnit], key: Callable[[AssaultUnit], T], better: Callable[[T], int] | None = None
) -> T:
    """The value held by the greatest share of bases; on a tie the better one by ``better`` (lower is
    better), or without it the one met first."""
    shares: dict[T, int] = {}
    for unit in units:
        shares[key(unit)] = shares.get(key(unit), 0) + unit.bases
    most = max(shares.values())
    tied = [value for value, bases in shares.items() if bases == most]
    return min(tied, key=better) if better else tied[0]


def side_grade(units: tuple[AssaultUnit, ...]) -> Grade:
    return _greatest_share(units, lambda u: u.grade, lambda g: g.rank)


def side_condition(units: tuple[AssaultUnit, ...]) -> Condition:
    """The morale condition a side's modifier is read for (5.4): the greatest share among the units with
    M hits when they hold over half the bases, else the greatest share of all bases."""
    hit = tuple(u for u in units if u.m_hits)
    pool = hit if 2 * sum(u.bases for u in hit) > sum(u.bases for u in units) else units
    return _greatest_share(pool, lambda u: u.condition, lambda c: c.m_hits)


def side_cover(units: tuple[AssaultUnit, ...]) -> Cover:
    order = list(Cover)
    return _greatest_share(units, lambda u: u.cover, lambda c: -order.index(c))


def side_kind(units: tuple[AssaultUnit, ...]) -> UnitKind:
    return _greatest_share(units, lambda u: u.kind)


def side_open_order(units: tuple[AssaultUnit, ...]) -> bool:
    return _greatest_share(units, lambda u: u.open_order, lambda open_order: int(open_order))


def assault_type(attackers: tuple[AssaultUnit, ...]) -> AssaultType:
    contacts = {u.contact for u in attackers}
    if contacts == {Contact.ALL_OUT}:
        return AssaultType.ALL_OUT
    return AssaultType.GENERAL if contacts == {Contact.GENERAL} else AssaultType.MIXED


def natural_morale_hits(chart: Chart, grade: Grade, points_lost: int) -> tuple[int, CellUse]:
    """M hits for losing the natural roll by ``points_lost``: one per k points of the grade, rounded up."""
    if points_lost < 0:
        raise RulesInputError("points_lost", f"cannot be negative, got {points_lost}")
    k: int
    k, use = chart.entry("assault_natural_points", grade.value)
    return math.ceil(points_lost / k), use


def _ratio(step: str) -> tuple[int, int]:
    larger, smaller = step.split(":")
    return int(larger), int(smaller)


@dataclass
class SideReading:
    """What a side's modifiers are read for (its greatest shares of bases), and the modifiers and cells."""

    grade: Grade
    condition: Condition
    cover: Cover
    modifiers: list[Modifier]
    cells: list[CellUse]

    def entry(self, chart: Chart, table: str, key: str) -> int:
        """A die-point entry of one of the assault modifier tables, all whole numbers."""
        value: int
        value, use = chart.entry(table, key)
        self.cells.append(use)
        return value

    def each(self, chart: Chart, key: str, count: int, label: str, section: str = "5.4") -> None:
        if count:
            self.modifiers.append(Modifier(label, count * self.entry(chart, "assault_modifiers", key), section))


def side_modifiers(chart: Chart, side: AssaultSide, defender: bool) -> SideReading:
    units, bases = side.units, side.bases
    grade, condition, cover = side_grade(units), side_condition(units), side_cover(units)
    reading = SideReading(grade, condition, cover, [], [])
    reading.modifiers.append(
        Modifier(
            f"troop grade: {grade.value} (greatest share of bases)",
            reading.entry(chart, "assault_grade_modifiers", grade.value),
            "5.4",
        )
    )
    reading.modifiers.append(
        Modifier(
            f"morale hits: {condition.value}",
            reading.entry(chart, "assault_condition_modifiers", condition.value),
            "5.4",
        )
    )
    reading.modifiers.append(
        Modifier(
            f"cover points: {cover.value} (greatest share of bases)",
            reading.entry(chart, "assault_cover_points", cover.value),
            "5.2, 5.4",
        )
    )
    if 2 * sum(u.bases for u in units if u.repeaters) >= bases:
        reading.each(chart, "repeaters", 1, "repeater equipped (half or more of the bases)")
    reading.each(chart, "leader_within_2", side.leaders_within_2, 'each E or P leader within 2"')
    reading.each(chart, "fresh_battery", side.fresh_batteries, "each fresh artillery battery (did not fire this turn)")
    if side.saved_fire_batteries:
        bonus = reading.entry(chart, "assault_tactical_bonuses", "saved_fire")
        reading.modifiers.append(
            Modifier("tactical bonus: each battery with saved fire", side.saved_fire_batteries * bonus, "4.2")
        )
    if side.tactical_bonus:
        reading.modifiers.append(
            Modifier(
                'tactical bonus "C" from an All Out win',
                reading.entry(chart, "assault_tactical_bonuses", "all_out_win"),
                "5.1",
            )
        )
    reading.each(chart, "base_lost", side.bases_lost, "each own base lost this player turn")
    reading.each(chart, "worst_panic_hit", side.worst_panic, "each P hit on the worst single unit this phase")
    deployed = sum(u.skirmishers_deployed for u in units)
    if deployed and 2 * sum(u.bases for u in units if u.skirmishers_deployed) >= bases:
        quarters = 4 * deployed // sum(u.skirmishers_available for u in units)
        reading.each(chart, "skirmish_quarter", quarters, "each 1/4 of available skirmishers deployed")
    if defender and side.rear:
        reading.each(chart, "rear", 1, "attacked in rear")
    elif defender and side.outflanked:
        reading.each(chart, "outflanked", 1, "outflanked")
    return reading


def outnumbering(
    chart: Chart, attacker: AssaultSide, defender: AssaultSide, square_vs_solo_cavalry: bool = False
) -> tuple[OutcomeSide, Modifier | None, CellUse | None, str]:
    """The lesser side's modifier for the ratio it is outnumbered by (5.4)."""
    if attacker.bases == defender.bases:
        return OutcomeSide.NONE, None, None, ""
    lesser = OutcomeSide.ATTACKER if attacker.bases < defender.bases else OutcomeSide.DEFENDER
    larger, smaller = max(attacker.bases, defender.bases), min(attacker.bases, defender.bases)
    reached = [step for step in OUTNUMBERING_STEPS if larger * _ratio(step)[1] >= smaller * _ratio(step)[0]]
    if not reached:
        return lesser, None, None, ""
    if lesser is OutcomeSide.ATTACKER and defender.struck is not Struck.FRONT:
        return lesser, None, None, "defenders assaulted in the flank or rear inflict no outnumbered modifier (5.4)"
    step, note = reached[-1], ""
    if lesser is OutcomeSide.DEFENDER and square_vs_solo_cavalry and step != OUTNUMBERING_STEPS[0]:
        note = f"infantry in square against cavalry alone: {step} is read as {OUTNUMBERING_STEPS[0]} at most (5.4)"
        step = OUTNUMBERING_STEPS[0]
    value: int
    value, use = chart.entry("assault_outnumbering", step)
    return lesser, Modifier(f"outnumbered {step} or more ({larger} to {smaller} bases)", value, "5.4"), use, note


MECHANICS = ()
