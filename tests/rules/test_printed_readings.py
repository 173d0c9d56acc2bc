"""Readings from the players' own printed chart: the chart overlay, and the printed results a mechanic takes
as input (rally, maneuver, skirmish blocks and attacks). A printed reading replaces a table's value for one
result; everything that follows from it (loss modifiers, morale restrictions, what the rules make of an
outcome) still follows, and every use of it says "printed"."""

import pytest
import yaml

from republic.charts import DEFAULT_CHART, chart_path
from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_sides import AssaultSide, AssaultUnit, Contact
from republic.rules.assault_table import AssaultColumn, AssaultOutcome, OutcomeAction, OutcomeSide
from republic.rules.catalog import load_chart
from republic.rules.chart import PRINTED_SOURCE, Band, Cell, ChartError
from republic.rules.dice import d10
from republic.rules.division_panic import DivisionUnit, PanicTrigger, division_panic_test
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.hits import Hits
from republic.rules.maneuver import ManeuverAction, ManeuverInput, resolve_maneuver
from republic.rules.morale import Condition
from republic.rules.panic import DemoralizedPanicInput, resolve_demoralized_panic
from republic.rules.rally import RallyInput, resolve_rally
from republic.rules.results import FILE_PROVENANCES, CellUse, Explained, Provenance
from republic.rules.skirmish import (
    BlockAttempt,
    SkirmishAttackInput,
    SkirmishBlocksInput,
    SkirmishVerdict,
    after_skirmish_attack,
    resolve_skirmish_attack,
    resolve_skirmish_blocks,
)
from republic.rules.troops import Grade, Leader, UnitKind
from tests.rules.unit_states import brigade

SHIPPED = chart_path(DEFAULT_CHART).read_text(encoding="utf-8")
COLUMN_TABLES = [column.table for column in AssaultColumn]


def printed_cells(result: Explained) -> list[CellUse]:
    return [cell for cell in result.cells if cell.provenance is Provenance.PRINTED]


# --- provenance ------------------------------------------------------------------------------------


def test_a_chart_file_may_not_call_its_cells_printed():
    assert Provenance.PRINTED not in FILE_PROVENANCES
    assert set(FILE_PROVENANCES) == {Provenance.CONFIRMED, Provenance.DERIVED, Provenance.PROVISIONAL}


@pytest.mark.parametrize("where", ["cell", "table"])
def test_a_chart_file_saying_printed_is_refused_naming_the_table(where):
    data = yaml.safe_load(SHIPPED)
    if where == "cell":
        data["tables"]["panic_pass"]["entries"]["crack"] = {"value": 4, "provenance": "printed", "source": "ours"}
    else:
        data["tables"]["panic_pass"]["provenance"] = "printed"
    with pytest.raises(ChartError, match="provenance must be confirmed, derived or provisional") as error:
        load_chart(yaml.safe_dump(data, sort_keys=False))
    assert error.value.table == "panic_pass"


def test_a_result_is_printed_when_any_cell_it_read_is_printed():
    stored = CellUse("panic_pass", "green", "7", Provenance.PROVISIONAL)
    printed = CellUse("panic_index", "green, p4", "Rt 1", Provenance.PRINTED, PRINTED_SOURCE)
    assert not Explained(cells=(stored,)).printed
    assert Explained(cells=(stored, printed)).printed
    assert not Explained(cells=(printed,)).provisional


# --- the overlay -----------------------------------------------------------------------------------


def test_an_overlaid_grid_reads_the_printed_value_in_every_cell_and_says_so(chart):
    printed = chart.overlay({"rally": 12})
    for grade in ("crack", "green", "untrained"):
        for condition in ("formed", "demoralized"):
            value, use = printed.cell("rally", grade, condition)
            assert value == 12
            assert (use.provenance, use.source, use.value) == (Provenance.PRINTED, PRINTED_SOURCE, "12")


def test_the_overlay_leaves_the_stored_chart_and_every_other_table_as_they_were(chart):
    before = chart.cell("rally", "green", "rattled")
    printed = chart.overlay({"rally": 12})
    assert chart.cell("rally", "green", "rattled") == before
    assert printed.entry("panic_pass", "green") == chart.entry("panic_pass", "green")
    assert printed.tables["panic_index"] == chart.tables["panic_index"]


