"""A unit's state (1.3, 1.4, 2.3, 3.3-3.5, 5.5, 5.6, 6.1) and the changes the rules make to it: hits, forced
moves, lost bases, surrender, the end of a player turn, the table's corrections and the maneuver refusals."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import Condition, MoraleCause, Restriction, apply_morale_hits, resolve_disorder
from republic.rules.troops import BatteryFunction, Formation, Grade, UnitKind
from republic.rules.units import (
    BATTERY_CORRECTIONS,
    BRIGADE_CORRECTIONS,
    MOST_DAMAGE,
    Correction,
    UnitState,
    after_bases_lost,
    after_formation,
    after_morale,
    after_move,
    after_p4_event,
    after_skirmishers,
    after_surrender,
    corrected,
    disorder_input,
    formation_refusal,
    new_player_turn,
    rallied,
    restricted,
    skirmisher_limit,
    skirmisher_refusal,
    skirmishers_it_may_set,
)
from tests.rules.unit_states import battery, brigade

MOVES = list(ForcedMove)

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


# --- morale, forced moves, lost bases --------------------------------------------------------------


def test_a_rattled_unit_taking_three_m_from_fire_is_demoralized_with_one_p_hit_this_turn():
    """R:1275-1278: the M beyond Demoralized becomes a P hit, kept for the turn."""
    unit = brigade(m_hits=2, p_hits_turn=1)
    after = after_morale(unit, apply_morale_hits(unit.m_hits, 3, MoraleCause.FIRE))
    assert after.condition is Condition.DEMORALIZED
    assert after.p_hits_turn == 2


def test_an_m_hit_that_does_not_reach_demoralized_adds_no_p_hit():
    after = after_morale(brigade(m_hits=1), apply_morale_hits(1, 2, MoraleCause.ASSAULT))
    assert (after.m_hits, after.p_hits_turn) == (3, 0)


def test_a_rout_leaves_a_demoralized_unit_demoralized_with_no_p_hit():
    after = after_morale(brigade(m_hits=4), apply_morale_hits(4, 1, MoraleCause.ROUT))
    assert (after.m_hits, after.p_hits_turn) == (4, 0)


def test_no_forced_move_changes_nothing():
    unit = brigade(forced_move=ForcedMove.WITHDRAW)
    assert after_move(unit, None) == unit


@pytest.mark.parametrize(
    ("first", "second", "longest"),
    [
        (ForcedMove.WITHDRAW, ForcedMove.FALL_BACK, ForcedMove.FALL_BACK),
        (ForcedMove.FALL_BACK, ForcedMove.WITHDRAW, ForcedMove.FALL_BACK),
        (ForcedMove.DISENGAGE, ForcedMove.ROUT, ForcedMove.ROUT),
        (ForcedMove.RETREAT, ForcedMove.RETREAT, ForcedMove.RETREAT),
    ],
)
def test_a_unit_remembers_the_longest_forced_move_of_the_turn(first, second, longest):
    """6.1 (R:1833-1840): a division's panic move only tops up the longest move already made."""
    assert after_move(after_move(brigade(), first), second).forced_move is longest


@given(st.lists(st.sampled_from(MOVES), min_size=1, max_size=6))
def test_the_remembered_move_is_the_most_severe_whatever_the_order(moves):
    unit = brigade()
    for move in moves:
        unit = after_move(unit, move)
    assert unit.forced_move is max(moves, key=lambda m: m.severity)


def test_a_battery_the_chart_abandons_for_its_move_is_out_of_play():
    after = after_move(battery(), ForcedMove.ROUT, abandoned=True)
    assert after.abandoned and after.out_of_play and after.forced_move is ForcedMove.ROUT


def test_only_a_battery_is_abandoned_by_a_move():
    after = after_move(brigade(), ForcedMove.ROUT, abandoned=True)
    assert not after.abandoned and after.in_play


def test_bases_lost_leave_the_rest_and_count_toward_the_turns_base_hits():
    after = after_bases_lost(brigade(bases=6, base_hits_turn=1), 2)
    assert (after.bases, after.base_hits_turn, after.destroyed) == (4, 3, False)


