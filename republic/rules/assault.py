"""Assault (5.1, 5.3, 5.4): one round's modified and natural rolls and its outcome.

One round: each side rolls 1D10 and adds its modifiers (5.4); the attacker's modified total minus the
defender's is looked up in the column's table (5.3); the natural rolls are then compared and the loser
takes M hits by its grade (5.1 step 6). This module says what hits and action the round gives each side;
applying them to units (base hits spread, prisoners, panic responses, artillery) is assault_results' work.

Readings chosen where the rules leave room:
- Which side "won the modified roll" is read off the table: the attacker wins when the cell falls on the
  defender (above the zero line, R:1370-1374) and is not a roll again; middle cells (roll again, break
  off) have no winner. Win/Win (R:1350-1353) is that win plus a won natural roll.
- Natural-roll M (R:1380-1390) fall on "the losing unit(s) based on their troop grade": the side's hits
  use the grade of its greatest share of bases, as the grade modifier does; each unit's own figure is
  given beside it for a side of mixed grades.
"""

from dataclasses import dataclass, replace

from republic.rules.assault_sides import (
    AssaultSide,
    AssaultType,
    AssaultUnit,
    SideReading,
    assault_type,
    natural_morale_hits,
    outnumbering,
    side_cover,
    side_kind,
    side_modifiers,
    side_open_order,
)
from republic.rules.assault_table import (
    AssaultColumn,
    AssaultColumnResult,
    AssaultOutcome,
    OutcomeAction,
    OutcomeSide,
    Struck,
    assault_column,
)
from republic.rules.chart import Chart
from republic.rules.dice import single
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, present, total
from republic.rules.troops import Cover, Grade, UnitKind

TABLES = ()


@dataclass(frozen=True)
class AssaultRoundInput:
    """One assault round. ``column`` lets the table name the column; left out, it follows from the sides.
    ``square_vs_solo_cavalry``: the defender is infantry in square assaulted by cavalry alone (5.4)."""

    attacker: AssaultSide
    defender: AssaultSide
    column: AssaultColumn | None = None
    square_vs_solo_cavalry: bool = False

    def __post_init__(self) -> None:
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


def _hit_note(side: str, hits: Hits, why: str) -> str:
    return f"{side}: {hits} for {why}"


SIDES = ("attacker", "defender")


def resolve_assault_round(chart: Chart, inputs: AssaultRoundInput) -> AssaultRoundResult:
    """One assault round (5.1 steps 1-6): column, modified totals, the table's outcome, natural-roll M
    and the All Out Win/Win extras, as hits per side.

    Win/Win extras: an All Out or Mixed assault that wins both rolls puts 1M more on the defender
    (R:1350-1352, R:1429-1431: the mixed assault keeps "the extra M"; the "P" there is read as the
    table's own P hits); only an All Out assault earns the "C" bonus for the next round. The 1M of a
    break off (R:1771-1773) is not in the attacker's hits: it comes with the move, from the break_off
    mechanic of assault_results."""
    column, notes = _round_column(inputs)
    sides = {"attacker": inputs.attacker, "defender": inputs.defender}
    readings = _read_sides(chart, inputs, notes)
    naturals = {name: single(side.roll, f"{name}.roll") for name, side in sides.items()}
    mods = {name: present(*reading.modifiers) for name, reading in readings.items()}
    modified = {name: naturals[name] + total(mods[name]) for name in SIDES}
    difference = modified["attacker"] - modified["defender"]
    outcome, cell_use = _table_outcome(chart, column, difference, inputs.attacker.units, notes)
    table_hits = {
        name: outcome.hits if outcome.to in (OutcomeSide(name), OutcomeSide.BOTH) else Hits() for name in SIDES
    }
    for name, taken in table_hits.items():
        if taken:
            notes.append(_hit_note(name, taken, f"the {column.title} result at {difference:+d}"))
    cells = [*readings["attacker"].cells, *readings["defender"].cells, cell_use]
    natural = _natural_roll(chart, inputs, naturals, {name: r.grade for name, r in readings.items()}, cells, notes)
    kind = assault_type(inputs.attacker.units)
    extra_m, next_round_bonus = _win_win(outcome, natural.loser, kind, notes)
    _follow_up_notes(outcome, modified, naturals, natural.m, notes)
    results = {
        name: AssaultSideResult(
            natural=naturals[name],
            modified=modified[name],
            modifiers=mods[name],
            grade=readings[name].grade,
            condition=readings[name].condition,
            cover=readings[name].cover,
            bases=side.bases,
            natural_m=natural.m[name],
            natural_m_by_unit=natural.by_unit[name],
            table_hits=table_hits[name],
            all_out_extra_m=extra_m[name],
            hits=table_hits[name] + Hits(m=natural.m[name] + extra_m[name]),
        )
        for name, side in sides.items()
    }
    return AssaultRoundResult(
        column=column,
        assault_type=kind,
        attacker=results["attacker"],
        defender=results["defender"],
        difference=difference,
        natural_difference=naturals["attacker"] - naturals["defender"],
        outcome=outcome,
        natural_loser=natural.loser,
        win_win=outcome_won(outcome) and natural.loser is OutcomeSide.DEFENDER,
        next_round_tactical_bonus=next_round_bonus,
        modifiers=tuple(replace(m, label=f"{name}: {m.label}") for name in SIDES for m in mods[name]),
        cells=tuple(cells),
        notes=tuple(notes),
    )


