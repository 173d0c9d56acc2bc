"""Assault hits that do not come from the assault table (5.2, 5.5): breaking off, a supporting brigade's
hit, lose/lose passage of lines, bridging formations, and the M at the end of a rout.

Each gives one unit its hits, its panic response and forced move, as ``UnitHitsResult``; ``after_hits`` is
the unit after them.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from republic.rules.chart import DISTANCE, Chart, KeyedSpec
from republic.rules.checks import check_count, check_hits, check_kind, check_m_hits
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, ForcedMoveResult, resolve_forced_move
from republic.rules.hits import Hits
from republic.rules.morale import MAX_M_HITS, Condition, MoraleCause, apply_morale_hits, condition_for
from republic.rules.panic import MAX_PANIC_LEVEL, panic_level_read, panic_response
from republic.rules.results import CellUse, Explained, Mechanic
from republic.rules.scale import GroundScale, scale_ratio, scaled
from republic.rules.troops import Grade, UnitKind
from republic.rules.units import UnitState, after_move, after_p4_event, with_morale


def _no_base_hits(raw: object) -> Hits:
    hits = Hits.parse(str(raw))
    if hits.b:
        raise ValueError(f"these hits are M or P only, got {raw!r}")
    return hits


NO_HITS = Hits()
PASSAGE_RESULTS = ("shaken", "demoralized", "retreated", "routed")
FIXED_HITS = ("break_off", "supporting_brigade", "rout_end")

TABLES = (
    KeyedSpec(
        "assault_fixed_hits",
        "5.5",
        "Fixed assault hits: break off, supporting brigade, end of a rout",
        FIXED_HITS,
        _no_base_hits,
    ),
    KeyedSpec(
        "passage_of_lines_hits",
        "5.5",
        "Lose/lose passage of lines: hits on the friendly unit passed",
        PASSAGE_RESULTS,
        _no_base_hits,
    ),
    KeyedSpec(
        "passage_of_lines_reach",
        "5.5",
        "Lose/lose passage of lines: reach behind the loser, inches",
        ("foot", "horse"),
        DISTANCE,
    ),
)


def forced_move(chart: Chart, move: ForcedMove, horse: bool, scale: GroundScale) -> ForcedMoveResult:
    return resolve_forced_move(chart, ForcedMoveInput(move, horse=horse, scale=scale))


def fixed_hits(chart: Chart, key: str) -> tuple[Hits, CellUse]:
    hits: Hits
    hits, use = chart.entry("assault_fixed_hits", key)
    return hits, use


def rout_end(chart: Chart, m_hits: int, cells: list[CellUse], notes: list[str]) -> int:
    """A unit that routs takes its M at the end of the rout move; a Demoralized unit stays so (5.5)."""
    hits, use = fixed_hits(chart, "rout_end")
    cells.append(use)
    notes.append(f"{hits} at the end of the rout move; a Demoralized unit stays Demoralized (5.5)")
    return apply_morale_hits(m_hits, hits.m, MoraleCause.ROUT).m_after


@dataclass(frozen=True)
class UnitHitsResult(Explained):
    """One unit's state after fixed assault hits: morale, any P hits and the panic response they cause."""

    m_before: int
    m_after: int
    condition_after: Condition
    hits_taken: Hits
    panic_hits: int
    panic_level: int
    p4_event: bool
    move: ForcedMove | None
    distance: float | None
    instruction: str


def take_hits(
    chart: Chart,
    *,
    grade: Grade,
    m_hits: int,
    hits: Hits,
    horse: bool,
    scale: GroundScale,
    already_demoralized_panics: bool = False,
    required_move: ForcedMove | None = None,
    notes: Sequence[str] = (),
    cells: Sequence[CellUse] = (),
) -> UnitHitsResult:
    """M hits (assault cause) and P hits on one unit, its panic response, the more severe of that and any
    move the rule requires, and the rout M at the end of a rout."""
    cells, notes = list(cells), list(notes)
    if already_demoralized_panics and m_hits == MAX_M_HITS and hits:
        m_after, panic = m_hits, MAX_PANIC_LEVEL
        notes.append("already Demoralized when the pass-through hits came: goes straight to Panic 4 (5.5)")
    else:
        morale = apply_morale_hits(m_hits, hits.m, MoraleCause.ASSAULT)
        m_after, panic = morale.m_after, hits.p + morale.panic_hits
        notes.extend(morale.notes)
    level = panic_level_read(panic) if panic else 0
    move = required_move
    if panic:
        cell, use = panic_response(chart, grade, panic)
        cells.append(use)
        notes.append(f"Panic {level} for {grade} troops: {cell} (5.5)")
        if move is None or cell.move.severity > move.severity:
            move = cell.move
    distance, instruction = None, ""
    if move is not None:
        moved = forced_move(chart, move, horse, scale)
        cells.extend(moved.cells)
        distance, instruction = moved.distance, moved.instruction
        if move is ForcedMove.ROUT:
            m_after = rout_end(chart, m_after, cells, notes)
    return UnitHitsResult(
        m_before=m_hits,
        m_after=m_after,
        condition_after=condition_for(m_after),
        hits_taken=hits,
        panic_hits=panic,
        panic_level=level,
        p4_event=level == MAX_PANIC_LEVEL,
        move=move,
        distance=distance,
        instruction=instruction,
        cells=tuple(dict.fromkeys(cells)),
        notes=tuple(notes),
    )


