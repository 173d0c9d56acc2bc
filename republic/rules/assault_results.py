"""Assault results applied to units (5.2, 5.5): hits, losses, panic responses and their side effects.

The assault round itself (column, modifiers, outcome, the Hits each side takes and the natural-roll M) is
resolved in ``assault``; this module takes those hits and applies them to the units of one side:
base hits spread over the units in closest contact and as damage over the batteries (5.5 Base hits),
M hits with conversion to P beyond Demoralized (5.5 Morale hits), each unit's Panic Index response
with its forced move and loss number (5.5 Panic Hits, Loss Number), battery limbering and abandonment,
group surrender, prisoners, and the rout M. Beside it: lose/lose passage of lines, supporting brigades,
break off (5.5) and bridging formations (5.2).

Readings chosen where the text is open:

- A unit's panic level is the P hits it takes in this round, not the P hits of the whole phase: P hits
  "are totalled at the end of each assault round" (R:1659-1660) and "panic hits that total to five or
  higher without experiencing a P4 hit" (R:1868-1869) only makes sense if rounds are read one by one.
  The P hits of earlier rounds are carried into ``phase_panic_hits`` for the next round's modifier.
- Group surrender (R:1673-1678): the Elite line is a leftover from Republique; Republic has no Elite
  grade (2.3), so every unit whose panic move is blocked by the enemy surrenders.
- Prisoners (R:1702-1712): the loss numbers of the side's units are one pool taken in the rule's order
  (all-out contact, lowest grade first, then general contact), since the order would mean nothing if a
  unit only gave up its own bases. A battery's loss number is not added: its fate is the limber,
  damage or abandonment of R:1654-1658.
"""

from dataclasses import dataclass
from enum import StrEnum

from republic.rules.assault import Contact
from republic.rules.chart import Chart, KeyedSpec, number
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, ForcedMoveResult, resolve_forced_move
from republic.rules.hits import Hits
from republic.rules.morale import MAX_M_HITS, Condition, MoraleCause, apply_morale_hits, condition_for
from republic.rules.panic import MAX_PANIC_LEVEL, loss_modifiers, panic_level_read, panic_response
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, total
from republic.rules.scale import GroundScale, scale_ratio, scaled
from republic.rules.troops import Grade, UnitKind


class BatteryAction(StrEnum):
    LIMBER = "limber"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class BatteryResponse:
    """What a battery does for a forced move (R:1654-1658), written 'limber', 'limber 1B' or 'abandoned'."""

    action: BatteryAction
    damage: int = 0

    @classmethod
    def parse(cls, raw) -> "BatteryResponse":
        parts = str(raw).split() if isinstance(raw, str) else []
        try:
            action = BatteryAction(parts[0])
            damage = Hits.parse(parts[1]) if len(parts) == 2 else Hits()
        except (IndexError, ValueError):
            action, damage = None, None
        if action is None or len(parts) > 2 or damage.m or damage.p:
            raise ValueError(f"a battery response is 'limber', 'limber 1B' or 'abandoned', got {raw!r}")
        return cls(action, damage.b)

    def __str__(self) -> str:
        return f"{self.action} {self.damage}B" if self.damage else str(self.action)


def _no_base_hits(raw) -> Hits:
    hits = Hits.parse(raw)
    if hits.b:
        raise ValueError(f"these hits are M or P only, got {raw!r}")
    return hits


NO_HITS = Hits()
PASSAGE_RESULTS = ("shaken", "demoralized", "retreated", "routed")
FIXED_HITS = ("break_off", "supporting_brigade", "rout_end")

TABLES = (
    KeyedSpec("assault_fixed_hits", "5.5", "Fixed assault hits: break off, supporting brigade, end of a rout",
              FIXED_HITS, _no_base_hits),
    KeyedSpec("battery_forced_move", "5.5", "Artillery batteries' forced moves",
              tuple(m.value for m in ForcedMove), BatteryResponse.parse),
    KeyedSpec("passage_of_lines_hits", "5.5", "Lose/lose passage of lines: hits on the friendly unit passed",
              PASSAGE_RESULTS, _no_base_hits),
    KeyedSpec("passage_of_lines_reach", "5.5", "Lose/lose passage of lines: reach behind the loser, inches",
              ("foot", "horse"), number),
)


