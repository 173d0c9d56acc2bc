"""Forced movement (3.3, 5.5, 6.1): disengage, withdraw, fall back, retreat, rout, and a forced move that would
end on another unit.

Distances are chart values for foot troops at the medium (15mm) ground scale; horse moves double (5.5)
and every distance is multiplied by the game's scale ratio (1.2).
"""

from dataclasses import dataclass
from enum import StrEnum

from republic.rules.chart import DISTANCE, Chart, KeyedSpec, Span
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import MoraleCause, apply_morale_hits, condition_for
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

    @property
    def next_down(self) -> "ForcedMove | None":
        """The next move down the list of 3.3 (R:702-707), None after a rout, the last of it."""
        moves = list(ForcedMove)
        return moves[self.severity + 1] if self.severity + 1 < len(moves) else None


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


_FACTOR = Span("a factor", 0, 10, above_low=True, whole=False)

TABLES = (
    KeyedSpec("forced_moves", "3.3", "Forced moves, foot, in inches", tuple(m.value for m in ForcedMove), DISTANCE),
    KeyedSpec("horse_forced_move_factor", "5.5", "Horse forced moves, times foot", ("factor",), _FACTOR),
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


# --- a forced move blocked by another unit (3.3) ----------------------------------------------------------


@dataclass(frozen=True)
class BlockedMoveInput:
    """A unit's forced move that cannot be made without ending on another unit (3.3); ``battery`` and
    ``m_hits`` say what the move made instead does to it."""

    move: ForcedMove
    horse: bool = False
    scale: GroundScale = GroundScale.MEDIUM
    battery: bool = False
    m_hits: int = 0

    def __post_init__(self) -> None:
        condition_for(self.m_hits)


@dataclass(frozen=True)
class BlockedMoveResult(Explained):
    """``move`` is made instead of ``blocked``: ``distance`` from where the unit began, ``beyond`` further than the
    blocked move. ``last``: nothing is further down the list than the rout, which stands."""

    blocked: ForcedMove
    move: ForcedMove
    distance: float
    beyond: float
    faces_enemy: bool
    instruction: str
    last: bool
    m_after: int
    abandoned: bool


def resolve_blocked_move(chart: Chart, inputs: BlockedMoveInput) -> BlockedMoveResult:
    """The move a unit makes when its forced move would end on another unit. R:695-701: "If the mandatory move
    cannot be executed without direct stacking of formations (two units sharing the same space) then the unit
    conducting the mandatory move must execute the next move option down the list (e.g. - A withdrawing unit
    stacked on another unit becomes a fall back in order to clear to the rear of that other unit)."

    Readings chosen where the text is open:

    - "Down the list" is the list of R:702-707 as printed, disengage to rout: the example's withdraw becomes a
      fall back, the longer move, so that the unit clears the other unit's rear. A move blocked again goes down
      again, one step a time.
    - The other unit is a friendly one. A unit whose move would take it into enemy bases does not go down the
      list: it surrenders (R:1673-1678 Group Surrender, R:1774-1775), which the assault round decides with its
      "blocked by the enemy" answer. A friendly unit merely in the path is passed through (R:1670-1672); the move
      goes down the list only when it would end on the other unit.
    - After a rout there is no move further down, and nothing in the text makes a unit surrender for a friend in
      its way. The example gives the purpose of going down the list, to clear the other unit's rear, and no two
      units share a space, so the rout stands and the unit goes on past the unit in its way until it is clear
      of its rear (``last``).
    - What follows is what the move itself brings, not the panic that caused it (its level, loss number, Panic 4
      event and deserters stand as they were resolved): a unit whose move becomes a rout takes the M at the end
      of a rout move, a Demoralized one staying Demoralized (R:1651-1653), and a battery required to rout is
      abandoned (R:1657-1658). A battery limbered up to make the move it was given and does not limber again, so
      a retreat costs it no damage (R:1654-1656), as in an assault round a battery already limbered moves
      without it."""
    made = inputs.move.next_down
    meant = resolve_forced_move(chart, ForcedMoveInput(inputs.move, horse=inputs.horse, scale=inputs.scale))
    if made is None:
        return BlockedMoveResult(
            blocked=inputs.move,
            move=inputs.move,
            distance=meant.distance,
            beyond=0.0,
            faces_enemy=meant.faces_enemy,
            instruction=f"{meant.instruction}, then on past the unit in its way until it is clear of its rear",
            last=True,
            m_after=inputs.m_hits,
            abandoned=False,
            cells=meant.cells,
            notes=(
                "a rout is the last move of the list: nothing further down (3.3); it surrenders only to enemy bases "
                "in its way (5.5)",
            ),
        )
    moved = resolve_forced_move(chart, ForcedMoveInput(made, horse=inputs.horse, scale=inputs.scale))
    cells = [*meant.cells, *moved.cells]
    notes = [f"a {inputs.move.title} that would end on another unit becomes a {made.title} (3.3)"]
    m_after, abandoned = inputs.m_hits, False
    if inputs.battery:
        response, use = battery_response(chart, made)
        cells.append(use)
        abandoned = response.action is BatteryAction.ABANDONED
        if abandoned:
            notes.append(f"a battery required to {made.title} is abandoned (5.5)")
        elif response.damage:
            notes.append(f"limbered up for its {inputs.move.title} already: no limbering again, no damage (5.5)")
    elif made is ForcedMove.ROUT:
        # the M at the end of a rout is a cell of the assault chapter's fixed hits (5.5), read by its table's name
        hits: Hits
        hits, use = chart.entry("assault_fixed_hits", "rout_end")
        cells.append(use)
        m_after = apply_morale_hits(inputs.m_hits, hits.m, MoraleCause.ROUT).m_after
        notes.append(f"{hits} at the end of the rout move; a Demoralized unit stays Demoralized (5.5)")
    return BlockedMoveResult(
        blocked=inputs.move,
        move=made,
        distance=moved.distance,
        beyond=moved.distance - meant.distance,
        faces_enemy=moved.faces_enemy,
        instruction=moved.instruction,
        last=False,
        m_after=m_after,
        abandoned=abandoned,
        cells=tuple(dict.fromkeys(cells)),
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
    Mechanic(
        "blocked_forced_move",
        "3.3, 5.5",
        "The next move down the list for a forced move that would end on another unit",
        BlockedMoveInput,
        resolve_blocked_move,
    ),
)