# --- lose/lose passage of lines (5.5) --------------------------------------------------------------


@dataclass(frozen=True)
class PassingUnit:
    """An assault loser passing through the friendly unit: its M hits and forced move after the round, and
    the distance from its front edge to the friendly unit's front edge, in inches on the table."""

    m_hits: int
    move: ForcedMove
    distance: float
    id: str = ""
    kind: UnitKind = UnitKind.INFANTRY
    lost_both_rolls: bool = True

    def __post_init__(self) -> None:
        check_m_hits(self.m_hits)
        check_kind(self.move, ForcedMove, "move")
        check_kind(self.kind, UnitKind, "kind")
        if isinstance(self.distance, bool) or not isinstance(self.distance, int | float) or self.distance < 0:
            raise RulesInputError("distance", f"a distance is 0 inches or more, got {self.distance!r}")


@dataclass(frozen=True)
class PassageInput:
    """The friendly unit passed through (its grade, M hits, whether it is horse) and the losers passing."""

    passers: tuple[PassingUnit, ...]
    grade: Grade
    m_hits: int = 0
    horse: bool = False
    scale: GroundScale = GroundScale.MEDIUM

    def __post_init__(self) -> None:
        if not isinstance(self.passers, tuple) or not self.passers:
            raise RulesInputError("passers", "name at least one unit passing through")
        for index, passer in enumerate(self.passers):
            check_kind(passer, PassingUnit, f"passers[{index}]")
        check_kind(self.grade, Grade, "grade")
        check_m_hits(self.m_hits)
        check_kind(self.scale, GroundScale, "scale")


@dataclass(frozen=True)
class PassageResult(UnitHitsResult):
    counted: tuple[str, ...]


def passage_blocked(friend: UnitState) -> str:
    """Why no loser passes through this friendly unit, or "": "Batteries posted at packed frontages block all
    movement through their position" (R:842-845), so a loser cannot pass through one and give it hits; its forced
    move is blocked there instead (3.3). A battery at normal frontage is passed through normally."""
    if friend.battery and friend.packed:
        return "a battery at packed frontage blocks all movement through its position (3.5)"
    return ""


_PASSAGE_CONDITION = {Condition.SHAKEN: "shaken", Condition.DEMORALIZED: "demoralized"}
_PASSAGE_MOVE = {ForcedMove.RETREAT: "retreated", ForcedMove.ROUT: "routed"}