# --- validation helpers ----------------------------------------------------------------------------


def _count(value, field: str, minimum: int = 0) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesInputError(field, f"expected a whole number, got {value!r}")
    if value < minimum:
        raise RulesInputError(field, f"must be {minimum} or more, got {value}")


def _m_hits(value, field: str = "m_hits") -> None:
    _count(value, field)
    try:
        condition_for(value)
    except RulesInputError as exc:
        raise RulesInputError(field, exc.problem) from None


def _of(value, kind: type, field: str) -> None:
    if not isinstance(value, kind):
        choices = ", ".join(str(m.value) for m in kind) if issubclass(kind, StrEnum) else kind.__name__
        raise RulesInputError(field, f"expected {choices}, got {value!r}")


def _hits(value, field: str) -> None:
    if not isinstance(value, Hits):
        raise RulesInputError(field, f"hits are written like '2M 1B', got {value!r}")


# --- shared pieces ---------------------------------------------------------------------------------


def _forced_move(chart: Chart, move: ForcedMove, horse: bool, scale: GroundScale) -> ForcedMoveResult:
    return resolve_forced_move(chart, ForcedMoveInput(move, horse=horse, scale=scale))


def _fixed(chart: Chart, key: str) -> tuple[Hits, CellUse]:
    return chart.entry("assault_fixed_hits", key)


def _rout_end(chart: Chart, m_hits: int, cells: list[CellUse], notes: list[str]) -> int:
    """A unit that routs takes its M at the end of the rout move; a Demoralized unit stays so (5.5)."""
    hits, use = _fixed(chart, "rout_end")
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


def _take_hits(chart: Chart, *, grade: Grade, m_hits: int, hits: Hits, horse: bool, scale: GroundScale,
               already_demoralized_panics: bool = False, required_move: ForcedMove | None = None,
               notes: tuple[str, ...] = (), cells: tuple[CellUse, ...] = ()) -> UnitHitsResult:
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
        moved = _forced_move(chart, move, horse, scale)
        cells.extend(moved.cells)
        distance, instruction = moved.distance, moved.instruction
        if move is ForcedMove.ROUT:
            m_after = _rout_end(chart, m_after, cells, notes)
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


# --- assault losses (5.5) --------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitTakingHits:
    """One unit (brigade, battery or massed battery) of the side taking the round's hits.

    ``natural_m`` overrides the side's natural-roll M for a unit whose grade takes M at another rate;
    ``damage`` and ``limbered`` are for batteries only; ``retreat_blocked`` means its panic move would
    pass through an enemy formation; the last three flags add to its loss number when it retreats or routs.
    """

    id: str
    kind: UnitKind
    grade: Grade
    bases: int
    m_hits: int = 0
    earlier_panic_hits: int = 0
    contact: Contact = Contact.ALL_OUT
    damage: int = 0
    limbered: bool = False
    natural_m: int | None = None
    retreat_blocked: bool = False
    out_of_town: bool = False
    across_bridge_or_ford: bool = False
    away_from_rear_assault: bool = False

    def __post_init__(self):
        if not isinstance(self.id, str) or not self.id.strip():
            raise RulesInputError("id", "every unit needs a name")
        _of(self.kind, UnitKind, "kind")
        _of(self.grade, Grade, "grade")
        _of(self.contact, Contact, "contact")
        _count(self.bases, "bases", 1)
        _m_hits(self.m_hits)
        _count(self.earlier_panic_hits, "earlier_panic_hits")
        _count(self.damage, "damage")
        if self.natural_m is not None:
            _count(self.natural_m, "natural_m")
        if not self.battery:
            if self.damage:
                raise RulesInputError("damage", "only a battery takes damage; infantry and cavalry lose bases")
            if self.limbered:
                raise RulesInputError("limbered", "only a battery limbers")

    @property
    def battery(self) -> bool:
        return self.kind is UnitKind.ARTILLERY


