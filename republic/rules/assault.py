"""Assault (5.1-5.4): the assault column, the modified and natural rolls, and the outcome of one round.

One round: each side rolls 1D10 and adds its modifiers (5.4); the attacker's modified total minus the
defender's is looked up in the column's table (5.3); the natural rolls are then compared and the loser
takes M hits by its grade (5.1 step 6). This module says what hits and action the round gives each side;
applying them to units (base hits spread, prisoners, panic responses, artillery) is assault_results' work.

Readings chosen where the rules leave room:
- Which side "won the modified roll" is read off the table: the attacker wins when the cell falls on the
  defender (above the zero line, R:1370-1374) and is not a roll again; middle cells (roll again, break
  off) have no winner. Win/Win (R:1350-1353) is that win plus a won natural roll.
- "The greatest percentage of bases" (5.4): when shares tie, the tie goes the side's way (the better
  grade, the better cover, the better morale condition), as the cover rule's "rounding up" says
  (R:1573-1575); the morale rule's "over half" (R:1562) stays strict. Unit kind ties go to the unit
  listed first, so list the primary unit first.
- Natural-roll M (R:1380-1390) fall on "the losing unit(s) based on their troop grade": the side's hits
  use the grade of its greatest share of bases, as the grade modifier does; each unit's own figure is
  given beside it for a side of mixed grades.
"""

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeVar

from republic.rules.chart import BandSpec, Chart, KeyedSpec, integer
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import Condition, condition_for
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, present
from republic.rules.troops import Cover, Grade, UnitKind

# --- outcome notation ------------------------------------------------------------------------------


class OutcomeSide(StrEnum):
    """Whom a table cell's hits fall on."""

    DEFENDER = "defender"
    ATTACKER = "attacker"
    BOTH = "both"
    NONE = "none"


class OutcomeAction(StrEnum):
    """What a table cell makes the sides do next (5.5, R:1721-1783)."""

    CARRY = "carry"
    DRIVE_AWAY = "drive_away"
    MAY_BREAKTHROUGH = "may_breakthrough"
    MUST_BREAKTHROUGH = "must_breakthrough"
    OVERRUN = "overrun"
    BREAK_OFF = "break_off"
    ROLL_AGAIN = "roll_again"
    SURRENDER = "surrender"
    NONE = "none"

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


# The attacker's follow-up after beating the defender.
_VICTOR_ACTIONS = (
    OutcomeAction.CARRY,
    OutcomeAction.DRIVE_AWAY,
    OutcomeAction.MAY_BREAKTHROUGH,
    OutcomeAction.MUST_BREAKTHROUGH,
    OutcomeAction.OVERRUN,
)

_ACTION_WORDS = {action.words: action for action in OutcomeAction if action is not OutcomeAction.NONE}
_ACTION_WORDS["carry position"] = OutcomeAction.CARRY

_HIT_PART = re.compile(r"^\d+[MBP]$", re.IGNORECASE)

# Weights for comparing outcomes: a base lost outweighs a forced move, which outweighs a morale step.
_HIT_WEIGHT = {"m": 1, "p": 2, "b": 3}

# How much an action adds to the defender's plight. A break off costs the attacker 1M and the ground.
_ACTION_WEIGHT = {
    OutcomeAction.NONE: 0,
    OutcomeAction.ROLL_AGAIN: 0,
    OutcomeAction.DRIVE_AWAY: 0,
    OutcomeAction.CARRY: 2,
    OutcomeAction.MAY_BREAKTHROUGH: 3,
    OutcomeAction.MUST_BREAKTHROUGH: 3,
    OutcomeAction.OVERRUN: 4,
    OutcomeAction.BREAK_OFF: -2,
}
_SURRENDER_WEIGHT = 10


def hits_weight(hits: Hits) -> int:
    """A single measure of how much a set of hits hurts, for ordering outcomes."""
    return hits.m * _HIT_WEIGHT["m"] + hits.p * _HIT_WEIGHT["p"] + hits.b * _HIT_WEIGHT["b"]


