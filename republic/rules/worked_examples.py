"""The rules' worked examples that pin cells of the combat chart, as checks any chart must pass.

The rules text works a few examples through (Example 1 of the rally, the green brigade's maneuver roll, the
veteran against the average brigade, ...). Each one fixes, or bounds, some cells of the printed chart, so a
chart that contradicts one is not the chart the rules were written against: a club's chart is refused on
upload for it, and the shipped chart is held to the same list by the tests. Each example runs the engine's
own resolution on the chart under test, so an example holds exactly when a game played on that chart would
reproduce it. The keys (T1, T2, ...) are those of the combat chart reference; examples that pin no chart cell
(the morale ladder, the tandem target's share, a bridging unit's worst hits) are the engine's tests alone.
"""

from collections.abc import Callable
from dataclasses import dataclass

from republic.rules.artillery import ArtilleryFireInput, resolve_artillery_fire
from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_results import UnitTakingHits, assault_losses
from republic.rules.assault_sides import AssaultSide, AssaultUnit, natural_morale_hits
from republic.rules.assault_table import AssaultColumn, OutcomeSide
from republic.rules.chart import Chart
from republic.rules.dice import Roll, d10
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, resolve_forced_move
from republic.rules.hits import Hits
from republic.rules.leaders import HorsDeCombatInput, resolve_hors_de_combat
from republic.rules.maneuver import ManeuverAction, maneuver_test
from republic.rules.morale import Condition
from republic.rules.panic import LOSS_CONDITIONS, PANIC_LEVELS, PanicCell
from republic.rules.rally import RallyInput, distance_modifier, resolve_rally
from republic.rules.results import CellUse
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryType, Grade, Leader, UnitKind


@dataclass(frozen=True)
class Finding:
    """What an example found on one chart: whether it holds, what the chart gives, in words, and the cells
    the example pins, as that chart has them."""

    holds: bool
    found: str
    cells: tuple[CellUse, ...]


@dataclass(frozen=True)
class WorkedExample:
    key: str
    source: str
    example: str  # the situation, in the rules' words
    expected: str  # what the rules say comes of it
    check: Callable[[Chart], Finding]

    def on(self, chart: Chart) -> Finding:
        """The finding on ``chart``; a chart the engine cannot resolve the example on contradicts it. Whatever
        the engine fails with on a club's chart (a number it cannot take, a division by a zero it holds) is that
        chart's fault, never the upload's: the chart is refused for it."""
        try:
            return self.check(chart)
        except Exception as exc:
            return Finding(False, f"the example cannot be worked out on this chart ({exc or type(exc).__name__})", ())


@dataclass(frozen=True)
class Contradiction:
    example: WorkedExample
    finding: Finding

    def sentence(self) -> str:
        """'Worked example T18 (R:1714-1719): a veteran unit takes 2 panic hits; the rules: it withdraws, with no
        bases lost; this chart: fall back, no bases lost.'"""
        example = self.example
        return (
            f"Worked example {example.key} ({example.source}): {example.example}; the rules: {example.expected}; "
            f"this chart: {self.finding.found}."
        )


def contradictions(chart: Chart) -> tuple[Contradiction, ...]:
    """Every worked example the chart contradicts, in the reference's order."""
    found = ((example, example.on(chart)) for example in WORKED_EXAMPLES)
    return tuple(Contradiction(example, finding) for example, finding in found if not finding.holds)


def _cell(chart: Chart, table: str, row: str, column: str) -> CellUse:
    return chart.cell(table, row, column)[1]


def _entry(chart: Chart, table: str, key: str) -> CellUse:
    return chart.entry(table, key)[1]


# --- 2.3 rally: Example 1 (R:540-566) ----------------------------------------------------------------


def _green_rattled(face: int) -> RallyInput:
    """Example 1: green, rattled, a quarter of its bases lost, a zero-rated divisional leader close by."""
    return RallyInput(Grade.GREEN, 2, d10(face), Leader.parse("P0"), 2.0, bases_at_start=8, bases_now=6)


def _rally_cells(chart: Chart, *conditions: Condition) -> tuple[CellUse, ...]:
    return tuple(_cell(chart, "rally", Grade.GREEN.value, c.value) for c in conditions)


def _t1(chart: Chart) -> Finding:
    result = resolve_rally(chart, _green_rattled(6))
    return Finding(result.old_number == 10, f"{result.old_number}", _rally_cells(chart, Condition.RATTLED))


def _rally_roll(face: int, expected: Condition, pinned: Condition) -> Callable[[Chart], Finding]:
    def check(chart: Chart) -> Finding:
        result = resolve_rally(chart, _green_rattled(face))
        losses = chart.band("rally_losses", result.lost_percent)[1]
        found = f"new number {result.new_number}, {result.condition_after.value}"
        cells = (*_rally_cells(chart, Condition.RATTLED, pinned), losses)
        return Finding(result.condition_after is expected, found, cells)

    return check