@dataclass(frozen=True)
class AssaultLossesInput:
    """The side's units after a round: ``hits`` as the chart gives them to the side, ``natural_m`` for the
    natural-roll loser only (0 for the winner, R:1618-1620), ``all_out_extra_m`` from a Win/Win All-Out
    victory (R:1350-1353). Each M counts on every unit; the B is spread over them.

    From an ``assault_round`` side result: ``hits`` is its ``table_hits``, ``natural_m`` and
    ``all_out_extra_m`` are its own, and each unit's ``natural_m`` comes from its ``natural_m_by_unit``
    (its ``hits`` total already adds those M, so passing it here would count them twice)."""

    units: tuple[UnitTakingHits, ...]
    hits: Hits = NO_HITS
    natural_m: int = 0
    all_out_extra_m: int = 0
    scale: GroundScale = GroundScale.MEDIUM

    def __post_init__(self):
        if not isinstance(self.units, tuple) or not self.units:
            raise RulesInputError("units", "name at least one unit")
        seen = set()
        for index, unit in enumerate(self.units):
            _of(unit, UnitTakingHits, f"units[{index}]")
            if unit.id in seen:
                raise RulesInputError(f"units[{index}].id", f"unit '{unit.id}' is listed twice")
            seen.add(unit.id)
        _hits(self.hits, "hits")
        _count(self.natural_m, "natural_m")
        _count(self.all_out_extra_m, "all_out_extra_m")
        _of(self.scale, GroundScale, "scale")


@dataclass(frozen=True)
class UnitLoss:
    """What the round did to one unit. A unit destroyed or taken still reports its P4 event (6.2)."""

    id: str
    kind: UnitKind
    grade: Grade
    bases_before: int
    base_hits: int
    prisoners: int
    surrendered_bases: int
    bases_after: int
    damage_before: int
    damage_taken: int
    damage_after: int
    m_before: int
    m_taken: int
    m_after: int
    condition_after: Condition
    panic_hits: int
    panic_level: int
    phase_panic_hits: int
    p4_event: bool
    loss_number: int
    move: ForcedMove | None
    distance: float | None
    instruction: str
    battery_action: BatteryAction | None
    limbered_after: bool
    surrendered: bool
    abandoned: bool
    destroyed: bool
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class AssaultLossesResult(Explained):
    """Side totals: ``base_hits`` is the chart's B, ``bases_removed`` + ``unassigned_base_hits`` account for it
    on infantry and cavalry, ``battery_base_hits`` is the same B as damage on batteries and ``battery_damage``
    adds the damage of limbering up to retreat."""

    units: tuple[UnitLoss, ...]
    base_hits: int
    bases_removed: int
    unassigned_base_hits: int
    battery_base_hits: int
    battery_damage: int
    prisoners: int
    unassigned_prisoners: int
    surrendered_bases: int
    destroyed: tuple[str, ...]
    surrendered: tuple[str, ...]
    abandoned: tuple[str, ...]
    p4_events: tuple[str, ...]


def _closeness(contact: Contact) -> int:
    """All-out contact (within 2") is closer than general contact (2"-4")."""
    return 0 if contact is Contact.ALL_OUT else 1


def _spread_base_hits(units: tuple[UnitTakingHits, ...], b: int) -> tuple[list[int], int]:
    """Base hits one at a time to the infantry or cavalry in closest contact: to the unit with fewest hits so
    far, the one with most bases left on a tie, then the order given. A unit with no base left passes the
    hit on; past the all-out contact units the general contact units take them (R:1632-1641)."""
    taken = [0] * len(units)
    people = [i for i, u in enumerate(units) if not u.battery]
    for _ in range(b):
        open_ = [i for i in people if units[i].bases > taken[i]]
        if not open_:
            break
        closest = min(_closeness(units[i].contact) for i in open_)
        pick = min((i for i in open_ if _closeness(units[i].contact) == closest),
                   key=lambda i: (taken[i], -(units[i].bases - taken[i]), i))
        taken[pick] += 1
    return taken, b - sum(taken)


