"""Assault results applied to units (5.2, 5.5): hits, losses, panic responses and their side effects.

The assault round itself (column, modifiers, outcome, the Hits each side takes and the natural-roll M) is
resolved in ``assault``; this module takes those hits and applies them to the units of one side:
base hits spread over the units in closest contact and as damage over the batteries (5.5 Base hits),
M hits with conversion to P beyond Demoralized (5.5 Morale hits), each unit's Panic Index response
with its forced move and loss number (5.5 Panic Hits, Loss Number), battery limbering and abandonment,
group surrender, prisoners, and the rout M. The hits that do not come from the table (break off, supporting
brigades, passage of lines, bridging formations) are in assault_fixed_hits.

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

from republic.rules.assault_fixed_hits import NO_HITS, bridging_hits, forced_move, rout_end
from republic.rules.assault_sides import Contact
from republic.rules.chart import Chart
from republic.rules.checks import check_count, check_hits, check_kind, check_m_hits
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import BatteryAction, ForcedMove, battery_response
from republic.rules.hits import Hits
from republic.rules.morale import Condition, MoraleCause, apply_morale_hits, condition_for
from republic.rules.panic import MAX_PANIC_LEVEL, loss_modifiers, panic_level_read, panic_response
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, total
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind
from republic.rules.units import UnitState

TABLES = ()


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
    taken_elsewhere: Hits = NO_HITS  # a bridging formation's hits in its other assault's round (5.2)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id.strip():
            raise RulesInputError("id", "every unit needs a name")
        check_kind(self.kind, UnitKind, "kind")
        check_kind(self.grade, Grade, "grade")
        check_kind(self.contact, Contact, "contact")
        check_count(self.bases, "bases", 1)
        check_m_hits(self.m_hits)
        check_count(self.earlier_panic_hits, "earlier_panic_hits")
        check_count(self.damage, "damage")
        check_hits(self.taken_elsewhere, "taken_elsewhere")
        if self.natural_m is not None:
            check_count(self.natural_m, "natural_m")
        if not self.battery:
            if self.damage:
                raise RulesInputError("damage", "only a battery takes damage; infantry and cavalry lose bases")
            if self.limbered:
                raise RulesInputError("limbered", "only a battery limbers")

    @property
    def battery(self) -> bool:
        return self.kind is UnitKind.ARTILLERY

    @classmethod
    def of(
        cls,
        unit: UnitState,
        contact: Contact,
        *,
        natural_m: int | None = None,
        retreat_blocked: bool = False,
        out_of_town: bool = False,
        across_bridge_or_ford: bool = False,
        away_from_rear_assault: bool = False,
        taken_elsewhere: Hits = NO_HITS,
    ) -> "UnitTakingHits":
        """A unit as it stands: the P hits it took earlier this phase count toward its next modifier."""
        return cls(
            unit.id,
            unit.kind,
            unit.grade,
            unit.bases,
            m_hits=unit.m_hits,
            earlier_panic_hits=unit.p_hits_assault,
            contact=contact,
            damage=unit.damage if unit.battery else 0,
            limbered=unit.battery and unit.limbered,
            natural_m=natural_m,
            retreat_blocked=retreat_blocked,
            out_of_town=out_of_town,
            across_bridge_or_ford=across_bridge_or_ford,
            away_from_rear_assault=away_from_rear_assault,
            taken_elsewhere=taken_elsewhere,
        )


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

    def __post_init__(self) -> None:
        if not isinstance(self.units, tuple) or not self.units:
            raise RulesInputError("units", "name at least one unit")
        seen = set()
        for index, unit in enumerate(self.units):
            check_kind(unit, UnitTakingHits, f"units[{index}]")
            if unit.id in seen:
                raise RulesInputError(f"units[{index}].id", f"unit '{unit.id}' is listed twice")
            seen.add(unit.id)
        check_hits(self.hits, "hits")
        check_count(self.natural_m, "natural_m")
        check_count(self.all_out_extra_m, "all_out_extra_m")
        check_kind(self.scale, GroundScale, "scale")


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
        pick = min(
            (i for i in open_ if _closeness(units[i].contact) == closest),
            key=lambda i: (taken[i], -(units[i].bases - taken[i]), i),
        )
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
        pick = min(open_, key=lambda i: (_closeness(units[i].contact), -units[i].grade.rank, -(left[i] - taken[i]), i))
        taken[pick] += 1
    return taken, pool - sum(taken)


def assault_losses(
    chart: Chart,
    units: tuple[UnitTakingHits, ...],
    hits: Hits = NO_HITS,
    natural_m: int = 0,
    all_out_extra_m: int = 0,
    scale: GroundScale = GroundScale.MEDIUM,
) -> AssaultLossesResult:
    return resolve_assault_losses(chart, AssaultLossesInput(units, hits, natural_m, all_out_extra_m, scale))


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
    rounds = [
        _panic_round(chart, inputs, unit, lost, cells, modifiers) for unit, lost in zip(units, base_hits, strict=True)
    ]
    left = [0 if r.surrendered else r.unit.bases - r.lost for r in rounds]
    pool = sum(r.loss for r in rounds)
    prisoners, unassigned_prisoners = _take_prisoners(units, left, pool)
    if pool:
        notes.append(
            f"loss numbers give {pool} prisoner base(s), taken from all-out contact first, lowest grade first (5.5)"
        )
    if unassigned_prisoners:
        notes.append(f"{unassigned_prisoners} prisoner base(s) found no base left to take")
    results = tuple(
        _unit_loss(chart, inputs.scale, r, taken, dmg, cells)
        for r, taken, dmg in zip(rounds, prisoners, damage, strict=True)
    )
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


def _panic_round(
    chart: Chart,
    inputs: AssaultLossesInput,
    unit: UnitTakingHits,
    lost: int,
    cells: list[CellUse],
    modifiers: list[Modifier],
) -> _Round:
    hits = inputs.hits
    natural = inputs.natural_m if unit.natural_m is None else unit.natural_m
    parts = [
        f"{n}M {what}"
        for n, what in (
            (hits.m, "from the chart"),
            (natural, "from the natural roll"),
            (inputs.all_out_extra_m, "for the All-Out win"),
        )
        if n
    ]
    notes = [" + ".join(parts) + " (5.5)"] if parts else []
    m_taken, p_taken, already = hits.m + natural + inputs.all_out_extra_m, hits.p, 0
    if unit.taken_elsewhere:
        m_taken, lost, p_taken = _bridged(unit.taken_elsewhere, Hits(m_taken, lost, p_taken), notes)
        already = unit.taken_elsewhere.p
    morale = apply_morale_hits(unit.m_hits, m_taken, MoraleCause.ASSAULT)
    notes.extend(morale.notes)
    panic = p_taken + morale.panic_hits
    # a bridging unit that takes more P here answers to the worst P of the round, not to the difference
    read_from = panic + already if panic else 0
    level = panic_level_read(read_from) if panic else 0
    state = _Round(unit, lost, m_taken, morale.m_after, panic, level, notes)
    if not unit.battery and lost == unit.bases:
        notes.append(
            "destroyed by base hits"
            + ("; its P4 event still counts for its division (6.2)" if level == MAX_PANIC_LEVEL else "")
        )
        return state
    if not panic:
        return state
    cell, use = panic_response(chart, unit.grade, read_from)
    cells.append(use)
    read = f" (read from {read_from} P)" if read_from > level else ""
    notes.append(f"Panic {level}{read} for {unit.grade} troops: {cell} (5.5)")
    state.move = cell.move
    if unit.retreat_blocked:
        state.surrendered = True
        notes.append("its panic move is blocked by the enemy: it surrenders (5.5 Group Surrender)")
    elif not unit.battery:
        extra, extra_cells = loss_modifiers(
            chart,
            cell.move,
            out_of_town=unit.out_of_town,
            across_bridge_or_ford=unit.across_bridge_or_ford,
            away_from_rear_assault=unit.away_from_rear_assault,
        )
        cells.extend(extra_cells)
        modifiers.extend(Modifier(f"{m.label} ({unit.id})", m.value, m.section) for m in extra)
        state.loss = cell.loss + total(extra)
    return state


def _bridged(elsewhere: Hits, here: Hits, notes: list[str]) -> tuple[int, int, int]:
    """A bridging formation's hits are not cumulative (5.2, R:1465-1471): of this round's hits here and in its
    other assault it takes the worst of each type; it has those of the other assault already, so here only
    what the worst adds to them."""
    worst = bridging_hits(elsewhere, here)
    extra = [max(0, getattr(worst, t) - getattr(elsewhere, t)) for t in ("m", "b", "p")]
    notes.append(
        f"bridging formation: {elsewhere or 'no hits'} in its other assault, {here or 'no hits'} here; it takes the "
        f"worst of each type, {worst}, so {Hits(*extra) or 'nothing'} more (5.2)"
    )
    return extra[0], extra[1], extra[2]


def _unit_loss(
    chart: Chart, scale: GroundScale, state: _Round, prisoners: int, damage: int, cells: list[CellUse]
) -> UnitLoss:
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
        response, use = battery_response(chart, move)
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
        moved = forced_move(chart, move, unit.kind.horse, scale)
        cells.extend(moved.cells)
        distance, instruction = moved.distance, moved.instruction
        if move is ForcedMove.ROUT:
            m_after = rout_end(chart, m_after, cells, notes)
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


MECHANICS = (
    Mechanic(
        "assault_losses",
        "5.5",
        "Apply a side's assault hits: base hits, morale, panic responses, prisoners, surrender, battery fates",
        AssaultLossesInput,
        resolve_assault_losses,
    ),
)
