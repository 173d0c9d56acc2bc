"""A supporting brigade's hit (5.5, R:1784-1792) without a database."""

from dataclasses import replace

import pytest

from republic.play.refusal import Refused
from republic.play.supporting import supporting_hit
from republic.rules.forced_moves import ForcedMove
from republic.rules.scale import GroundScale
from tests.rules.unit_states import battery, brigade

MEDIUM = GroundScale.MEDIUM


@pytest.mark.parametrize("primary_move", [ForcedMove.RETREAT, ForcedMove.ROUT])
def test_a_supporter_of_a_primary_driven_back_takes_its_hit_and_makes_the_move_the_table_chose(chart, primary_move):
    unit, primary = brigade("support"), replace(brigade("primary"), forced_move=primary_move)
    done = supporting_hit(chart, MEDIUM, unit, primary, 2, ForcedMove.WITHDRAW)
    assert done.result.hits_taken.m > 0
    assert done.unit.m_hits == done.result.m_after > unit.m_hits
    assert done.unit.forced_move is ForcedMove.WITHDRAW


@pytest.mark.parametrize("primary_move", [None, ForcedMove.DISENGAGE, ForcedMove.FALL_BACK])
def test_a_supporter_of_a_primary_that_held_or_fell_back_facing_the_enemy_takes_nothing(chart, primary_move):
    unit, primary = brigade("support"), replace(brigade("primary"), forced_move=primary_move)
    assert supporting_hit(chart, MEDIUM, unit, primary, 2, ForcedMove.DISENGAGE).unit == unit


def test_a_battery_is_no_supporting_brigade(chart):
    with pytest.raises(Refused, match="a supporting brigade is infantry or cavalry"):
        supporting_hit(chart, MEDIUM, battery("bty"), brigade("primary"), 1, ForcedMove.DISENGAGE)