def _spread_damage(units: tuple[UnitTakingHits, ...], b: int) -> list[int]:
    """The same B as damage over the batteries in closest contact, beside the infantry and cavalry
    (R:1637-1642): fewest hits this round first, then least damaged, then the order given."""
    damage = [0] * len(units)
    batteries = [i for i, u in enumerate(units) if u.battery]
    if not batteries:
        return damage
    closest = min(_closeness(units[i].contact) for i in batteries)
    batteries = [i for i in batteries if _closeness(units[i].contact) == closest]
    for _ in range(b):
        pick = min(batteries, key=lambda i: (damage[i], units[i].damage + damage[i], i))
        damage[pick] += 1
    return damage


def _take_prisoners(units: tuple[UnitTakingHits, ...], left: list[int], pool: int) -> tuple[list[int], int]:
    """Prisoners after base hits: all-out contact units first, lowest grade first, then higher grades, and
    only then general contact units (R:1702-1712); within one grade, from the unit with most bases left."""
    taken = [0] * len(units)
    for _ in range(pool):
        open_ = [i for i, u in enumerate(units) if not u.battery and left[i] - taken[i] > 0]
        if not open_:
            break
        pick = min(open_, key=lambda i: (_closeness(units[i].contact), -units[i].grade.rank,
                                         -(left[i] - taken[i]), i))
        taken[pick] += 1
    return taken, pool - sum(taken)


def assault_losses(chart: Chart, units: tuple[UnitTakingHits, ...], hits: Hits = NO_HITS, natural_m: int = 0,
                   all_out_extra_m: int = 0, scale: GroundScale = GroundScale.MEDIUM) -> AssaultLossesResult:
    return resolve_assault_losses(
        chart, AssaultLossesInput(units, hits, natural_m, all_out_extra_m, scale))


def resolve_assault_losses(chart: Chart, inputs: AssaultLossesInput) -> AssaultLossesResult:
    """Apply one round's hits to one side, in the rules' order: base hits first, then M and P hits and
    each unit's panic response, then group surrender and prisoners, then the forced moves (5.5)."""
    units, hits = inputs.units, inputs.hits
    base_hits, unassigned = _spread_base_hits(units, hits.b)
    damage = _spread_damage(units, hits.b)
    cells: list[CellUse] = []
    modifiers: list[Modifier] = []
    notes: list[str] = []
    if unassigned:
        notes.append(f"{unassigned} base hit(s) found no infantry or cavalry base left to remove")
    rounds = [_panic_round(chart, inputs, unit, lost, cells, modifiers) for unit, lost in zip(units, base_hits,
                                                                                            strict=True)]
    left = [0 if r.surrendered else r.unit.bases - r.lost for r in rounds]
    pool = sum(r.loss for r in rounds)
    prisoners, unassigned_prisoners = _take_prisoners(units, left, pool)
    if pool:
        notes.append(f"loss numbers give {pool} prisoner base(s), taken from all-out contact first, lowest grade "
                     f"first (5.5)")
    if unassigned_prisoners:
        notes.append(f"{unassigned_prisoners} prisoner base(s) found no base left to take")
    results = tuple(_unit_loss(chart, inputs.scale, r, taken, dmg, cells)
                    for r, taken, dmg in zip(rounds, prisoners, damage, strict=True))
    return AssaultLossesResult(
        units=results,
        base_hits=hits.b,
        bases_removed=sum(base_hits),
        unassigned_base_hits=unassigned,
        battery_base_hits=sum(damage),
        battery_damage=sum(r.damage_taken for r in results),
        prisoners=sum(prisoners),
        unassigned_prisoners=unassigned_prisoners,
        surrendered_bases=sum(r.surrendered_bases for r in results),
        destroyed=tuple(r.id for r in results if r.destroyed),
        surrendered=tuple(r.id for r in results if r.surrendered),
        abandoned=tuple(r.id for r in results if r.abandoned),
        p4_events=tuple(r.id for r in results if r.p4_event),
        modifiers=tuple(modifiers),
        cells=tuple(dict.fromkeys(cells)),
        notes=tuple(notes),
    )