@dataclass(frozen=True)
class AssaultOutcome:
    """An assault table cell, written ``[side] [hits] [action]``: 'defender 3P 1B carry',
    'attacker 2P', 'attacker break off', 'both 1M roll again', 'roll again', '-'.

    ``to`` takes ``hits``; ``action`` is what follows: carry, drive away, may/must breakthrough and overrun
    are the attacker's follow-up after a defender loss; break off is the attacker's; surrender is the
    side's named; roll again goes with any side."""

    to: OutcomeSide
    hits: Hits = field(default_factory=Hits)
    action: OutcomeAction = OutcomeAction.NONE

    def __post_init__(self):
        problem = _outcome_problem(self.to, self.hits, self.action)
        if problem:
            raise ValueError(problem)

    @classmethod
    def parse(cls, raw: Any) -> "AssaultOutcome":
        if not isinstance(raw, str):
            raise ValueError(f"an assault result is written like 'defender 3P carry', got {raw!r}")
        words = raw.strip().lower().split()
        if words in ([], ["-"]):
            return cls(OutcomeSide.NONE)
        side = OutcomeSide.NONE
        if words[0] in (OutcomeSide.DEFENDER, OutcomeSide.ATTACKER, OutcomeSide.BOTH):
            side = OutcomeSide(words.pop(0))
        hit_parts = []
        while words and _HIT_PART.match(words[0]):
            hit_parts.append(words.pop(0))
        phrase = " ".join(words).replace("_", " ")
        action = OutcomeAction.NONE
        if phrase:
            if phrase not in _ACTION_WORDS:
                raise ValueError(
                    f"unknown assault action {phrase!r} in {raw!r}; expected one of {', '.join(_ACTION_WORDS)}"
                )
            action = _ACTION_WORDS[phrase]
        hits = Hits.parse(" ".join(hit_parts)) if hit_parts else Hits()
        problem = _outcome_problem(side, hits, action)
        if problem:
            raise ValueError(f"{problem}: {raw!r}")
        return cls(side, hits, action)

    @property
    def severity(self) -> int:
        """How bad the outcome is for the defender, net of what it does to the attacker; higher is worse.
        Used to check that a better attacker roll never leaves the defender better off."""
        own = hits_weight(self.hits) if self.to in (OutcomeSide.DEFENDER, OutcomeSide.BOTH) else 0
        theirs = hits_weight(self.hits) if self.to in (OutcomeSide.ATTACKER, OutcomeSide.BOTH) else 0
        if self.action is OutcomeAction.SURRENDER:
            action = _SURRENDER_WEIGHT if self.to is OutcomeSide.DEFENDER else -_SURRENDER_WEIGHT
        else:
            action = _ACTION_WEIGHT[self.action]
        return own - theirs + action

    def __str__(self) -> str:
        parts = [] if self.to is OutcomeSide.NONE else [self.to.value]
        if self.hits:
            parts.append(str(self.hits))
        if self.action is not OutcomeAction.NONE:
            parts.append(self.action.words)
        return " ".join(parts) or "-"


def _outcome_problem(side: OutcomeSide, hits: Hits, action: OutcomeAction) -> str:
    if side is OutcomeSide.NONE and hits:
        return "say who takes the hits (defender, attacker or both)"
    if side is not OutcomeSide.NONE and not hits and action is OutcomeAction.NONE:
        return f"nothing happens to the {side.value}"
    if action in _VICTOR_ACTIONS and side is not OutcomeSide.DEFENDER:
        return f"'{action.words}' follows a defender loss; write it after 'defender'"
    if action is OutcomeAction.BREAK_OFF and side is not OutcomeSide.ATTACKER:
        return "only the attacker breaks off; write 'attacker break off'"
    if action is OutcomeAction.SURRENDER and side not in (OutcomeSide.DEFENDER, OutcomeSide.ATTACKER):
        return "say which side surrenders"
    return ""


# --- chart tables -----------------------------------------------------------------------------------


class AssaultColumn(StrEnum):
    ATTACKER_ADVANTAGE = "attacker_advantage"
    PITCHED_BATTLE = "pitched_battle"
    DEFENDER_ADVANTAGE = "defender_advantage"

    @property
    def table(self) -> str:
        return f"assault_{self.value}"

    @property
    def title(self) -> str:
        return self.value.replace("_", " ").title()


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


def _points_per_hit(raw: Any) -> int:
    value = integer(raw)
    if value < 1:
        raise ValueError(f"points per M hit must be 1 or more, got {value}")
    return value


_GRADES = tuple(g.value for g in Grade)

