"""Panic carried onto units (4.7, 5.5, 6.1, 6.2): a battery's fate for a panic move, the demoralized panic
test of a unit as it stands and the unit after it, a division's units as the panic test sees them and each
unit after its division panicked, and the panic phase fed from unit states."""

import pytest

from republic.rules.dice import d10
from republic.rules.division_panic import DivisionUnit, PanicTrigger, after_division_panic, division_panic_test
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import FireHits, after_fire_hits, resolve_fire_hits
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import Condition
from republic.rules.panic import DemoralizedPanicInput, after_demoralized_panic, battery_fate, resolve_demoralized_panic
from republic.rules.panic_phase import DivisionPair, PanicPhaseInput, PhaseDivision, PhaseRoll, resolve_panic_phase
from republic.rules.results import Provenance
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind
from republic.rules.units import UnitState
from tests.rules.unit_states import battery, brigade


def index(chart, grade: Grade, level: int):
    return chart.cell("panic_index", grade.value, f"p{level}")[0]


# --- a battery's fate (5.5) ----------------------------------------------------------------------------


def test_a_battery_required_to_rout_is_abandoned_as_the_chart_says(chart):
    """5.5 (R:1657-1658)."""
    abandoned, notes, cells = battery_fate(chart, UnitKind.ARTILLERY, ForcedMove.ROUT)
    assert abandoned
    assert len(notes) == 1 and "rout" in notes[0] and "abandoned" in notes[0] and "(5.5)" in notes[0]
    assert [(c.table, c.key, c.provenance) for c in cells] == [("battery_forced_move", "Rt", Provenance.CONFIRMED)]


def test_a_battery_required_to_retreat_is_told_it_may_limber_at_a_damage(chart):
    abandoned, notes, cells = battery_fate(chart, UnitKind.ARTILLERY, ForcedMove.RETREAT)
    assert not abandoned
    assert len(notes) == 1 and "retreat" in notes[0] and "1 damage" in notes[0]
    assert len(cells) == 1


@pytest.mark.parametrize("move", [ForcedMove.DISENGAGE, ForcedMove.WITHDRAW, ForcedMove.FALL_BACK])
def test_a_battery_limbering_for_a_short_move_needs_no_word(chart, move):
    assert battery_fate(chart, UnitKind.ARTILLERY, move) == (False, [], [])


@pytest.mark.parametrize(
    ("kind", "move"),
    [(UnitKind.INFANTRY, ForcedMove.ROUT), (UnitKind.CAVALRY_MOUNTED, ForcedMove.ROUT), (UnitKind.ARTILLERY, None)],
)
def test_only_a_battery_that_moves_has_a_fate(chart, kind, move):
    assert battery_fate(chart, kind, move) == (False, [], [])


def test_a_batterys_fate_follows_the_charts_battery_forced_moves(chart):
    printed = chart.overlay({"battery_forced_move": "limber 1B"})
    abandoned, notes, _ = battery_fate(printed, UnitKind.ARTILLERY, ForcedMove.ROUT)
    assert not abandoned and len(notes) == 1 and "rout" in notes[0] and "1 damage" in notes[0]


# --- the demoralized panic test (4.7) ----------------------------------------------------------------


def test_the_test_of_a_unit_as_it_stands_reads_its_p_hits_of_the_turn():
    unit = brigade(grade=Grade.GREEN, bases=5, bases_start=6, m_hits=4, p_hits_turn=3, kind=UnitKind.CAVALRY_MOUNTED)
    inputs = DemoralizedPanicInput.of(unit, GroundScale.LARGE, out_of_town=True)
    assert (inputs.grade, inputs.panic_hits, inputs.bases, inputs.kind) == (Grade.GREEN, 3, 5, UnitKind.CAVALRY_MOUNTED)
    assert inputs.scale is GroundScale.LARGE and inputs.out_of_town and not inputs.across_bridge_or_ford


def test_a_unit_without_p_hits_or_without_bases_takes_no_test():
    with pytest.raises(RulesInputError) as error:
        DemoralizedPanicInput.of(brigade(m_hits=4))
    assert error.value.field == "panic_hits"
    with pytest.raises(RulesInputError) as error:
        DemoralizedPanicInput.of(brigade(m_hits=4, p_hits_turn=1, bases=0, bases_start=6))
    assert error.value.field == "bases"