@dataclass
class _Round:
    """One unit between its hits and its move."""

    unit: UnitTakingHits
    lost: int
    m_taken: int
    m_after: int
    panic: int
    level: int
    notes: list[str]
    move: ForcedMove | None = None
    loss: int = 0
    surrendered: bool = False


def _panic_round(chart: Chart, inputs: AssaultLossesInput, unit: UnitTakingHits, lost: int, cells: list[CellUse],
                 modifiers: list[Modifier]) -> _Round:
    hits = inputs.hits
    natural = inputs.natural_m if unit.natural_m is None else unit.natural_m
    parts = [f"{n}M {what}" for n, what in ((hits.m, "from the chart"), (natural, "from the natural roll"),
                                           (inputs.all_out_extra_m, "for the All-Out win")) if n]
    notes = [" + ".join(parts) + " (5.5)"] if parts else []
    m_taken = hits.m + natural + inputs.all_out_extra_m
    morale = apply_morale_hits(unit.m_hits, m_taken, MoraleCause.ASSAULT)
    notes.extend(morale.notes)
    panic = hits.p + morale.panic_hits
    level = panic_level_read(panic) if panic else 0
    state = _Round(unit, lost, m_taken, morale.m_after, panic, level, notes)
    if not unit.battery and lost == unit.bases:
        notes.append("destroyed by base hits" + ("; its P4 event still counts for its division (6.2)"
                                                  if level == MAX_PANIC_LEVEL else ""))
        return state
    if not panic:
        return state
    cell, use = panic_response(chart, unit.grade, panic)
    cells.append(use)
    read = f" (read from {panic} P)" if panic > level else ""
    notes.append(f"Panic {level}{read} for {unit.grade} troops: {cell} (5.5)")
    state.move = cell.move
    if unit.retreat_blocked:
        state.surrendered = True
        notes.append("its panic move is blocked by the enemy: it surrenders (5.5 Group Surrender)")
    elif not unit.battery:
        extra, extra_cells = loss_modifiers(chart, cell.move, out_of_town=unit.out_of_town,
                                            across_bridge_or_ford=unit.across_bridge_or_ford,
                                            away_from_rear_assault=unit.away_from_rear_assault)
        cells.extend(extra_cells)
        modifiers.extend(Modifier(f"{m.label} ({unit.id})", m.value, m.section) for m in extra)
        state.loss = cell.loss + total(extra)
    return state