TABLES = (
    *(
        BandSpec(column.table, "5.3", f"Assault: {column.title}, by modified difference", AssaultOutcome.parse)
        for column in AssaultColumn
    ),
    KeyedSpec("assault_grade_modifiers", "5.4", "Assault modifiers: troop grade", _GRADES, integer),
    KeyedSpec("assault_condition_modifiers", "5.4", "Assault modifiers: morale hits",
              tuple(c.value for c in Condition), integer),
    KeyedSpec("assault_outnumbering", "5.4", "Assault modifiers: outnumbered ratio, for the lesser side",
              OUTNUMBERING_STEPS, integer),
    KeyedSpec("assault_natural_points", "5.1", "Natural-roll points lost per M hit, by grade", _GRADES,
              _points_per_hit),
    KeyedSpec("assault_modifiers", "5.4", "Assault modifiers", MODIFIER_KEYS, integer),
    KeyedSpec("assault_cover_points", "5.2, 5.4", "Cover points", tuple(c.value for c in Cover), integer),
    KeyedSpec("assault_tactical_bonuses", "4.2, 5.1", "Assault tactical bonuses", TACTICAL_BONUSES, integer),
)


# --- column (5.2 open order, 5.3) -------------------------------------------------------------------


class Struck(StrEnum):
    """Where the attacker strikes the defender (5.1 flank and rear zones)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


_FOOT = (UnitKind.INFANTRY, UnitKind.CAVALRY_DISMOUNTED, UnitKind.MOUNTED_INFANTRY_DISMOUNTED)
_INFANTRY = (UnitKind.INFANTRY, UnitKind.MOUNTED_INFANTRY_DISMOUNTED)


@dataclass(frozen=True)
class AssaultColumnInput:
    attacker_kind: UnitKind
    defender_kind: UnitKind
    struck: Struck = Struck.FRONT
    attacker_in_cover: bool = False
    defender_in_cover: bool = False
    attacker_open_order: bool = False
    defender_open_order: bool = False
    override: AssaultColumn | None = None

    def __post_init__(self):
        for side in ("attacker", "defender"):
            if getattr(self, f"{side}_open_order") and getattr(self, f"{side}_kind") is UnitKind.ARTILLERY:
                raise RulesInputError(f"{side}_open_order", "artillery has no open order")


@dataclass(frozen=True)
class AssaultColumnResult(Explained):
    column: AssaultColumn
    rules_column: AssaultColumn
    for_attacker: tuple[str, ...]
    for_defender: tuple[str, ...]


def assault_column(
    attacker_kind: UnitKind,
    defender_kind: UnitKind,
    struck: Struck = Struck.FRONT,
    *,
    attacker_in_cover: bool = False,
    defender_in_cover: bool = False,
    attacker_open_order: bool = False,
    defender_open_order: bool = False,
    override: AssaultColumn | None = None,
) -> AssaultColumnResult:
    """The assault column (5.3) with its reasons.

    "Cavalry" in the 5.3 lists is mounted cavalry (item 1 says so; dismounted cavalry fights as foot).
    Opposing advantages cancel one for one, as in the rules' example (R:1548-1552), and the side with
    more left over gets its column. An open-order brigade against a close-order infantry or cavalry
    brigade decides the column outright, "regardless of cover" (R:1490-1499)."""
    for_attacker, for_defender = [], []
    horse = attacker_kind is UnitKind.CAVALRY_MOUNTED
    if horse and struck is not Struck.FRONT and defender_kind in _FOOT:
        for_attacker.append(f"mounted cavalry assaulting the {struck.value} of foot troops")
    if horse and defender_kind is UnitKind.MOUNTED_INFANTRY_MOUNTED:
        for_attacker.append("cavalry assaulting mounted infantry")
    if horse and defender_kind is UnitKind.ARTILLERY:
        for_attacker.append("cavalry assaulting artillery")
    if attacker_kind in _INFANTRY and defender_kind is UnitKind.CAVALRY_DISMOUNTED:
        for_attacker.append("infantry assaulting dismounted cavalry")
    if defender_in_cover and not attacker_in_cover:
        for_defender.append("troops in the open assaulting troops in cover")
    if horse and struck is Struck.FRONT and defender_kind in _INFANTRY:
        for_defender.append("cavalry assaulting the front of infantry")
    if attacker_kind is UnitKind.MOUNTED_INFANTRY_MOUNTED and defender_kind in (*_INFANTRY, UnitKind.CAVALRY_MOUNTED):
        for_defender.append("mounted infantry assaulting infantry or mounted cavalry")

    notes = []
    fighting_arms = UnitKind.ARTILLERY not in (attacker_kind, defender_kind)
    if fighting_arms and defender_open_order and not attacker_open_order:
        rules_column = AssaultColumn.ATTACKER_ADVANTAGE
        notes.append("open-order defender against a close-order brigade: Attacker Advantage, whatever else (5.2)")
    elif fighting_arms and attacker_open_order and not defender_open_order:
        rules_column = AssaultColumn.DEFENDER_ADVANTAGE
        notes.append("open-order attacker against a close-order brigade: Defender Advantage, whatever else (5.2)")
    else:
        balance = len(for_attacker) - len(for_defender)
        if balance > 0:
            rules_column = AssaultColumn.ATTACKER_ADVANTAGE
        elif balance < 0:
            rules_column = AssaultColumn.DEFENDER_ADVANTAGE
        else:
            rules_column = AssaultColumn.PITCHED_BATTLE
        if for_attacker and for_defender:
            notes.append(f"{len(for_attacker)} attacker and {len(for_defender)} defender advantages cancel "
                         "one for one (5.3)")
        if not for_attacker and not for_defender:
            notes.append("no advantage either way: Pitched Battle (5.3)")
    notes.extend(f"attacker advantage: {reason}" for reason in for_attacker)
    notes.extend(f"defender advantage: {reason}" for reason in for_defender)
    column = rules_column
    if override is not None and override is not rules_column:
        column = override
        notes.append(f"the table chose {override.title} over {rules_column.title}")
    return AssaultColumnResult(
        column=column,
        rules_column=rules_column,
        for_attacker=tuple(for_attacker),
        for_defender=tuple(for_defender),
        notes=tuple(notes),
    )


def resolve_assault_column(chart: Chart, inputs: AssaultColumnInput) -> AssaultColumnResult:
    return assault_column(
        inputs.attacker_kind,
        inputs.defender_kind,
        inputs.struck,
        attacker_in_cover=inputs.attacker_in_cover,
        defender_in_cover=inputs.defender_in_cover,
        attacker_open_order=inputs.attacker_open_order,
        defender_open_order=inputs.defender_open_order,
        override=inputs.override,
    )


# --- one round ----------------------------------------------------------------------------------------


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

    def __post_init__(self):
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

    def __post_init__(self):
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

    @property
    def struck(self) -> Struck:
        return Struck.REAR if self.rear else Struck.FLANK if self.outflanked else Struck.FRONT


@dataclass(frozen=True)
class AssaultRoundInput:
    """One assault round. ``column`` lets the table name the column; left out, it follows from the sides.
    ``square_vs_solo_cavalry``: the defender is infantry in square assaulted by cavalry alone (5.4)."""

    attacker: AssaultSide
    defender: AssaultSide
    column: AssaultColumn | None = None
    square_vs_solo_cavalry: bool = False

    def __post_init__(self):
        for name, problem in (
            ("fresh_batteries", "only the defender gains for fresh artillery (5.4)"),
            ("outflanked", "only a defender is outflanked (5.4)"),
            ("rear", "only a defender is attacked in the rear (5.4)"),
        ):
            if getattr(self.attacker, name):
                raise RulesInputError(f"attacker.{name}", problem)
        if all(u.kind is UnitKind.ARTILLERY for u in self.attacker.units):
            raise RulesInputError("attacker.units", "artillery alone does not initiate an assault (5.1)")
        if self.square_vs_solo_cavalry and any(u.kind is not UnitKind.CAVALRY_MOUNTED for u in self.attacker.units):
            raise RulesInputError("square_vs_solo_cavalry", "the attackers must all be mounted cavalry")


@dataclass(frozen=True)
class AssaultSideResult:
    """One side's part of the round. ``hits`` are what each of its units takes (B hits are spread over
    them by assault_results): the table's ``table_hits``, plus ``natural_m`` and ``all_out_extra_m`` as M.
    ``natural_m_by_unit`` gives each unit's natural-roll M by its own grade."""

    natural: int
    modified: int
    modifiers: tuple[Modifier, ...]
    grade: Grade
    condition: Condition
    cover: Cover
    bases: int
    table_hits: Hits
    natural_m: int
    natural_m_by_unit: tuple[int, ...]
    all_out_extra_m: int
    hits: Hits


