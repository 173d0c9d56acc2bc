"""The attacker's move step (1.7, 3.1-3.6, 4.5) as the game decides it: which units move and which may still make
their maneuver roll, the step's rows, what a roll, the charge bonus, a mount or dismount and a battery's functions
change, and which defending batteries may make passing fire.

Every attacking unit in play moves, and a brigade rolls its maneuver once (3.2): a roll reads only the brigade and
the table's answers, so the rolls of a step may be entered in any order for the same end. Nothing is required work
(a brigade that does not roll holds), so nothing here is pending."""

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from republic.play.refusal import Refused
from republic.rules.battery_functions import (
    BatteryFunctionsInput,
    BatteryFunctionsResult,
    after_battery_functions,
    functions_available,
    resolve_battery_functions,
)
from republic.rules.chart import Chart
from republic.rules.errors import RulesInputError
from republic.rules.maneuver import ManeuverAction, ManeuverInput, ManeuverResult, charge_refusal, resolve_maneuver
from republic.rules.morale import Restriction
from republic.rules.movement import MountInput, MountResult, after_mounting, resolve_mount
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryFunction
from republic.rules.units import UnitState, restricted, skirmisher_limit, skirmisher_refusal, skirmishers_it_may_set


@dataclass(frozen=True)
class MoveStep:
    """The attacker's units in play (brigades first, in battle order), those whose maneuver was rolled this step,
    and the defending batteries that may make passing fire (in battle order)."""

    units: tuple[str, ...]
    rolled: frozenset[str] = frozenset()
    passing: tuple[str, ...] = ()


def rows(step: MoveStep) -> tuple[str, ...]:
    """The step's rows: the attacker's units, then the defending batteries that may make passing fire (4.5)."""
    return (*step.units, *step.passing)


def may_roll(step: MoveStep) -> tuple[str, ...]:
    """The attacking units that may still make their maneuver roll this step, in battle order (3.2)."""
    return tuple(unit for unit in step.units if unit not in step.rolled)


def moving(units: Collection[str], unit: str, name: str) -> None:
    """Refused unless the unit is one of the attacker's units in play, the units that move this step."""
    if unit not in units:
        raise Refused(f"{name} is not an attacking unit in play: it does not move this turn.")


@dataclass(frozen=True)
class Rolled:
    """A maneuver rolled: the engine's result and the step after it."""

    result: ManeuverResult
    step: MoveStep


def roll(chart: Chart, step: MoveStep, unit: str, name: str, inputs: ManeuverInput) -> Rolled:
    """A brigade's maneuver roll: refused unless it moves and has not rolled this step; what it allows is the
    engine's (3.2)."""
    moving(step.units, unit, name)
    if unit in step.rolled:
        raise Refused(f"{name} has already rolled its maneuver this turn; undo it to roll again.")
    return Rolled(resolve_maneuver(chart, inputs), replace(step, rolled=step.rolled | {unit}))


@dataclass(frozen=True)
class Offered:
    """What a brigade's side may do with it now in the move step: for each action, why it may not ("" when it
    may), and the skirmish markers it may have out and the most the table may set now."""

    charge: str  # mark the assault move bonus used (3.1, 3.2)
    formation: str  # change formation (2.3, 3.5)
    mount: str  # take its other footing: mount when on foot, dismount when on horse (3.5)
    skirmishers: str  # deploy (more) skirmishers (3.5)
    skirmisher_limit: int
    may_set: int  # the most markers the table may set now: recalling stays open when deploying is forbidden
    shows_skirmishers: bool  # a trained brigade with markers it may set, or out to recall


def offered(chart: Chart, brigade: UnitState, allowed: tuple[ManeuverAction, ...] | None) -> Offered:
    """What the brigade's side may do with it now, from its state and the actions its roll allowed (None: it has
    not rolled). A bonus already marked used may be cleared whatever the roll."""
    may_set = skirmishers_it_may_set(brigade)
    return Offered(
        charge="" if brigade.charge_bonus_used else charge_refusal(allowed),
        formation=restricted(brigade, Restriction.CHANGE_FORMATION),
        mount=resolve_mount(chart, MountInput.of(brigade, not brigade.kind.horse)).refused,
        skirmishers=skirmisher_refusal(brigade),
        skirmisher_limit=skirmisher_limit(brigade),
        may_set=may_set,
        shows_skirmishers=brigade.grade.trained and bool(may_set or brigade.skirmishers_deployed),
    )


