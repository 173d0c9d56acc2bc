"""The owner's Replace Leaders step (1.7, 2.5) as the game decides it: which fallen leaders wait for others, in
which order they are replaced, who takes over from whom and what a replacement changes.

The step is the side's fallen leaders and its chain of command; a replacement reads the fallen leader and the
leaders in action of the commands directly below his. Leaders who fell together are replaced from the bottom of
the chain of command up (republic.rules.leaders.replacement_order), so where the table has a choice (two fallen
leaders neither of whom is below the other) the replacements may be entered in either order for the same end.

Reading chosen for the table: the text gives the fresh division leader no class or rating (R:585-587), so he
comes as Cautious 0, the floor a returning leader falls to (R:579-582); the game master corrects him if the
scenario says otherwise."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.leaders import (
    Candidate,
    FallenLeader,
    LeaderRank,
    LeaderReplacementInput,
    LeaderReplacementResult,
    ReplacementTurn,
    replacement_order,
    resolve_leader_replacement,
)
from republic.rules.troops import Leader, LeaderClass

FRESH = Leader(LeaderClass.CAUTIOUS, 0)
"""The fresh division leader from off the board (R:585-587), read as the floor a returning leader falls to."""


@dataclass(frozen=True)
class Officer:
    """A leader of the side as the step reads him: how the app knows him, his name, the command he leads (its id,
    rank and name), his class and rating, and whether he is hors de combat, removed or replaced this turn."""

    key: int
    name: str
    command: int
    rank: LeaderRank
    leader: Leader
    led: str = ""
    fallen: bool = False
    removed: bool = False
    replaced: bool = False


@dataclass(frozen=True)
class ReplaceStep:
    """The side's fallen leaders (in the order the table lists them) and its chain of command (command: parent)."""

    fallen: tuple[Officer, ...]
    parents: Mapping[int, int | None]


def above(parents: Mapping[int, int | None], command: int) -> tuple[int, ...]:
    """The commands above ``command`` in the chain, nearest first."""
    chain = []
    parent = parents.get(command)
    while parent is not None:
        chain.append(parent)
        parent = parents.get(parent)
    return tuple(chain)


def turns(step: ReplaceStep) -> tuple[ReplacementTurn, ...]:
    """The fallen leaders in the order they are replaced, each with those below him who go first (2.5)."""
    return replacement_order(
        [
            FallenLeader(o.name, o.rank, str(o.command), tuple(map(str, above(step.parents, o.command))), str(o.key))
            for o in step.fallen
        ]
    )


def waiting(step: ReplaceStep, leader: int) -> str:
    """Why a fallen leader is not replaced yet, in the table's words; "" when he may be now."""
    return next(t.refusal for t in turns(step) if t.leader.key == str(leader))


@dataclass(frozen=True)
class Replaced:
    """A replacement made: the engine's input and result, the fallen leader after it, his successor after it (for a
    corps or army leader) and the division that successor left, and the step after it."""

    inputs: LeaderReplacementInput
    result: LeaderReplacementResult
    fallen: Officer
    successor: Officer | None
    left: int | None
    step: ReplaceStep


def replacement(chart: Chart, step: ReplaceStep, leader: int, below: Sequence[Officer], refusal: str) -> Replaced:
    """A fallen leader's replacement: refused with ``refusal`` unless he is fallen, refused while a fallen leader
    below him waits; a division leader returns one rating lower, a corps or army leader is removed and the best
    of ``below`` (the leaders in action of the commands directly under his) takes his command."""
    fallen = next((o for o in step.fallen if o.key == leader), None)
    if fallen is None:
        raise Refused(refusal)
    wait = waiting(step, leader)
    if wait:
        raise Refused(wait)
    division = fallen.rank is LeaderRank.DIVISION
    candidates = () if division else tuple(Candidate(o.name, o.rank, o.leader) for o in below)
    if not division and not candidates:
        raise Refused(
            f"No command under {fallen.led} has a leader in play to take over from {fallen.name}: the rules "
            "name his successor only from the chain of command below him (2.5)."
        )
    inputs = LeaderReplacementInput(rank=fallen.rank, leader=fallen.leader, name=fallen.name, candidates=candidates)
    result = resolve_leader_replacement(chart, inputs)
    rest = replace(step, fallen=tuple(o for o in step.fallen if o.key != leader))
    if division:
        back = replace(fallen, fallen=False, leader=result.leader, replaced=True)
        return Replaced(inputs, result, back, None, None, rest)
    taking_over = next(o for o in below if o.name == result.name)
    successor = replace(taking_over, command=fallen.command, rank=fallen.rank, led=fallen.led, replaced=True)
    left = taking_over.command if taking_over.rank is LeaderRank.DIVISION else None
    return Replaced(inputs, result, replace(fallen, fallen=False, removed=True), successor, left, rest)