def resolve_passage_of_lines(chart: Chart, inputs: PassageInput) -> PassageResult:
    """Hits on a friendly unit that lose/lose assault losers pass through (5.5, R:1679-1701).

    "These pass through hits only happen with the two worst results in each category" is read both ways
    it allows: only the table's rows inflict hits (a Shaken or Demoralized loser gives M, a retreating or
    routing one gives P; lesser conditions and moves give nothing), and when several losers pass through
    one unit only the two worst M results and the two worst P results count. Infantry reaches 3" behind it,
    horse (mounted cavalry or mounted infantry) 6"; the rule names no reach for artillery, which inflicts
    nothing. A unit passed through that was already Demoralized goes straight to Panic 4.
    """
    ratio, ratio_cell = scale_ratio(chart, inputs.scale)
    cells: list[CellUse] = [ratio_cell]
    notes: list[str] = []
    m_results: list[tuple[Hits, str]] = []
    p_results: list[tuple[Hits, str]] = []
    for index, passer in enumerate(inputs.passers):
        name = passer.id or f"passer {index + 1}"
        if not passer.lost_both_rolls:
            notes.append(f"{name} did not lose both rolls: no pass-through hits")
            continue
        if passer.kind is UnitKind.ARTILLERY:
            notes.append(f"{name} is artillery: the rule covers infantry and cavalry only")
            continue
        reach_raw: float
        reach_raw, reach_cell = chart.entry("passage_of_lines_reach", "horse" if passer.kind.horse else "foot")
        cells.append(reach_cell)
        reach = scaled(reach_raw, ratio)
        if passer.distance > reach:
            notes.append(f'{name} is {passer.distance:g}" away, beyond its {reach:g}" reach: no hits')
            continue
        for key, results in (
            (_PASSAGE_CONDITION.get(condition_for(passer.m_hits)), m_results),
            (_PASSAGE_MOVE.get(passer.move), p_results),
        ):
            if key is not None:
                value: Hits
                value, use = chart.entry("passage_of_lines_hits", key)
                cells.append(use)
                results.append((value, f"{name} {key}: {value}"))
    counted: list[str] = []
    total_hits = Hits()
    categories: tuple[tuple[list[tuple[Hits, str]], Callable[[Hits], int]], ...] = (
        (m_results, lambda h: h.m),
        (p_results, lambda h: h.p),
    )
    for results, worth in categories:
        ranked = sorted(results, key=lambda r: worth(r[0]), reverse=True)
        for value, label in ranked[:2]:
            total_hits += value
            counted.append(label)
        for _, label in ranked[2:]:
            notes.append(f"{label} not counted: only the two worst results in each category apply")
    taken = take_hits(
        chart,
        grade=inputs.grade,
        m_hits=inputs.m_hits,
        hits=total_hits,
        horse=inputs.horse,
        scale=inputs.scale,
        already_demoralized_panics=True,
        notes=tuple(notes),
        cells=tuple(cells),
    )
    return PassageResult(**{**_fields(taken), "counted": tuple(counted)})


def _fields(result: UnitHitsResult) -> dict[str, Any]:
    return {name: getattr(result, name) for name in result.__dataclass_fields__}


# --- supporting brigade, break off (5.5) -----------------------------------------------------------


@dataclass(frozen=True)
class SupportingBrigadeInput:
    """A unit that supported a defence with a minority of its bases; ``primary_move`` is the forced move of
    the primary defender (none if it held) and ``move`` the supporter's choice of D, W or F."""

    grade: Grade
    bases: int
    supporting_bases: int
    primary_move: ForcedMove | None = None
    m_hits: int = 0
    move: ForcedMove = ForcedMove.DISENGAGE
    horse: bool = False
    scale: GroundScale = GroundScale.MEDIUM

    def __post_init__(self) -> None:
        check_kind(self.grade, Grade, "grade")
        check_count(self.bases, "bases", 1)
        check_count(self.supporting_bases, "supporting_bases", 1)
        if 2 * self.supporting_bases >= self.bases:
            raise RulesInputError(
                "supporting_bases",
                f"{self.supporting_bases} of {self.bases} bases is not a "
                "minority: the unit took part in the assault and takes its results",
            )
        if self.primary_move is not None:
            check_kind(self.primary_move, ForcedMove, "primary_move")
        check_m_hits(self.m_hits)
        check_kind(self.move, ForcedMove, "move")
        if not self.move.faces_enemy:
            raise RulesInputError(
                "move", f"a supporting brigade disengages, withdraws or falls back, not {self.move.title}"
            )
        check_kind(self.scale, GroundScale, "scale")


class _UnitArgs(TypedDict):
    """The arguments of take_hits that describe the unit."""

    grade: Grade
    m_hits: int
    horse: bool
    scale: GroundScale


