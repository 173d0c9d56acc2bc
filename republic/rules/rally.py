"""Rallying (2.3, with the leader reach of 2.2): a unit with M hits rolls to recover, or to slip further.

The old rally number is the Rally Table cell for the unit's grade and current condition. 1D10 plus the
rally modifiers is added to it, giving the new rally number; the new condition is the best column of
the grade's line whose number the new number equals or exceeds (R:524-539). Below the lowest
(Demoralized) number the unit stays Demoralized: there is nothing worse to become.

A line of the table falls from Formed to Demoralized, so the new condition is found by walking from the
old condition's cell: upwards while the next better cell is reached, or downwards until one is. The
cells read on that walk are exactly the ones that decide the result.
"""

import math
from dataclasses import dataclass

from republic.rules.chart import DIE_MODIFIER, PRINTED_SOURCE, BandSpec, Chart, GridSpec, KeyedSpec, Span
from republic.rules.dice import Roll, single
from republic.rules.errors import RulesInputError
from republic.rules.leaders import CommandRelation, gives_rally_bonus, rally_reach
from republic.rules.morale import Condition, condition_for
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, Provenance, present, total
from republic.rules.scale import GroundScale, scale_ratio
from republic.rules.troops import Grade, Leader
from republic.rules.units import UnitState

CONDITIONS = tuple(Condition)
LEADER_POINTS = ("division_leader", "division_leader_hors_de_combat", "other_leader_within_4")
DISTANCE_ENTRIES = ("step_inches", "per_step", "most")

_RALLY_NUMBER = Span("a rally number", 0, 30)
"""A line's numbers run down from Formed to Demoralized, and a modified 1D10 moves a unit along them; a
number beyond 30 no roll could reach from any other."""

_SUBTRACTED = Span("a rally die modifier that subtracts", -10, 0)
"""The distance to the divisional leader and the unit's losses only ever subtract (R:561-568)."""

TABLES = (
    GridSpec(
        "rally", "2.3", "Rally Table", tuple(g.value for g in Grade), tuple(c.value for c in CONDITIONS), _RALLY_NUMBER
    ),
    KeyedSpec("rally_leader_points", "2.3", "Rally modifiers: each leader rating point", LEADER_POINTS, DIE_MODIFIER),
    KeyedSpec(
        "rally_leader_distance",
        "2.3",
        'Rally modifier: each 4" to divisional leader',
        DISTANCE_ENTRIES,
        _SUBTRACTED,
        values={"step_inches": Span("a distance in inches", 0, 100, above_low=True)},
    ),
    BandSpec("rally_losses", "2.3", "Rally modifier: percentage of unit lost", _SUBTRACTED),
    KeyedSpec(
        "rally_battery_damage",
        "2.3",
        "Rally: percentage lost per battery damage",
        ("percent_per_damage",),
        Span("a percentage", 0, 100),
    ),
)


# --- the table --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RallyOutcome:
    old_number: int
    new_number: int
    condition: Condition
    below_lowest: bool
    cells: tuple[CellUse, ...]


def rally_outcome(chart: Chart, grade: Grade, before: Condition, modified_roll: int) -> RallyOutcome:
    """Steps 1-4 of 2.3 for a modified roll already summed."""
    old: int
    old, old_use = chart.cell("rally", grade.value, before.value)
    new = old + modified_roll
    cells = [old_use]
    index = CONDITIONS.index(before)
    if new >= old:
        while index > 0:
            better: int
            better, use = chart.cell("rally", grade.value, CONDITIONS[index - 1].value)
            cells.append(use)
            if new < better:
                break
            index -= 1
        return RallyOutcome(old, new, CONDITIONS[index], False, tuple(cells))
    for worse_index in range(index + 1, len(CONDITIONS)):
        worse: int
        worse, use = chart.cell("rally", grade.value, CONDITIONS[worse_index].value)
        cells.append(use)
        if new >= worse:
            return RallyOutcome(old, new, CONDITIONS[worse_index], False, tuple(cells))
    return RallyOutcome(old, new, Condition.DEMORALIZED, True, tuple(cells))


# --- modifiers --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RallyLeader:
    """A leader other than the unit's divisional leader, within 4" of the unit (in the game's scale)."""

    leader: Leader
    relation: CommandRelation


_RELATION_LABELS = {
    CommandRelation.CHAIN_OF_COMMAND: "corps or army leader in the chain of command",
    CommandRelation.ADJOINING_SAME_CORPS: "rating 2+ leader of an adjoining formation of the same corps",
    CommandRelation.SAME_SIDE_OTHER: "rating 3+ leader of the same side",
}