def _round_column(inputs: AssaultRoundInput) -> tuple[AssaultColumn, list[str]]:
    """Step 1: the column the table names, or the one the sides' troops, cover and open order give (5.3)."""
    if inputs.column is not None:
        return inputs.column, [f"column named by the table: {inputs.column.title}"]
    chosen = round_column(inputs.attacker.units, inputs.defender.units, inputs.defender.struck)
    return chosen.column, list(chosen.notes)


def round_column(
    attackers: tuple[AssaultUnit, ...],
    defenders: tuple[AssaultUnit, ...],
    struck: Struck,
    override: AssaultColumn | None = None,
) -> AssaultColumnResult:
    """The column for the units taking part: each side's greatest share of bases gives its kind, cover and
    open order (5.2, 5.3); ``override`` is a column the table names instead."""
    return assault_column(
        side_kind(attackers),
        side_kind(defenders),
        struck,
        attacker_in_cover=side_cover(attackers) is not Cover.NONE,
        defender_in_cover=side_cover(defenders) is not Cover.NONE,
        attacker_open_order=side_open_order(attackers),
        defender_open_order=side_open_order(defenders),
        override=override,
    )


def round_waits_for(number: int, first_rounds_left: "tuple[int, ...] | list[int]") -> str:
    """Why round ``number`` of an assault is not fought yet, in the table's words; "" when it may be.
    ``first_rounds_left``: the numbers of the phase's other assaults still open without a first round.

    "All initial assault rounds must be resolved before re-rolls and breakthrough overruns are carried out"
    (5.1 step 5, R:1376-1377): a second round (or any later one) waits until every other assault declared this
    phase has fought its first; an assault ended without a round has none to fight."""
    if number < 1:
        raise RulesInputError("number", f"a round is numbered from 1, got {number}")
    if number == 1 or not first_rounds_left:
        return ""
    *others, last = (str(n) for n in first_rounds_left)
    names = f"assaults {', '.join(others)} and {last}" if others else f"assault {last}"
    return (
        f"Round {number} waits: resolve the first round of {names} first. Every assault fights its first round "
        "before any fights a second (5.1)."
    )


def overrun_waits_for(first_rounds_left: "tuple[int, ...] | list[int]") -> str:
    """What the table does with a breakthrough or an overrun a round gave while other assaults have not fought
    their first round, in its words; "" when it may be carried out at once.

    The same sentence (R:1376-1378) goes on: "Mark breakthrough locations before moving on to resolve other
    assaults." The move is the table's own: the app says when to make it and does not hold the record back."""
    if not first_rounds_left:
        return ""
    *others, last = (str(n) for n in first_rounds_left)
    names = f"assaults {', '.join(others)} and {last}" if others else f"assault {last}"
    return (
        f"Mark where the attackers break through now, and move them once {names} "
        f"{'have' if others else 'has'} fought a first round: every first round comes before a breakthrough "
        "is carried out (5.1)."
    )


def _read_sides(chart: Chart, inputs: AssaultRoundInput, notes: list[str]) -> dict[str, "SideReading"]:
    """Steps 2-3: each side's modifiers (5.4), the lesser side's outnumbered modifier among them."""
    readings = {name: side_modifiers(chart, getattr(inputs, name), name == "defender") for name in SIDES}
    lesser, outnumbered, outnumbered_use, outnumbered_note = outnumbering(
        chart, inputs.attacker, inputs.defender, inputs.square_vs_solo_cavalry
    )
    if outnumbered is not None and outnumbered_use is not None:
        readings[lesser.value].modifiers.append(outnumbered)
        readings[lesser.value].cells.append(outnumbered_use)
    if outnumbered_note:
        notes.append(outnumbered_note)
    return readings