@dataclass(frozen=True)
class AssaultRoundResult(Explained):
    """``modifiers`` holds both sides' modifiers, each labelled with its side; each side's own are in
    ``attacker.modifiers`` and ``defender.modifiers``. ``outcome`` is the cell as it applies (an overrun
    read as must breakthrough when no mounted cavalry attacks)."""

    column: AssaultColumn
    assault_type: AssaultType
    attacker: AssaultSideResult
    defender: AssaultSideResult
    difference: int
    natural_difference: int
    outcome: AssaultOutcome
    natural_loser: OutcomeSide
    win_win: bool
    next_round_tactical_bonus: bool


T = TypeVar("T")


def _greatest_share(units: Iterable[AssaultUnit], key: Callable[[AssaultUnit], T],
                       better: Callable[[T], int] | None = None) -> T:
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
    k, use = chart.entry("assault_natural_points", grade.value)
    return math.ceil(points_lost / k), use


def _ratio(step: str) -> tuple[int, int]:
    larger, smaller = step.split(":")
    return int(larger), int(smaller)


@dataclass
class _Reading:
    """Modifiers and cells gathered for one side."""

    modifiers: list[Modifier]
    cells: list[CellUse]

    def entry(self, chart: Chart, table: str, key: str) -> Any:
        value, use = chart.entry(table, key)
        self.cells.append(use)
        return value

    def each(self, chart: Chart, key: str, count: int, label: str, section: str = "5.4") -> None:
        if count:
            self.modifiers.append(Modifier(label, count * self.entry(chart, "assault_modifiers", key), section))


