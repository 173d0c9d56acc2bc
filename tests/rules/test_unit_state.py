"""A unit's state (1.3, 1.4, 2.3): the counts it holds, its condition on the ladder, when it is in play
or retreated, its skirmish markers' grade, and the corrections the table may make to it."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import Condition
from republic.rules.troops import Grade, UnitKind
from republic.rules.units import BATTERY_CORRECTIONS, BRIGADE_CORRECTIONS, MOST_DAMAGE, Correction, UnitState, corrected
from tests.rules.unit_states import battery, brigade

# --- the state itself ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "field",
    [
        "bases",
        "bases_start",
        "p_hits_turn",
        "base_hits_turn",
        "damage",
        "skirmishers_available",
        "skirmishers_deployed",
    ],
)
def test_a_negative_count_is_refused_naming_its_field(field):
    with pytest.raises(RulesInputError) as error:
        replace(brigade(), **{field: -1})
    assert error.value.field == field


@pytest.mark.parametrize("m_hits", [-1, 5])
def test_a_unit_holds_zero_to_four_m_hits(m_hits):
    with pytest.raises(RulesInputError, match="0 to 4"):
        brigade(m_hits=m_hits)


def test_a_battery_and_only_a_battery_has_a_battery_type():
    with pytest.raises(RulesInputError) as error:
        UnitState("bty", UnitKind.ARTILLERY, Grade.AVERAGE, 1, 1)
    assert error.value.field == "battery_type"
    with pytest.raises(RulesInputError):
        replace(brigade(), battery_type=battery().battery_type)


@pytest.mark.parametrize(
    ("m_hits", "condition"),
    [
        (0, Condition.FORMED),
        (1, Condition.UNFORMED),
        (2, Condition.RATTLED),
        (3, Condition.SHAKEN),
        (4, Condition.DEMORALIZED),
    ],
)
def test_the_condition_is_one_step_down_the_ladder_per_m_hit(m_hits, condition):
    assert brigade(m_hits=m_hits).condition is condition


@pytest.mark.parametrize(
    ("unit", "in_play"),
    [
        (brigade(), True),
        (brigade(bases=0, bases_start=6), False),
        (brigade(destroyed=True), False),
        (brigade(surrendered=True), False),
        (battery(abandoned=True), False),
        (battery(damage=3), True),
    ],
)
def test_a_unit_is_in_play_with_bases_left_and_not_destroyed_surrendered_or_abandoned(unit, in_play):
    assert unit.in_play is in_play


@pytest.mark.parametrize(
    ("move", "retreated"),
    [
        (None, False),
        (ForcedMove.DISENGAGE, False),
        (ForcedMove.FALL_BACK, False),
        (ForcedMove.RETREAT, True),
        (ForcedMove.ROUT, True),
    ],
)
def test_only_a_retreat_or_a_rout_counts_as_retreated(move, retreated):
    assert brigade(forced_move=move).retreated is retreated


def test_a_brigades_markers_are_of_its_own_grade_until_artillery_lowers_them():
    assert brigade(grade=Grade.VETERAN).skirmisher_type is Grade.VETERAN
    assert brigade(grade=Grade.VETERAN, skirmisher_grade=Grade.GREEN).skirmisher_type is Grade.GREEN


# --- the table's corrections -----------------------------------------------------------------------


def test_the_correction_lists_offer_each_unit_only_its_own():
    assert all(not c.for_battery for c in BRIGADE_CORRECTIONS)
    assert all(not c.for_brigade for c in BATTERY_CORRECTIONS)
    assert Correction.PACKED.for_battery and Correction.BASE_MINUS.for_brigade
    assert not Correction.M_PLUS.for_battery and not Correction.M_PLUS.for_brigade


@pytest.mark.parametrize(
    ("unit", "correction"),
    [
        (battery(), Correction.BASE_MINUS),
        (battery(), Correction.BASE_PLUS),
        (brigade(), Correction.DAMAGE_PLUS),
        (brigade(), Correction.PACKED),
        (brigade(), Correction.UNPACKED),
    ],
)
def test_a_correction_for_the_other_kind_of_unit_is_refused(unit, correction):
    with pytest.raises(RulesInputError) as error:
        corrected(unit, correction)
    assert error.value.field == "correction"


def test_m_hits_are_corrected_one_step_within_formed_to_demoralized():
    assert corrected(brigade(m_hits=1), Correction.M_PLUS).condition is Condition.RATTLED
    assert corrected(battery(m_hits=1), Correction.M_MINUS).condition is Condition.FORMED
    with pytest.raises(RulesInputError) as error:
        corrected(brigade(m_hits=4), Correction.M_PLUS)
    assert error.value.field == "m_hits"
    with pytest.raises(RulesInputError):
        corrected(brigade(), Correction.M_MINUS)


def test_a_brigade_corrected_to_no_bases_is_destroyed_and_one_given_a_base_back_is_in_play_again():
    gone = corrected(brigade(bases=1, bases_start=6), Correction.BASE_MINUS)
    assert gone.bases == 0 and gone.destroyed
    back = corrected(gone, Correction.BASE_PLUS)
    assert back.bases == 1 and not back.destroyed and back.in_play


def test_a_brigade_is_not_corrected_above_the_bases_it_started_with_or_below_none():
    with pytest.raises(RulesInputError, match="0 to 6") as error:
        corrected(brigade(bases=6), Correction.BASE_PLUS)
    assert error.value.field == "bases"
    with pytest.raises(RulesInputError):
        corrected(brigade(bases=0, bases_start=6, destroyed=True), Correction.BASE_MINUS)


def test_battery_damage_is_corrected_from_none_up_to_the_most_the_table_can_give():
    assert corrected(battery(damage=1), Correction.DAMAGE_PLUS).damage == 2
    assert corrected(battery(damage=MOST_DAMAGE - 1), Correction.DAMAGE_PLUS).damage == MOST_DAMAGE
    with pytest.raises(RulesInputError) as error:
        corrected(battery(damage=MOST_DAMAGE), Correction.DAMAGE_PLUS)
    assert error.value.field == "damage"
    with pytest.raises(RulesInputError):
        corrected(battery(), Correction.DAMAGE_MINUS)


def test_a_battery_is_marked_packed_and_unpacked():
    packed = corrected(battery(), Correction.PACKED)
    assert packed.packed and not corrected(packed, Correction.UNPACKED).packed


@given(st.integers(0, 3), st.integers(1, 5))
def test_a_correction_and_its_opposite_cancel_out(m_hits, bases):
    unit = brigade(m_hits=m_hits, bases=bases, bases_start=6)
    assert corrected(corrected(unit, Correction.M_PLUS), Correction.M_MINUS) == unit
    assert corrected(corrected(unit, Correction.BASE_PLUS), Correction.BASE_MINUS) == unit
