"""Lose/lose passage of lines (5.5, R:1679-1701) as the game decides it: which units of this turn's assaults are
losers that may be sent through friends, whether each lost both rolls, and the hits they give the friend."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from republic.play.assault import Assault
from republic.play.refusal import Refused
from republic.rules.assault_fixed_hits import (
    PassageInput,
    PassageResult,
    PassingUnit,
    after_hits,
    passage_blocked,
    resolve_passage_of_lines,
)
from republic.rules.assault_table import OutcomeSide
from republic.rules.chart import Chart
from republic.rules.scale import GroundScale
from republic.rules.units import UnitState

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class Loser:
    unit: str
    lost_both_rolls: bool


def losers(assaults: Sequence[Assault], units: Mapping[str, UnitState]) -> dict[str, list[Loser]]:
    """Each side's brigades of this turn's assaults driven back by their last round (a forced move on them): the
    ones the rule may send through friends. A unit lost both rolls when its last round's result and its natural
    roll both went against its side."""
    last: dict[str, tuple[str, bool]] = {}
    for assault in assaults:
        for fought in assault.rounds:
            named = {n.unit for n in fought.names}
            for side, keys in zip(SIDES, (assault.attackers, assault.defenders), strict=True):
                against = fought.result.outcome.to in (OutcomeSide(side), OutcomeSide.BOTH)
                both = against and fought.result.natural_loser is OutcomeSide(side)
                last.update({key: (side, both) for key in keys if key in named})
    found: dict[str, list[Loser]] = {side: [] for side in SIDES}
    for key, (side, both) in last.items():
        unit = units.get(key)
        if unit is not None and unit.forced_move and not unit.battery:
            found[side].append(Loser(key, both))
    return found


@dataclass(frozen=True)
class Passer:
    """A loser passing through, as the table measured it: front edge to the friend's front edge, in inches."""

    unit: UnitState
    name: str
    distance: float
    lost_both_rolls: bool


@dataclass(frozen=True)
class PassedThrough:
    inputs: PassageInput
    result: PassageResult
    unit: UnitState


def _passing(passer: Passer) -> PassingUnit:
    move = passer.unit.forced_move
    if move is None:
        raise Refused(f"{passer.name} was not driven back: a loser passing through is one its round drove back")
    return PassingUnit(passer.unit.m_hits, move, passer.distance, passer.name, passer.unit.kind, passer.lost_both_rolls)


def pass_through(chart: Chart, scale: GroundScale, friend: UnitState, passers: Sequence[Passer]) -> PassedThrough:
    """The hits losers driven back through a friendly unit give it (5.5, R:1679-1701): M for their condition, P for
    their move, the two worst of each counted; refused when nothing passes through it (a packed battery)."""
    blocked = passage_blocked(friend)
    if blocked:
        raise Refused(blocked)
    inputs = PassageInput(
        tuple(_passing(p) for p in passers), friend.grade, m_hits=friend.m_hits, horse=friend.kind.horse, scale=scale
    )
    result = resolve_passage_of_lines(chart, inputs)
    return PassedThrough(inputs, result, after_hits(friend, result))