def resolve_supporting_brigade(chart: Chart, inputs: SupportingBrigadeInput) -> UnitHitsResult:
    """A minority supporter whose primary defender retreated or routed takes 1M and must disengage, withdraw
    or fall back; one whose primary defender only disengaged, withdrew or fell back takes nothing and may
    refuse its flank clear of the attacker's contact zone (5.5, R:1784-1792). If the 1M finds the unit
    Demoralized it becomes a P hit and the unit makes the worse of its chosen move and its panic move."""
    primary = inputs.primary_move
    common: _UnitArgs = {"grade": inputs.grade, "m_hits": inputs.m_hits, "horse": inputs.horse, "scale": inputs.scale}
    if primary is None or primary.faces_enemy:
        what = "held" if primary is None else f"made a {primary.title} facing the enemy"
        note = f"the primary defender {what}: no hit"
        if primary is not None:
            note += "; the supporting brigade may refuse its flank clear of the attacker's contact zone (5.5)"
        return take_hits(chart, hits=NO_HITS, notes=(note,), **common)
    hits, use = fixed_hits(chart, "supporting_brigade")
    note = f"the primary defender made a {primary.title}: the supporting brigade takes {hits} (5.5)"
    return take_hits(chart, hits=hits, required_move=inputs.move, notes=(note,), cells=(use,), **common)


@dataclass(frozen=True)
class BreakOffInput:
    """A unit breaking off out of assault contact."""

    grade: Grade
    m_hits: int = 0
    horse: bool = False
    scale: GroundScale = GroundScale.MEDIUM

    def __post_init__(self) -> None:
        check_kind(self.grade, Grade, "grade")
        check_m_hits(self.m_hits)
        check_kind(self.scale, GroundScale, "scale")


def resolve_break_off(chart: Chart, inputs: BreakOffInput) -> UnitHitsResult:
    """Break off (5.5, R:1771-1773): the unit withdraws out of assault contact range and takes 1M, an assault
    hit, so a Demoralized unit takes it as a P hit with its panic response."""
    hits, use = fixed_hits(chart, "break_off")
    note = f"breaks off out of assault contact range: {hits} (5.5)"
    return take_hits(
        chart,
        grade=inputs.grade,
        m_hits=inputs.m_hits,
        hits=hits,
        horse=inputs.horse,
        scale=inputs.scale,
        notes=(note,),
        cells=(use,),
    )


# --- bridging formations (5.2) ---------------------------------------------------------------------


@dataclass(frozen=True)
class BridgingInput:
    """The hits each assault gives the split bridging unit, one entry per assault."""

    assaults: tuple[Hits, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.assaults, tuple) or len(self.assaults) < 2:
            raise RulesInputError("assaults", "a bridging unit is split between two or more assaults")
        for index, hits in enumerate(self.assaults):
            check_hits(hits, f"assaults[{index}]")


@dataclass(frozen=True)
class BridgingResult(Explained):
    hits: Hits


def resolve_bridging_hits(chart: Chart | None, inputs: BridgingInput) -> BridgingResult:  # reads no chart table
    """A bridging unit's hits are not cumulative: it takes the worst single case of each type, which may come
    from different assaults (5.2, R:1465-1471). "Each type (panic, morale, etc.)" is read to cover base hits
    too. The unit also answers with one move that keeps it whole: the more severe retreat wins."""
    notes = []
    worst = {}
    for letter in ("m", "b", "p"):
        values = [getattr(hits, letter) for hits in inputs.assaults]
        worst[letter] = max(values)
        if worst[letter]:
            notes.append(f"worst {letter.upper()}: {worst[letter]} from assault {values.index(worst[letter]) + 1}")
    return BridgingResult(hits=Hits(**worst), notes=tuple(notes))


def bridging_hits(*assaults: Hits) -> Hits:
    return resolve_bridging_hits(None, BridgingInput(tuple(assaults))).hits


def after_hits(unit: UnitState, result: UnitHitsResult) -> UnitState:
    """A unit after fixed assault hits: its condition, P hits of the turn, forced move and any P4 event."""
    hit = with_morale(unit, result.m_after, result.panic_hits)
    after = after_move(replace(hit, p_hits_assault=unit.p_hits_assault + result.panic_hits), result.move)
    return after_p4_event(after) if result.p4_event else after


MECHANICS = (
    Mechanic(
        "passage_of_lines",
        "5.5",
        "Hits on a friendly unit that lose/lose assault losers pass through",
        PassageInput,
        resolve_passage_of_lines,
    ),
    Mechanic(
        "supporting_brigade",
        "5.5",
        "A minority supporter's hit and move when the primary defender retreats or routs",
        SupportingBrigadeInput,
        resolve_supporting_brigade,
    ),
    Mechanic("break_off", "5.5", "The morale hit on a unit that breaks off", BreakOffInput, resolve_break_off),
    Mechanic(
        "bridging_hits",
        "5.2",
        "Worst hits of each type for a bridging unit split between assaults",
        BridgingInput,
        resolve_bridging_hits,
    ),
)