def test_a_demoralized_brigade_taking_three_m_from_fire_makes_its_panic_3_move(chart):
    """4.6, 4.7 (R:1276-1278, R:1316-1320): already demoralized, all three M become P."""
    unit = brigade(m_hits=4)
    fire = resolve_fire_hits(unit, FireHits(unit.id, m=3))
    hit = after_fire_hits(unit, fire)
    assert hit.p_hits_turn == 3
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(hit))
    expected = index(chart, Grade.AVERAGE, 3)
    assert (result.level, result.move, result.deserters) == (3, expected.move, expected.loss)
    after = after_demoralized_panic(hit, result)
    assert after.forced_move is expected.move
    assert after.bases == 6 - expected.loss and not after.p4_event
    assert after.m_hits == 4  # a rout leaves a demoralized unit demoralized (5.5)


def test_panic_4_deserters_are_removed_at_once_and_mark_a_p4_event(chart):
    """4.7 (R:1316-1320): base hits of a Panic 4 event count as deserters and are removed at once."""
    unit = brigade(grade=Grade.UNTRAINED, bases=4, bases_start=6, m_hits=4, p_hits_turn=4, base_hits_turn=1)
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(unit))
    expected = index(chart, Grade.UNTRAINED, 4)
    assert expected.loss > 0 and result.p4_event
    after = after_demoralized_panic(unit, result)
    assert (after.bases, after.base_hits_turn) == (4 - expected.loss, 1 + expected.loss)
    assert after.p4_event and after.forced_move is expected.move


def test_loss_modifiers_add_deserters_to_a_routing_unit(chart):
    """6.3: out of town and across a ford, +1B each."""
    unit = brigade(grade=Grade.AVERAGE, m_hits=4, p_hits_turn=4)
    plain = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(unit))
    worse = resolve_demoralized_panic(
        chart, DemoralizedPanicInput.of(unit, out_of_town=True, across_bridge_or_ford=True)
    )
    assert plain.move is ForcedMove.ROUT
    assert worse.deserters == plain.deserters + 2
    assert after_demoralized_panic(unit, worse).bases == unit.bases - worse.deserters


def test_a_unit_whose_every_base_deserts_is_destroyed_but_its_p4_event_still_counts(chart):
    """6.2 (R:1866-1868): the division reacts to the P4 event even if the unit deserted entirely."""
    unit = brigade(grade=Grade.UNTRAINED, bases=1, bases_start=6, m_hits=4, p_hits_turn=4)
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(unit))
    after = after_demoralized_panic(unit, result)
    assert (result.deserters, result.bases_after) == (1, 0)
    assert after.destroyed and after.p4_event and not after.in_play


def test_a_demoralized_panic_keeps_the_longest_move_of_the_turn(chart):
    unit = brigade(grade=Grade.CRACK, m_hits=4, p_hits_turn=1, forced_move=ForcedMove.RETREAT)
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(unit))
    assert result.move is ForcedMove.DISENGAGE
    assert after_demoralized_panic(unit, result).forced_move is ForcedMove.RETREAT


def test_a_demoralized_battery_required_to_rout_is_abandoned(chart):
    unit = battery(m_hits=4, p_hits_turn=4)
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(unit))
    assert result.move is ForcedMove.ROUT and result.abandoned
    assert any("abandoned" in note for note in result.notes)
    after = after_demoralized_panic(unit, result)
    assert after.abandoned and after.out_of_play and after.p4_event


def test_a_demoralized_battery_that_only_withdraws_stays_in_play(chart):
    unit = battery(grade=Grade.AVERAGE, m_hits=4, p_hits_turn=1)
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(unit))
    assert result.move is ForcedMove.WITHDRAW and not result.abandoned
    after = after_demoralized_panic(unit, result)
    assert after.in_play and after.forced_move is ForcedMove.WITHDRAW


