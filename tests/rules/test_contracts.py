"""The engine's shared pieces: dice, hits, leaders, morale ladder, forced moves, codec."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.codec import decode, encode
from republic.rules.dice import Roll, RollSource, d10, roll_2d10, roll_d10
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, resolve_forced_move
from republic.rules.hits import Hits
from republic.rules.morale import Condition, MoraleCause, apply_morale_hits, condition_for
from republic.rules.scale import GroundScale
from republic.rules.troops import Leader, LeaderClass


@pytest.mark.parametrize("face", [0, 11, -3, 100])
def test_a_d10_face_outside_one_to_ten_is_refused(face):
    with pytest.raises(RulesInputError, match="1 to 10"):
        d10(face)


class CountingRandom:
    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, a, b):
        assert (a, b) == (1, 10)
        return self.faces.pop(0)


def test_app_rolls_come_from_the_random_source_given_and_say_so():
    assert roll_d10(CountingRandom([7])) == Roll((7,), RollSource.APP)
    double = roll_2d10(CountingRandom([5, 5]))
    assert double.is_double and double.total == 10 and double.source is RollSource.APP


def test_hits_read_and_write_chart_notation():
    assert Hits.parse("2M 1B") == Hits(m=2, b=1)
    assert Hits.parse("-") == Hits()
    assert str(Hits(m=1, p=3)) == "1M 3P"
    with pytest.raises(ValueError):
        Hits.parse("2X")


def test_leader_values_are_written_class_then_rating():
    assert Leader.parse("E4") == Leader(LeaderClass.ENERGETIC, 4)
    assert str(Leader.parse("c0")) == "C0"
    assert Leader.parse("P-1").rating == -1
    for bad in ("X2", "E5", "E-2", ""):
        with pytest.raises(RulesInputError):
            Leader.parse(bad)


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
def test_morale_ladder_one_step_per_m_hit(m_hits, condition):
    """T23 (R:483-506)."""
    assert condition_for(m_hits) is condition


def test_rattled_unit_taking_three_m_from_fire_is_demoralized_with_one_p():
    """T9 (R:1275-1278)."""
    result = apply_morale_hits(2, 3, MoraleCause.FIRE)
    assert result.condition_after is Condition.DEMORALIZED
    assert result.panic_hits == 1


def test_demoralized_unit_taking_three_m_from_fire_takes_three_p():
    """T10 (R:1276-1278)."""
    assert apply_morale_hits(4, 3, MoraleCause.FIRE).panic_hits == 3


def test_rout_leaves_a_demoralized_unit_demoralized_without_panic():
    result = apply_morale_hits(4, 1, MoraleCause.ROUT)
    assert result.condition_after is Condition.DEMORALIZED and result.panic_hits == 0


def test_forced_moves_scale_and_double_for_horse(chart):
    rout = resolve_forced_move(chart, ForcedMoveInput(ForcedMove.ROUT, horse=True, scale=GroundScale.SMALL))
    assert rout.distance == 21.0  # 14" x 2 x 0.75
    assert not rout.faces_enemy


def test_unit_that_fell_back_moves_only_four_more_when_its_division_routs(chart):
    """T21 (R:1833-1841)."""
    extra = resolve_forced_move(chart, ForcedMoveInput(ForcedMove.ROUT, already_moved=ForcedMove.FALL_BACK))
    assert extra.distance == 4.0 and not extra.faces_enemy


def test_codec_names_the_field_that_does_not_fit():
    with pytest.raises(RulesInputError) as err:
        decode(ForcedMoveInput, {"move": "sideways"})
    assert err.value.field == "move"
    with pytest.raises(RulesInputError, match="missing"):
        decode(ForcedMoveInput, {})
    with pytest.raises(RulesInputError, match="unknown field"):
        decode(ForcedMoveInput, {"move": "D", "speed": 3})


@pytest.mark.parametrize("distance", [float("nan"), float("inf"), True, "3"])
def test_codec_refuses_a_distance_that_is_not_a_finite_number(distance):
    from republic.rules.skirmish import SkirmishAttackInput

    with pytest.raises(RulesInputError) as err:
        decode(SkirmishAttackInput, {"grade": "veteran", "range": distance, "roll": 5})
    assert err.value.field == "range"


def test_codec_round_trips_a_result_with_its_provenance(chart):
    result = resolve_forced_move(chart, decode(ForcedMoveInput, {"move": "W", "scale": "large"}))
    data = encode(result)
    assert data["distance"] == 12.0 and data["provisional"] is False
    assert data["cells"][0]["provenance"] == "confirmed"


def test_average_unit_routing_out_of_a_rear_assault_a_town_and_across_a_bridge_loses_four(chart):
    """T20 (R:1891-1895): base loss 1 plus 1 for each condition."""
    from republic.rules.panic import PanicInput, resolve_panic
    from republic.rules.troops import Grade

    result = resolve_panic(
        chart, PanicInput(Grade.AVERAGE, 4, out_of_town=True, across_bridge_or_ford=True, away_from_rear_assault=True)
    )
    assert result.move is ForcedMove.ROUT and result.loss == 4


def test_veteran_two_panic_hits_withdraw_and_untrained_retreat(chart):
    """T18, T19 (R:1714-1721)."""
    from republic.rules.panic import PanicInput, resolve_panic
    from republic.rules.troops import Grade

    veteran = resolve_panic(chart, PanicInput(Grade.VETERAN, 2))
    assert (veteran.move, veteran.loss, veteran.provisional) == (ForcedMove.WITHDRAW, 0, False)
    assert resolve_panic(chart, PanicInput(Grade.UNTRAINED, 2)).move is ForcedMove.RETREAT


@given(st.integers(0, 4), st.integers(0, 12), st.sampled_from(list(MoraleCause)))
def test_the_morale_ladder_never_leaves_its_range_and_converts_only_the_excess(m_hits, new, cause):
    result = apply_morale_hits(m_hits, new, cause)
    assert 0 <= result.m_after <= 4
    assert result.m_after == min(4, m_hits + new)
    assert result.panic_hits == (m_hits + new - result.m_after if cause.converts_to_panic else 0)