def leader_modifiers(
    chart: Chart,
    division_leader: Leader,
    division_leader_hors_de_combat: bool,
    other_leaders: tuple[RallyLeader, ...] = (),
) -> tuple[tuple[Modifier, ...], list[CellUse], list[str]]:
    """Leader rating points (2.3, R:552-560) within each rating's reach (2.2). Subtracting the rating of a
    fallen divisional leader is taken literally: a fallen -1 leader adds one, as his troops are rid of him."""
    cells, notes = [], []
    key = "division_leader_hors_de_combat" if division_leader_hors_de_combat else "division_leader"
    per_point: int
    per_point, use = chart.entry("rally_leader_points", key)
    cells.append(use)
    label = (
        f"divisional leader hors de combat, not yet replaced ({division_leader}): his rating subtracted"
        if division_leader_hors_de_combat
        else f"divisional leader's rating ({division_leader}), at any distance"
    )
    candidates = [Modifier(label, per_point * division_leader.rating, "2.3")]
    in_reach = [o for o in other_leaders if gives_rally_bonus(o.leader.rating, o.relation)]
    if in_reach:
        per_point, use = chart.entry("rally_leader_points", "other_leader_within_4")
        cells.append(use)
        candidates += [
            Modifier(f'{_RELATION_LABELS[o.relation]} within 4" ({o.leader})', per_point * o.leader.rating, "2.2, 2.3")
            for o in in_reach
        ]
    notes += [
        f"the {o.leader} leader ({o.relation}) gives no rally bonus: a rating {o.leader.rating} reaches only "
        f"{', '.join(r.value for r in rally_reach(o.leader.rating))} (2.2)"
        for o in other_leaders
        if o not in in_reach
    ]
    return present(*candidates), cells, notes


def distance_modifier(chart: Chart, distance: float, scale: GroundScale) -> tuple[Modifier | None, list[CellUse]]:
    """Each 4" to the divisional leader (2.3, R:561-566). The text says "each 4 inches beyond 4 inches" but its
    own example (9" away: -2) counts every whole 4" step, -floor(d/4), which is the reading used. The step is
    4" at the medium scale and grows with the game's scale ratio like every other distance (1.2). It counts
    while the divisional leader is hors de combat too, measured to his figure at the rear: the text makes
    no exception."""
    step: int
    per_step: int
    most: int
    step, step_use = chart.entry("rally_leader_distance", "step_inches")
    per_step, per_use = chart.entry("rally_leader_distance", "per_step")
    most, most_use = chart.entry("rally_leader_distance", "most")
    ratio, ratio_use = scale_ratio(chart, scale)
    steps = math.floor(round(distance / (step * ratio), 9))
    value = max(most, per_step * steps)
    label = f'each 4" to divisional leader ({distance:g}" away, {steps} step{"s" if steps != 1 else ""})'
    return (Modifier(label, value, "2.3") if value else None), [step_use, per_use, most_use, ratio_use]


def lost_percent(bases_at_start: int, bases_now: int) -> int:
    """Whole percent of the unit's bases lost, rounded down (a unit is never charged for a part percent)."""
    return (bases_at_start - bases_now) * 100 // bases_at_start


def battery_lost_percent(chart: Chart, damage: int) -> tuple[int, CellUse]:
    per_damage: int
    per_damage, use = chart.entry("rally_battery_damage", "percent_per_damage")
    return per_damage * damage, use


def losses_modifier(chart: Chart, percent: int) -> tuple[Modifier | None, CellUse]:
    value: int
    value, use = chart.band("rally_losses", percent)
    return (Modifier(f"percentage of unit lost ({percent}%)", value, "2.3") if value else None), use


# --- the mechanic -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RallyInput:
    """One unit's rally attempt. Losses are the bases at the start and now, or for a battery its damage.
    `division_leader_distance` is measured in the game's scale; `other_leaders` lists the other leaders
    within 4" of the unit (corps and army leaders above it, and leaders of other commands), leaving out
    any that are hors de combat, since they contribute nothing until replaced (2.5)."""

    grade: Grade
    m_hits: int
    roll: Roll
    division_leader: Leader
    division_leader_distance: float
    division_leader_hors_de_combat: bool = False
    bases_at_start: int | None = None
    bases_now: int | None = None
    battery_damage: int | None = None
    other_leaders: tuple[RallyLeader, ...] = ()
    scale: GroundScale = GroundScale.MEDIUM
    printed: Condition | None = None  # the new condition the players read off their own printed chart

    @classmethod
    def of(
        cls,
        unit: UnitState,
        roll: Roll,
        division_leader: Leader,
        division_leader_distance: float,
        *,
        division_leader_hors_de_combat: bool = False,
        other_leaders: tuple[RallyLeader, ...] = (),
        scale: GroundScale = GroundScale.MEDIUM,
        printed: Condition | None = None,
    ) -> "RallyInput":
        """A unit's rally as it stands: a brigade's losses are its bases, a battery's its damage."""
        losses = (
            {"battery_damage": unit.damage}
            if unit.battery
            else {"bases_at_start": unit.bases_start, "bases_now": unit.bases}
        )
        return cls(
            unit.grade,
            unit.m_hits,
            roll,
            division_leader,
            division_leader_distance,
            division_leader_hors_de_combat,
            other_leaders=other_leaders,
            scale=scale,
            printed=printed,
            **losses,
        )

    def __post_init__(self) -> None:
        if self.m_hits == 0:
            raise RulesInputError(
                "m_hits", "only a unit with M hits rallies (2.3); a Formed unit has nothing to recover"
            )
        condition_for(self.m_hits)
        single(self.roll, "roll")
        if self.division_leader_distance < 0:
            raise RulesInputError(
                "division_leader_distance", f"a distance cannot be negative, got {self.division_leader_distance:g}"
            )
        if self.battery_damage is not None:
            _battery_only(self, self.battery_damage)
        else:
            _bases_only(self)


