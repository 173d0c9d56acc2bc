"""Skirmishing (4.1): blocks, attacks, fleeing, and artillery lowering the skirmisher type."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.charts import shipped_chart
from republic.rules.catalog import mechanic
from republic.rules.codec import decode
from republic.rules.dice import Roll, d10
from republic.rules.errors import RulesInputError
from republic.rules.scale import GroundScale
from republic.rules.skirmish import (
    RANGE_BANDS,
    SKIRMISHER_TYPES,
    BlockAttempt,
    SkirmishAttackInput,
    SkirmishBlocksInput,
    SkirmisherDegradeInput,
    engagement_reach,
    lowered_type,
    resolve_skirmish_attack,
    resolve_skirmish_blocks,
    resolve_skirmisher_degrade,
    skirmisher_type,
)
from republic.rules.troops import Grade

TYPES = [t.value for t in SKIRMISHER_TYPES]
BANDS = list(RANGE_BANDS)
LIMITS = {name: shipped_chart().entry("skirmish_ranges", name)[0] for name in RANGE_BANDS}


# --- tables ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("better", "worse"), list(pairwise(TYPES)))
def test_a_better_skirmisher_type_never_needs_more_to_block(chart, better, worse):
    assert chart.entry("skirmish_block", better)[0] <= chart.entry("skirmish_block", worse)[0]


@pytest.mark.parametrize("kind", TYPES)
def test_every_block_number_can_be_rolled_or_missed_on_a_d10(chart, kind):
    assert 2 <= chart.entry("skirmish_block", kind)[0] <= 10


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize(("better", "worse"), list(pairwise(TYPES)))
def test_a_better_skirmisher_type_never_needs_more_to_hit(chart, band, better, worse):
    assert chart.cell("skirmish_attack", better, band)[0] <= chart.cell("skirmish_attack", worse, band)[0]


@pytest.mark.parametrize("kind", TYPES)
def test_closer_skirmish_fire_never_needs_more_to_hit(chart, kind):
    numbers = [chart.cell("skirmish_attack", kind, band)[0] for band in BANDS]
    assert numbers == sorted(numbers)
    assert all(1 <= n <= 10 for n in numbers)


@pytest.mark.parametrize("kind", TYPES)
def test_only_green_and_untrained_markers_flee_and_never_on_a_hitting_roll(chart, kind):
    flee = chart.entry("skirmish_flee", kind)[0]
    if kind in ("crack", "veteran"):
        assert flee is None
    else:
        assert flee is not None and flee >= 1
        assert all(flee < chart.cell("skirmish_attack", kind, band)[0] for band in BANDS)


def test_untrained_flee_at_least_as_often_as_green(chart):
    assert chart.entry("skirmish_flee", "untrained")[0] >= chart.entry("skirmish_flee", "green")[0]


def test_the_last_range_band_is_the_rules_five_inch_reach():
    assert LIMITS[RANGE_BANDS[-1]] == 5.0
    assert list(LIMITS.values()) == sorted(set(LIMITS.values()))


@pytest.mark.parametrize("scale, reach", [("small", 3.75), ("medium", 5.0), ("large", 7.5)])
def test_a_marker_engages_as_far_as_the_last_range_column_at_the_game_s_scale(chart, scale, reach):
    assert engagement_reach(chart, GroundScale(scale)) == reach


# --- skirmisher types --------------------------------------------------------------------------------


def test_one_b_drops_veteran_skirmishers_to_green():
    """R:1244-1248: a unit with Veteran skirmishers that takes a B on a marker drops to Green."""
    assert lowered_type(Grade.VETERAN, 1) is Grade.GREEN


def test_average_markers_read_the_veteran_line():
    assert skirmisher_type(Grade.AVERAGE) is Grade.VETERAN
    assert lowered_type(Grade.AVERAGE, 1) is Grade.GREEN


@pytest.mark.parametrize(
    ("grade", "hits", "after"),
    [
        (Grade.CRACK, 1, Grade.VETERAN),
        (Grade.CRACK, 2, Grade.GREEN),
        (Grade.GREEN, 1, Grade.UNTRAINED),
        (Grade.UNTRAINED, 1, Grade.UNTRAINED),
        (Grade.VETERAN, 0, Grade.VETERAN),
    ],
)
def test_each_b_on_a_packed_marker_lowers_the_type_one_line(chart, grade, hits, after):
    result = resolve_skirmisher_degrade(chart, SkirmisherDegradeInput(grade, hits))
    assert result.type_after is after


def test_untrained_is_the_floor_and_the_result_says_so(chart):
    result = resolve_skirmisher_degrade(chart, SkirmisherDegradeInput(Grade.VETERAN, 5))
    assert (result.type_after, result.levels_lost) == (Grade.UNTRAINED, 2)
    assert any("lowest" in note for note in result.notes)


@given(st.sampled_from(list(Grade)), st.integers(0, 10), st.integers(0, 10))
def test_degrading_twice_is_degrading_once_by_the_sum(grade, first, second):
    assert lowered_type(lowered_type(grade, first), second) is lowered_type(grade, first + second)


# --- blocks ------------------------------------------------------------------------------------------


def block(blocker, grade, target, face):
    return BlockAttempt(blocker, grade, target, d10(face))


def test_a_block_succeeds_on_the_number_or_above(chart):
    needed = chart.entry("skirmish_block", "veteran")[0]
    result = resolve_skirmish_blocks(
        chart,
        SkirmishBlocksInput((block("d1", Grade.VETERAN, "a1", needed), block("d2", Grade.VETERAN, "a2", needed - 1))),
    )
    assert [a.blocked for a in result.attempts] == [True, False]
    assert result.blocked == ("a1",)
    assert all(a.needed == needed for a in result.attempts)
    assert result.provisional


def test_several_defenders_may_try_one_attacker_and_one_success_blocks_it(chart):
    needed = chart.entry("skirmish_block", "green")[0]
    result = resolve_skirmish_blocks(
        chart,
        SkirmishBlocksInput(
            (
                block("d1", Grade.GREEN, "a1", needed - 1),
                block("d2", Grade.GREEN, "a1", needed),
                block("d3", Grade.CRACK, "a1", 10),
            )
        ),
    )
    assert result.blocked == ("a1",)
    assert len(result.cells) == 3


def test_an_average_blocker_reads_the_veteran_line(chart):
    result = resolve_skirmish_blocks(chart, SkirmishBlocksInput((block("d1", Grade.AVERAGE, "a1", 1),)))
    assert result.attempts[0].skirmisher_type is Grade.VETERAN
    assert result.cells[0].key == "veteran"


def test_a_blocking_marker_declares_only_one_block():
    with pytest.raises(RulesInputError) as err:
        SkirmishBlocksInput((block("d1", Grade.GREEN, "a1", 5), block("d1", Grade.GREEN, "a2", 5)))
    assert err.value.field == "blocks[1].blocker"


def test_no_blocks_declared_blocks_nothing(chart):
    assert resolve_skirmish_blocks(chart, SkirmishBlocksInput()).blocked == ()


def test_blocks_decode_from_json_and_name_the_bad_field():
    inputs = decode(SkirmishBlocksInput, {"blocks": [{"blocker": "d1", "grade": "crack", "target": "a1", "roll": 6}]})
    assert inputs.blocks[0].roll == d10(6)
    with pytest.raises(RulesInputError) as err:
        decode(SkirmishBlocksInput, {"blocks": [{"blocker": "d1", "grade": "crack", "target": "a1", "roll": [3, 4]}]})
    assert err.value.field == "blocks[0].roll"
    with pytest.raises(RulesInputError) as err:
        decode(SkirmishBlocksInput, {"blocks": [{"blocker": " ", "grade": "crack", "target": "a1", "roll": 3}]})
    assert err.value.field == "blocks[0].blocker"


# --- attacks -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize("grade", list(Grade))
def test_an_attack_scores_1m_on_the_number_or_above(chart, grade, band):
    kind = skirmisher_type(grade).value
    limit = LIMITS[band]
    needed = chart.cell("skirmish_attack", kind, band)[0]
    hit = resolve_skirmish_attack(chart, SkirmishAttackInput(grade, limit, d10(needed)))
    assert (hit.hit, hit.m_hits, hit.band, hit.fled) == (True, 1, band, False)
    miss = resolve_skirmish_attack(chart, SkirmishAttackInput(grade, limit, d10(needed - 1)))
    assert (miss.hit, miss.m_hits) == (False, 0)


def test_the_hit_takes_effect_at_the_end_of_the_artillery_phase(chart):
    result = resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.CRACK, 1.0, d10(10)))
    assert any("end of the artillery phase" in note for note in result.notes)


@pytest.mark.parametrize("grade", [Grade.GREEN, Grade.UNTRAINED])
def test_green_and_untrained_markers_flee_on_a_low_roll_and_score_nothing(chart, grade):
    flee_on = chart.entry("skirmish_flee", grade.value)[0]
    result = resolve_skirmish_attack(chart, SkirmishAttackInput(grade, 1.0, d10(flee_on)))
    assert result.fled and not result.hit and result.m_hits == 0
    assert not resolve_skirmish_attack(chart, SkirmishAttackInput(grade, 1.0, d10(flee_on + 1))).fled


@pytest.mark.parametrize("grade", [Grade.CRACK, Grade.VETERAN, Grade.AVERAGE])
def test_better_markers_never_flee(chart, grade):
    assert not resolve_skirmish_attack(chart, SkirmishAttackInput(grade, 1.0, d10(1))).fled


@given(st.sampled_from(list(Grade)), st.integers(1, 9), st.floats(0, 5))
def test_a_higher_attack_roll_never_does_worse(grade, face, distance):
    from republic.charts import shipped_chart

    chart = shipped_chart()
    low = resolve_skirmish_attack(chart, SkirmishAttackInput(grade, distance, d10(face)))
    high = resolve_skirmish_attack(chart, SkirmishAttackInput(grade, distance, d10(face + 1)))
    assert high.m_hits >= low.m_hits and (high.fled <= low.fled)


@pytest.mark.parametrize(
    ("scale", "reach"), [(GroundScale.SMALL, 3.75), (GroundScale.MEDIUM, 5.0), (GroundScale.LARGE, 7.5)]
)
def test_skirmish_reach_is_five_inches_in_the_games_scale(chart, scale, reach):
    assert resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.CRACK, reach, d10(10), scale)).band == "r2"
    with pytest.raises(RulesInputError) as err:
        resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.CRACK, reach + 0.25, d10(10), scale))
    assert err.value.field == "range"


def test_close_band_ends_at_two_inches_scaled(chart):
    close = resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.CRACK, 3.0, d10(10), GroundScale.LARGE))
    far = resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.CRACK, 3.25, d10(10), GroundScale.LARGE))
    assert (close.band, far.band) == ("r1", "r2")


def test_a_blocked_marker_may_not_attack():
    with pytest.raises(RulesInputError) as err:
        SkirmishAttackInput(Grade.VETERAN, 3.0, d10(8), blocked=True)
    assert err.value.field == "blocked"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"grade": "elite", "range": 3, "roll": 5}, "grade"),
        ({"grade": "green", "range": -1, "roll": 5}, "range"),
        ({"grade": "green", "range": 3, "roll": [5, 6]}, "roll"),
        ({"grade": "green", "range": 3, "roll": 11}, "roll"),
        ({"grade": "green", "range": 3, "roll": 5, "scale": "huge"}, "scale"),
    ],
)
def test_bad_attack_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(SkirmishAttackInput, data)
    assert err.value.field == field


@pytest.mark.parametrize("hits", [-1, True, 1.5])
def test_degrade_refuses_a_bad_number_of_hits(hits):
    with pytest.raises(RulesInputError) as err:
        SkirmisherDegradeInput(Grade.GREEN, hits)
    assert err.value.field == "b_hits"


def test_the_skirmish_mechanics_are_registered():
    assert mechanic("skirmish_attack").inputs is SkirmishAttackInput
    assert mechanic("skirmish_blocks").inputs is SkirmishBlocksInput
    assert mechanic("skirmisher_degrade").inputs is SkirmisherDegradeInput


def test_a_roll_made_by_the_app_is_accepted(chart):
    from republic.rules.dice import RollSource

    result = resolve_skirmish_attack(chart, SkirmishAttackInput(Grade.CRACK, 1.0, Roll((10,), RollSource.APP)))
    assert result.hit
