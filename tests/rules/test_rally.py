"""Rallying (2.3): the Rally Table, its modifiers and the worked example of R:540-566."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.catalog import mechanic
from republic.rules.codec import decode
from republic.rules.dice import Roll, d10
from republic.rules.errors import RulesInputError
from republic.rules.leaders import CommandRelation
from republic.rules.morale import Condition
from republic.rules.rally import RallyInput, RallyLeader, distance_modifier, lost_percent, rally_outcome, resolve_rally
from republic.rules.results import Provenance
from republic.rules.scale import GroundScale
from republic.rules.troops import Grade, Leader
from republic.rules.worked_examples import EXAMPLES_BY_KEY

CONDITIONS = list(Condition)
GRADES = list(Grade)


def rally_input(**overrides) -> RallyInput:
    """Green, rattled, 25% lost, a zero-rated divisional leader close by: Example 1 of R:540-550."""
    fields = {
        "grade": Grade.GREEN,
        "m_hits": 2,
        "roll": d10(6),
        "division_leader": Leader.parse("P0"),
        "division_leader_distance": 2.0,
        "bases_at_start": 8,
        "bases_now": 6,
    }
    return RallyInput(**{**fields, **overrides})


def labels(result) -> dict[str, int]:
    return {m.label: m.value for m in result.modifiers}


# --- worked examples (T1-T4 are republic/rules/worked_examples.py's, held in test_worked_examples.py) ------


def test_divisional_leader_nine_inches_away_costs_two(chart):
    """T5 (R:561-566): every whole 4" step counts, as the example does; here as a rally's modifier reads it."""
    assert EXAMPLES_BY_KEY["T5"].on(chart).holds
    result = resolve_rally(chart, rally_input(division_leader_distance=9.0))
    assert labels(result)['each 4" to divisional leader (9" away, 2 steps)'] == -2


# --- modifiers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "scale", "expected"),
    [
        (0.0, GroundScale.MEDIUM, 0),
        (3.9, GroundScale.MEDIUM, 0),
        (4.0, GroundScale.MEDIUM, -1),
        (7.99, GroundScale.MEDIUM, -1),
        (23.9, GroundScale.MEDIUM, -5),
        (24.0, GroundScale.MEDIUM, -6),
        (100.0, GroundScale.MEDIUM, -6),
        (9.0, GroundScale.LARGE, -1),
        (12.0, GroundScale.LARGE, -2),
        (9.0, GroundScale.SMALL, -3),
    ],
)
def test_distance_to_divisional_leader_counts_whole_steps_in_the_games_scale_to_at_most_six(
    chart, distance, scale, expected
):
    modifier, cells = distance_modifier(chart, distance, scale)
    assert (modifier.value if modifier else 0) == expected
    assert {c.table for c in cells} == {"rally_leader_distance", "ground_scale"}


def test_living_divisional_leader_adds_his_rating_at_any_distance(chart):
    result = resolve_rally(chart, rally_input(division_leader=Leader.parse("E2"), division_leader_distance=40.0))
    assert labels(result)["divisional leader's rating (E2), at any distance"] == 2
    assert result.modifier_total == 2 - 6 - 2


def test_fallen_divisional_leader_subtracts_his_rating(chart):
    result = resolve_rally(chart, rally_input(division_leader=Leader.parse("E2"), division_leader_hors_de_combat=True))
    assert result.modifier_total == -2 - 2


def test_fallen_minus_one_divisional_leader_is_subtracted_literally_and_adds_one(chart):
    result = resolve_rally(chart, rally_input(division_leader=Leader.parse("C-1"), division_leader_hors_de_combat=True))
    assert result.modifier_total == 1 - 2


def test_zero_rated_divisional_leader_gives_no_modifier(chart):
    result = resolve_rally(chart, rally_input(bases_now=8))
    assert result.modifiers == ()


def test_corps_and_army_leaders_in_the_chain_within_four_inches_add_up(chart):
    others = (
        RallyLeader(Leader.parse("P2"), CommandRelation.CHAIN_OF_COMMAND),
        RallyLeader(Leader.parse("E4"), CommandRelation.CHAIN_OF_COMMAND),
    )
    result = resolve_rally(chart, rally_input(division_leader=Leader.parse("P1"), other_leaders=others, bases_now=8))
    assert result.modifier_total == 1 + 2 + 4