def _battery_only(inputs: RallyInput, damage: int) -> None:
    for name in ("bases_at_start", "bases_now"):
        if getattr(inputs, name) is not None:
            raise RulesInputError(
                name, "a battery's losses are its damage; give battery_damage or base counts, not both"
            )
    if damage < 0:
        raise RulesInputError("battery_damage", f"damage cannot be negative, got {damage}")


def _bases_only(inputs: RallyInput) -> None:
    missing = "missing: give bases_at_start and bases_now, or battery_damage for a battery"
    if inputs.bases_at_start is None:
        raise RulesInputError("bases_at_start", missing)
    if inputs.bases_now is None:
        raise RulesInputError("bases_now", missing)
    if inputs.bases_at_start < 1:
        raise RulesInputError("bases_at_start", f"a unit starts with at least 1 base, got {inputs.bases_at_start}")
    if not 1 <= inputs.bases_now <= inputs.bases_at_start:
        raise RulesInputError(
            "bases_now",
            f"a unit that rallies has 1 to {inputs.bases_at_start} bases (its bases at start), got {inputs.bases_now}",
        )


@dataclass(frozen=True)
class RallyResult(Explained):
    """``old_number`` and ``new_number`` are the Rally Table's; None when the players' printed chart gave
    the new condition."""

    old_number: int | None
    die: int
    modified_roll: int
    new_number: int | None
    condition_before: Condition
    condition_after: Condition
    m_hits: int
    lost_percent: int


def resolve_rally(chart: Chart, inputs: RallyInput) -> RallyResult:
    die = single(inputs.roll, "roll")
    before = condition_for(inputs.m_hits)
    leaders, cells, notes = leader_modifiers(
        chart, inputs.division_leader, inputs.division_leader_hors_de_combat, inputs.other_leaders
    )
    distance, distance_cells = distance_modifier(chart, inputs.division_leader_distance, inputs.scale)
    cells += distance_cells
    if inputs.battery_damage is not None:
        percent, use = battery_lost_percent(chart, inputs.battery_damage)
        cells.append(use)
        if percent >= 100:
            raise RulesInputError(
                "battery_damage",
                f"{inputs.battery_damage} damage counts as {percent}% lost "
                "(2.3): the battery has nothing left to rally",
            )
    else:
        # without battery damage __post_init__ has required both base counts
        assert inputs.bases_at_start is not None and inputs.bases_now is not None
        percent = lost_percent(inputs.bases_at_start, inputs.bases_now)
    losses, use = losses_modifier(chart, percent)
    cells.append(use)
    modifiers = (*leaders, *present(distance, losses))
    modified = die + total(modifiers)
    if inputs.printed is None:
        outcome = rally_outcome(chart, inputs.grade, before, modified)
        old, new, after, table_cells = outcome.old_number, outcome.new_number, outcome.condition, outcome.cells
        if outcome.below_lowest:
            notes.append(
                f"new rally number {new} is below the lowest on the {inputs.grade} line: the unit stays Demoralized"
            )
    else:
        old, new, after = None, None, inputs.printed
        table_cells = (
            CellUse("rally", f"{inputs.grade.value}, {before.value}", after.value, Provenance.PRINTED, PRINTED_SOURCE),
        )
        notes.append(f"new condition read off the players' printed chart for a modified roll of {modified}")
    change = after.m_hits - before.m_hits
    notes.append(
        "condition unchanged" if change == 0 else f"{'improves' if change < 0 else 'worsens'} from {before} to {after}"
    )
    return RallyResult(
        old_number=old,
        die=die,
        modified_roll=modified,
        new_number=new,
        condition_before=before,
        condition_after=after,
        m_hits=after.m_hits,
        lost_percent=percent,
        modifiers=modifiers,
        cells=(*table_cells, *cells),
        notes=tuple(notes),
    )


MECHANICS = (
    Mechanic(
        "rally",
        "2.3",
        "Rally a unit with M hits: old rally number + modified 1D10 gives its new condition",
        RallyInput,
        resolve_rally,
    ),
)
