"""The demoralized panic test (1.7, 4.7) as the game decides it: which units must test and what a test changes.

The step is its units and what was tested: each demoralized unit in play whose excess M from fire became P hits
this turn tests once, so a test reads only its own unit and the table's answers, and the tests of a step may be
entered in any order for the same end."""

from collections.abc import Mapping
from dataclasses import dataclass, replace

from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.morale import MAX_M_HITS
from republic.rules.panic import DemoralizedPanicInput, DemoralizedPanicResult, after_demoralized_panic
from republic.rules.panic import resolve_demoralized_panic as resolve
from republic.rules.scale import GroundScale
from republic.rules.units import UnitState


@dataclass(frozen=True)
class DemoralizedStep:
    """Both sides' units as the step reads them (attacker's first, in battle order), and those tested this step."""

    units: tuple[UnitState, ...]
    tested: frozenset[str] = frozenset()


def due(step: DemoralizedStep) -> tuple[UnitState, ...]:
    """The units that must still test: demoralized, with P hits this turn and bases left, in play, not yet tested."""
    return tuple(
        u
        for u in step.units
        if u.m_hits == MAX_M_HITS
        and u.p_hits_turn > 0
        and u.bases > 0
        and not u.out_of_play
        and u.id not in step.tested
    )


@dataclass(frozen=True)
class Tested:
    """A test made: what the unit tested with, the engine's result, the unit after it, and the step after it."""

    inputs: DemoralizedPanicInput
    result: DemoralizedPanicResult
    unit: UnitState
    step: DemoralizedStep


def panic_test(
    chart: Chart,
    step: DemoralizedStep,
    unit: str,
    scale: GroundScale,
    conditions: Mapping[str, bool],
    readings: Mapping[str, object],
    refusal: str,
) -> Tested:
    """A unit's test with the table's answers (``conditions``: out of town, across a bridge or ford, its retreat
    blocked) and its printed ``readings``: refused with ``refusal`` unless the unit is due; its move, deserters or
    surrender are the engine's."""
    found = next((u for u in due(step) if u.id == unit), None)
    if found is None:
        raise Refused(refusal)
    inputs = DemoralizedPanicInput.of(found, scale, **conditions)
    result = resolve(chart.overlay(readings) if readings else chart, inputs)
    after = after_demoralized_panic(found, result)
    units = tuple(after if u.id == unit else u for u in step.units)
    return Tested(inputs, result, after, replace(step, units=units, tested=step.tested | {unit}))
