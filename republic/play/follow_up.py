"""The attackers' moves after a round (5.5) and before any (R:1320-1323), and a local breakthrough at the start of
the phase (5.2), as the game decides them: what the attackers answer to, which of them have a move of their own to
choose, and what a chosen move changes."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from republic.play.assault import Assault
from republic.rules.assault_moves import (
    EVERY_DEFENDER_GONE,
    FollowUp,
    FollowUpInput,
    FollowUpResult,
    LocalBreakthroughInput,
    LocalBreakthroughResult,
    follow_ups,
    resolve_follow_up,
    resolve_local_breakthrough,
)
from republic.rules.chart import Chart
from republic.rules.maneuver import ManeuverAction, charge_refusal
from republic.rules.units import UnitState


def result_of(assault: Assault, units: Mapping[str, UnitState]) -> str:
    """What the attackers answer to: the last round's result, or every defender gone before any round (out of
    play or driven back)."""
    if assault.last is not None:
        return assault.last.result.outcome.action.value
    defenders = [units[key] for key in assault.defenders]
    gone = all(not d.in_play or d.forced_move for d in defenders)
    return EVERY_DEFENDER_GONE if gone and defenders else ""


def movers(assault: Assault, units: Mapping[str, UnitState], recorded: bool) -> dict[str, tuple[FollowUp, ...]]:
    """The attackers with a move of their own to choose, each with the moves its result allows, until the
    moves of this round are ``recorded``. A battery, a unit out of play or not named by the last round, and one
    the round itself moved (broke off, broke through, forced back) have none."""
    result = result_of(assault, units)
    if not result or not assault.open or recorded:
        return {}
    last = assault.last
    fought = {n.unit for n in last.names} if last else set(assault.attackers)
    moved = {*last.on_units.break_through, *(b.unit for b in last.on_units.broke_off)} if last else set()
    found = {}
    for key in assault.attackers:
        unit = units[key]
        loss = last.on_units.loss(key) if last else None
        if not unit.in_play or unit.battery or key not in fought or key in moved or (loss and loss.move):
            continue
        moves = follow_ups(result, unit.kind)
        if moves:
            found[key] = moves
    return found


@dataclass(frozen=True)
class FollowedUp:
    """A unit's move after the round, checked by the engine, and the unit after it."""

    inputs: FollowUpInput
    result: FollowUpResult
    unit: UnitState


def follow_up(chart: Chart, result: str, unit: UnitState, move: FollowUp, used_bonus: bool) -> FollowedUp:
    """A unit's chosen move: one that needed its assault move bonus spends it (5.5), for the end of the turn's 1M."""
    inputs = FollowUpInput(result, unit.kind, move, used_bonus)
    outcome = resolve_follow_up(chart, inputs)
    return FollowedUp(inputs, outcome, replace(unit, charge_bonus_used=True) if outcome.bonus_used else unit)


@dataclass(frozen=True)
class BrokeThrough:
    """A local breakthrough checked by the engine, and the unit after it."""

    inputs: LocalBreakthroughInput
    result: LocalBreakthroughResult
    unit: UnitState


def local_breakthrough(
    chart: Chart,
    assaults: Sequence[Assault],
    unit: UnitState,
    used_bonus: bool,
    allowed: tuple[ManeuverAction, ...] | None,
) -> BrokeThrough:
    """An attacking brigade left out of contact going on to fresh targets (5.2): the engine refuses it once a
    round of the phase is resolved, and its assault move bonus when its maneuver roll (``allowed``, None when it
    has not rolled) allowed no move forward."""
    inputs = LocalBreakthroughInput(sum(len(a.rounds) for a in assaults), used_bonus, charge_refusal(allowed))
    result = resolve_local_breakthrough(chart, inputs)
    return BrokeThrough(inputs, result, replace(unit, charge_bonus_used=True) if result.bonus_used else unit)
