"""Assault losses on the units of a side (5.2, 5.5): base hits and battery damage, morale and panic,
forced moves, prisoners and surrender, batteries limbering or abandoned, and the hits conserved whatever
the units."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from republic.rules.assault_results import UnitTakingHits, assault_losses
from republic.rules.assault_sides import Contact
from republic.rules.forced_moves import BatteryAction, ForcedMove
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind
from tests.rules.units_taking_hits import ART, panic_cell, unit


def by_id(result):
    return {u.id: u for u in result.units}


# --- worked examples -------------------------------------------------------------------------------


def test_demoralized_brigade_taking_3p_and_1m_suffers_panic_4_with_its_effects(chart):
    """T17 (R:1659-1665): the natural-roll M converts to P and joins the chart's 3P."""
    result = assault_losses(chart, (unit(m_hits=4),), Hits(p=3), natural_m=1)
    loss = result.units[0]
    assert (loss.panic_hits, loss.panic_level, loss.p4_event) == (4, 4, True)
    assert loss.move is panic_cell(chart, Grade.AVERAGE, 4).move
    assert loss.m_after == 4 and loss.condition_after is Condition.DEMORALIZED
    assert result.p4_events == ("1st",)


def test_infantry_and_two_batteries_losing_1b_lose_one_base_and_one_damage(chart):
    """R:1637-1642: the infantry loses one base and one of the batteries takes one damage."""
    result = assault_losses(chart, (unit("inf"), unit("bty A", ART, bases=1), unit("bty B", ART, bases=1)), Hits(b=1))
    units = by_id(result)
    assert units["inf"].base_hits == 1 and units["inf"].bases_after == 5
    assert sorted(u.damage_taken for u in (units["bty A"], units["bty B"])) == [0, 1]
    assert units["bty A"].bases_after == units["bty B"].bases_after == 1
    assert (result.bases_removed, result.battery_base_hits, result.unassigned_base_hits) == (1, 1, 0)


def test_average_defender_losing_by_six_with_natural_loss_of_five_is_rattled_with_panic_3(chart):
    """T14, T15 (R:1410-1420): 3P from the chart, 2M from the natural roll."""
    loss = assault_losses(chart, (unit(),), Hits(p=3), natural_m=2).units[0]
    assert (loss.m_after, loss.condition_after, loss.panic_level) == (2, Condition.RATTLED, 3)
    assert loss.move is panic_cell(chart, Grade.AVERAGE, 3).move


def test_veteran_with_two_panic_hits_withdraws_without_prisoners(chart):
    """T18 (R:1714-1719)."""
    loss = assault_losses(chart, (unit(grade=Grade.VETERAN),), Hits(p=2)).units[0]
    assert (loss.move, loss.prisoners, loss.bases_after, loss.distance) == (ForcedMove.WITHDRAW, 0, 6, 8.0)


def test_untrained_with_two_panic_hits_retreats(chart):
    """T19 (R:1719-1721)."""
    loss = assault_losses(chart, (unit(grade=Grade.UNTRAINED),), Hits(p=2)).units[0]
    assert loss.move is ForcedMove.RETREAT and loss.distance == 12.0


def test_average_unit_routing_out_of_a_rear_assault_a_town_and_across_a_bridge_loses_four_prisoners(chart):
    """T20 (R:1891-1895): the loss number 1 plus 1B for each condition, taken as prisoners (R:1702-1712)."""
    result = assault_losses(
        chart, (unit(out_of_town=True, across_bridge_or_ford=True, away_from_rear_assault=True),), Hits(p=4)
    )
    loss = result.units[0]
    assert loss.move is ForcedMove.ROUT
    assert (loss.loss_number, loss.prisoners, loss.bases_after) == (4, 4, 2)
    assert [m.value for m in result.modifiers] == [1, 1, 1]
    assert all(m.section == "6.3" for m in result.modifiers)


# --- base hits -------------------------------------------------------------------------------------