def _side_modifiers(chart: Chart, side: AssaultSide, grade: Grade, condition: Condition, cover: Cover,
                    defender: bool) -> _Reading:
    reading = _Reading([], [])
    units, bases = side.units, side.bases
    reading.modifiers.append(Modifier(f"troop grade: {grade.value} (greatest share of bases)",
                                      reading.entry(chart, "assault_grade_modifiers", grade.value), "5.4"))
    reading.modifiers.append(Modifier(f"morale hits: {condition.value}",
                                      reading.entry(chart, "assault_condition_modifiers", condition.value), "5.4"))
    reading.modifiers.append(Modifier(f"cover points: {cover.value} (greatest share of bases)",
                                      reading.entry(chart, "assault_cover_points", cover.value), "5.2, 5.4"))
    if 2 * sum(u.bases for u in units if u.repeaters) >= bases:
        reading.each(chart, "repeaters", 1, "repeater equipped (half or more of the bases)")
    reading.each(chart, "leader_within_2", side.leaders_within_2, 'each E or P leader within 2"')
    reading.each(chart, "fresh_battery", side.fresh_batteries, "each fresh artillery battery (did not fire this turn)")
    if side.saved_fire_batteries:
        bonus = reading.entry(chart, "assault_tactical_bonuses", "saved_fire")
        reading.modifiers.append(Modifier("tactical bonus: each battery with saved fire",
                                          side.saved_fire_batteries * bonus, "4.2"))
    if side.tactical_bonus:
        reading.modifiers.append(Modifier('tactical bonus "C" from an All Out win',
                                          reading.entry(chart, "assault_tactical_bonuses", "all_out_win"), "5.1"))
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


def _outnumbering(chart: Chart, inputs: AssaultRoundInput) -> tuple[OutcomeSide, Modifier | None,
                                                                   CellUse | None, str]:
    """The lesser side's modifier for the ratio it is outnumbered by (5.4)."""
    attacker, defender = inputs.attacker.bases, inputs.defender.bases
    if attacker == defender:
        return OutcomeSide.NONE, None, None, ""
    lesser = OutcomeSide.ATTACKER if attacker < defender else OutcomeSide.DEFENDER
    larger, smaller = max(attacker, defender), min(attacker, defender)
    reached = [step for step in OUTNUMBERING_STEPS if larger * _ratio(step)[1] >= smaller * _ratio(step)[0]]
    if not reached:
        return lesser, None, None, ""
    if lesser is OutcomeSide.ATTACKER and inputs.defender.struck is not Struck.FRONT:
        return lesser, None, None, "defenders assaulted in the flank or rear inflict no outnumbered modifier (5.4)"
    step, note = reached[-1], ""
    if lesser is OutcomeSide.DEFENDER and inputs.square_vs_solo_cavalry and step != OUTNUMBERING_STEPS[0]:
        note = f"infantry in square against cavalry alone: {step} is read as {OUTNUMBERING_STEPS[0]} at most (5.4)"
        step = OUTNUMBERING_STEPS[0]
    value, use = chart.entry("assault_outnumbering", step)
    return lesser, Modifier(f"outnumbered {step} or more ({larger} to {smaller} bases)", value, "5.4"), use, note