@pytest.mark.parametrize(
    ("leader", "relation", "expected"),
    [
        ("C-1", CommandRelation.CHAIN_OF_COMMAND, -1),
        ("C-1", CommandRelation.ADJOINING_SAME_CORPS, 0),
        ("P1", CommandRelation.CHAIN_OF_COMMAND, 1),
        ("P1", CommandRelation.ADJOINING_SAME_CORPS, 0),
        ("P2", CommandRelation.ADJOINING_SAME_CORPS, 2),
        ("P2", CommandRelation.SAME_SIDE_OTHER, 0),
        ("E3", CommandRelation.SAME_SIDE_OTHER, 3),
        ("E3", CommandRelation.ADJOINING_SAME_CORPS, 3),
        ("E4", CommandRelation.SAME_SIDE_OTHER, 4),
    ],
)
def test_other_leaders_give_their_rally_bonus_only_within_their_ratings_reach(chart, leader, relation, expected):
    others = (RallyLeader(Leader.parse(leader), relation),)
    result = resolve_rally(chart, rally_input(other_leaders=others, bases_now=8))
    assert result.modifier_total == expected
    out_of_reach = [n for n in result.notes if "gives no rally bonus" in n]
    assert bool(out_of_reach) == (expected == 0)


@pytest.mark.parametrize(
    ("start", "now", "percent", "modifier"),
    [
        (8, 8, 0, 0),
        (8, 7, 12, -1),
        (4, 3, 25, -2),
        (8, 6, 25, -2),
        (3, 2, 33, -2),
        (8, 5, 37, -3),
        (2, 1, 50, -4),
        (3, 1, 66, -5),
        (4, 1, 75, -6),
        (8, 1, 87, -7),
    ],
)
def test_bases_lost_give_a_whole_percent_and_its_band(chart, start, now, percent, modifier):
    assert lost_percent(start, now) == percent
    result = resolve_rally(chart, rally_input(bases_at_start=start, bases_now=now))
    assert result.lost_percent == percent
    assert result.modifier_total == modifier


@pytest.mark.parametrize(
    ("damage", "percent", "modifier"), [(0, 0, 0), (1, 20, -1), (2, 40, -3), (3, 60, -4), (4, 80, -6)]
)
def test_each_battery_damage_counts_as_twenty_percent_lost(chart, damage, percent, modifier):
    """R:569-570."""
    result = resolve_rally(chart, rally_input(bases_at_start=None, bases_now=None, battery_damage=damage))
    assert (result.lost_percent, result.modifier_total) == (percent, modifier)
    battery = [c for c in result.cells if c.table == "rally_battery_damage"]
    assert battery[0].provenance is Provenance.CONFIRMED


def test_demoralized_unit_below_the_lowest_number_stays_demoralized_and_says_so(chart):
    result = resolve_rally(
        chart,
        rally_input(
            m_hits=4, roll=d10(1), division_leader=Leader.parse("C-1"), division_leader_distance=30.0, bases_now=1
        ),
    )
    assert result.new_number < result.old_number
    assert result.condition_after is Condition.DEMORALIZED and result.m_hits == 4
    assert any("stays Demoralized" in n for n in result.notes)


def test_a_unit_can_rally_all_the_way_to_formed(chart):
    result = resolve_rally(
        chart, rally_input(grade=Grade.CRACK, m_hits=4, roll=d10(10), bases_now=8, division_leader=Leader.parse("E4"))
    )
    assert result.condition_after is Condition.FORMED and result.m_hits == 0


# --- the tables --------------------------------------------------------------------------------------


def rally_line(chart, grade: Grade) -> list[int]:
    return [chart.cell("rally", grade.value, c.value)[0] for c in CONDITIONS]


@pytest.mark.parametrize("grade", GRADES)
def test_every_rally_line_falls_from_formed_to_demoralized(chart, grade):
    line = rally_line(chart, grade)
    assert all(better > worse for better, worse in pairwise(line))


def test_green_rally_cells_of_example_one_say_where_they_come_from(chart):
    """Example 1's values are held by republic/rules/worked_examples.py (tests/rules/test_worked_examples.py)."""
    assert chart.cell("rally", "green", "rattled")[1].provenance is Provenance.CONFIRMED
    assert chart.cell("rally", "green", "unformed")[1].provenance is Provenance.DERIVED


@pytest.mark.parametrize("better", GRADES[:-1])
def test_a_better_grade_has_the_same_middle_gaps_and_no_wider_outer_gaps(chart, better):
    worse = better.lowered()
    good, bad = rally_line(chart, better), rally_line(chart, worse)
    gaps = [[a - b for a, b in pairwise(line)] for line in (good, bad)]
    assert gaps[0][1:3] == gaps[1][1:3]  # unformed-rattled, rattled-shaken decide falls as well as recoveries
    assert gaps[0][0] <= gaps[1][0] and gaps[0][3] <= gaps[1][3]


@pytest.mark.parametrize("percent", range(0, 101))
def test_every_loss_percent_lands_in_exactly_one_band(chart, percent):
    bands = chart.tables["rally_losses"].bands
    assert sum(band.holds(percent) for band in bands) == 1


def test_loss_modifier_never_improves_with_more_losses_and_a_quarter_costs_two(chart):
    values = [chart.band("rally_losses", p)[0] for p in range(0, 101)]
    assert all(a >= b for a, b in pairwise(values))
    value, use = chart.band("rally_losses", 25)
    assert value == -2 and use.provenance is Provenance.DERIVED