def test_a_brigade_losing_its_last_base_is_destroyed_and_a_battery_abandoned():
    gone = after_bases_lost(brigade(bases=2, bases_start=6), 2)
    assert gone.destroyed and not gone.abandoned and not gone.in_play
    lost = after_bases_lost(battery(), 1)
    assert lost.abandoned and not lost.destroyed and lost.bases == 0


def test_a_unit_loses_no_more_bases_than_it_has():
    after = after_bases_lost(brigade(bases=3, bases_start=6), 5)
    assert (after.bases, after.base_hits_turn, after.destroyed) == (0, 3, True)


def test_losing_no_base_changes_nothing():
    unit = brigade()
    assert after_bases_lost(unit, 0) is unit


@given(st.integers(0, 12), st.integers(1, 12), st.integers(0, 5), st.integers(0, 20), st.booleans())
def test_lost_bases_never_go_negative_and_base_hits_grow_by_exactly_the_bases_removed(
    bases, start, earlier, lost, is_battery
):
    unit = (
        battery(bases=min(bases, 1), base_hits_turn=earlier)
        if is_battery
        else brigade(bases=bases, bases_start=max(start, bases), base_hits_turn=earlier)
    )
    after = after_bases_lost(unit, lost)
    removed = unit.bases - after.bases
    assert after.bases >= 0
    assert removed == min(lost, unit.bases)
    assert after.base_hits_turn - unit.base_hits_turn == removed
    if removed and after.bases == 0:
        assert after.out_of_play
        assert after.destroyed is not is_battery and after.abandoned is is_battery


def test_a_p4_event_marks_the_unit_and_nothing_else():
    unit = brigade(m_hits=4, p_hits_turn=4)
    assert after_p4_event(unit) == replace(unit, p4_event=True)


def test_a_surrendering_brigade_gives_up_every_base_left():
    """5.5 Group Surrender: its remaining bases are taken; it is not destroyed but surrendered."""
    after = after_surrender(brigade(bases=4, bases_start=6, base_hits_turn=2))
    assert (after.bases, after.base_hits_turn) == (0, 6)
    assert after.surrendered and not after.destroyed and not after.in_play


def test_a_surrendering_battery_is_abandoned():
    after = after_surrender(battery())
    assert after.abandoned and not after.surrendered and after.bases == 0


def test_a_rally_sets_the_condition_it_reached():
    assert rallied(brigade(m_hits=3), Condition.UNFORMED).m_hits == 1
    assert rallied(brigade(m_hits=1), Condition.SHAKEN).condition is Condition.SHAKEN


# --- charge and retreat disorder (5.6) ---------------------------------------------------------------


def test_an_attacking_brigade_that_used_its_charge_bonus_suffers_charge_disorder():
    unit = brigade(charge_bonus_used=True)
    inputs = disorder_input(unit, attacker=True)
    assert inputs.used_charge_bonus and not inputs.retreated_or_routed
    assert resolve_disorder(None, inputs).m_after == 1


def test_a_defender_is_not_charged_for_a_charge_it_did_not_make():
    assert not disorder_input(brigade(charge_bonus_used=True), attacker=False).used_charge_bonus


def test_charge_movement_the_app_did_not_see_counts_when_the_table_says_so():
    assert disorder_input(brigade(), attacker=False, also_charged=True).used_charge_bonus


def test_a_battery_never_uses_the_charge_bonus():
    assert not disorder_input(battery(charge_bonus_used=True), attacker=True, also_charged=True).used_charge_bonus


@pytest.mark.parametrize(
    ("move", "disordered"), [(ForcedMove.FALL_BACK, False), (ForcedMove.RETREAT, True), (ForcedMove.ROUT, True)]
)
def test_a_unit_that_retreated_or_routed_this_turn_suffers_disorder(move, disordered):
    inputs = disorder_input(brigade(m_hits=1, forced_move=move), attacker=False)
    assert inputs.retreated_or_routed is disordered
    assert resolve_disorder(None, inputs).m_after == 1 + disordered


def test_charge_and_retreat_together_still_give_one_disorder_hit():
    inputs = disorder_input(brigade(charge_bonus_used=True, forced_move=ForcedMove.ROUT), attacker=True)
    assert resolve_disorder(None, inputs).m_after == 1


# --- the end of a player turn ----------------------------------------------------------------------


