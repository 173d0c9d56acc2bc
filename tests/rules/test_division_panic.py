"""The division panic test (6.1, 6.3): the Panic Index and pass numbers it reads, the division's average grade
and die modifiers, what every unit of a division that panics does, deserters, and the test from JSON."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from republic.rules.catalog import MECHANICS
from republic.rules.codec import decode, describe, encode
from republic.rules.dice import Roll, RollSource, d10
from republic.rules.division_panic import (
    DivisionPanicInput,
    allocate_deserters,
    average_grade,
    division_panic_test,
    is_unshaken,
    panic_die_modifiers,
    resolve_division_panic,
)
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import Condition
from republic.rules.panic import PANIC_LEVELS
from republic.rules.results import Provenance
from republic.rules.troops import Grade, UnitKind
from tests.rules.division_units import ADJOINING, INTERNAL, unit


def run(chart, units, face=1, trigger=INTERNAL, **kw):
    return division_panic_test(chart, tuple(units), {trigger: d10(face)}, **kw)


# --- the chart tables this module reads ------------------------------------------------------------


def test_division_panic_modifiers_are_confirmed_with_their_lines(chart):
    unshaken, unshaken_use = chart.entry("division_panic_modifiers", "unshaken")
    each, each_use = chart.entry("division_panic_modifiers", "each_demoralized_unit")
    assert (unshaken, each) == (2, -2)
    for use in (unshaken_use, each_use):
        assert use.provenance is Provenance.CONFIRMED and use.source.startswith("R:")


@pytest.mark.parametrize("better", list(Grade)[:-1])
def test_a_better_grade_never_needs_a_higher_pass_number(chart, better):
    worse = better.lowered()
    assert chart.entry("panic_pass", better.value)[0] <= chart.entry("panic_pass", worse.value)[0]


@pytest.mark.parametrize("grade", list(Grade))
def test_every_panic_4_result_is_fall_back_retreat_or_rout(chart, grade):
    """R:1817-1826."""
    cell, _ = chart.cell("panic_index", grade.value, "p4")
    assert cell.move in (ForcedMove.FALL_BACK, ForcedMove.RETREAT, ForcedMove.ROUT)


@pytest.mark.parametrize("grade", list(Grade))
def test_a_higher_panic_level_never_does_better(chart, grade):
    cells = [chart.cell("panic_index", grade.value, level)[0] for level in PANIC_LEVELS]
    for lower, higher in pairwise(cells):
        assert lower.move.severity <= higher.move.severity and lower.loss <= higher.loss


@pytest.mark.parametrize("level", PANIC_LEVELS)
@pytest.mark.parametrize("better", list(Grade)[:-1])
def test_a_better_grade_never_panics_worse(chart, level, better):
    mine = chart.cell("panic_index", better.value, level)[0]
    theirs = chart.cell("panic_index", better.lowered().value, level)[0]
    assert mine.move.severity <= theirs.move.severity and mine.loss <= theirs.loss


@pytest.mark.parametrize("face", range(1, 11))
@pytest.mark.parametrize("grade", list(Grade))
def test_every_roll_either_holds_or_panics_against_the_pass_number(chart, grade, face):
    """An unshaken division of one grade: 1D10 + 2 equal to or above the pass number holds (6.1)."""
    result = run(chart, [unit(grade=grade)], face)
    pass_number = chart.entry("panic_pass", grade.value)[0]
    assert result.pass_number == pass_number and result.modified_roll == face + 2
    assert result.held is (face + 2 >= pass_number)
    assert result.held is not result.panicked


# --- average grade and unshaken --------------------------------------------------------------------


def test_average_grade_weights_each_grade_by_its_bases():
    units = [unit("v", Grade.VETERAN, 2), unit("g", Grade.GREEN, 6)]
    assert average_grade(units) is Grade.GREEN  # (1*2 + 3*6) / 8 = 2.5 -> worse of average and green


def test_average_grade_tie_goes_to_the_worse_grade():
    assert average_grade([unit("v", Grade.VETERAN, 4), unit("a", Grade.AVERAGE, 4)]) is Grade.AVERAGE
    assert average_grade([unit("c", Grade.CRACK, 4), unit("g", Grade.GREEN, 4)]) is Grade.AVERAGE  # 1.5
    assert average_grade([unit("c", Grade.CRACK, 5), unit("g", Grade.GREEN, 3)]) is Grade.VETERAN  # 1.125


def test_average_grade_leaves_out_units_with_no_bases():
    assert average_grade([unit("c", Grade.CRACK, 4), unit("u", Grade.UNTRAINED, 0)]) is Grade.CRACK


@given(st.lists(st.tuples(st.sampled_from(list(Grade)), st.integers(1, 12)), min_size=1, max_size=6))
def test_average_grade_lies_between_the_best_and_worst_grade_present(grades):
    units = [unit(str(i), g, b) for i, (g, b) in enumerate(grades)]
    ranks = [g.rank for g, _ in grades]
    assert min(ranks) <= average_grade(units).rank <= max(ranks)


@pytest.mark.parametrize(
    ("conditions", "unshaken", "demoralized"),
    [
        ((Condition.FORMED,), True, 0),
        ((Condition.FORMED, Condition.RATTLED), True, 0),
        ((Condition.FORMED, Condition.SHAKEN), False, 0),
        ((Condition.DEMORALIZED,), False, 1),
        ((Condition.DEMORALIZED, Condition.UNFORMED, Condition.DEMORALIZED), False, 2),
    ],
)
def test_die_modifiers_plus_two_unshaken_minus_two_per_demoralized_unit(chart, conditions, unshaken, demoralized):
    """6.3 (R:1886-1890)."""
    units = [unit(str(i), condition=c) for i, c in enumerate(conditions)]
    result = run(chart, units, 5)
    assert is_unshaken(units) is unshaken and result.unshaken is unshaken
    assert result.modified_roll == 5 + (2 if unshaken else 0) - 2 * demoralized
    assert result.modifier_total == result.modified_roll - 5


def test_the_demoralized_modifier_is_the_total_and_its_words_say_the_count_and_the_value_each(chart):
    """-2 for each demoralized unit (6.3, R:1889): three of them make one modifier of -6, not -6 for each."""
    each, _ = chart.entry("division_panic_modifiers", "each_demoralized_unit")
    units = [unit(str(i), condition=Condition.DEMORALIZED) for i in range(3)]
    (total,), _ = panic_die_modifiers(chart, tuple(units))
    assert (total.value, total.label) == (3 * each, f"demoralized units present (3 × {each})")
    (one,), _ = panic_die_modifiers(chart, tuple(units[:1]))
    assert one.label == f"demoralized unit present (1 × {each})"


def test_a_destroyed_unit_last_demoralized_still_counts(chart):
    """R:1889-1890."""
    result = run(chart, [unit("a"), unit("gone", bases=0, condition=Condition.DEMORALIZED)], 5)
    assert result.modified_roll == 3 and not result.unshaken
    assert [u.id for u in result.units] == ["a"]  # the gone unit makes no move


# --- the division panic test -----------------------------------------------------------------------


def test_unit_that_fell_back_moves_only_four_more_when_its_division_routs(chart):
    """T21 (R:1833-1841): an average division routs; a unit that already fell back adds 4" turning away."""
    result = run(chart, [unit("a", already_moved=ForcedMove.FALL_BACK), unit("b")], 1)
    assert result.panicked and result.move is ForcedMove.ROUT
    moved, fresh = result.units
    assert (moved.move, moved.distance) == (ForcedMove.ROUT, 4.0) and "turning away" in moved.instruction
    assert fresh.distance == 14.0


