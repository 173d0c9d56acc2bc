"""Unit states for the engine's tests: a brigade and a battery as the table keeps them between actions."""

from republic.rules.troops import BatteryType, Grade, UnitKind
from republic.rules.units import UnitState


def brigade(
    id: str = "1st",
    *,
    grade: Grade = Grade.AVERAGE,
    bases: int = 6,
    bases_start: int | None = None,
    kind: UnitKind = UnitKind.INFANTRY,
    **fields,
) -> UnitState:
    """An infantry brigade of six bases, Formed, in two lines, unless told otherwise."""
    return UnitState(id, kind, grade, bases, bases if bases_start is None else bases_start, **fields)


def battery(
    id: str = "bty", *, grade: Grade = Grade.AVERAGE, battery_type: BatteryType = BatteryType.M_SB, **fields
) -> UnitState:
    """A foot battery of one base, unlimbered, unless told otherwise."""
    return UnitState(
        id,
        UnitKind.ARTILLERY,
        grade,
        fields.pop("bases", 1),
        fields.pop("bases_start", 1),
        battery_type=battery_type,
        **fields,
    )
