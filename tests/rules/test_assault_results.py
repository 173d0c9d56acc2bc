"""Assault results applied to units (5.2, 5.5): base hits, morale, panic responses, prisoners, batteries,
passage of lines, supporting brigades, break off and bridging formations."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from republic.rules.assault_fixed_hits import (
    BreakOffInput,
    BridgingInput,
    PassageInput,
    PassingUnit,
    SupportingBrigadeInput,
    bridging_hits,
    resolve_break_off,
    resolve_bridging_hits,
    resolve_passage_of_lines,
    resolve_supporting_brigade,
)
from republic.rules.assault_results import AssaultLossesInput, UnitTakingHits, assault_losses
from republic.rules.assault_sides import Contact
from republic.rules.catalog import mechanic
from republic.rules.codec import decode, encode
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import BatteryAction, BatteryResponse, ForcedMove
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.results import Provenance
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind

INF = UnitKind.INFANTRY
ART = UnitKind.ARTILLERY


def unit(id="1st", kind=INF, grade=Grade.AVERAGE, bases=6, **kw):
    return UnitTakingHits(id, kind, grade, bases, **kw)


def by_id(result):
    return {u.id: u for u in result.units}


def panic_cell(chart, grade, level):
    return chart.cell("panic_index", grade.value, f"p{level}")[0]


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


def test_bridging_unit_takes_the_worst_of_each_hit_type_not_the_sum(chart):
    """T22 (R:1465-1471): 2M 2P and 3M 2P -> 3M 2P."""
    result = resolve_bridging_hits(chart, BridgingInput((Hits(m=2, p=2), Hits(m=3, p=2))))
    assert result.hits == Hits(m=3, p=2)
    assert bridging_hits(Hits(m=1, p=3), Hits(m=2), Hits(b=1)) == Hits(m=2, b=1, p=3)


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


# --- tables ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["break_off", "supporting_brigade", "rout_end"])
def test_fixed_assault_hits_are_one_m_as_the_rules_say(chart, key):
    hits, use = chart.entry("assault_fixed_hits", key)
    assert hits == Hits(m=1)
    assert use.provenance is Provenance.CONFIRMED and use.source.startswith("R:")


def test_battery_forced_moves_get_no_kinder_as_the_move_gets_worse(chart):
    responses = [chart.entry("battery_forced_move", move.value)[0] for move in ForcedMove]
    ranks = [(r.action is BatteryAction.ABANDONED, r.damage) for r in responses]
    assert ranks == sorted(ranks)
    assert [r.action for r in responses].count(BatteryAction.ABANDONED) == 1
    assert responses[-1].action is BatteryAction.ABANDONED  # rout
    assert all(chart.entry("battery_forced_move", m.value)[1].provenance is Provenance.CONFIRMED for m in ForcedMove)


@pytest.mark.parametrize(
    ("key", "hits"),
    [("shaken", Hits(m=1)), ("demoralized", Hits(m=2)), ("retreated", Hits(p=1)), ("routed", Hits(p=2))],
)
def test_passage_of_lines_table_is_the_rules_table(chart, key, hits):
    """R:1679-1690."""
    value, use = chart.entry("passage_of_lines_hits", key)
    assert value == hits and use.provenance is Provenance.CONFIRMED and use.source


def test_horse_reaches_twice_as_far_behind_as_foot_in_passage_of_lines(chart):
    foot, _ = chart.entry("passage_of_lines_reach", "foot")
    horse, _ = chart.entry("passage_of_lines_reach", "horse")
    assert (foot, horse) == (3.0, 6.0)


@pytest.mark.parametrize("raw", ["limber 1M", "retire", "limber 1B 1B", 3, "", "abandoned 2P"])
def test_battery_response_cells_refuse_anything_but_limber_damage_or_abandoned(raw):
    with pytest.raises(ValueError, match="battery response"):
        BatteryResponse.parse(raw)


def test_battery_response_cells_read_back_as_written():
    assert str(BatteryResponse.parse("limber 1B")) == "limber 1B"
    assert BatteryResponse.parse("abandoned") == BatteryResponse(BatteryAction.ABANDONED, 0)


# --- passage of lines ------------------------------------------------------------------------------


def passer(m_hits=3, move=ForcedMove.RETREAT, distance=2.0, **kw):
    return PassingUnit(m_hits, move, distance, **kw)


def test_shaken_loser_retreating_through_friends_gives_them_1m_and_1p(chart):
    result = resolve_passage_of_lines(chart, PassageInput((passer(),), Grade.VETERAN))
    assert result.hits_taken == Hits(m=1, p=1)
    assert (result.m_after, result.panic_level) == (1, 1)
    assert result.move is panic_cell(chart, Grade.VETERAN, 1).move


def test_unit_already_demoralized_goes_straight_to_panic_4_when_passed_through(chart):
    """R:1689-1691."""
    result = resolve_passage_of_lines(
        chart, PassageInput((passer(m_hits=3, move=ForcedMove.WITHDRAW),), Grade.AVERAGE, m_hits=4)
    )
    assert (result.panic_hits, result.panic_level, result.p4_event, result.m_after) == (4, 4, True, 4)


def test_only_the_two_worst_results_in_each_category_count(chart):
    passers = tuple(
        passer(m_hits=m, move=mv, id=f"u{i}")
        for i, (m, mv) in enumerate(
            [(4, ForcedMove.ROUT), (3, ForcedMove.RETREAT), (4, ForcedMove.ROUT), (4, ForcedMove.ROUT)]
        )
    )
    result = resolve_passage_of_lines(chart, PassageInput(passers, Grade.CRACK))
    assert result.hits_taken == Hits(m=4, p=4)
    assert len(result.counted) == 4


def test_lesser_conditions_and_moves_inflict_nothing_on_the_unit_passed(chart):
    result = resolve_passage_of_lines(
        chart, PassageInput((passer(m_hits=2, move=ForcedMove.FALL_BACK),), Grade.GREEN, m_hits=1)
    )
    assert result.hits_taken == Hits() and result.m_after == 1 and result.move is None


@pytest.mark.parametrize(
    ("kind", "distance", "hit"),
    [
        (INF, 3.0, True),
        (INF, 3.5, False),
        (UnitKind.CAVALRY_MOUNTED, 6.0, True),
        (UnitKind.CAVALRY_MOUNTED, 6.5, False),
        (ART, 1.0, False),
    ],
)
def test_passage_of_lines_reaches_3_inches_for_foot_and_6_for_horse(chart, kind, distance, hit):
    result = resolve_passage_of_lines(chart, PassageInput((passer(distance=distance, kind=kind),), Grade.VETERAN))
    assert bool(result.hits_taken) is hit


def test_passage_of_lines_reach_follows_the_game_scale(chart):
    inputs = PassageInput((passer(distance=2.5),), Grade.VETERAN, scale=GroundScale.SMALL)
    assert not resolve_passage_of_lines(chart, inputs).hits_taken


def test_a_loser_that_did_not_lose_both_rolls_passes_through_harmlessly(chart):
    result = resolve_passage_of_lines(chart, PassageInput((passer(lost_both_rolls=False),), Grade.VETERAN))
    assert not result.hits_taken


# --- supporting brigade and break off --------------------------------------------------------------


def test_supporter_of_a_retreating_defender_takes_1m_and_disengages(chart):
    result = resolve_supporting_brigade(
        chart, SupportingBrigadeInput(Grade.AVERAGE, bases=6, supporting_bases=2, primary_move=ForcedMove.RETREAT)
    )
    assert (result.m_after, result.move, result.distance) == (1, ForcedMove.DISENGAGE, 6.0)


def test_supporter_may_choose_to_fall_back(chart):
    result = resolve_supporting_brigade(
        chart, SupportingBrigadeInput(Grade.AVERAGE, 6, 2, ForcedMove.ROUT, move=ForcedMove.FALL_BACK)
    )
    assert (result.m_after, result.move) == (1, ForcedMove.FALL_BACK)


@pytest.mark.parametrize("primary", [None, ForcedMove.DISENGAGE, ForcedMove.WITHDRAW, ForcedMove.FALL_BACK])
def test_supporter_takes_nothing_when_the_primary_defender_held_or_fell_back_facing(chart, primary):
    result = resolve_supporting_brigade(chart, SupportingBrigadeInput(Grade.GREEN, 6, 2, primary, m_hits=2))
    assert (result.m_after, result.move, result.panic_hits) == (2, None, 0)


def test_demoralized_supporter_takes_its_m_as_a_panic_hit_and_the_worse_move(chart):
    result = resolve_supporting_brigade(chart, SupportingBrigadeInput(Grade.UNTRAINED, 6, 2, ForcedMove.ROUT, m_hits=4))
    panic_move = panic_cell(chart, Grade.UNTRAINED, 1).move
    assert result.panic_hits == 1
    assert result.move is max(panic_move, ForcedMove.DISENGAGE, key=lambda m: m.severity)


def test_breaking_off_costs_one_m(chart):
    result = resolve_break_off(chart, BreakOffInput(Grade.VETERAN, m_hits=2))
    assert (result.m_after, result.condition_after, result.panic_hits) == (3, Condition.SHAKEN, 0)


def test_a_demoralized_unit_breaking_off_takes_a_panic_hit(chart):
    result = resolve_break_off(chart, BreakOffInput(Grade.GREEN, m_hits=4))
    assert (result.m_after, result.panic_level) == (4, 1)
    assert result.move is panic_cell(chart, Grade.GREEN, 1).move


# --- registration and codec ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["assault_losses", "passage_of_lines", "supporting_brigade", "break_off", "bridging_hits"]
)
def test_mechanics_are_registered(name):
    assert mechanic(name).name == name


def test_assault_losses_resolve_from_json_and_say_they_read_provisional_cells(chart):
    m = mechanic("assault_losses")
    inputs = decode(
        m.inputs,
        {"units": [{"id": "1st", "kind": "infantry", "grade": "green", "bases": 5}], "hits": "1B 3P", "natural_m": 1},
    )
    data = encode(m.resolve(chart, inputs))
    assert data["units"][0]["bases_after"] <= 4 and data["provisional"] is True


# --- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            {
                "units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}] * 2
                + [{"id": "c", "kind": "infantry", "grade": "green", "bases": 0}]
            },
            "units[2].bases",
        ),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "elite", "bases": 3}]}, "units[0].grade"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3, "m_hits": 5}]}, "units[0].m_hits"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3, "damage": 1}]}, "units[0].damage"),
        (
            {"units": [{"id": "a", "kind": "cavalry_mounted", "grade": "green", "bases": 3, "limbered": True}]},
            "units[0].limbered",
        ),
        (
            {"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3, "natural_m": -1}]},
            "units[0].natural_m",
        ),
        ({"units": [{"id": "", "kind": "infantry", "grade": "green", "bases": 3}]}, "units[0].id"),
        ({"units": []}, "units"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}], "hits": "2X"}, "hits"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}], "natural_m": -2}, "natural_m"),
        (
            {"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}], "all_out_extra_m": -1},
            "all_out_extra_m",
        ),
    ],
)
def test_bad_assault_losses_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(AssaultLossesInput, data)
    assert err.value.field == field


def test_a_unit_listed_twice_is_refused_by_its_position():
    with pytest.raises(RulesInputError) as err:
        AssaultLossesInput((unit("a"), unit("b"), unit("a")))
    assert err.value.field == "units[2].id"


@pytest.mark.parametrize(
    ("cls", "data", "field"),
    [
        (PassageInput, {"passers": [], "grade": "green"}, "passers"),
        (
            PassageInput,
            {"passers": [{"m_hits": 3, "move": "Re", "distance": -1}], "grade": "green"},
            "passers[0].distance",
        ),
        (
            PassageInput,
            {"passers": [{"m_hits": 3, "move": "Re", "distance": 1}], "grade": "green", "m_hits": 7},
            "m_hits",
        ),
        (SupportingBrigadeInput, {"grade": "green", "bases": 6, "supporting_bases": 3}, "supporting_bases"),
        (SupportingBrigadeInput, {"grade": "green", "bases": 6, "supporting_bases": 0}, "supporting_bases"),
        (SupportingBrigadeInput, {"grade": "green", "bases": 6, "supporting_bases": 2, "move": "Re"}, "move"),
        (BreakOffInput, {"grade": "green", "m_hits": -1}, "m_hits"),
        (BridgingInput, {"assaults": ["2M"]}, "assaults"),
        (BridgingInput, {"assaults": ["2M", "1Q"]}, "assaults[1]"),
    ],
)
def test_bad_input_to_the_other_mechanics_names_the_field(cls, data, field):
    with pytest.raises(RulesInputError) as err:
        decode(cls, data)
    assert err.value.field == field


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