def test_an_overlaid_keyed_table_gives_the_value_for_every_key(chart):
    printed = chart.overlay({"panic_pass": 9})
    for grade in Grade:
        value, use = printed.entry("panic_pass", grade.value)
        assert value == 9 and use.provenance is Provenance.PRINTED and use.key == grade.value


def test_an_overlaid_band_table_is_one_open_band_for_any_number(chart):
    printed = chart.overlay({"artillery_drift": -1})
    for n in (-30, 1, 5, 10, 99):
        value, use = printed.band("artillery_drift", n)
        assert value == -1 and use.key == "any number" and use.provenance is Provenance.PRINTED


@pytest.mark.parametrize(
    ("low", "high", "label"),
    [(None, None, "any number"), (None, 11, "11 or less"), (87, None, "87 or more"), (25, 25, "25"), (3, 8, "3 to 8")],
)
def test_a_band_is_labelled_by_its_ends(low, high, label):
    assert Band(low, high, Cell(0, Provenance.PROVISIONAL)).label() == label


@pytest.mark.parametrize(
    ("table", "raw"),
    [
        ("panic_index", "X 3"),
        ("panic_pass", "six"),
        ("panic_pass", True),
        ("assault_pitched_battle", "attacker carry"),
        ("assault_defender_advantage", "defender break off"),
        ("battery_forced_move", "limber 1M"),
        ("artillery", "2P"),
    ],
)
def test_a_bad_printed_value_is_refused_naming_its_table(chart, table, raw):
    with pytest.raises(ChartError) as error:
        chart.overlay({table: raw})
    assert error.value.table == table
    assert f"table '{table}'" in str(error.value)


def test_a_reading_for_a_table_the_chart_does_not_have_is_refused(chart):
    with pytest.raises(ChartError, match="no such table") as error:
        chart.overlay({"volley_fire": 3})
    assert error.value.table == "volley_fire"


# --- what follows from a printed reading -------------------------------------------------------------


def test_a_printed_panic_index_cell_still_takes_the_loss_modifiers_of_a_retreat(chart):
    """4.7 with 6.3: the players read Re 1; retreating out of town adds 1B, so two bases desert."""
    printed = chart.overlay({"panic_index": "Re 1"})
    inputs = DemoralizedPanicInput(Grade.AVERAGE, panic_hits=2, bases=6, out_of_town=True)
    result = resolve_demoralized_panic(printed, inputs)
    assert (result.move, result.deserters, result.bases_after) == (ForcedMove.RETREAT, 2, 4)
    assert [m.value for m in result.modifiers] == [1]
    assert result.printed
    index = [c for c in result.cells if c.table == "panic_index"]
    assert index == [CellUse("panic_index", "average, p2", "Re 1", Provenance.PRINTED, PRINTED_SOURCE)]
    assert any(c.table == "panic_loss_modifiers" and c.provenance is Provenance.CONFIRMED for c in result.cells)
    assert result.distance == 12.0


def test_a_printed_fall_back_takes_no_loss_modifiers(chart):
    """6.3: the +1B are for a unit retreating or routing only."""
    printed = chart.overlay({"panic_index": "F 1"})
    result = resolve_demoralized_panic(
        printed, DemoralizedPanicInput(Grade.AVERAGE, 2, 6, out_of_town=True, across_bridge_or_ford=True)
    )
    assert (result.move, result.deserters, result.modifiers) == (ForcedMove.FALL_BACK, 1, ())


def test_a_printed_panic_4_is_still_a_p4_event(chart):
    printed = chart.overlay({"panic_index": "W"})
    result = resolve_demoralized_panic(printed, DemoralizedPanicInput(Grade.CRACK, 5, 3))
    assert (result.level, result.p4_event, result.move, result.deserters) == (4, True, ForcedMove.WITHDRAW, 0)


def test_a_battery_is_abandoned_when_the_printed_battery_forced_moves_say_so(chart):
    printed = chart.overlay({"panic_index": "Re", "battery_forced_move": "abandoned"})
    result = resolve_demoralized_panic(printed, DemoralizedPanicInput(Grade.AVERAGE, 1, 1, UnitKind.ARTILLERY))
    assert result.move is ForcedMove.RETREAT and result.abandoned
    assert [c.provenance for c in result.cells if c.table == "battery_forced_move"] == [Provenance.PRINTED]