def test_a_horse_unit_moves_double_in_the_games_scale(chart):
    """5.5 (R:1650-1651) and 1.2: a retreat is 12", 24" for horse, times 1.5 at the large scale."""
    unit = brigade(kind=UnitKind.CAVALRY_MOUNTED, m_hits=4, p_hits_turn=3)
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput.of(unit, GroundScale.LARGE))
    assert result.move is ForcedMove.RETREAT and result.distance == 36.0


# --- a division's units as the panic test sees them (6.1, 6.3) ------------------------------------------


def test_a_unit_in_play_is_seen_with_its_bases_condition_and_move_of_the_turn():
    unit = brigade(
        "2nd",
        grade=Grade.GREEN,
        bases=5,
        bases_start=6,
        m_hits=3,
        forced_move=ForcedMove.FALL_BACK,
        kind=UnitKind.CAVALRY_DISMOUNTED,
    )
    seen = DivisionUnit.of(unit)
    assert seen == DivisionUnit(
        "2nd", Grade.GREEN, 5, Condition.SHAKEN, UnitKind.CAVALRY_DISMOUNTED, ForcedMove.FALL_BACK
    )


@pytest.mark.parametrize(
    "gone", [brigade(destroyed=True, m_hits=4), brigade(surrendered=True, m_hits=4), battery(abandoned=True, m_hits=4)]
)
def test_a_unit_out_of_play_has_no_bases_but_its_last_condition_still_counts(chart, gone):
    """6.3 (R:1888-1890): destroyed and surrendered units still count if they were last demoralized."""
    seen = DivisionUnit.of(gone)
    assert seen.bases == 0 and not seen.present and seen.condition is Condition.DEMORALIZED
    result = division_panic_test(chart, (DivisionUnit.of(brigade("2nd")), seen), {PanicTrigger.INTERNAL: d10(5)})
    assert not result.unshaken
    assert [m.value for m in result.modifiers] == [-2]


# --- each unit after its division panicked (6.1) ------------------------------------------------------


def routing_division(chart):
    """An average division failing its test: it routs (Rt 1 on the chart), one base deserts from the lowest
    grade, and every unit takes 1M at the end of its rout."""
    units = {
        "green": brigade("green", grade=Grade.GREEN, bases=2, bases_start=4),
        "avg": brigade("avg", bases=6, m_hits=1),
        "fell back": brigade("fell back", bases=4, forced_move=ForcedMove.FALL_BACK),
        "routed": brigade("routed", bases=4, m_hits=2, forced_move=ForcedMove.ROUT),
        "broken": brigade("broken", bases=3, m_hits=4),
        "guns": battery("guns", grade=Grade.VETERAN),
    }
    result = division_panic_test(
        chart, tuple(DivisionUnit.of(u) for u in units.values()), {PanicTrigger.INTERNAL: d10(1)}
    )
    assert result.panicked and result.move is ForcedMove.ROUT and result.loss_number == 1
    return units, {outcome.id: outcome for outcome in result.units}


def test_deserters_of_a_panicked_division_leave_the_lowest_grade_and_count_as_lost_bases(chart):
    units, outcomes = routing_division(chart)
    after = after_division_panic(units["green"], outcomes["green"])
    assert (after.bases, after.base_hits_turn) == (1, 1)
    assert after_division_panic(units["avg"], outcomes["avg"]).bases == 6


def test_every_unit_of_a_routing_division_routs_and_takes_one_m(chart):
    units, outcomes = routing_division(chart)
    after = after_division_panic(units["avg"], outcomes["avg"])
    assert (after.forced_move, after.m_hits) == (ForcedMove.ROUT, 2)


def test_a_demoralized_unit_of_a_routing_division_takes_no_further_hit(chart):
    """6.1 (R:1825-1828)."""
    units, outcomes = routing_division(chart)
    after = after_division_panic(units["broken"], outcomes["broken"])
    assert (after.m_hits, after.p_hits_turn, after.forced_move) == (4, 0, ForcedMove.ROUT)


