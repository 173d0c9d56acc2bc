"""Artillery functions (3.5): what a battery may do with the functions of a turn, in order.

A foot battery has two functions a turn and a horse battery three (a chart entry); each of move, unlimber,
fire, prolong and limber is used at most once, fire comes last, and the battery's morale condition forbids
some (2.3). The functions already used this turn are part of the plan, so the table records them as the
battery uses them.
"""

from dataclasses import dataclass, replace

from republic.rules.chart import Chart, KeyedSpec, Span
from republic.rules.morale import Condition, condition_for
from republic.rules.results import CellUse, Explained, Mechanic
from republic.rules.scale import GroundScale, scale_ratio, scaled
from republic.rules.troops import BatteryFunction
from republic.rules.units import UnitState

_FUNCTIONS = Span("a number of functions", 1, len(BatteryFunction))  # each function at most once a turn (3.5)

TABLES = (KeyedSpec("artillery_functions", "3.5", "Artillery functions per turn", ("foot", "horse"), _FUNCTIONS),)

MOVEMENT_FUNCTIONS = (BatteryFunction.MOVE, BatteryFunction.UNLIMBER, BatteryFunction.PROLONG, BatteryFunction.LIMBER)
"""The functions used in the maneuver phase; fire is the fire phase's."""


def functions_available(chart: Chart, horse: bool) -> tuple[int, CellUse]:
    value: int
    value, use = chart.entry("artillery_functions", "horse" if horse else "foot")
    return value, use


def limbered_at_start(unit: UnitState) -> bool:
    """Whether the battery began the turn limbered: its functions so far, taken back."""
    limbered = unit.limbered
    for function in reversed(unit.functions_used):
        if function is BatteryFunction.UNLIMBER:
            limbered = True
        elif function is BatteryFunction.LIMBER:
            limbered = False
    return limbered


@dataclass(frozen=True)
class BatteryFunctionsInput:
    functions: tuple[BatteryFunction, ...]  # in the order the battery performs them
    horse_artillery: bool = False
    limbered: bool = True  # at the start of the turn
    m_hits: int = 0
    toward_enemy: bool = False  # its move or prolong heads toward an enemy
    scale: GroundScale = GroundScale.MEDIUM
    saved_fire: bool = False  # it holds a saved fire marker

    def __post_init__(self) -> None:
        condition_for(self.m_hits)

    @classmethod
    def planned(
        cls,
        unit: UnitState,
        functions: tuple[BatteryFunction, ...],
        *,
        will_fire: bool = False,
        toward_enemy: bool = False,
        scale: GroundScale = GroundScale.MEDIUM,
    ) -> "BatteryFunctionsInput":
        """The battery's turn so far, then ``functions``, then fire when it will fire in the fire phase."""
        plan = (*unit.functions_used, *functions, *((BatteryFunction.FIRE,) if will_fire else ()))
        return cls(
            functions=plan,
            horse_artillery=unit.horse,
            limbered=limbered_at_start(unit),
            m_hits=unit.m_hits,
            toward_enemy=toward_enemy,
            scale=scale,
            saved_fire=unit.saved_fire,
        )


@dataclass(frozen=True)
class BatteryFunctionsResult(Explained):
    allowed: bool
    problem: str  # the first problem, "" when allowed
    function: BatteryFunction | None  # the function the problem is with
    index: int | None  # its place in the plan, from 0
    functions_available: int
    limbered_after: bool
    prolong_distance: float | None  # game scale, when the plan prolongs
    saved_fire_lost: bool  # it moves or prolongs with saved fire (4.2)


def resolve_battery_functions(chart: Chart, inputs: BatteryFunctionsInput) -> BatteryFunctionsResult:
    """Check a battery's planned functions for a turn against 3.5 and its morale condition (2.3).

    The rules' example (a foot battery that moves and unlimbers may not fire; one that unlimbers in place
    may) follows from the count alone: move, unlimber and fire are three functions, one more than foot
    artillery has. A horse battery may therefore move, unlimber and fire. Fire comes in the artillery
    phase, after all movement, so it must be the last function planned.
    """
    available, use = functions_available(chart, inputs.horse_artillery)
    cells = [use]
    condition = condition_for(inputs.m_hits)
    problem, index, limbered = _first_problem(inputs, available, condition)

    prolong = None
    notes = []
    if BatteryFunction.PROLONG in inputs.functions:
        distance: int
        distance, prolong_use = chart.entry("movement_box", "prolong")
        ratio, ratio_use = scale_ratio(chart, inputs.scale)
        cells += [prolong_use, ratio_use]
        prolong = scaled(distance, ratio)
        notes.append("artillery which prolongs loses simultaneous fire against enemy artillery (3.5)")
    if BatteryFunction.MOVE in inputs.functions:
        notes.append("battery functions are not slowed by rough terrain; the move itself is (3.4)")
    moves = {BatteryFunction.MOVE, BatteryFunction.PROLONG} & set(inputs.functions)
    saved_fire_lost = inputs.saved_fire and bool(moves)
    if saved_fire_lost:
        notes.append("a battery with saved fire that moves in any way loses it (4.2, R:1072-1073)")
    return BatteryFunctionsResult(
        allowed=not problem,
        problem=problem,
        function=None if index is None else inputs.functions[index],
        index=index,
        functions_available=available,
        limbered_after=limbered,
        prolong_distance=prolong,
        saved_fire_lost=saved_fire_lost,
        cells=tuple(cells),
        notes=tuple(notes),
    )