def test_base_hits_spread_evenly_with_the_odd_one_to_the_unit_with_most_bases(chart):
    result = assault_losses(chart, (unit("small", bases=4), unit("big", bases=6)), Hits(b=3))
    units = by_id(result)
    assert (units["big"].base_hits, units["small"].base_hits) == (2, 1)


def test_all_out_contact_units_take_base_hits_before_general_contact_units(chart):
    result = assault_losses(chart, (unit("near", bases=2), unit("far", bases=5, contact=Contact.GENERAL)), Hits(b=4))
    units = by_id(result)
    assert (units["near"].base_hits, units["far"].base_hits) == (2, 2)
    assert units["near"].destroyed and result.destroyed == ("near",)


def test_general_contact_units_take_no_base_hit_while_all_out_units_have_bases(chart):
    result = assault_losses(chart, (unit("near", bases=3), unit("far", contact=Contact.GENERAL)), Hits(b=3))
    assert by_id(result)["far"].base_hits == 0


def test_base_hits_beyond_every_base_present_are_reported_unassigned(chart):
    result = assault_losses(chart, (unit(bases=2),), Hits(b=5))
    assert (result.bases_removed, result.unassigned_base_hits) == (2, 3)
    assert result.units[0].destroyed and result.units[0].bases_after == 0


def test_batteries_alone_take_the_base_hits_as_damage(chart):
    result = assault_losses(chart, (unit("bty", ART, bases=1, damage=1),), Hits(b=2))
    loss = result.units[0]
    assert (loss.damage_taken, loss.damage_after, loss.bases_after) == (2, 3, 1)
    assert (result.bases_removed, result.unassigned_base_hits, result.battery_base_hits) == (0, 2, 2)


def test_battery_damage_goes_to_the_least_damaged_battery_in_closest_contact(chart):
    result = assault_losses(
        chart,
        (
            unit("worn", ART, bases=1, damage=2),
            unit("fresh", ART, bases=1),
            unit("rear", ART, bases=1, contact=Contact.GENERAL),
        ),
        Hits(b=1),
    )
    units = by_id(result)
    assert (units["fresh"].damage_taken, units["worn"].damage_taken, units["rear"].damage_taken) == (1, 0, 0)


def test_a_unit_destroyed_by_base_hits_still_reports_its_panic_4_event_and_makes_no_move(chart):
    """R:1708-1712, R:1866-1868: the division still tests for a destroyed unit's P4."""
    loss = assault_losses(chart, (unit(bases=2),), Hits(b=2, p=4)).units[0]
    assert loss.destroyed and loss.p4_event and loss.move is None and loss.distance is None


# --- morale and panic ------------------------------------------------------------------------------


def test_chart_natural_and_all_out_m_hits_add_up_on_every_unit(chart):
    result = assault_losses(chart, (unit("a"), unit("b", m_hits=1)), Hits(m=1), natural_m=1, all_out_extra_m=1)
    units = by_id(result)
    assert (units["a"].m_taken, units["a"].m_after, units["b"].m_after) == (3, 3, 4)
    assert units["a"].panic_hits == 0 and units["b"].panic_hits == 0


def test_a_unit_of_another_grade_can_carry_its_own_natural_roll_m(chart):
    result = assault_losses(chart, (unit("a"), unit("b", natural_m=1)), natural_m=2)
    assert (by_id(result)["a"].m_after, by_id(result)["b"].m_after) == (2, 1)


def test_winners_with_no_hits_are_unchanged(chart):
    loss = assault_losses(chart, (unit(m_hits=2),)).units[0]
    assert (loss.m_after, loss.bases_after, loss.move, loss.panic_level) == (2, 6, None, 0)


def test_more_than_four_panic_hits_are_read_as_panic_4(chart):
    loss = assault_losses(chart, (unit(grade=Grade.CRACK),), Hits(p=6)).units[0]
    assert (loss.panic_hits, loss.panic_level, loss.p4_event) == (6, 4, True)
    assert loss.move is panic_cell(chart, Grade.CRACK, 4).move