def _table_outcome(
    chart: Chart, column: AssaultColumn, difference: int, attackers: tuple[AssaultUnit, ...], notes: list[str]
) -> tuple[AssaultOutcome, CellUse]:
    """Step 4: the column's cell for the modified difference; overrun is for mounted cavalry (5.5)."""
    cell: AssaultOutcome
    cell, use = chart.band(column.table, difference)
    if cell.action is not OutcomeAction.OVERRUN:
        return cell, use
    mounted = [u.kind is UnitKind.CAVALRY_MOUNTED for u in attackers]
    if not any(mounted):
        notes.append("overrun is for cavalry: the attackers, with no mounted cavalry, must break through (5.5)")
        return replace(cell, action=OutcomeAction.MUST_BREAKTHROUGH), use
    if not all(mounted):
        notes.append("overrun: the mounted cavalry overruns; the other attacking units must break through (5.5)")
    return cell, use


@dataclass(frozen=True)
class _NaturalRoll:
    loser: OutcomeSide
    m: dict[str, int]
    by_unit: dict[str, tuple[int, ...]]


def _natural_roll(
    chart: Chart,
    inputs: AssaultRoundInput,
    naturals: dict[str, int],
    grades: dict[str, Grade],
    cells: list[CellUse],
    notes: list[str],
) -> _NaturalRoll:
    """Step 6: the loser of the natural roll takes M by its grade, one per k points lost (5.1)."""
    m = dict.fromkeys(SIDES, 0)
    by_unit = {name: (0,) * len(getattr(inputs, name).units) for name in SIDES}
    difference = naturals["attacker"] - naturals["defender"]
    if not difference:
        return _NaturalRoll(OutcomeSide.NONE, m, by_unit)
    loser = OutcomeSide.DEFENDER if difference > 0 else OutcomeSide.ATTACKER
    name, lost_by = loser.value, abs(difference)
    m[name], use = natural_morale_hits(chart, grades[name], lost_by)
    cells.append(use)
    each = []
    for unit in getattr(inputs, name).units:
        unit_m, unit_use = natural_morale_hits(chart, unit.grade, lost_by)
        if unit_use not in cells:
            cells.append(unit_use)
        each.append(unit_m)
    by_unit[name] = tuple(each)
    if m[name]:
        notes.append(
            _hit_note(name, Hits(m=m[name]), f"losing the natural roll by {lost_by} ({grades[name].value}, rounded up)")
        )
    if any(unit_m != m[name] for unit_m in each):
        notes.append(f"{name}: natural-roll M by each unit's own grade: {', '.join(map(str, each))}")
    return _NaturalRoll(loser, m, by_unit)


def outcome_won(outcome: AssaultOutcome) -> bool:
    """The attacker won the modified roll: the cell falls on the defender and is not a roll again."""
    return outcome.to is OutcomeSide.DEFENDER and outcome.action is not OutcomeAction.ROLL_AGAIN


def _win_win(
    outcome: AssaultOutcome, natural_loser: OutcomeSide, kind: AssaultType, notes: list[str]
) -> tuple[dict[str, int], bool]:
    """The extra M of an All Out or Mixed Win/Win, and the "C" bonus an All Out one carries on (5.1, 5.2)."""
    extra_m = dict.fromkeys(SIDES, 0)
    if not (outcome_won(outcome) and natural_loser is OutcomeSide.DEFENDER) or kind is AssaultType.GENERAL:
        return extra_m, False
    extra_m["defender"] = 1
    notes.append(_hit_note("defender", Hits(m=1), f"an {kind.value.replace('_', ' ')} Win/Win (5.1, 5.2)"))
    if kind is AssaultType.ALL_OUT:
        notes.append('the attacker carries a "C" tactical bonus into the next round this phase (5.1)')
        return extra_m, True
    notes.append('a mixed assault earns no "C" tactical bonus for the next round (5.2)')
    return extra_m, False


def _follow_up_notes(
    outcome: AssaultOutcome,
    modified: dict[str, int],
    naturals: dict[str, int],
    natural_m: dict[str, int],
    notes: list[str],
) -> None:
    if outcome.action is OutcomeAction.BREAK_OFF:
        notes.append("the attacker breaks off out of assault contact and takes the break-off M (5.5)")
    if outcome.action is not OutcomeAction.ROLL_AGAIN:
        return
    both_lost = [
        name for name in SIDES if modified[name] < modified[_other(name)] and naturals[name] < naturals[_other(name)]
    ]
    if both_lost:
        notes.append(
            f"roll again: the {both_lost[0]} lost both rolls and takes its {natural_m[both_lost[0]]}M "
            "now; the next round reads its new condition (5.1)"
        )
    else:
        notes.append("roll again: apply this round's hits first; the next round reads the new conditions (5.1)")


def _other(name: str) -> str:
    return "defender" if name == "attacker" else "attacker"


MECHANICS = (
    Mechanic(
        "assault_round",
        "5.1-5.4",
        "One assault round: modified and natural rolls, the table's outcome and the hits on each side",
        AssaultRoundInput,
        resolve_assault_round,
    ),
)