def test_average_division_routing_out_of_a_rear_assault_a_town_and_across_a_bridge_loses_four(chart):
    """T20 (R:1891-1895) as desertion: loss 1 plus 1 for each condition; lowest grade deserts first (6.1)."""
    units = [unit("g", Grade.GREEN, 2), unit("v", Grade.VETERAN, 4), unit("u", Grade.UNTRAINED, 1)]
    result = run(chart, units, 1, out_of_town=True, across_bridge_or_ford=True, away_from_rear_assault=True)
    assert result.average_grade is Grade.AVERAGE and result.move is ForcedMove.ROUT
    assert result.loss_number == 4 and result.deserters == 4
    assert {u.id: u.deserters for u in result.units} == {"g": 2, "v": 1, "u": 1}
    assert {u.id: u.bases_after for u in result.units} == {"g": 0, "v": 3, "u": 0}
    assert sum(m.value for m in result.modifiers if m.label.startswith("loss number")) == 3


def test_division_rout_gives_every_unit_one_m_but_demoralized_units_nothing(chart):
    """6.1 (R:1825-1830)."""
    result = run(chart, [unit("a", condition=Condition.RATTLED), unit("d", condition=Condition.DEMORALIZED)], 1)
    rattled, demoralized = result.units
    assert (rattled.m_hits, rattled.condition_after) == (1, Condition.SHAKEN)
    assert (demoralized.m_hits, demoralized.condition_after) == (0, Condition.DEMORALIZED)


def test_a_division_that_does_not_rout_takes_no_morale_hits(chart):
    result = run(chart, [unit(grade=Grade.CRACK, condition=Condition.SHAKEN)], 1)
    assert result.panicked and result.move is not ForcedMove.ROUT
    assert result.units[0].m_hits == 0 and result.units[0].condition_after is Condition.SHAKEN