def test_panic_level_counts_this_round_only_and_the_phase_total_is_carried(chart):
    """R:1659-1660, R:1866-1869: 2P now after 3P earlier is Panic 2, five in the phase, no P4 event."""
    loss = assault_losses(chart, (unit(earlier_panic_hits=3),), Hits(p=2)).units[0]
    assert (loss.panic_level, loss.phase_panic_hits, loss.p4_event) == (2, 5, False)


def test_a_routing_unit_takes_one_m_at_the_end_of_its_rout_move(chart):
    loss = assault_losses(chart, (unit(grade=Grade.UNTRAINED, m_hits=1),), Hits(p=4)).units[0]
    assert loss.move is ForcedMove.ROUT and loss.m_after == 2


def test_mounted_cavalry_makes_double_forced_moves(chart):
    result = assault_losses(chart, (unit("foot"), unit("horse", UnitKind.CAVALRY_MOUNTED)), Hits(p=1))
    units = by_id(result)
    assert units["foot"].move is units["horse"].move
    assert units["horse"].distance == 2 * units["foot"].distance


def test_forced_moves_follow_the_game_scale(chart):
    loss = assault_losses(chart, (unit(grade=Grade.VETERAN),), Hits(p=2), scale=GroundScale.LARGE).units[0]
    assert loss.distance == 12.0


# --- prisoners and surrender -----------------------------------------------------------------------


def test_prisoners_come_from_the_lowest_grade_in_all_out_contact_first(chart):
    units = (
        unit("vet", grade=Grade.VETERAN, bases=4),
        unit("green", grade=Grade.GREEN, bases=2),
        unit("far", grade=Grade.UNTRAINED, bases=4, contact=Contact.GENERAL),
    )
    result = assault_losses(chart, units, Hits(p=4))
    out = by_id(result)
    pool = sum(u.loss_number for u in result.units)
    assert pool >= 1
    assert result.prisoners + result.unassigned_prisoners == pool
    taken_green = min(pool, 2)
    assert out["green"].prisoners == taken_green
    assert out["vet"].prisoners == min(pool - taken_green, 4)
    assert out["far"].prisoners == max(0, pool - 6)


def test_general_contact_units_give_prisoners_once_all_out_bases_are_gone(chart):
    units = (
        unit("near", grade=Grade.GREEN, bases=1, out_of_town=True),
        unit("far", grade=Grade.GREEN, bases=6, contact=Contact.GENERAL),
    )
    result = assault_losses(chart, units, Hits(p=4))
    out = by_id(result)
    assert out["near"].prisoners == 1 and out["near"].destroyed
    assert out["far"].prisoners == result.prisoners - 1 > 0


def test_prisoners_are_taken_after_base_hits(chart):
    loss = assault_losses(chart, (unit(bases=3, out_of_town=True),), Hits(b=1, p=4)).units[0]
    assert (loss.base_hits, loss.prisoners, loss.bases_after) == (1, 2, 0)


@pytest.mark.parametrize("grade", list(Grade))
def test_every_grade_whose_panic_move_is_blocked_by_the_enemy_surrenders(chart, grade):
    """R:1673-1678: the Elite overrun line has no Republic grade."""
    result = assault_losses(chart, (unit(grade=grade, retreat_blocked=True),), Hits(b=1, p=1))
    loss = result.units[0]
    assert loss.surrendered and (loss.surrendered_bases, loss.bases_after) == (5, 0)
    assert loss.move is None and not loss.destroyed
    assert result.surrendered == ("1st",) and result.surrendered_bases == 5


def test_a_blocked_unit_without_panic_hits_stays_put(chart):
    loss = assault_losses(chart, (unit(retreat_blocked=True),), Hits(m=1)).units[0]
    assert not loss.surrendered and loss.bases_after == 6


# --- batteries -------------------------------------------------------------------------------------