def _hit_note(side: str, hits: Hits, why: str) -> str:
    return f"{side}: {hits} for {why}"


def resolve_assault_round(chart: Chart, inputs: AssaultRoundInput) -> AssaultRoundResult:
    """One assault round (5.1 steps 1-6): column, modified totals, the table's outcome, natural-roll M
    and the All Out Win/Win extras, as hits per side.

    Win/Win extras: an All Out or Mixed assault that wins both rolls puts 1M more on the defender
    (R:1350-1352, R:1429-1431: the mixed assault keeps "the extra M"; the "P" there is read as the
    table's own P hits); only an All Out assault earns the "C" bonus for the next round. The 1M of a
    break off (R:1771-1773) is not in the attacker's hits: it comes with the move, from the break_off
    mechanic of assault_results."""
    attacker, defender = inputs.attacker, inputs.defender
    notes: list[str] = []
    if inputs.column is None:
        chosen = assault_column(
            side_kind(attacker.units),
            side_kind(defender.units),
            defender.struck,
            attacker_in_cover=side_cover(attacker.units) is not Cover.NONE,
            defender_in_cover=side_cover(defender.units) is not Cover.NONE,
            attacker_open_order=side_open_order(attacker.units),
            defender_open_order=side_open_order(defender.units),
        )
        column = chosen.column
        notes.extend(chosen.notes)
    else:
        column = inputs.column
        notes.append(f"column named by the table: {column.title}")
    kind = assault_type(attacker.units)

    grades = {"attacker": side_grade(attacker.units), "defender": side_grade(defender.units)}
    conditions = {"attacker": side_condition(attacker.units), "defender": side_condition(defender.units)}
    covers = {"attacker": side_cover(attacker.units), "defender": side_cover(defender.units)}
    readings = {
        name: _side_modifiers(chart, side, grades[name], conditions[name], covers[name], name == "defender")
        for name, side in (("attacker", attacker), ("defender", defender))
    }
    lesser, outnumbered, outnumbered_use, outnumbered_note = _outnumbering(chart, inputs)
    if outnumbered is not None:
        readings[lesser.value].modifiers.append(outnumbered)
        readings[lesser.value].cells.append(outnumbered_use)
    if outnumbered_note:
        notes.append(outnumbered_note)

    naturals = {"attacker": single(attacker.roll, "attacker.roll"), "defender": single(defender.roll, "defender.roll")}
    mods = {name: present(*reading.modifiers) for name, reading in readings.items()}
    modified = {name: naturals[name] + sum(m.value for m in mods[name]) for name in naturals}
    difference = modified["attacker"] - modified["defender"]
    natural_difference = naturals["attacker"] - naturals["defender"]

    cell, cell_use = chart.band(column.table, difference)
    outcome = cell
    if cell.action is OutcomeAction.OVERRUN:
        mounted = [u.kind is UnitKind.CAVALRY_MOUNTED for u in attacker.units]
        if not any(mounted):
            outcome = replace(cell, action=OutcomeAction.MUST_BREAKTHROUGH)
            notes.append("overrun is for cavalry: the attackers, with no mounted cavalry, must break through (5.5)")
        elif not all(mounted):
            notes.append("overrun: the mounted cavalry overruns; the other attacking units must break through (5.5)")

    falls_on = {
        "attacker": (OutcomeSide.ATTACKER, OutcomeSide.BOTH),
        "defender": (OutcomeSide.DEFENDER, OutcomeSide.BOTH),
    }
    table_hits = {name: outcome.hits if outcome.to in sides else Hits() for name, sides in falls_on.items()}
    hits = dict(table_hits)
    extra_m = {"attacker": 0, "defender": 0}
    for name, taken in table_hits.items():
        if taken:
            notes.append(_hit_note(name, taken, f"the {column.title} result at {difference:+d}"))

    cells = [*readings["attacker"].cells, *readings["defender"].cells, cell_use]
    natural_loser = OutcomeSide.NONE
    natural_m = {"attacker": 0, "defender": 0}
    natural_m_by_unit = {"attacker": (0,) * len(attacker.units), "defender": (0,) * len(defender.units)}
    if natural_difference:
        natural_loser = OutcomeSide.DEFENDER if natural_difference > 0 else OutcomeSide.ATTACKER
        loser = natural_loser.value
        lost_by = abs(natural_difference)
        natural_m[loser], use = natural_morale_hits(chart, grades[loser], lost_by)
        cells.append(use)
        by_unit = []
        for unit in (attacker if loser == "attacker" else defender).units:
            m, use = natural_morale_hits(chart, unit.grade, lost_by)
            if use not in cells:
                cells.append(use)
            by_unit.append(m)
        natural_m_by_unit[loser] = tuple(by_unit)
        if natural_m[loser]:
            hits[loser] += Hits(m=natural_m[loser])
            notes.append(_hit_note(loser, Hits(m=natural_m[loser]),
                                   f"losing the natural roll by {lost_by} ({grades[loser].value}, rounded up)"))
        if any(m != natural_m[loser] for m in by_unit):
            notes.append(f"{loser}: natural-roll M by each unit's own grade: {', '.join(map(str, by_unit))}")

    attacker_won = outcome.to is OutcomeSide.DEFENDER and outcome.action is not OutcomeAction.ROLL_AGAIN
    win_win = attacker_won and natural_loser is OutcomeSide.DEFENDER
    next_round_bonus = False
    if win_win and kind is not AssaultType.GENERAL:
        extra_m["defender"] = 1
        hits["defender"] += Hits(m=1)
        notes.append(_hit_note("defender", Hits(m=1), f"an {kind.value.replace('_', ' ')} Win/Win (5.1, 5.2)"))
        next_round_bonus = kind is AssaultType.ALL_OUT
        if next_round_bonus:
            notes.append('the attacker carries a "C" tactical bonus into the next round this phase (5.1)')
        else:
            notes.append('a mixed assault earns no "C" tactical bonus for the next round (5.2)')
    if outcome.action is OutcomeAction.BREAK_OFF:
        notes.append("the attacker breaks off out of assault contact and takes the break-off M (5.5)")
    if outcome.action is OutcomeAction.ROLL_AGAIN:
        both_lost = [name for name in ("attacker", "defender")
                     if modified[name] < modified[_other(name)] and naturals[name] < naturals[_other(name)]]
        if both_lost:
            notes.append(f"roll again: the {both_lost[0]} lost both rolls and takes its {natural_m[both_lost[0]]}M "
                         "now; the next round reads its new condition (5.1)")
        else:
            notes.append("roll again: apply this round's hits first; the next round reads the new conditions (5.1)")

    sides = {
        name: AssaultSideResult(
            natural=naturals[name],
            modified=modified[name],
            modifiers=mods[name],
            grade=grades[name],
            condition=conditions[name],
            cover=covers[name],
            bases=side.bases,
            natural_m=natural_m[name],
            natural_m_by_unit=natural_m_by_unit[name],
            table_hits=table_hits[name],
            all_out_extra_m=extra_m[name],
            hits=hits[name],
        )
        for name, side in (("attacker", attacker), ("defender", defender))
    }
    return AssaultRoundResult(
        column=column,
        assault_type=kind,
        attacker=sides["attacker"],
        defender=sides["defender"],
        difference=difference,
        natural_difference=natural_difference,
        outcome=outcome,
        natural_loser=natural_loser,
        win_win=win_win,
        next_round_tactical_bonus=next_round_bonus,
        modifiers=tuple(replace(m, label=f"{name}: {m.label}") for name in naturals for m in mods[name]),
        cells=tuple(cells),
        notes=tuple(notes),
    )


def _other(name: str) -> str:
    return "defender" if name == "attacker" else "attacker"


MECHANICS = (
    Mechanic("assault_column", "5.2, 5.3", "Which assault table: Attacker Advantage, Pitched Battle or Defender "
             "Advantage, with the reasons", AssaultColumnInput, resolve_assault_column),
    Mechanic("assault_round", "5.1-5.4", "One assault round: modified and natural rolls, the table's outcome and "
             "the hits on each side", AssaultRoundInput, resolve_assault_round),
)
