"""An assault round's outcome carried onto the units, as the table does it: assault_round, then
assault_losses for the side that takes hits."""

from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_results import AssaultLossesInput, UnitTakingHits, resolve_assault_losses
from republic.rules.assault_sides import AssaultSide, AssaultUnit
from republic.rules.dice import d10
from republic.rules.forced_moves import ForcedMove
from republic.rules.troops import Grade, UnitKind


def test_a_demoralized_defender_beaten_by_six_with_a_lost_natural_roll_suffers_panic_4(chart):
    """T17 (R:1659-1665) end to end: veteran 8 against a demoralized average brigade's 7. Modified 9
    against 3 (the demoralized penalty is the chart's), difference +6: 3P on the Pitched Battle column,
    and the lost natural roll by 1 is 1M, which a demoralized unit takes as a fourth P."""
    round_ = resolve_assault_round(
        chart,
        AssaultRoundInput(
            attacker=AssaultSide(d10(8), (AssaultUnit(Grade.VETERAN, 4),)),
            defender=AssaultSide(d10(7), (AssaultUnit(Grade.AVERAGE, 4, m_hits=4),)),
        ),
    )
    side = round_.defender
    assert round_.difference == 6 and side.table_hits.p == 3 and side.natural_m == 1

    losses = resolve_assault_losses(
        chart,
        AssaultLossesInput(
            units=(
                UnitTakingHits(
                    "iron brigade", UnitKind.INFANTRY, Grade.AVERAGE, 4, m_hits=4, natural_m=side.natural_m_by_unit[0]
                ),
            ),
            hits=side.table_hits,
            natural_m=side.natural_m,
            all_out_extra_m=side.all_out_extra_m,
        ),
    )
    unit = losses.units[0]
    assert (unit.panic_level, unit.p4_event) == (4, True)
    assert unit.move is ForcedMove(chart.cell("panic_index", "average", "p4")[0].move)