def _t5(chart: Chart) -> Finding:
    modifier, cells = distance_modifier(chart, 9.0, GroundScale.MEDIUM)
    value = modifier.value if modifier else 0
    return Finding(value == -2, f"{value:+g}", tuple(cells))


# --- 3.2 maneuver (R:660-662) ------------------------------------------------------------------------


def _t6(chart: Chart) -> Finding:
    result = maneuver_test(chart, Grade.GREEN, d10(3))
    allowed = set(result.actions)
    expected = {ManeuverAction.ADVANCE, ManeuverAction.HOLD, ManeuverAction.PULL_BACK}
    actions = [a for a in ManeuverAction if a is not ManeuverAction.HOLD]
    cells = tuple(_cell(chart, "maneuver", a.value, Grade.GREEN.value) for a in actions)
    found = "may " + ", ".join(sorted(a.value.replace("_", " ") for a in allowed))
    return Finding(allowed == expected, found, cells)


# --- 4.2-4.7 artillery and leaders -------------------------------------------------------------------

_DRIFT = ((10, -2), (9, -1), (8, 0), (3, 0), (2, 1), (1, 2))


def _t7(chart: Chart) -> Finding:
    read = [(roll, *chart.band("artillery_drift", roll)) for roll in (roll for roll, _ in _DRIFT)]
    holds = all(value == shift for (_, shift), (_, value, _) in zip(_DRIFT, read, strict=True))
    found = ", ".join(f"{roll}: {value:+d}" for roll, value, _ in read)
    cells = tuple(dict.fromkeys(use for _, _, use in read))
    return Finding(holds, found, cells)


def _t8(chart: Chart) -> Finding:
    result = resolve_artillery_fire(chart, ArtilleryFireInput(BatteryType.M_RIFLE, 5, d10(7), m_hits=3, damage=1))
    return Finding(
        result.modifier_total == -4,
        f"{result.modifier_total:+d}",
        (_entry(chart, "artillery_die_modifiers", "battery_hit"),),
    )


def _t13(chart: Chart) -> Finding:
    result = resolve_hors_de_combat(chart, HorsDeCombatInput(Roll((5, 5)), base_hits_within_4=2))
    pair = result.modified_pair
    found = "-".join(str(n) for n in pair) if pair else "no double"
    return Finding(pair == (7, 7), found, (_entry(chart, "hors_de_combat_modifiers", "each_base_hit"),))


# --- 5.1-5.5 assault ---------------------------------------------------------------------------------


def _t14(chart: Chart) -> Finding:
    sides = (
        AssaultSide(d10(8), (AssaultUnit(Grade.VETERAN, 6),)),
        AssaultSide(d10(3), (AssaultUnit(Grade.AVERAGE, 6),)),
    )
    result = resolve_assault_round(chart, AssaultRoundInput(*sides))
    outcome = result.outcome
    holds = (
        result.column is AssaultColumn.PITCHED_BATTLE
        and result.difference == 6
        and outcome.to is OutcomeSide.DEFENDER
        and outcome.hits.p == 3
    )
    found = f"modified {result.attacker.modified} against {result.defender.modified}, {outcome.to.value} {outcome.hits}"
    cells = (
        _entry(chart, "assault_grade_modifiers", Grade.VETERAN.value),
        _entry(chart, "assault_grade_modifiers", Grade.AVERAGE.value),
        chart.band(AssaultColumn.PITCHED_BATTLE.table, 6)[1],
    )
    return Finding(holds, found, cells)


def _natural(grade: Grade, expected: dict[int, int]) -> Callable[[Chart], Finding]:
    def check(chart: Chart) -> Finding:
        hits = {lost: natural_morale_hits(chart, grade, lost)[0] for lost in expected}
        found = ", ".join(f"lost by {lost}: {m}M" for lost, m in hits.items())
        return Finding(hits == expected, found, (_entry(chart, "assault_natural_points", grade.value),))

    return check


def _panic(grade: Grade, hits: int, move: ForcedMove, prisoners: int | None) -> Callable[[Chart], Finding]:
    def check(chart: Chart) -> Finding:
        loss = assault_losses(chart, (UnitTakingHits("unit", UnitKind.INFANTRY, grade, 6),), Hits(p=hits)).units[0]
        holds = loss.move is move and (prisoners is None or loss.prisoners == prisoners)
        lost = f"{loss.prisoners} bases lost" if loss.prisoners else "no bases lost"
        found = f"{loss.move.title}, {lost}" if loss.move else "no move"
        return Finding(holds, found, (_cell(chart, "panic_index", grade.value, PANIC_LEVELS[hits - 1]),))

    return check