def test_panicked_division_resets_to_defend_and_a_holding_one_does_not(chart):
    panicked = run(chart, [unit()], 1)
    held = run(chart, [unit()], 10)
    assert panicked.orders_reset_to_defend and panicked.units
    assert held.held and not held.orders_reset_to_defend and held.units == () and held.move is None


def test_a_unit_that_already_routed_makes_no_further_move(chart):
    result = run(chart, [unit(already_moved=ForcedMove.ROUT)], 1)
    assert result.units[0].move is None and result.units[0].distance == 0.0


def test_cavalry_moves_double_and_a_routing_battery_is_abandoned(chart):
    result = run(chart, [unit("c", kind=UnitKind.CAVALRY_MOUNTED), unit("b", kind=UnitKind.ARTILLERY)], 1)
    cavalry, battery = result.units
    assert cavalry.distance == 28.0
    assert any("abandoned" in note for note in battery.notes)


def test_both_triggers_at_once_roll_one_die_each_and_the_worse_stands(chart):
    """6.2 (R:1856-1858)."""
    result = division_panic_test(chart, (unit(),), {INTERNAL: d10(9), ADJOINING: d10(2)})
    assert [r.modified for r in result.rolls] == [11, 4]
    assert result.trigger is ADJOINING and result.modified_roll == 4


@given(st.sampled_from(list(Grade)), st.integers(1, 9), st.integers(0, 2))
@settings(max_examples=60)
def test_a_higher_roll_never_does_worse(chart, grade, face, demoralized):
    units = [unit("a", grade)] + [unit(f"d{i}", grade, condition=Condition.DEMORALIZED) for i in range(demoralized)]
    low, high = run(chart, units, face), run(chart, units, face + 1)
    assert high.held or not low.held


@given(st.lists(st.tuples(st.sampled_from(list(Grade)), st.integers(0, 5)), min_size=1, max_size=6), st.integers(0, 12))
def test_deserters_empty_every_worse_grade_before_touching_a_better_one(grades, count):
    units = [unit(str(i), g, b) for i, (g, b) in enumerate(grades)]
    taken, short = allocate_deserters(units, count)
    present = sum(u.bases for u in units)
    assert sum(taken.values()) == min(count, present) and short == max(0, count - present)
    for u in units:
        assert taken.get(u.id, 0) <= u.bases
    touched = [u.grade.rank for u in units if taken.get(u.id)]
    if touched:
        best_touched = min(touched)
        for u in units:
            if u.grade.rank > best_touched:
                assert taken.get(u.id, 0) == u.bases


def test_deserters_within_a_grade_are_spread_one_base_at_a_time():
    taken, _ = allocate_deserters([unit("a", Grade.GREEN, 4), unit("b", Grade.GREEN, 4)], 3)
    assert taken == {"a": 2, "b": 1}


def test_division_panic_test_mechanic_decodes_json(chart):
    data = {"units": [{"id": "1st brigade", "grade": "green", "bases": 6, "condition": "shaken"}], "internal_roll": 3}
    result = resolve_division_panic(chart, decode(DivisionPanicInput, data))
    assert encode(result)["provisional"] is True  # the pass numbers are provisional
    assert result.modified_roll == 3


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"units": [], "internal_roll": 3}, "units"),
        ({"units": [{"id": "a", "grade": "green", "bases": -1}], "internal_roll": 3}, "units[0].bases"),
        ({"units": [{"id": " ", "grade": "green", "bases": 1}], "internal_roll": 3}, "units[0].id"),
        ({"units": [{"id": "a", "grade": "elite", "bases": 1}], "internal_roll": 3}, "units[0].grade"),
        (
            {
                "units": [{"id": "a", "grade": "green", "bases": 1}, {"id": "a", "grade": "green", "bases": 1}],
                "internal_roll": 3,
            },
            "units[1].id",
        ),
        ({"units": [{"id": "a", "grade": "green", "bases": 0}], "internal_roll": 3}, "units"),
        ({"units": [{"id": "a", "grade": "green", "bases": 1}]}, "internal_roll"),
        ({"units": [{"id": "a", "grade": "green", "bases": 1}], "adjoining_roll": [3, 4]}, "adjoining_roll"),
        ({"units": [{"id": "a", "grade": "green", "bases": 1}], "internal_roll": 11}, "internal_roll"),
    ],
)
def test_bad_division_panic_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(DivisionPanicInput, data)
    assert err.value.field == field


def test_panic_mechanics_are_registered_with_describable_inputs():
    for name in ("panic", "division_panic_test", "panic_phase", "demoralized_panic_test"):
        assert describe(MECHANICS[name].inputs)


def test_rolls_keep_their_source():
    app = Roll((4,), RollSource.APP)
    inputs = DivisionPanicInput(units=(unit(),), internal_roll=app)
    assert inputs.rolls == {INTERNAL: app}