def test_a_routing_battery_is_kept_when_the_printed_chart_says_it_limbers(chart):
    printed = chart.overlay({"panic_index": "Rt", "battery_forced_move": "limber"})
    result = resolve_demoralized_panic(printed, DemoralizedPanicInput(Grade.AVERAGE, 1, 1, UnitKind.ARTILLERY))
    assert result.move is ForcedMove.ROUT and not result.abandoned


def test_a_printed_pass_number_decides_the_division_panic_test(chart):
    """6.1: modified roll equal to or above the pass number holds; the unshaken +2 still counts (6.3)."""
    printed = chart.overlay({"panic_pass": 9})
    units = (DivisionUnit("1st", Grade.CRACK, 4),)
    held = division_panic_test(printed, units, {PanicTrigger.INTERNAL: d10(7)})
    failed = division_panic_test(printed, units, {PanicTrigger.INTERNAL: d10(6)})
    assert (held.pass_number, held.modified_roll, held.held) == (9, 9, True)
    assert (failed.modified_roll, failed.held) == (8, False)
    assert held.printed and failed.move is chart.cell("panic_index", "crack", "p4")[0].move


def pitched_round(chart, attacker_face=5, defender_face=5, attackers=None, defenders=None):
    attackers = attackers or (AssaultUnit(Grade.AVERAGE, 4),)
    defenders = defenders or (AssaultUnit(Grade.AVERAGE, 4),)
    return resolve_assault_round(
        chart, AssaultRoundInput(AssaultSide(d10(attacker_face), attackers), AssaultSide(d10(defender_face), defenders))
    )


@pytest.mark.parametrize(("attacker", "defender"), [(1, 10), (5, 5), (10, 1)])
def test_a_printed_assault_outcome_over_the_three_columns_is_the_outcome_whatever_the_difference(
    chart, attacker, defender
):
    printed = chart.overlay(dict.fromkeys(COLUMN_TABLES, "defender 2P carry"))
    result = pitched_round(printed, attacker, defender)
    assert result.outcome == AssaultOutcome(OutcomeSide.DEFENDER, Hits(p=2), OutcomeAction.CARRY)
    assert result.defender.table_hits == Hits(p=2) and result.attacker.table_hits == Hits()
    assert result.printed
    used = [c for c in result.cells if c.table in COLUMN_TABLES]
    assert [(c.key, c.provenance) for c in used] == [("any number", Provenance.PRINTED)]


def test_a_printed_column_is_read_only_when_the_round_falls_on_that_column(chart):
    """Cavalry assaulting artillery reads Attacker Advantage (5.3); a printed Pitched Battle leaves it alone."""
    printed = chart.overlay({"assault_pitched_battle": "defender 4P 2B must breakthrough"})
    cavalry = (AssaultUnit(Grade.AVERAGE, 4, kind=UnitKind.CAVALRY_MOUNTED),)
    guns = (AssaultUnit(Grade.AVERAGE, 1, kind=UnitKind.ARTILLERY),)
    result = pitched_round(printed, 5, 5, cavalry, guns)
    assert result.column is AssaultColumn.ATTACKER_ADVANTAGE
    assert not result.printed
    stored = pitched_round(chart, 5, 5, cavalry, guns)
    assert result.outcome == stored.outcome


def test_a_printed_overrun_without_mounted_cavalry_is_still_a_must_breakthrough(chart):
    """5.5: overrun is for cavalry; infantry that the printed chart lets overrun must break through."""
    printed = chart.overlay(dict.fromkeys(COLUMN_TABLES, "defender 3P 1B overrun"))
    result = pitched_round(printed, 6, 6)
    assert result.outcome.action is OutcomeAction.MUST_BREAKTHROUGH
    assert result.defender.hits == Hits(p=3, b=1)


def test_a_printed_win_with_a_won_natural_roll_in_an_all_out_assault_is_a_win_win(chart):
    """5.1, 5.2: the printed cell decides who won the modified roll; the All Out extra M and "C" follow."""
    printed = chart.overlay(dict.fromkeys(COLUMN_TABLES, "defender 1P carry"))
    result = pitched_round(printed, 7, 4, attackers=(AssaultUnit(Grade.AVERAGE, 4, contact=Contact.ALL_OUT),))
    assert result.win_win and result.next_round_tactical_bonus
    assert result.defender.all_out_extra_m == 1 and result.defender.natural_m == 1
    assert result.defender.hits == Hits(m=2, p=1)