def test_a_new_player_turn_clears_what_lasts_one_turn_and_keeps_the_rest():
    unit = brigade(
        m_hits=2,
        bases=4,
        bases_start=6,
        p_hits_turn=3,
        base_hits_turn=2,
        p4_event=True,
        forced_move=ForcedMove.RETREAT,
        charge_bonus_used=True,
        formation=Formation.OPEN_ORDER,
        skirmishers_available=2,
        skirmishers_deployed=3,
        skirmisher_grade=Grade.GREEN,
    )
    after = new_player_turn(unit)
    assert (after.p_hits_turn, after.base_hits_turn, after.p4_event, after.forced_move, after.charge_bonus_used) == (
        0,
        0,
        False,
        None,
        False,
    )
    assert (after.m_hits, after.bases, after.formation, after.skirmishers_deployed, after.skirmisher_grade) == (
        2,
        4,
        Formation.OPEN_ORDER,
        3,
        Grade.GREEN,
    )


def test_a_batterys_fire_and_functions_last_one_turn_but_its_saved_fire_and_damage_stay():
    unit = battery(
        fired_this_turn=True,
        functions_used=(BatteryFunction.UNLIMBER, BatteryFunction.FIRE),
        saved_fire=True,
        damage=2,
        limbered=False,
    )
    after = new_player_turn(unit)
    assert not after.fired_this_turn and after.functions_used == ()
    assert after.saved_fire and after.damage == 2 and not after.limbered


@given(st.integers(0, 4), st.integers(0, 6), st.booleans(), st.sampled_from([None, *MOVES]))
def test_a_new_player_turn_twice_is_once(m_hits, p_hits, p4, move):
    unit = brigade(m_hits=m_hits, p_hits_turn=p_hits, p4_event=p4, forced_move=move)
    once = new_player_turn(unit)
    assert new_player_turn(once) == once


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


# --- what a condition forbids (2.3) ------------------------------------------------------------------


@pytest.mark.parametrize("restriction", list(Restriction))
def test_a_formed_unit_is_never_restricted(restriction):
    assert restricted(brigade(), restriction) == ""


def test_a_restriction_names_the_condition_and_the_rule():
    refusal = restricted(brigade(m_hits=1), Restriction.CHANGE_FORMATION)
    assert "Unformed" in refusal and "may not change formation" in refusal and "2.3" in refusal
    assert restricted(brigade(m_hits=1), Restriction.DEPLOY_SKIRMISHERS) == ""
    assert "will not voluntarily advance" in restricted(brigade(m_hits=4), Restriction.ADVANCE)
    assert restricted(brigade(m_hits=3), Restriction.ADVANCE) == ""


# --- skirmishers (1.4, 2.3, 3.5) ---------------------------------------------------------------------


def test_a_brigade_in_close_order_deploys_its_troop_lists_markers():
    assert skirmisher_limit(brigade(skirmishers_available=2)) == 2


def test_a_brigade_in_open_order_deploys_one_marker_per_combat_base():
    """1.4 (R:269-270)."""
    assert skirmisher_limit(brigade(bases=5, formation=Formation.OPEN_ORDER, skirmishers_available=2)) == 5
    assert (
        skirmisher_limit(brigade(bases=1, bases_start=6, formation=Formation.OPEN_ORDER, skirmishers_available=2)) == 2
    )


def test_a_rattled_brigade_may_set_no_more_markers_than_it_has_out():
    unit = brigade(m_hits=2, skirmishers_available=4, skirmishers_deployed=1)
    assert skirmishers_it_may_set(unit) == 1
    assert skirmishers_it_may_set(replace(unit, m_hits=1)) == 4


def test_an_untrained_brigade_deploys_no_skirmishers():
    """3.5 (R:773-775): trained brigades, Green or better."""
    refusal = skirmisher_refusal(brigade(grade=Grade.UNTRAINED, skirmishers_available=2), 1)
    assert "Untrained" in refusal and "3.5" in refusal


def test_a_rattled_brigade_may_recall_its_markers_but_not_deploy_more():
    unit = brigade(m_hits=2, skirmishers_available=4, skirmishers_deployed=2)
    assert skirmisher_refusal(unit, 1) == ""
    assert skirmisher_refusal(unit, 2) == ""
    refusal = skirmisher_refusal(unit, 3)
    assert "Rattled" in refusal and "may not deploy skirmishers" in refusal and "recall" in refusal
    assert skirmisher_refusal(unit) == refusal


