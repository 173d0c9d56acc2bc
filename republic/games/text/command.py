"""The chain of command's events in one sentence: a rally, a leader's move to support it, a leader checked for
hors de combat or replaced, a unit put under another division."""

from collections.abc import Callable
from typing import Any

from republic.games.events.command import (
    HorsDeCombatSkipped,
    LeaderCheckedForCasualty,
    LeaderMoved,
    LeaderReplaced,
    RallyResolved,
    UnitReassigned,
)
from republic.games.events.payload import Payload
from republic.games.text.terms import condition, inches, roll


def _rally(p: RallyResolved) -> str:
    r = p.result
    how = "printed chart" if r.printed else f"new number {r.new_number}"
    return (
        f"{p.name} rallies: {r.condition_before.value.capitalize()} → {condition(r.m_hits)} "
        f"(die {roll(p.inputs.roll)}; {how})"
    )


def _leader_replaced(p: LeaderReplaced) -> str:
    if p.successor and p.fresh:
        return f"{p.successor} takes over {p.command} from {p.name}; {p.fresh} takes the division he left"
    if p.successor:
        return f"{p.successor} takes over {p.command} from {p.name}"
    return f"{p.name} returns to {p.command} as {p.result.leader}"


def _leader_moved(p: LeaderMoved) -> str:
    r = p.result
    return (
        f"{p.name} moved {inches(p.inputs.moved)} to support the rally "
        f"({inches(r.left)} left of the {inches(r.distance)} a leader moves in the rally step)"
    )


def _casualty(p: LeaderCheckedForCasualty) -> str:
    if p.casualty:
        return (
            f"{p.name} is hors de combat ({roll(p.inputs.roll)}): move him to the rear of {p.command} and flag "
            "him until his side's next Replace leaders step"
        )
    return f"{p.name} is unhurt ({roll(p.inputs.roll)}{'' if p.result.double else ', not a double'})"


COMMAND_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    RallyResolved: _rally,
    LeaderReplaced: _leader_replaced,
    LeaderMoved: _leader_moved,
    UnitReassigned: lambda p: f"{p.name} leaves {p.left_name} for {p.joined_name}",
    LeaderCheckedForCasualty: _casualty,
    HorsDeCombatSkipped: lambda p: f'{p.name} was not within 4" of a unit that lost bases: no roll',
}