# --- rally (2.3) -----------------------------------------------------------------------------------


def rally(chart, printed, **overrides):
    fields = {
        "grade": Grade.GREEN,
        "m_hits": 2,
        "roll": d10(6),
        "division_leader": Leader.parse("P0"),
        "division_leader_distance": 2.0,
        "bases_at_start": 8,
        "bases_now": 6,
        "printed": printed,
    }
    return resolve_rally(chart, RallyInput(**{**fields, **overrides}))


def test_a_printed_rally_gives_the_condition_the_players_read_with_the_modifiers_still_summed(chart):
    result = rally(chart, Condition.FORMED)
    assert (result.condition_after, result.m_hits) == (Condition.FORMED, 0)
    assert (result.old_number, result.new_number) == (None, None)
    assert (result.die, result.modified_roll) == (6, 4)  # 25% lost is still -2 (Example 1)
    assert result.cells[0] == CellUse("rally", "green, rattled", "formed", Provenance.PRINTED, PRINTED_SOURCE)
    assert not any(c.table == "rally" and c.provenance is not Provenance.PRINTED for c in result.cells)
    assert result.printed and any("improves from rattled to formed" in note for note in result.notes)


def test_a_printed_rally_may_leave_the_unit_worse(chart):
    result = rally(chart, Condition.DEMORALIZED, roll=d10(1))
    assert result.condition_after is Condition.DEMORALIZED and result.m_hits == 4
    assert any("worsens from rattled to demoralized" in note for note in result.notes)


def test_without_a_printed_reading_the_rally_reads_the_stored_table(chart):
    result = rally(chart, None)
    assert result.old_number == 10 and not result.printed


# --- maneuver (3.2) --------------------------------------------------------------------------------


def maneuver(chart, printed, m_hits=0, face=5, grade=Grade.GREEN, **kw):
    return resolve_maneuver(chart, ManeuverInput(grade, d10(face), m_hits, printed=printed, **kw))


def test_a_printed_maneuver_allows_what_the_players_chart_allows_and_refuses_the_rest(chart):
    result = maneuver(chart, (ManeuverAction.ADVANCE, ManeuverAction.PULL_BACK))
    assert set(result.actions) == {ManeuverAction.HOLD, ManeuverAction.ADVANCE, ManeuverAction.PULL_BACK}
    refused = {c.action: c.reason for c in result.refused}
    assert set(refused) == {ManeuverAction.ASSAULT, ManeuverAction.MANEUVER}
    assert all("printed chart does not allow" in reason for reason in refused.values())
    assert all(c.needed is None for c in (*result.allowed, *result.refused))


def test_a_printed_maneuver_reads_no_stored_maneuver_cell_and_says_printed(chart):
    result = maneuver(chart, (ManeuverAction.ASSAULT,))
    table = [c for c in result.cells if c.table == "maneuver"]
    assert table == [CellUse("maneuver", "green", "assault", Provenance.PRINTED, PRINTED_SOURCE)]
    assert result.printed and not result.provisional


def test_a_printed_maneuver_allowing_nothing_leaves_hold(chart):
    result = maneuver(chart, ())
    assert result.actions == (ManeuverAction.HOLD,)
    assert [c.value for c in result.cells if c.table == "maneuver"] == ["hold"]


def test_a_demoralized_brigade_may_not_advance_or_assault_even_when_the_printed_chart_allows_it(chart):
    """2.3: a demoralized unit will not voluntarily advance toward any enemy; the printed chart replaces the
    table's numbers, not the morale restrictions."""
    result = maneuver(chart, tuple(ManeuverAction)[:4], m_hits=4, face=10)
    assert set(result.actions) == {ManeuverAction.HOLD, ManeuverAction.MANEUVER, ManeuverAction.PULL_BACK}
    refused = {c.action: c.reason for c in result.refused}
    assert set(refused) == {ManeuverAction.ASSAULT, ManeuverAction.ADVANCE}
    assert all("demoralized" in reason and "2.3" in reason for reason in refused.values())


