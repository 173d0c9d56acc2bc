"""Forced movement (3.3, 5.5, 6.1): disengage, withdraw, fall back, retreat, rout.

Distances are chart values for foot troops at the medium (15mm) ground scale; horse moves double (5.5)
and every distance is multiplied by the game's scale ratio (1.2).
"""

from dataclasses import dataclass
from enum import StrEnum

from republic.rules.chart import Chart, KeyedSpec, number
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.results import CellUse, Explained, Mechanic
from republic.rules.scale import GroundScale, scale_ratio, scaled


class ForcedMove(StrEnum):
    DISENGAGE = "D"
    WITHDRAW = "W"
    FALL_BACK = "F"
    RETREAT = "Re"
    ROUT = "Rt"

    @property
    def severity(self) -> int:
        return list(ForcedMove).index(self)

    @property
    def faces_enemy(self) -> bool:
        return self in (ForcedMove.DISENGAGE, ForcedMove.WITHDRAW, ForcedMove.FALL_BACK)

    @property
    def title(self) -> str:  # type: ignore[override]  # the display name deliberately shadows str.title()
        return self.name.replace("_", " ").lower()


class BatteryAction(StrEnum):
    LIMBER = "limber"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class BatteryResponse:
    """What a battery does for a forced move (R:1654-1658), written 'limber', 'limber 1B' or 'abandoned'."""

    action: BatteryAction
    damage: int = 0

    @classmethod
    def parse(cls, raw: object) -> "BatteryResponse":
        parts = str(raw).split() if isinstance(raw, str) else []
        try:
            action = BatteryAction(parts[0])
            damage = Hits.parse(parts[1]) if len(parts) == 2 else Hits()
        except (IndexError, ValueError):
            action, damage = None, None
        if action is None or damage is None or len(parts) > 2 or damage.m or damage.p:
            raise ValueError(f"a battery response is 'limber', 'limber 1B' or 'abandoned', got {raw!r}")
        return cls(action, damage.b)

    def __str__(self) -> str:
        return f"{self.action} {self.damage}B" if self.damage else str(self.action)


TABLES = (
    KeyedSpec("forced_moves", "3.3", "Forced moves, foot, in inches", tuple(m.value for m in ForcedMove), number),
    KeyedSpec("horse_forced_move_factor", "5.5", "Horse forced moves, times foot", ("factor",), number),
    KeyedSpec(
        "battery_forced_move",
        "5.5",
        "Artillery batteries' forced moves",
        tuple(m.value for m in ForcedMove),
        BatteryResponse.parse,
    ),
)


def battery_response(chart: Chart, move: ForcedMove) -> tuple[BatteryResponse, CellUse]:
    """What a battery does for a forced move (5.5): limber up, perhaps at a damage, or be abandoned."""
    response: BatteryResponse
    response, use = chart.entry("battery_forced_move", move.value)
    return response, use


@dataclass(frozen=True)
class ForcedMoveInput:
    move: ForcedMove
    horse: bool = False
    scale: GroundScale = GroundScale.MEDIUM
    already_moved: ForcedMove | None = None


@dataclass(frozen=True)
class ForcedMoveResult(Explained):
    move: ForcedMove
    distance: float
    faces_enemy: bool
    instruction: str


def resolve_forced_move(chart: Chart, inputs: ForcedMoveInput) -> ForcedMoveResult:
    """How far a unit moves back; a unit that already moved back this turn makes up only the difference
    (6.1: after a fall back, a division rout adds 4" for infantry)."""
    base: float
    base, cell = chart.entry("forced_moves", inputs.move.value)
    cells = [cell]
    factor: float
    if inputs.horse:
        factor, factor_cell = chart.entry("horse_forced_move_factor", "factor")
        cells.append(factor_cell)
    else:
        factor = 1.0
    ratio, ratio_cell = scale_ratio(chart, inputs.scale)
    cells.append(ratio_cell)
    distance = base * factor
    notes = []
    if inputs.already_moved is not None:
        if inputs.already_moved.severity >= inputs.move.severity:
            raise RulesInputError(
                "already_moved",
                f"a unit that already made a {inputs.already_moved.title} owes no further {inputs.move.title}",
            )
        done: float
        done, done_cell = chart.entry("forced_moves", inputs.already_moved.value)
        cells.append(done_cell)
        distance -= done * factor
        notes.append(f"already made a {inputs.already_moved.title}: only the difference (6.1)")
    distance = scaled(distance, ratio)
    facing = "facing the enemy" if inputs.move.faces_enemy else "turning away from the enemy"
    instruction = f'{inputs.move.title.capitalize()}: move {distance:g}" away from the enemy, {facing}'
    return ForcedMoveResult(
        move=inputs.move,
        distance=distance,
        faces_enemy=inputs.move.faces_enemy,
        instruction=instruction,
        cells=tuple(cells),
        notes=tuple(notes),
    )


MECHANICS = (
    Mechanic(
        "forced_move",
        "3.3, 5.5, 6.1",
        "Distance and facing of a forced move in the game's scale",
        ForcedMoveInput,
        resolve_forced_move,
    ),
)