def test_leader_point_and_distance_entries_are_confirmed_from_the_text(chart):
    for table in ("rally_leader_points", "rally_leader_distance", "rally_battery_damage"):
        cells = chart.tables[table].cells.values()
        assert all(cell.provenance is Provenance.CONFIRMED and cell.source for cell in cells)


# --- invariants --------------------------------------------------------------------------------------

grades = st.sampled_from(GRADES)
starts = st.sampled_from(CONDITIONS[1:])
rolls = st.integers(min_value=-30, max_value=30)


@given(grade=grades, start=starts, roll=rolls)
def test_a_higher_modified_roll_never_does_worse(chart, grade, start, roll):
    low = rally_outcome(chart, grade, start, roll).condition
    high = rally_outcome(chart, grade, start, roll + 1).condition
    assert high.m_hits <= low.m_hits


@given(grade=st.sampled_from(GRADES[:-1]), start=starts, roll=rolls)
def test_a_better_grade_never_does_worse_from_the_same_condition_and_roll(chart, grade, start, roll):
    good = rally_outcome(chart, grade, start, roll).condition
    bad = rally_outcome(chart, grade.lowered(), start, roll).condition
    assert good.m_hits <= bad.m_hits


@given(
    grade=grades,
    m_hits=st.integers(min_value=1, max_value=4),
    face=st.integers(min_value=1, max_value=9),
    rating=st.integers(min_value=-1, max_value=4),
    fallen=st.booleans(),
    distance=st.floats(min_value=0, max_value=60, allow_nan=False),
    lost=st.integers(min_value=0, max_value=7),
)
def test_rally_results_stay_on_the_ladder_and_never_worsen_with_a_higher_die(
    chart, grade, m_hits, face, rating, fallen, distance, lost
):
    leader = Leader.parse(f"P{rating}")
    common = {
        "grade": grade,
        "m_hits": m_hits,
        "division_leader": leader,
        "division_leader_hors_de_combat": fallen,
        "division_leader_distance": distance,
        "bases_at_start": 8,
        "bases_now": 8 - lost,
    }
    low = resolve_rally(chart, RallyInput(roll=d10(face), **common))
    high = resolve_rally(chart, RallyInput(roll=d10(face + 1), **common))
    assert 0 <= low.m_hits <= 4 and 0 <= high.m_hits <= 4
    assert high.m_hits <= low.m_hits
    assert low.m_hits == low.condition_after.m_hits


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"m_hits": 0}, "m_hits"),
        ({"m_hits": 5}, "m_hits"),
        ({"m_hits": -1}, "m_hits"),
        ({"roll": Roll((5, 5))}, "roll"),
        ({"division_leader_distance": -1.0}, "division_leader_distance"),
        ({"bases_at_start": 0, "bases_now": 0}, "bases_at_start"),
        ({"bases_now": 9}, "bases_now"),
        ({"bases_now": 0}, "bases_now"),
        ({"bases_now": None}, "bases_now"),
        ({"bases_at_start": None, "bases_now": None}, "bases_at_start"),
        ({"battery_damage": 1}, "bases_at_start"),
        ({"bases_at_start": None, "bases_now": None, "battery_damage": -1}, "battery_damage"),
    ],
)
def test_bad_rally_input_names_its_field(overrides, field):
    with pytest.raises(RulesInputError) as err:
        rally_input(**overrides)
    assert err.value.field == field


def test_a_formed_unit_is_refused_with_a_reason():
    with pytest.raises(RulesInputError, match="only a unit with M hits rallies"):
        rally_input(m_hits=0)


def test_a_battery_with_all_its_strength_lost_cannot_rally(chart):
    with pytest.raises(RulesInputError) as err:
        resolve_rally(chart, rally_input(bases_at_start=None, bases_now=None, battery_damage=5))
    assert err.value.field == "battery_damage"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"grade": "elite"}, "grade"),
        ({"division_leader": "X9"}, "division_leader"),
        ({"other_leaders": [{"leader": "E2", "relation": "cousin"}]}, "other_leaders[0].relation"),
        ({"roll": 11}, "roll"),
    ],
)
def test_decoding_rally_input_names_the_field_that_does_not_fit(data, field):
    base = {
        "grade": "green",
        "m_hits": 2,
        "roll": 6,
        "division_leader": "P0",
        "division_leader_distance": 2,
        "bases_at_start": 8,
        "bases_now": 6,
    }
    with pytest.raises(RulesInputError) as err:
        decode(RallyInput, {**base, **data})
    assert err.value.field == field


def test_rally_is_registered_and_resolves_decoded_input(chart):
    rally = mechanic("rally")
    inputs = decode(
        rally.inputs,
        {
            "grade": "green",
            "m_hits": 2,
            "roll": 4,
            "division_leader": "P0",
            "division_leader_distance": 2,
            "bases_at_start": 4,
            "bases_now": 3,
        },
    )
    assert rally.resolve(chart, inputs).condition_after is Condition.RATTLED