def test_a_printed_maneuver_still_sums_the_modifiers_for_the_record(chart):
    result = maneuver(chart, (ManeuverAction.ADVANCE,), m_hits=2, face=5, energetic_leaders_within_2=1)
    assert result.modified_roll == 5 - 2 + 2


def test_an_overlaid_maneuver_table_is_read_like_the_stored_one(chart):
    """The overlay path: every action needs the printed 10, so a natural 9 allows hold only."""
    printed = chart.overlay({"maneuver": 10})
    low = resolve_maneuver(printed, ManeuverInput(Grade.CRACK, d10(9)))
    high = resolve_maneuver(printed, ManeuverInput(Grade.CRACK, d10(10)))
    assert low.actions == (ManeuverAction.HOLD,)
    assert len(high.actions) == 5 and high.printed


# --- skirmish blocks and attacks (4.1) ---------------------------------------------------------------


def test_a_printed_block_decides_whatever_the_die_shows(chart):
    inputs = SkirmishBlocksInput(
        (
            BlockAttempt("a", Grade.CRACK, "x", d10(10), printed=False),
            BlockAttempt("b", Grade.UNTRAINED, "y", d10(1), printed=True),
            BlockAttempt("c", Grade.GREEN, "z", d10(10)),
        )
    )
    result = resolve_skirmish_blocks(chart, inputs)
    assert [a.blocked for a in result.attempts] == [False, True, True]
    assert result.blocked == ("y", "z")
    assert [(c.provenance, c.value) for c in result.cells[:2]] == [
        (Provenance.PRINTED, "not blocked"),
        (Provenance.PRINTED, "blocked"),
    ]
    assert result.cells[2].provenance is Provenance.PROVISIONAL


@pytest.mark.parametrize(
    ("verdict", "hit", "fled"),
    [(SkirmishVerdict.HIT, True, False), (SkirmishVerdict.MISS, False, False), (SkirmishVerdict.FLEE, False, True)],
)
def test_a_printed_skirmish_attack_verdict_stands_whatever_the_die(chart, verdict, hit, fled):
    result = resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.GREEN, 3.0, d10(5), printed=verdict))
    assert (result.hit, result.m_hits, result.fled) == (hit, int(hit), fled)
    attack = [c for c in result.cells if c.table == "skirmish_attack"]
    assert attack == [CellUse("skirmish_attack", "green, r2", verdict.value, Provenance.PRINTED, PRINTED_SOURCE)]
    assert not any(c.table == "skirmish_flee" for c in result.cells)
    assert result.band == "r2"  # the range column is still the stored chart's


def test_a_printed_hit_on_a_roll_of_one_scores_the_m(chart):
    result = resolve_skirmish_attack(
        chart, SkirmishAttackInput(Grade.UNTRAINED, 1.0, d10(1), printed=SkirmishVerdict.HIT)
    )
    assert result.hit and not result.fled and result.m_hits == 1


def test_a_printed_skirmish_attack_still_refuses_a_target_out_of_reach(chart):
    with pytest.raises(RulesInputError) as error:
        resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.CRACK, 6.0, d10(10), printed=SkirmishVerdict.HIT))
    assert error.value.field == "range"


def test_a_marker_that_fled_returns_to_its_brigade(chart):
    """4.1 (R:1005-1008): the marker is picked up and returns to its parent."""
    unit = brigade(grade=Grade.GREEN, skirmishers_available=3, skirmishers_deployed=2)
    fled = resolve_skirmish_attack(chart, SkirmishAttackInput.of(unit, 3.0, d10(1)))
    assert fled.fled
    assert after_skirmish_attack(unit, fled).skirmishers_deployed == 1
    stayed = resolve_skirmish_attack(chart, SkirmishAttackInput.of(unit, 3.0, d10(10)))
    assert after_skirmish_attack(unit, stayed) is unit


def test_a_marker_flees_no_further_than_none_out():
    unit = brigade(grade=Grade.GREEN, skirmishers_available=2)
    fled = resolve_skirmish_attack(
        load_chart(SHIPPED), SkirmishAttackInput.of(unit, 1.0, d10(1), printed=SkirmishVerdict.FLEE)
    )
    assert after_skirmish_attack(unit, fled).skirmishers_deployed == 0