def charge(
    unit: UnitState, name: str, allowed: tuple[ManeuverAction, ...] | None, used: bool, taken: ManeuverAction | None
) -> UnitState:
    """The brigade with its assault move bonus marked used or not. A roll that allows a forward action also allows
    pulling back and holding, so marking it used asks which action the brigade took: a brigade that pulled back
    or held may not use it (3.1, 3.2, R:650-653)."""
    refused = charge_refusal(allowed, taken) if used else ""
    if used and not refused and taken is None:
        refused = "Which action did it take this turn? Choose it beside the button: nothing was changed."
    if refused:
        raise Refused(f"{name}: {refused}")
    if unit.charge_bonus_used == used:
        raise Refused(f"{name} is already marked as {'having' if used else 'not having'} used its charge bonus.")
    return replace(unit, charge_bonus_used=used)


@dataclass(frozen=True)
class Mounted:
    inputs: MountInput
    result: MountResult
    unit: UnitState


def mount(chart: Chart, unit: UnitState, name: str, on: bool, reacting: bool = False) -> Mounted:
    """A brigade mounts (``on``) or dismounts: an attacking one as it moves, a defending one in reaction to the
    enemy's move (3.5, R:804-825). A refusal of the engine's is refused by the form's field for an attacking
    brigade, whose row shows it, and in words for a reacting one, which has no row in this step."""
    if unit.out_of_play:
        raise Refused(f"{name} is out of play.")
    inputs = MountInput.of(unit, on, reacting)
    result = resolve_mount(chart, inputs)
    if reacting and result.refused:
        raise Refused(f"{name}: {result.refused}.")
    return Mounted(inputs, result, after_mounting(unit, result))


def may_pass(passing: Collection[str], battery: str, name: str) -> None:
    """Refused unless the battery is a defending battery that may fire and has not fired this turn (4.2, 4.5)."""
    if battery not in passing:
        raise Refused(
            f"{name} cannot make passing fire now: only a defending battery that may fire and has not fired "
            "this turn can (4.2, 4.5)."
        )


def functions_of(chart: Chart, battery: UnitState) -> int:
    """The functions a battery has in a turn: foot or horse artillery's, from the chart (3.5)."""
    return functions_available(chart, battery.horse)[0]


def functions_left(chart: Chart, battery: UnitState) -> int:
    """The functions the battery has left this turn."""
    return max(0, functions_of(chart, battery) - len(battery.functions_used))


@dataclass(frozen=True)
class FunctionsUsed:
    inputs: BatteryFunctionsInput
    result: BatteryFunctionsResult
    unit: UnitState


def use_functions(
    chart: Chart,
    scale: GroundScale,
    battery: UnitState,
    functions: Sequence[BatteryFunction],
    will_fire: bool = False,
    toward_enemy: bool = False,
) -> FunctionsUsed:
    """The battery after ``functions``, checked with its turn so far and, when it will fire in the fire phase,
    fire kept last (3.5). A plan the engine refuses is refused by the field of the function it refuses: one of
    the new ones (``function_1`` the first), or ``will_fire`` for the fire kept."""
    new = tuple(functions)
    inputs = BatteryFunctionsInput.planned(battery, new, will_fire=will_fire, toward_enemy=toward_enemy, scale=scale)
    result = resolve_battery_functions(chart, inputs)
    if not result.allowed:
        raise RulesInputError(_field(result.index, len(battery.functions_used), len(new)), result.problem)
    return FunctionsUsed(inputs, result, after_battery_functions(battery, result, new))


def _field(index: int | None, used: int, new: int) -> str:
    if index is None:
        return ""
    return f"function_{index - used + 1}" if index - used < new else "will_fire"
