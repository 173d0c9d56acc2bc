"""The demoralized panic test (4.7): the panic move of a demoralized unit whose M hits from fire became P hits,
its Panic 4 losses deserting at once, and bad input to the test."""

import pytest

from republic.rules.codec import decode
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import MoraleCause, apply_morale_hits
from republic.rules.panic import DemoralizedPanicInput, after_demoralized_panic, resolve_demoralized_panic
from republic.rules.troops import Grade
from tests.rules.unit_states import brigade

# --- the demoralized panic test (4.7) --------------------------------------------------------------


def test_demoralized_unit_taking_three_m_from_fire_makes_its_p3_move(chart):
    """T10 (R:1276-1278) then 4.7 (R:1316-1324): 3M on a demoralized unit are 3P."""
    panic_hits = apply_morale_hits(4, 3, MoraleCause.FIRE).panic_hits
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput(Grade.VETERAN, panic_hits, 5))
    cell = chart.cell("panic_index", "veteran", "p3")[0]
    assert (result.level, result.move, result.p4_event) == (3, cell.move, False)
    assert any("no divisional or inter-divisional panic test now" in note for note in result.notes)


def test_demoralized_p4_losses_desert_at_once(chart):
    """4.7 (R:1318-1321): the Panic 4 loss number deserts and is removed at once."""
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput(Grade.AVERAGE, 4, 3, out_of_town=True))
    assert result.p4_event and result.move is ForcedMove.ROUT
    assert result.deserters == 2 and result.bases_after == 1  # Rt 1 + 1 out of town
    assert result.distance == 14.0


def test_demoralized_unit_cannot_desert_more_bases_than_it_has(chart):
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput(Grade.UNTRAINED, 6, 1))
    assert result.deserters == 1 and result.bases_after == 0 and result.level == 4


def test_a_demoralized_unit_whose_panic_move_the_enemy_blocks_surrenders(chart):
    """R:1318 ("as with other panic hits") brings the panic move of 4.7 under 5.5's Group Surrender
    (R:1673-1678): unable to move without passing through an enemy formation, the unit surrenders whole; a Panic
    4 event still counts for its division. Old records without the flag decode as not blocked."""
    result = resolve_demoralized_panic(chart, DemoralizedPanicInput(Grade.VETERAN, 4, 5, retreat_blocked=True))
    assert (result.surrendered, result.bases_after, result.deserters, result.p4_event) == (True, 0, 0, True)
    assert any("5.5 Group Surrender" in note for note in result.notes)
    after = after_demoralized_panic(brigade(bases=5, m_hits=4, p_hits_turn=4), result)
    assert (after.bases, after.surrendered, after.p4_event, after.out_of_play) == (0, True, True, True)
    free = resolve_demoralized_panic(chart, DemoralizedPanicInput(Grade.VETERAN, 4, 5))
    assert not free.surrendered and free.bases_after == 5 - free.deserters
    assert decode(DemoralizedPanicInput, {"grade": "green", "panic_hits": 2, "bases": 3}).retreat_blocked is False


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"grade": "green", "panic_hits": 0, "bases": 3}, "panic_hits"),
        ({"grade": "green", "panic_hits": 2, "bases": 0}, "bases"),
        ({"grade": "green", "panic_hits": 2, "bases": 3, "kind": "zeppelin"}, "kind"),
    ],
)
def test_bad_demoralized_panic_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(DemoralizedPanicInput, data)
    assert err.value.field == field