def _unit_loss(chart: Chart, scale: GroundScale, state: _Round, prisoners: int, damage: int,
               cells: list[CellUse]) -> UnitLoss:
    unit, notes = state.unit, state.notes
    m_after, move = state.m_after, state.move
    if unit.battery:
        surrendered_bases = unit.bases if state.surrendered else 0
        bases_after = unit.bases - surrendered_bases
    else:
        surrendered_bases = unit.bases - state.lost if state.surrendered else 0
        bases_after = unit.bases - state.lost - prisoners - surrendered_bases
    if prisoners:
        notes.append(f"{prisoners} base(s) taken prisoner")
    action, limbered, abandoned = None, unit.limbered, False
    distance, instruction = None, ""
    if bases_after == 0:
        move = None
    if move is not None and unit.battery:
        response, use = chart.entry("battery_forced_move", move.value)
        cells.append(use)
        action = response.action
        if action is BatteryAction.ABANDONED:
            abandoned, move, bases_after = True, None, 0
            notes.append("required to rout: the battery is abandoned (5.5)")
        elif unit.limbered:
            notes.append(f"already limbered: it makes the {move.title} without limbering up")
        else:
            limbered = True
            damage += response.damage
            cost = f", taking {response.damage} damage" if response.damage else ""
            notes.append(f"limbers up to {move.title}{cost} (5.5)")
    if move is not None:
        moved = _forced_move(chart, move, unit.kind.horse, scale)
        cells.extend(moved.cells)
        distance, instruction = moved.distance, moved.instruction
        if move is ForcedMove.ROUT:
            m_after = _rout_end(chart, m_after, cells, notes)
    return UnitLoss(
        id=unit.id,
        kind=unit.kind,
        grade=unit.grade,
        bases_before=unit.bases,
        base_hits=state.lost,
        prisoners=prisoners,
        surrendered_bases=surrendered_bases,
        bases_after=bases_after,
        damage_before=unit.damage,
        damage_taken=damage,
        damage_after=unit.damage + damage,
        m_before=unit.m_hits,
        m_taken=state.m_taken,
        m_after=m_after,
        condition_after=condition_for(m_after),
        panic_hits=state.panic,
        panic_level=state.level,
        phase_panic_hits=unit.earlier_panic_hits + state.panic,
        p4_event=state.level == MAX_PANIC_LEVEL,
        loss_number=state.loss,
        move=move,
        distance=distance,
        instruction=instruction,
        battery_action=action,
        limbered_after=limbered,
        surrendered=state.surrendered,
        abandoned=abandoned,
        destroyed=not unit.battery and bases_after == 0 and not state.surrendered,
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

    def __post_init__(self):
        _m_hits(self.m_hits)
        _of(self.move, ForcedMove, "move")
        _of(self.kind, UnitKind, "kind")
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

    def __post_init__(self):
        if not isinstance(self.passers, tuple) or not self.passers:
            raise RulesInputError("passers", "name at least one unit passing through")
        for index, passer in enumerate(self.passers):
            _of(passer, PassingUnit, f"passers[{index}]")
        _of(self.grade, Grade, "grade")
        _m_hits(self.m_hits)
        _of(self.scale, GroundScale, "scale")


@dataclass(frozen=True)
class PassageResult(UnitHitsResult):
    counted: tuple[str, ...]


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
        reach_raw, reach_cell = chart.entry("passage_of_lines_reach", "horse" if passer.kind.horse else "foot")
        cells.append(reach_cell)
        reach = scaled(reach_raw, ratio)
        if passer.distance > reach:
            notes.append(f"{name} is {passer.distance:g}\" away, beyond its {reach:g}\" reach: no hits")
            continue
        for key, results in ((_PASSAGE_CONDITION.get(condition_for(passer.m_hits)), m_results),
                             (_PASSAGE_MOVE.get(passer.move), p_results)):
            if key is not None:
                value, use = chart.entry("passage_of_lines_hits", key)
                cells.append(use)
                results.append((value, f"{name} {key}: {value}"))
    counted: list[str] = []
    total_hits = Hits()
    for results, worth in ((m_results, lambda h: h.m), (p_results, lambda h: h.p)):
        ranked = sorted(results, key=lambda r: worth(r[0]), reverse=True)
        for value, label in ranked[:2]:
            total_hits += value
            counted.append(label)
        for _, label in ranked[2:]:
            notes.append(f"{label} not counted: only the two worst results in each category apply")
    taken = _take_hits(chart, grade=inputs.grade, m_hits=inputs.m_hits, hits=total_hits, horse=inputs.horse,
                       scale=inputs.scale, already_demoralized_panics=True, notes=tuple(notes), cells=tuple(cells))
    return PassageResult(**{**_fields(taken), "counted": tuple(counted)})


def _fields(result: UnitHitsResult) -> dict:
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

    def __post_init__(self):
        _of(self.grade, Grade, "grade")
        _count(self.bases, "bases", 1)
        _count(self.supporting_bases, "supporting_bases", 1)
        if 2 * self.supporting_bases >= self.bases:
            raise RulesInputError("supporting_bases", f"{self.supporting_bases} of {self.bases} bases is not a "
                                  "minority: the unit took part in the assault and takes its results")
        if self.primary_move is not None:
            _of(self.primary_move, ForcedMove, "primary_move")
        _m_hits(self.m_hits)
        _of(self.move, ForcedMove, "move")
        if not self.move.faces_enemy:
            raise RulesInputError("move", f"a supporting brigade disengages, withdraws or falls back, not "
                                  f"{self.move.title}")
        _of(self.scale, GroundScale, "scale")


def resolve_supporting_brigade(chart: Chart, inputs: SupportingBrigadeInput) -> UnitHitsResult:
    """A minority supporter whose primary defender retreated or routed takes 1M and must disengage, withdraw
    or fall back; one whose primary defender only disengaged, withdrew or fell back takes nothing and may
    refuse its flank clear of the attacker's contact zone (5.5, R:1784-1792). If the 1M finds the unit
    Demoralized it becomes a P hit and the unit makes the worse of its chosen move and its panic move."""
    primary = inputs.primary_move
    common = {"grade": inputs.grade, "m_hits": inputs.m_hits, "horse": inputs.horse, "scale": inputs.scale}
    if primary is None or primary.faces_enemy:
        what = "held" if primary is None else f"made a {primary.title} facing the enemy"
        note = f"the primary defender {what}: no hit"
        if primary is not None:
            note += "; the supporting brigade may refuse its flank clear of the attacker's contact zone (5.5)"
        return _take_hits(chart, hits=NO_HITS, notes=(note,), **common)
    hits, use = _fixed(chart, "supporting_brigade")
    note = f"the primary defender made a {primary.title}: the supporting brigade takes {hits} (5.5)"
    return _take_hits(chart, hits=hits, required_move=inputs.move, notes=(note,), cells=(use,), **common)


@dataclass(frozen=True)
class BreakOffInput:
    """A unit breaking off out of assault contact."""

    grade: Grade
    m_hits: int = 0
    horse: bool = False
    scale: GroundScale = GroundScale.MEDIUM

    def __post_init__(self):
        _of(self.grade, Grade, "grade")
        _m_hits(self.m_hits)
        _of(self.scale, GroundScale, "scale")


def resolve_break_off(chart: Chart, inputs: BreakOffInput) -> UnitHitsResult:
    """Break off (5.5, R:1771-1773): the unit withdraws out of assault contact range and takes 1M, an assault
    hit, so a Demoralized unit takes it as a P hit with its panic response."""
    hits, use = _fixed(chart, "break_off")
    note = f"breaks off out of assault contact range: {hits} (5.5)"
    return _take_hits(chart, grade=inputs.grade, m_hits=inputs.m_hits, hits=hits, horse=inputs.horse,
                      scale=inputs.scale, notes=(note,), cells=(use,))


# --- bridging formations (5.2) ---------------------------------------------------------------------


@dataclass(frozen=True)
class BridgingInput:
    """The hits each assault gives the split bridging unit, one entry per assault."""

    assaults: tuple[Hits, ...]

    def __post_init__(self):
        if not isinstance(self.assaults, tuple) or len(self.assaults) < 2:
            raise RulesInputError("assaults", "a bridging unit is split between two or more assaults")
        for index, hits in enumerate(self.assaults):
            _hits(hits, f"assaults[{index}]")


@dataclass(frozen=True)
class BridgingResult(Explained):
    hits: Hits


def resolve_bridging_hits(chart: Chart, inputs: BridgingInput) -> BridgingResult:
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


MECHANICS = (
    Mechanic("assault_losses", "5.5", "Apply a side's assault hits: base hits, morale, panic responses, "
             "prisoners, surrender, battery fates", AssaultLossesInput, resolve_assault_losses),
    Mechanic("passage_of_lines", "5.5", "Hits on a friendly unit that lose/lose assault losers pass through",
             PassageInput, resolve_passage_of_lines),
    Mechanic("supporting_brigade", "5.5", "A minority supporter's hit and move when the primary defender "
             "retreats or routs", SupportingBrigadeInput, resolve_supporting_brigade),
    Mechanic("break_off", "5.5", "The morale hit on a unit that breaks off", BreakOffInput, resolve_break_off),
    Mechanic("bridging_hits", "5.2", "Worst hits of each type for a bridging unit split between assaults",
             BridgingInput, resolve_bridging_hits),
)