def _t20(chart: Chart) -> Finding:
    """The rules do not say at which panic level the average rout stands, so each rout of the line is held."""
    levels = [lvl for lvl in PANIC_LEVELS if _panic_cell(chart, Grade.AVERAGE, lvl).move is ForcedMove.ROUT]
    modifiers = tuple(_entry(chart, "panic_loss_modifiers", key) for key in LOSS_CONDITIONS)
    routs = tuple(_cell(chart, "panic_index", Grade.AVERAGE.value, level) for level in levels)
    if not levels:
        return Finding(False, "the average line has no rout", modifiers)
    found: list[int] = []
    for level in levels:
        unit = UnitTakingHits(
            "unit",
            UnitKind.INFANTRY,
            Grade.AVERAGE,
            6,
            out_of_town=True,
            across_bridge_or_ford=True,
            away_from_rear_assault=True,
        )
        found.append(assault_losses(chart, (unit,), Hits(p=PANIC_LEVELS.index(level) + 1)).units[0].prisoners)
    words = ", ".join(f"{n} bases lost" for n in found)
    return Finding(all(n == 4 for n in found), words, (*routs, *modifiers))


def _panic_cell(chart: Chart, grade: Grade, level: str) -> PanicCell:
    found: PanicCell = chart.cell("panic_index", grade.value, level)[0]
    return found


# --- 6.1 division panic (R:1833-1841) ----------------------------------------------------------------


def _t21(chart: Chart) -> Finding:
    result = resolve_forced_move(chart, ForcedMoveInput(ForcedMove.ROUT, already_moved=ForcedMove.FALL_BACK))
    cells = tuple(_entry(chart, "forced_moves", m.value) for m in (ForcedMove.FALL_BACK, ForcedMove.ROUT))
    return Finding(result.distance == 4.0, f'{result.distance:g}"', cells)


WORKED_EXAMPLES: tuple[WorkedExample, ...] = (
    WorkedExample("T1", "R:543-544", "a green unit, rattled, starts to rally", "its old rally number is 10", _t1),
    WorkedExample(
        "T2",
        "R:540-545",
        "a green rattled unit with a quarter of its bases lost rolls 6 to rally",
        "it becomes Unformed",
        _rally_roll(6, Condition.UNFORMED, Condition.UNFORMED),
    ),
    WorkedExample(
        "T3",
        "R:545-547",
        "the same unit rolls 4 (12)",
        "it is not enough to improve: it stays Rattled",
        _rally_roll(4, Condition.RATTLED, Condition.UNFORMED),
    ),
    WorkedExample(
        "T4",
        "R:548-550",
        "the same unit rolls 1 (9)",
        "it becomes Shaken",
        _rally_roll(1, Condition.SHAKEN, Condition.SHAKEN),
    ),
    WorkedExample("T5", "R:561-566", 'the divisional leader is 9" away from a rallying unit', "-2 to the roll", _t5),
    WorkedExample(
        "T6",
        "R:660-662",
        "a green brigade's modified maneuver roll is 3",
        "it may advance, hold or pull back, but not maneuver or assault",
        _t6,
    ),
    WorkedExample(
        "T7",
        "R:1029-1034",
        "an artillery roll drifts the range column",
        "10 or more: 2 left, 9: 1 left, 3 to 8: none, 2: 1 right, 1 or less: 2 right",
        _t7,
    ),
    WorkedExample("T8", "R:1154-1155", "a shaken battery with one damage fires", "-4 to its roll", _t8),
    WorkedExample("T13", "R:1296-1299", "a leader near a brigade that lost 2 bases rolls 5-5", "it reads as 7-7", _t13),
    WorkedExample(
        "T14",
        "R:1410-1415",
        "a veteran attacker rolls 8 and an average defender 3, both in the open",
        "Pitched Battle, modified 9 against 3: the defender takes 3P",
        _t14,
    ),
    WorkedExample(
        "T15",
        "R:1415-1420",
        "an average unit loses the natural roll by 5, or by 3",
        "2M, or 1M",
        _natural(Grade.AVERAGE, {5: 2, 3: 1}),
    ),
    WorkedExample(
        "T16",
        "R:1386-1387",
        "a veteran unit loses the natural roll by 1 or 2",
        "1M",
        _natural(Grade.VETERAN, {1: 1, 2: 1}),
    ),
    WorkedExample(
        "T18",
        "R:1714-1719",
        "a veteran unit takes 2 panic hits",
        "it withdraws, with no bases lost",
        _panic(Grade.VETERAN, 2, ForcedMove.WITHDRAW, 0),
    ),
    WorkedExample(
        "T19",
        "R:1719-1721",
        "an untrained unit takes 2 panic hits",
        "it retreats",
        _panic(Grade.UNTRAINED, 2, ForcedMove.RETREAT, None),
    ),
    WorkedExample(
        "T20",
        "R:1891-1895",
        "an average unit routs out of an assault in its rear, out of a town and across a bridge",
        "4 bases lost",
        _t20,
    ),
    WorkedExample(
        "T21",
        "R:1833-1841",
        "a unit that already fell back routs with its division",
        'it moves 4" more, turning away',
        _t21,
    ),
)
EXAMPLES_BY_KEY = {example.key: example for example in WORKED_EXAMPLES}
