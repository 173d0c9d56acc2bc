"""A supporting brigade's hit (5.5, R:1784-1792) as the game decides it: a defending brigade that supported a
defence with a minority of its bases in the attacker's window takes a hit and moves when the primary defender
it supported retreats or routs."""

from dataclasses import dataclass

from republic.play.refusal import Refused
from republic.rules.assault_fixed_hits import (
    SupportingBrigadeInput,
    UnitHitsResult,
    after_hits,
    resolve_supporting_brigade,
)
from republic.rules.chart import Chart
from republic.rules.forced_moves import ForcedMove
from republic.rules.scale import GroundScale
from republic.rules.units import UnitState


@dataclass(frozen=True)
class Supported:
    inputs: SupportingBrigadeInput
    result: UnitHitsResult
    unit: UnitState


def supporting_hit(
    chart: Chart, scale: GroundScale, unit: UnitState, primary: UnitState, bases: int, move: ForcedMove
) -> Supported:
    """The hit on ``unit`` for the primary defender's move, with ``bases`` of it in the window and the move the
    table chose; refused for a battery, since a supporting brigade is infantry or cavalry."""
    if unit.battery:
        raise Refused("a battery: a supporting brigade is infantry or cavalry (5.5)")
    inputs = SupportingBrigadeInput(
        grade=unit.grade,
        bases=unit.bases,
        supporting_bases=bases,
        primary_move=primary.forced_move,
        m_hits=unit.m_hits,
        move=move,
        horse=unit.kind.horse,
        scale=scale,
    )
    result = resolve_supporting_brigade(chart, inputs)
    return Supported(inputs, result, after_hits(unit, result))
