"""Skirmishing (4.1, 4.5): blocks, skirmish fire, and the skirmisher type that artillery can lower.

Skirmisher types are the lines of the Skirmishing table. The rules' example drops Veteran skirmishers to
Green with one B hit, "one level" (R:1244-1248), so the table has no Average line between them: its lines
are Crack, Veteran, Green, Untrained, the grade list of 2.3 (R:507-523). An Average brigade's markers read
the Veteran line: the Flee column is for untrained and green markers only (R:1005-1008), so Average
markers must not flee, and a brigade's skirmish companies were its picked men. Untrained brigades deploy
no markers (R:773-775), but artillery B hits can lower a marker's type to Untrained, so that line stays.

Skirmish fire is simultaneous with artillery fire: its M hits take effect at the end of the artillery
phase (R:1011-1013).
"""

import math
from dataclasses import dataclass, replace
from enum import StrEnum

from republic.rules.chart import D10_SCORE, DISTANCE, PRINTED_SOURCE, Chart, GridSpec, KeyedSpec
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.results import CellUse, Explained, Mechanic, Provenance
from republic.rules.scale import GroundScale, bracket, scale_ratio, scaled
from republic.rules.troops import Grade
from republic.rules.units import UnitState

SKIRMISHER_TYPES = (Grade.CRACK, Grade.VETERAN, Grade.GREEN, Grade.UNTRAINED)
"""The Skirmishing table's lines, best first; each artillery B on a packed marker steps one line down."""

RANGE_BANDS = ("r1", "r2")
"""The Skirmishing table's range columns, nearest first; their upper limits are the chart table
skirmish_ranges (the 5" reach is the rule's, R:1000-1002)."""

_TYPES = tuple(t.value for t in SKIRMISHER_TYPES)
_HELD = "take effect at the end of the artillery phase: skirmish and artillery fire are simultaneous (4.1)"

TABLES = (
    KeyedSpec(
        "skirmish_ranges",
        "4.1",
        "Skirmishing: range columns, upper limit in inches (medium scale)",
        RANGE_BANDS,
        DISTANCE,
        increasing=True,
    ),
    KeyedSpec("skirmish_block", "4.1", "Skirmishing: Block (1D10 equal to or above blocks)", _TYPES, D10_SCORE),
    GridSpec(
        "skirmish_attack",
        "4.1",
        "Skirmishing: Attack (1D10 equal to or above scores 1M), by range",
        _TYPES,
        RANGE_BANDS,
        D10_SCORE,
    ),
    KeyedSpec(
        "skirmish_flee",
        "4.1",
        "Skirmishing: Flee (1D10 equal to or below, green and untrained only)",
        _TYPES,
        replace(D10_SCORE, blank=True),  # null: the type never flees
    ),
)


def skirmisher_type(grade: Grade) -> Grade:
    """The Skirmishing table line a marker of this grade reads (Average reads Veteran, see above)."""
    return Grade.VETERAN if grade is Grade.AVERAGE else grade


def lowered_type(grade: Grade, steps: int) -> Grade:
    """The skirmisher type after `steps` B hits; it does not fall below Untrained."""
    index = SKIRMISHER_TYPES.index(skirmisher_type(grade))
    return SKIRMISHER_TYPES[min(len(SKIRMISHER_TYPES) - 1, index + steps)]


def _check_range(value: float, field: str = "range") -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RulesInputError(field, f"a range is a number of inches, got {value!r}")
    if value < 0:
        raise RulesInputError(field, f"a range cannot be negative, got {value}")