def fire_problem(chart: Chart, unit: UnitState) -> str:
    """Why the battery may not fire in this turn's artillery phase after the functions it used in the maneuver
    phase, "" when it may: a foot battery that moved and unlimbered has used its two (3.5, R:835-838)."""
    return resolve_battery_functions(chart, BatteryFunctionsInput.planned(unit, (), will_fire=True)).problem


def prolonged(unit: UnitState) -> bool:
    """Whether enemy artillery's hits land on this battery before it fires, not with the rest of the phase's:
    "Artillery which prolongs loses simultaneous fire privilege against enemy artillery, they suffer enemy
    artillery effects before they fire" (R:839-841, R:1040-1042).

    Reading: a battery that prolonged this player turn takes each enemy battery's hits on it as that fire is
    resolved, so its own fire reads its M and damage after them (-1 on its die for each, 4.4) and, demoralized
    by them, it is silenced (2.3). Skirmish fire on it still waits for the end of the artillery step with the
    rest: the privilege is lost only "against enemy artillery". Enemy fire at it is therefore resolved before
    its own, and fire at it once it has fired is refused (``fired_before_hit``): its fire would have read a state
    it did not have."""
    return unit.battery and BatteryFunction.PROLONG in unit.functions_used


def fired_before_hit(unit: UnitState) -> str:
    """Why enemy artillery's fire at this unit cannot be resolved now, "" when it can: a battery that prolonged
    this turn and has fired already should have suffered it first (3.5, R:839-841)."""
    if prolonged(unit) and unit.fired_this_turn:
        return (
            "it prolonged this turn and has already fired, but enemy artillery hits a prolonging battery before it "
            "fires (3.5): undo its fire, resolve this one, then fire it again"
        )
    return ""


def _first_problem(inputs: BatteryFunctionsInput, available: int, condition: Condition) -> tuple[str, int | None, bool]:
    limbered = inputs.limbered
    seen: set[BatteryFunction] = set()
    toward = inputs.toward_enemy
    for index, function in enumerate(inputs.functions):
        if index >= available:
            kind = "horse" if inputs.horse_artillery else "foot"
            problem = f"{kind} artillery has {available} functions a turn; {function} would be one more (3.5)"
            return problem, index, limbered
        if function in seen:
            return f"a battery may not {function} twice in a turn (3.5)", index, limbered
        seen.add(function)
        problem = _function_problem(function, limbered, condition, toward)
        if not problem and function is BatteryFunction.FIRE and index < len(inputs.functions) - 1:
            problem = "fire comes in the artillery phase, after all movement: it must be the last function (1.7)"
        if problem:
            return problem, index, limbered
        if function is BatteryFunction.UNLIMBER:
            limbered = False
        elif function is BatteryFunction.LIMBER:
            limbered = True
    return "", None, limbered


def _function_problem(function: BatteryFunction, limbered: bool, condition: Condition, toward: bool) -> str:
    demoralized = condition is Condition.DEMORALIZED
    if function in (BatteryFunction.MOVE, BatteryFunction.UNLIMBER) and not limbered:
        return f"the battery is unlimbered; it must limber before it can {function} (3.5)"
    if function in (BatteryFunction.FIRE, BatteryFunction.PROLONG, BatteryFunction.LIMBER) and limbered:
        return f"the battery is limbered; it must unlimber before it can {function} (3.5, 4.2)"
    if function is BatteryFunction.UNLIMBER and demoralized:
        return "a demoralized battery may not unlimber (2.3)"
    if function is BatteryFunction.FIRE and demoralized:
        return "an unlimbered demoralized battery is silenced (2.3)"
    if function in (BatteryFunction.MOVE, BatteryFunction.PROLONG) and toward:
        if condition is Condition.SHAKEN:
            return f"a shaken battery will not {function} toward an enemy (2.3)"
        if demoralized:
            return f"a demoralized battery will not {function} toward an enemy (2.3)"
    return ""


def after_battery_functions(
    unit: UnitState, result: BatteryFunctionsResult, functions: tuple[BatteryFunction, ...]
) -> UnitState:
    """The battery after the functions it used now (a fire still to come is not used yet)."""
    if not result.allowed:
        raise ValueError("a refused plan changes nothing")
    return replace(
        unit,
        functions_used=(*unit.functions_used, *functions),
        limbered=result.limbered_after,
        saved_fire=unit.saved_fire and not result.saved_fire_lost,
    )


MECHANICS = (
    Mechanic(
        "battery_functions",
        "3.5",
        "Check a battery's planned functions (move, unlimber, fire, prolong, limber) for a turn",
        BatteryFunctionsInput,
        resolve_battery_functions,
    ),
)