def test_a_brigade_may_not_deploy_more_markers_than_its_limit():
    refusal = skirmisher_refusal(brigade(skirmishers_available=2), 3)
    assert "at most 2" in refusal and "open order" not in refusal
    open_order = skirmisher_refusal(brigade(bases=4, formation=Formation.OPEN_ORDER), 5)
    assert "at most 4" in open_order and "one per combat base in open order" in open_order
    assert skirmisher_refusal(brigade(skirmishers_available=2), 2) == ""


def test_a_brigade_without_markers_is_told_so_and_one_with_markers_is_not():
    assert "No skirmish markers" in skirmisher_refusal(brigade())
    assert skirmisher_refusal(brigade(skirmishers_available=1)) == ""


def test_deploying_skirmishers_sets_the_number_out():
    assert after_skirmishers(brigade(skirmishers_available=3), 2).skirmishers_deployed == 2


def test_deploying_skirmishers_refused_by_the_rules_raises_their_reason():
    with pytest.raises(RulesInputError, match="Rattled: may not deploy skirmishers") as error:
        after_skirmishers(brigade(m_hits=2, skirmishers_available=3), 1)
    assert error.value.field == "deployed"


def test_setting_the_number_already_out_is_refused():
    with pytest.raises(RulesInputError, match="already deployed"):
        after_skirmishers(brigade(skirmishers_available=3, skirmishers_deployed=2), 2)


# --- formation changes (1.4, 2.3) --------------------------------------------------------------------


def test_a_formed_brigade_may_change_formation():
    assert formation_refusal(brigade(), Formation.BRIGADE_COLUMN) == ""
    assert after_formation(brigade(), Formation.BRIGADE_COLUMN).formation is Formation.BRIGADE_COLUMN


def test_a_brigade_already_in_the_formation_is_told_so():
    assert "already in two line" in formation_refusal(brigade(), Formation.TWO_LINE)


@pytest.mark.parametrize("m_hits", [1, 2, 3, 4])
def test_a_brigade_with_m_hits_may_not_change_formation(m_hits):
    unit = brigade(m_hits=m_hits)
    refusal = formation_refusal(unit, Formation.SINGLE_LINE)
    assert unit.condition.value.capitalize() in refusal and "may not change formation (2.3)" in refusal
    with pytest.raises(RulesInputError, match="may not change formation") as error:
        after_formation(unit, Formation.SINGLE_LINE)
    assert error.value.field == "formation"


def test_open_order_must_be_trained():
    """1.4 (R:267-268): Green grade or better."""
    assert "Untrained" in formation_refusal(brigade(grade=Grade.UNTRAINED), Formation.OPEN_ORDER)
    assert formation_refusal(brigade(grade=Grade.GREEN), Formation.OPEN_ORDER) == ""
    assert formation_refusal(brigade(grade=Grade.UNTRAINED), Formation.THREE_LINE) == ""


def test_leaving_open_order_with_more_markers_than_close_order_allows_needs_a_recall_first():
    unit = brigade(formation=Formation.OPEN_ORDER, skirmishers_available=2, skirmishers_deployed=4)
    assert "recall skirmishers to 2 first" in formation_refusal(unit, Formation.TWO_LINE)
    assert formation_refusal(replace(unit, skirmishers_deployed=2), Formation.TWO_LINE) == ""


# --- saved fire lost by the state's own changes (4.2) ------------------------------------------------


def test_a_battery_with_saved_fire_becoming_rattled_loses_it():
    from tests.rules.unit_states import battery

    assert not after_morale(battery(saved_fire=True), apply_morale_hits(0, 2, MoraleCause.ASSAULT)).saved_fire
    assert after_morale(battery(saved_fire=True), apply_morale_hits(0, 1, MoraleCause.ASSAULT)).saved_fire


def test_a_battery_with_saved_fire_that_makes_a_forced_move_loses_it():
    from tests.rules.unit_states import battery

    assert not after_move(battery(saved_fire=True), ForcedMove.DISENGAGE).saved_fire
    assert after_move(battery(saved_fire=True), None).saved_fire