def test_a_unit_that_fell_back_makes_up_the_difference_and_remembers_the_rout(chart):
    """6.1 (R:1833-1840): after a fall back, a division rout is 4" more for infantry."""
    units, outcomes = routing_division(chart)
    assert outcomes["fell back"].distance == 4.0
    assert after_division_panic(units["fell back"], outcomes["fell back"]).forced_move is ForcedMove.ROUT


def test_a_unit_that_already_routed_makes_no_further_move(chart):
    units, outcomes = routing_division(chart)
    assert outcomes["routed"].move is None
    after = after_division_panic(units["routed"], outcomes["routed"])
    assert after.forced_move is ForcedMove.ROUT and after.m_hits == 3


def test_a_battery_of_a_routing_division_is_abandoned(chart):
    """5.5 (R:1657-1658) through the chart's battery forced moves."""
    units, outcomes = routing_division(chart)
    assert outcomes["guns"].abandoned
    after = after_division_panic(units["guns"], outcomes["guns"])
    assert after.abandoned and after.out_of_play and after.forced_move is ForcedMove.ROUT


def test_a_battery_of_a_retreating_division_is_not_abandoned(chart):
    guns = battery("guns", grade=Grade.VETERAN)
    result = division_panic_test(
        chart,
        (DivisionUnit.of(brigade("vet", grade=Grade.VETERAN)), DivisionUnit.of(guns)),
        {PanicTrigger.INTERNAL: d10(1)},
    )
    outcome = next(o for o in result.units if o.id == "guns")
    assert result.move is ForcedMove.RETREAT and not outcome.abandoned
    after = after_division_panic(guns, outcome)
    assert after.in_play and after.forced_move is ForcedMove.RETREAT and after.m_hits == 0


def test_a_unit_whose_every_base_deserts_is_destroyed(chart):
    only = brigade("last", grade=Grade.UNTRAINED, bases=1, bases_start=6)
    result = division_panic_test(chart, (DivisionUnit.of(only),), {PanicTrigger.INTERNAL: d10(1)})
    outcome = result.units[0]
    assert outcome.deserters == 1 and outcome.bases_after == 0
    after = after_division_panic(only, outcome)
    assert after.destroyed and after.bases == 0 and not after.in_play


# --- the panic phase from unit states (6.2) -------------------------------------------------------------


def division(id: str, *units: UnitState) -> PhaseDivision:
    return PhaseDivision(id, tuple(DivisionUnit.of(u) for u in units), internal=any(u.p4_event for u in units))


def test_a_destroyed_units_p4_event_makes_its_division_test_and_a_failure_spreads(chart):
    """6.2 (R:1866-1868, R:1870-1875)."""
    destroyed = brigade("gone", bases=0, bases_start=4, destroyed=True, p4_event=True, m_hits=4)
    first = division("1st div", brigade("a"), destroyed)
    second = division("2nd div", brigade("b", grade=Grade.CRACK))
    assert first.internal and not second.internal
    result = resolve_panic_phase(
        chart,
        PanicPhaseInput(
            (first, second),
            (DivisionPair("1st div", "2nd div"),),
            (PhaseRoll("1st div", PanicTrigger.INTERNAL, d10(1)), PhaseRoll("2nd div", PanicTrigger.ADJOINING, d10(9))),
        ),
    )
    assert [[t.division for t in r.tests] for r in result.rounds] == [["1st div"], ["2nd div"]]
    assert result.panicked == ("1st div",)


def test_a_battery_with_saved_fire_that_retreats_with_its_division_loses_it(chart):
    from republic.rules.dice import d10
    from republic.rules.division_panic import DivisionUnit, PanicTrigger, after_division_panic, division_panic_test
    from republic.rules.forced_moves import ForcedMove
    from republic.rules.troops import Grade
    from tests.rules.unit_states import battery, brigade

    guns = battery("guns", grade=Grade.VETERAN, saved_fire=True)
    result = division_panic_test(
        chart,
        (DivisionUnit.of(brigade("vet", grade=Grade.VETERAN)), DivisionUnit.of(guns)),
        {PanicTrigger.INTERNAL: d10(1)},
    )
    outcome = next(o for o in result.units if o.id == "guns")
    assert outcome.move is ForcedMove.RETREAT
    assert not after_division_panic(guns, outcome).saved_fire