def _check_name(value: str, field: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise RulesInputError(field, "name the skirmish marker")


# --- blocks ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlockAttempt:
    """One declared block: a defending marker, its skirmisher type, the attacking marker it tries, its die."""

    blocker: str
    grade: Grade
    target: str
    roll: Roll
    printed: bool | None = None  # blocked or not, as the players' printed chart says

    def __post_init__(self) -> None:
        _check_name(self.blocker, "blocker")
        _check_name(self.target, "target")
        single(self.roll, "roll")


@dataclass(frozen=True)
class SkirmishBlocksInput:
    blocks: tuple[BlockAttempt, ...] = ()

    def __post_init__(self) -> None:
        declared: dict[str, int] = {}
        for index, attempt in enumerate(self.blocks):
            first = declared.setdefault(attempt.blocker, index)
            if first != index:
                raise RulesInputError(
                    f"blocks[{index}].blocker",
                    f"marker '{attempt.blocker}' already declared a block (blocks[{first}]); "
                    "a defending marker tries one block",
                )


@dataclass(frozen=True)
class BlockOutcome:
    blocker: str
    skirmisher_type: Grade
    target: str
    roll: int
    needed: int
    blocked: bool


@dataclass(frozen=True)
class SkirmishBlocksResult(Explained):
    attempts: tuple[BlockOutcome, ...]
    blocked: tuple[str, ...]  # attacking markers that may not attack this turn, in order of declaration


def resolve_skirmish_blocks(chart: Chart, inputs: SkirmishBlocksInput) -> SkirmishBlocksResult:
    """All blocks are declared before any die is rolled, so they arrive together; several defenders may try
    the same attacking marker and one success blocks it (R:990-999). Which enemy marker is the closest
    within 5" is the players' measure."""
    attempts, cells, blocked = [], [], []
    for attempt in inputs.blocks:
        kind = skirmisher_type(attempt.grade)
        needed: int
        needed, use = chart.entry("skirmish_block", kind.value)
        face = single(attempt.roll)
        success = face >= needed
        if attempt.printed is not None:
            success = attempt.printed
            use = CellUse(
                "skirmish_block",
                kind.value,
                "blocked" if success else "not blocked",
                Provenance.PRINTED,
                PRINTED_SOURCE,
            )
        attempts.append(BlockOutcome(attempt.blocker, kind, attempt.target, face, needed, success))
        cells.append(use)
        if success and attempt.target not in blocked:
            blocked.append(attempt.target)
    notes = [
        f"{attempt.blocker} ({attempt.grade}) reads the Veteran line"
        for attempt in inputs.blocks
        if attempt.grade is Grade.AVERAGE
    ]
    notes += [f"{target} is blocked and may not attack enemy combat bases this turn (4.1)" for target in blocked]
    return SkirmishBlocksResult(
        attempts=tuple(attempts), blocked=tuple(blocked), cells=tuple(cells), notes=tuple(notes)
    )


# --- attack ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SkirmishAttackInput:
    """An unblocked marker's attack on an enemy combat base within 5" (scaled) in line of sight."""

    grade: Grade
    range: float
    roll: Roll
    scale: GroundScale = GroundScale.MEDIUM
    blocked: bool = False
    printed: "SkirmishVerdict | None" = None  # the result the players' printed chart gives

    @classmethod
    def of(
        cls,
        unit: UnitState,
        range: float,
        roll: Roll,
        scale: GroundScale = GroundScale.MEDIUM,
        printed: "SkirmishVerdict | None" = None,
    ) -> "SkirmishAttackInput":
        """A marker of a brigade: its markers' grade is the brigade's until artillery lowers it (4.5)."""
        return cls(unit.skirmisher_type, range, roll, scale, printed=printed)

    def __post_init__(self) -> None:
        _check_range(self.range)
        single(self.roll, "roll")
        if self.blocked:
            raise RulesInputError(
                "blocked", "a blocked skirmish marker may not attack enemy combat bases this turn (4.1)"
            )


class SkirmishVerdict(StrEnum):
    """What a marker's attack does, as a printed chart says it."""

    HIT = "hit"
    MISS = "miss"
    FLEE = "flee"


@dataclass(frozen=True)
class SkirmishAttackResult(Explained):
    skirmisher_type: Grade
    band: str
    roll: int
    needed: int
    flee_on: int | None
    hit: bool
    m_hits: int
    fled: bool


def after_skirmish_attack(unit: UnitState, result: SkirmishAttackResult) -> UnitState:
    """A marker that fled is picked up and returns to its brigade (4.1)."""
    if not result.fled:
        return unit
    return replace(unit, skirmishers_deployed=max(0, unit.skirmishers_deployed - 1))


def engagement_reach(chart: Chart, scale: GroundScale) -> float:
    """How far a marker blocks or fires, at the game's scale: the last range column's limit (4.1)."""
    reach: float = chart.entry("skirmish_ranges", RANGE_BANDS[-1])[0]
    return scaled(reach, scale_ratio(chart, scale)[0])


def range_band(chart: Chart, range_: float, scale: GroundScale) -> tuple[str, tuple[CellUse, ...]]:
    """The range column for a distance measured in the game's scale; beyond the last one is refused."""
    band, reach, cells = bracket(chart, "skirmish_ranges", RANGE_BANDS, range_, scale)
    if band is None:
        raise RulesInputError(
            "range", f'skirmish fire reaches {reach:g}" at the {scale} scale (4.1); the target is {range_:g}" away'
        )
    return band, cells


def resolve_skirmish_attack(chart: Chart, inputs: SkirmishAttackInput) -> SkirmishAttackResult:
    """One 1D10 per marker and turn: equal to or above the Attack number scores 1M on the target unit (a
    marker's parent counts; other markers do not, R:1009-1011). An untrained or green marker whose roll is
    at or below its Flee number is picked up and returns to its parent instead, scoring nothing."""
    kind = skirmisher_type(inputs.grade)
    band, range_cells = range_band(chart, inputs.range, inputs.scale)
    needed: int
    flee_on: int | None
    flee_use: CellUse | None  # None when the players' printed chart decides
    needed, attack_use = chart.cell("skirmish_attack", kind.value, band)
    flee_on, flee_use = chart.entry("skirmish_flee", kind.value)
    face = single(inputs.roll)
    fled = flee_on is not None and face <= flee_on
    hit = not fled and face >= needed
    if inputs.printed is not None:
        fled, hit = inputs.printed is SkirmishVerdict.FLEE, inputs.printed is SkirmishVerdict.HIT
        attack_use = CellUse(
            "skirmish_attack", f"{kind.value}, {band}", inputs.printed.value, Provenance.PRINTED, PRINTED_SOURCE
        )
        flee_use = None
    notes = []
    if inputs.grade is Grade.AVERAGE:
        notes.append("an Average brigade's markers read the Veteran line (4.1)")
    if fled:
        notes.append("the marker flees: pick it up, it returns to its parent unit (4.1)")
    if hit:
        notes.append(f"1M on the target unit; the hits {_HELD}")
    return SkirmishAttackResult(
        skirmisher_type=kind,
        band=band,
        roll=face,
        needed=needed,
        flee_on=flee_on,
        hit=hit,
        m_hits=1 if hit else 0,
        fled=fled,
        cells=(*range_cells, attack_use, *((flee_use,) if flee_use else ())),
        notes=tuple(notes),
    )


# --- degrade -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SkirmisherDegradeInput:
    """B hits from artillery on a unit's packed skirmish markers, and the unit's skirmisher type now."""

    grade: Grade
    b_hits: int = 1

    def __post_init__(self) -> None:
        if isinstance(self.b_hits, bool) or not isinstance(self.b_hits, int) or self.b_hits < 0:
            raise RulesInputError("b_hits", f"a number of B hits is a whole number from 0, got {self.b_hits!r}")


@dataclass(frozen=True)
class SkirmisherDegradeResult(Explained):
    type_before: Grade
    type_after: Grade
    levels_lost: int


def resolve_skirmisher_degrade(chart: Chart, inputs: SkirmisherDegradeInput) -> SkirmisherDegradeResult:
    """Each B on a packed marker lowers the type of all the unit's skirmishers one line (R:1244-1248,
    R:1272-1274); Untrained is the last line."""
    before = skirmisher_type(inputs.grade)
    after = lowered_type(before, inputs.b_hits)
    lost = SKIRMISHER_TYPES.index(after) - SKIRMISHER_TYPES.index(before)
    notes = []
    if inputs.grade is Grade.AVERAGE:
        notes.append("an Average brigade's skirmishers are of Veteran type (4.1)")
    if lost < inputs.b_hits:
        notes.append("Untrained is the lowest skirmisher type: further B hits lower it no more")
    return SkirmisherDegradeResult(type_before=before, type_after=after, levels_lost=lost, notes=tuple(notes))


MECHANICS = (
    Mechanic(
        "skirmish_blocks",
        "4.1",
        "Declared skirmish blocks: which attacking markers are blocked",
        SkirmishBlocksInput,
        resolve_skirmish_blocks,
    ),
    Mechanic(
        "skirmish_attack",
        "4.1",
        "An unblocked skirmish marker's attack: 1M or not, and whether it flees",
        SkirmishAttackInput,
        resolve_skirmish_attack,
    ),
    Mechanic(
        "skirmisher_degrade",
        "4.5, 4.6",
        "Artillery B hits on packed markers: the new skirmisher type",
        SkirmisherDegradeInput,
        resolve_skirmisher_degrade,
    ),
)
