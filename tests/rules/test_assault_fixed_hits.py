"""Fixed assault hits (5.2, 5.5): the bridging unit's worst of each hit, the fixed hits and passage of lines
tables, a battery's response to a forced move, passage of lines, the supporting brigade and break off."""

import pytest

from republic.rules.assault_fixed_hits import (
    BreakOffInput,
    BridgingInput,
    PassageInput,
    PassingUnit,
    SupportingBrigadeInput,
    bridging_hits,
    passage_blocked,
    resolve_break_off,
    resolve_bridging_hits,
    resolve_passage_of_lines,
    resolve_supporting_brigade,
)
from republic.rules.forced_moves import BatteryAction, BatteryResponse, ForcedMove
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.results import Provenance
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, UnitKind
from tests.rules.unit_states import battery, brigade
from tests.rules.units_taking_hits import ART, INF, panic_cell

# --- worked example --------------------------------------------------------------------------------


def test_bridging_unit_takes_the_worst_of_each_hit_type_not_the_sum(chart):
    """T22 (R:1465-1471): 2M 2P and 3M 2P -> 3M 2P."""
    result = resolve_bridging_hits(chart, BridgingInput((Hits(m=2, p=2), Hits(m=3, p=2))))
    assert result.hits == Hits(m=3, p=2)
    assert bridging_hits(Hits(m=1, p=3), Hits(m=2), Hits(b=1)) == Hits(m=2, b=1, p=3)


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


def test_a_packed_battery_blocks_passage_of_lines_and_a_normal_one_or_a_brigade_does_not():
    """R:842-845: a battery at packed frontage blocks all movement through its position."""
    assert "blocks all movement through its position" in passage_blocked(battery(packed=True))
    assert passage_blocked(battery()) == "" and passage_blocked(brigade()) == ""


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
