"""Attacker replaces hors de combat leaders (1.7, 2.5): a division leader returns one rating lower; a corps
or army leader is replaced by the best-rated leader next in his chain of command, and a division left without
its leader by that gets a fresh one from off the board. Which leaders wait, in which order, who takes over and
what a replacement changes are the game's decisions (``republic.play.replace_leaders``); this step reads them
from the database and writes the answer through the ledger."""

from dataclasses import dataclass
from typing import Any

from republic.games.events.command import LeaderReplaced
from republic.games.ledger import Action, ActionRefused, act
from republic.games.models import Command, Event, Game, Leader
from republic.games.readings import read_once
from republic.games.steps.base import Bound, Step, Who, address, versioned
from republic.play.refusal import Refused
from republic.play.replace_leaders import FRESH, Officer, ReplaceStep, replacement, turns
from republic.rules.leaders import LeaderRank, ReplacementTurn
from republic.rules.sequence import StepKey

_RANK = {"army": LeaderRank.ARMY, "corps": LeaderRank.CORPS, "division": LeaderRank.DIVISION}


def _officer(leader: Leader) -> Officer:
    command = leader.command
    return Officer(
        leader.pk,
        leader.name,
        command.pk,
        _RANK[command.level],
        leader.value,
        command.name,
        leader.hors_de_combat,
        leader.removed,
        leader.replaced_this_turn,
    )


@dataclass
class ReplaceState:
    game: Game
    step: ReplaceStep
    fallen: list[Leader]  # in the order they are replaced (2.5)
    turns: dict[int, ReplacementTurn]  # by leader


@read_once
def state(game: Game) -> ReplaceState:
    fallen = list(
        Leader.objects.filter(game=game, hors_de_combat=True, removed=False)
        .of_side(game.attacker)
        .select_related("command")
    )
    parents: dict[int, int | None] = {}
    if fallen:
        commands = Command.objects.filter(game=game, side=game.attacker).values_list("pk", "parent_id")
        parents = dict(commands)
    step = ReplaceStep(tuple(_officer(leader) for leader in fallen), parents)
    by_key = {str(leader.pk): leader for leader in fallen}
    order = turns(step)
    return ReplaceState(
        game, step, [by_key[turn.leader.key] for turn in order], {int(turn.leader.key): turn for turn in order}
    )


def pending(s: ReplaceState) -> list[str]:
    return [f"replace {leader.name}, hors de combat" for leader in s.fallen]


def idle(s: ReplaceState) -> str:
    return "no attacking leader is hors de combat" if not s.fallen else ""


def replace_leader(game: Game, leader: Leader, version: int, actor: str) -> Event:
    refusal = f"{leader.name} has nothing to be replaced for now."
    with act(game, version, actor, step=StepKey.REPLACE_LEADERS, elsewhere=refusal) as action:
        s = state(action.game)
        fallen = next((f for f in s.fallen if f.pk == leader.pk), None)
        below: dict[int, Leader] = {}
        if fallen is not None and fallen.command.level != Command.Level.DIVISION and not s.turns[fallen.pk].refusal:
            below = {
                c.pk: c
                for c in Leader.objects.filter(game=action.game, command__parent=fallen.command)
                .in_action()
                .select_related("command")
            }
        try:
            done = replacement(action.game.chart, s.step, leader.pk, [_officer(c) for c in below.values()], refusal)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        assert fallen is not None
        command = fallen.command
        action.set(fallen, "hors_de_combat", False)
        successor = fresh = ""
        if done.successor is None:
            action.set(fallen, "rating", done.fallen.leader.rating)
            action.set(fallen, "replaced_this_turn", True)
        else:
            taking_over = below[done.successor.key]
            left = taking_over.command
            action.set(fallen, "removed", True)
            action.set(taking_over, "command", command.pk)
            action.set(taking_over, "replaced_this_turn", True)
            successor = taking_over.name
            fresh = _fresh_leader(action, left, taking_over) if done.left is not None else ""
        return action.record(
            LeaderReplaced(fallen.pk, fallen.name, command.name, done.inputs, done.result, successor, fresh)
        )


def _fresh_leader(action: Action, division: Command, gone: Leader) -> str:
    """ "A fresh divisional command figure may need to be supplied from off-board to fill the gap" (R:585-587):
    the division the successor left gets one, unless another of its leaders is still in play."""
    if Leader.objects.filter(command=division, removed=False).exclude(pk=gone.pk).exists():
        return ""
    fresh = Leader(
        game=action.game,
        command=division,
        name=f"Fresh leader of {division.name}",
        leader_class=FRESH.leader_class.value,
        rating=FRESH.rating,
        removed=True,
    )
    action.enter(fresh)
    action.set(fresh, "removed", False)
    action.set(fresh, "replaced_this_turn", True)
    return str(fresh)


def panel(s: ReplaceState, bound: Bound) -> dict[str, Any]:
    return {
        "fallen": [
            {
                "leader": leader,
                "action": address(s.game, "replace-leader", leader.piece),
                "waits_for": [f.name for f in s.turns[leader.pk].waits_for],
            }
            for leader in s.fallen
        ]
    }


STEP = Step(
    "games/steps/replace_leaders.html",
    state,
    pending,
    panel,
    actions=(versioned("replace-leader", "leader", Who.OWNER, replace_leader),),
    idle=idle,
    done_passes=True,
)