def test_battery_required_to_rout_is_abandoned(chart):
    loss = assault_losses(chart, (unit("bty", ART, grade=Grade.UNTRAINED, bases=1),), Hits(p=4)).units[0]
    assert loss.abandoned and loss.battery_action is BatteryAction.ABANDONED
    assert loss.bases_after == 0 and loss.move is None


def test_unlimbered_battery_required_to_retreat_limbers_and_takes_one_damage(chart):
    loss = assault_losses(chart, (unit("bty", ART, grade=Grade.UNTRAINED, bases=1),), Hits(p=2)).units[0]
    assert loss.move is ForcedMove.RETREAT and loss.limbered_after
    assert (loss.damage_taken, loss.damage_after) == (1, 1)


def test_limbered_battery_required_to_retreat_takes_no_limbering_damage(chart):
    loss = assault_losses(chart, (unit("bty", ART, grade=Grade.UNTRAINED, bases=1, limbered=True),), Hits(p=2)).units[0]
    assert loss.move is ForcedMove.RETREAT and loss.damage_taken == 0


def test_battery_that_must_withdraw_limbers_without_damage(chart):
    result = assault_losses(chart, (unit("bty", ART, grade=Grade.VETERAN, bases=1),), Hits(p=2))
    loss = result.units[0]
    assert (loss.move, loss.battery_action, loss.damage_taken) == (ForcedMove.WITHDRAW, BatteryAction.LIMBER, 0)
    assert result.battery_damage == 0


def test_battery_loss_numbers_give_no_prisoners(chart):
    result = assault_losses(chart, (unit("inf"), unit("bty", ART, grade=Grade.UNTRAINED, bases=1)), Hits(p=3))
    assert by_id(result)["bty"].loss_number == 0
    assert result.prisoners == by_id(result)["inf"].loss_number


# --- properties ------------------------------------------------------------------------------------

units_strategy = st.lists(
    st.builds(
        lambda kind, grade, bases, m, contact, blocked, town, limbered: UnitTakingHits(
            "x",
            kind,
            grade,
            bases,
            m_hits=m,
            contact=contact,
            retreat_blocked=blocked,
            out_of_town=town,
            limbered=limbered and kind is ART,
        ),
        st.sampled_from(list(UnitKind)),
        st.sampled_from(list(Grade)),
        st.integers(1, 8),
        st.integers(0, 4),
        st.sampled_from(list(Contact)),
        st.booleans(),
        st.booleans(),
        st.booleans(),
    ),
    min_size=1,
    max_size=5,
).map(
    lambda us: tuple(
        UnitTakingHits(f"u{i}", **{k: v for k, v in u.__dict__.items() if k != "id"}) for i, u in enumerate(us)
    )
)


@settings(max_examples=200, deadline=None)
@given(
    units=units_strategy,
    m=st.integers(0, 5),
    b=st.integers(0, 25),
    p=st.integers(0, 6),
    natural=st.integers(0, 4),
    extra=st.integers(0, 1),
)
def test_base_hits_are_conserved_and_morale_stays_on_the_ladder(chart, units, m, b, p, natural, extra):
    result = assault_losses(chart, units, Hits(m=m, b=b, p=p), natural_m=natural, all_out_extra_m=extra)
    assert result.bases_removed + result.unassigned_base_hits == b
    has_battery = any(u.kind is ART for u in units)
    assert result.battery_base_hits == (b if has_battery else 0)
    people = [u for u in units if u.kind is not ART]
    assert result.bases_removed <= sum(u.bases for u in people)
    assert result.prisoners + result.unassigned_prisoners == sum(r.loss_number for r in result.units)
    for before, after in zip(units, result.units, strict=True):
        assert 0 <= after.m_after <= 4
        assert after.p4_event is (after.panic_level == 4)
        assert 0 <= after.base_hits <= before.bases
        assert after.bases_after >= 0
        if before.kind is not ART:
            assert after.bases_after == before.bases - after.base_hits - after.prisoners - after.surrendered_bases
        assert after.move is None or after.bases_after > 0
