"""Saved fire (4.2): whether a battery that does not fire this phase may save its fire for its next one, and the
marker it then holds."""

from dataclasses import dataclass, replace

from republic.rules.chart import Chart
from republic.rules.morale import Condition, condition_for
from republic.rules.results import Explained, Mechanic
from republic.rules.troops import BatteryFunction
from republic.rules.units import UnitState

TABLES = ()


@dataclass(frozen=True)
class SavedFireInput:
    moved_this_turn: bool = False
    fired_this_phase: bool = False
    m_hits: int = 0
    mass_battery: bool = False
    in_command_radius: bool = True
    passing_fire_this_turn: bool = False

    def __post_init__(self) -> None:
        condition_for(self.m_hits)

    @classmethod
    def of(
        cls,
        battery: UnitState,
        *,
        moved_this_turn: bool = False,
        in_command_radius: bool = True,
        passing_fire_this_turn: bool = False,
    ) -> "SavedFireInput":
        """The battery's own record says whether it moved or fired this turn; the table may know it moved too.
        Its fire this turn was passing fire when the record of the enemy's move says so: then it did not fire in
        this artillery phase, it missed it (R:1235-1237)."""
        moved = moved_this_turn or bool({BatteryFunction.MOVE, BatteryFunction.PROLONG} & set(battery.functions_used))
        return cls(
            moved_this_turn=moved,
            fired_this_phase=battery.fired_this_turn and not passing_fire_this_turn,
            m_hits=battery.m_hits,
            in_command_radius=in_command_radius,
            passing_fire_this_turn=passing_fire_this_turn,
        )


@dataclass(frozen=True)
class SavedFireResult(Explained):
    allowed: bool
    reason: str | None


def may_save_fire(
    *,
    moved_this_turn: bool = False,
    fired_this_phase: bool = False,
    m_hits: int = 0,
    mass_battery: bool = False,
    in_command_radius: bool = True,
    passing_fire_this_turn: bool = False,
) -> str | None:
    """The first reason a battery may not save fire (4.2), or None when it may."""
    condition = condition_for(m_hits)
    reasons = (
        (moved_this_turn, "the battery moved this player turn (R:1067-1069)"),
        (fired_this_phase, "the battery fired in this artillery phase (R:1068-1069)"),
        (
            passing_fire_this_turn,
            "a battery that made passing fire gains no saved fire from the missed phase (R:1235-1237)",
        ),
        (
            condition.m_hits >= Condition.RATTLED.m_hits,
            f"the battery is {condition}: rattled or worse may not save fire (R:1080-1081)",
        ),
        (mass_battery, "mass battery blocks may not save fire (R:1066-1067)"),
        (not in_command_radius, "artillery out of command radius may not save fire (R:1077)"),
    )
    return next((reason for applies, reason in reasons if applies), None)


def resolve_saved_fire(chart: Chart, inputs: SavedFireInput) -> SavedFireResult:
    reason = may_save_fire(
        moved_this_turn=inputs.moved_this_turn,
        fired_this_phase=inputs.fired_this_phase,
        m_hits=inputs.m_hits,
        mass_battery=inputs.mass_battery,
        in_command_radius=inputs.in_command_radius,
        passing_fire_this_turn=inputs.passing_fire_this_turn,
    )
    notes = (
        ()
        if reason
        else (
            "place a saved fire marker; the next fire moves 1 column left, and any movement (facing, prolonging) "
            "loses it; one marker at most (4.2)",
        )
    )
    return SavedFireResult(allowed=reason is None, reason=reason, notes=notes)


def after_saving_fire(battery: UnitState) -> UnitState:
    """A battery that saves its fire holds one marker at most (4.2)."""
    return replace(battery, saved_fire=True)


MECHANICS = (
    Mechanic("saved_fire", "4.2", "May a battery save its fire this phase", SavedFireInput, resolve_saved_fire),
)
