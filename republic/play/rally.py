"""The attacker's rally step (1.7, 2.3, R:352-354) as the game decides it: which units must still rally, what a
rally changes, how a leader near a rallying unit stands to it, and what is left of a leader's 2" move.

The step is its units and what was rolled: every attacking unit in play with M hits rolls its rally once, so a
unit's rally reads only its own state and the table's answers, and the rallies of a step may be entered in any
order for the same end."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.leaders import CommandRelation
from republic.rules.movement import LeaderMoveInput, LeaderMoveResult, resolve_leader_move
from republic.rules.rally import RallyInput, RallyResult, resolve_rally
from republic.rules.scale import GroundScale
from republic.rules.units import UnitState, rallied


@dataclass(frozen=True)
class RallyStep:
    """The attacking side's units as the step reads them (in battle order), and those that rolled this step."""

    units: tuple[UnitState, ...]
    rolled: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Rallied:
    """A rally rolled: the engine's result, the unit after it, and the step after it."""

    result: RallyResult
    unit: UnitState
    step: RallyStep


def due(step: RallyStep) -> tuple[UnitState, ...]:
    """The units that must still rally: in play, with M hits, not yet rolled this step (1.7, 2.3)."""
    return tuple(u for u in step.units if u.m_hits > 0 and not u.out_of_play and u.id not in step.rolled)


def rally(chart: Chart, step: RallyStep, unit: str, inputs: RallyInput) -> Rallied:
    """A unit's rally: refused unless it is due; its new condition is the engine's."""
    found = next((u for u in due(step) if u.id == unit), None)
    if found is None:
        raise Refused(f"{unit} has no rally to make now")
    result = resolve_rally(chart, inputs)
    after = rallied(found, result.condition_after)
    units = tuple(after if u.id == unit else u for u in step.units)
    return Rallied(result, after, replace(step, units=units, rolled=step.rolled | {unit}))


def relation(chain: Sequence[int], corps: int | None, command: int, parent: int | None) -> CommandRelation:
    """How a leader of ``command`` (under ``parent``) stands to a unit whose chain of command is ``chain`` (its
    division up, by id) and whose corps is ``corps``, for the reach of his rally bonus (2.2)."""
    if command in chain:
        return CommandRelation.CHAIN_OF_COMMAND
    if corps is not None and parent == corps:
        return CommandRelation.ADJOINING_SAME_CORPS
    return CommandRelation.SAME_SIDE_OTHER


def moved_before(moves: Iterable[tuple[int, float]], leader: int) -> float:
    """How far a leader has moved in this step already, from the step's moves (leader, inches)."""
    return sum(moved for who, moved in moves if who == leader)


@dataclass(frozen=True)
class LeaderMove:
    inputs: LeaderMoveInput
    result: LeaderMoveResult


def leader_move(
    chart: Chart, scale: GroundScale, moves: Iterable[tuple[int, float]], leader: int, moved: float = 0.0
) -> LeaderMove:
    """A leader's move in the rally step against what his earlier moves of the step left of the 2" (R:352-354);
    with ``moved`` 0, what is left. A move beyond it is refused by the engine."""
    inputs = LeaderMoveInput(rally_step=True, scale=scale, moved=moved, moved_before=moved_before(moves, leader))
    return LeaderMove(inputs, resolve_leader_move(chart, inputs))
