"""Attacker replaces hors de combat leaders (1.7, 2.5): a division leader returns one rating lower; a corps
or army leader is replaced by the best-rated leader next in his chain of command, and a division left without
its leader by that gets a fresh one from off the board.

Reading chosen for the table: the text gives the fresh division leader no class or rating (R:585-587), so he
comes as Cautious 0, the floor a returning leader falls to (R:579-582); the game master corrects him if the
scenario says otherwise. Leaders who fell together are replaced from the bottom of the chain of command up
(republic.rules.leaders.replacement_order): the step offers only those it may replace now, in that order."""

from dataclasses import dataclass
from typing import Any

from republic.games.events.command import LeaderReplaced
from republic.games.forms import VersionForm
from republic.games.ledger import Action, ActionRefused, act
from republic.games.models import Command, Event, Game, Leader
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Step, Who, address
from republic.rules.leaders import (
    Candidate,
    FallenLeader,
    LeaderRank,
    LeaderReplacementInput,
    ReplacementTurn,
    replacement_order,
    resolve_leader_replacement,
)
from republic.rules.sequence import StepKey
from republic.rules.troops import LeaderClass

_RANK = {"army": LeaderRank.ARMY, "corps": LeaderRank.CORPS, "division": LeaderRank.DIVISION}


@dataclass
class ReplaceState:
    game: Game
    fallen: list[Leader]  # in the order they are replaced (2.5)
    turns: dict[int, ReplacementTurn]  # by leader

    def refusal(self, leader: Leader) -> str:
        return self.turns[leader.pk].refusal


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

    def above(command: int) -> tuple[str, ...]:
        chain = []
        parent = parents.get(command)
        while parent is not None:
            chain.append(str(parent))
            parent = parents.get(parent)
        return tuple(chain)

    by_key = {str(leader.pk): leader for leader in fallen}
    turns = replacement_order(
        [
            FallenLeader(
                leader.name,
                _RANK[leader.command.level],
                str(leader.command_id),
                above(leader.command_id),
                key=str(leader.pk),
            )
            for leader in fallen
        ]
    )
    return ReplaceState(
        game, [by_key[turn.leader.key] for turn in turns], {int(turn.leader.key): turn for turn in turns}
    )


def pending(s: ReplaceState) -> list[str]:
    return [f"replace {leader.name}, hors de combat" for leader in s.fallen]


def replace_leader(game: Game, leader: Leader, version: int, actor: str) -> Event:
    refusal = f"{leader.name} has nothing to be replaced for now."
    with act(game, version, actor, step=StepKey.REPLACE_LEADERS, elsewhere=refusal) as action:
        fallen = next((f for f in state(action.game).fallen if f.pk == leader.pk), None)
        if fallen is None:
            raise ActionRefused(refusal)
        waiting = state(action.game).refusal(fallen)
        if waiting:
            raise ActionRefused(waiting)
        command = fallen.command
        candidates: tuple[Candidate, ...] = ()
        if command.level != Command.Level.DIVISION:
            below = (
                Leader.objects.filter(game=action.game, command__parent=command).in_action().select_related("command")
            )
            candidates = tuple(Candidate(c.name, _RANK[c.command.level], c.value) for c in below)
            if not candidates:
                raise ActionRefused(
                    f"No command under {command.name} has a leader in play to take over from {fallen.name}: the "
                    "rules name his successor only from the chain of command below him (2.5)."
                )
        inputs = LeaderReplacementInput(
            rank=_RANK[command.level], leader=fallen.value, name=fallen.name, candidates=candidates
        )
        result = resolve_leader_replacement(action.game.chart, inputs)
        action.set(fallen, "hors_de_combat", False)
        successor = fresh = ""
        if command.level == Command.Level.DIVISION:
            action.set(fallen, "rating", result.leader.rating)
            action.set(fallen, "replaced_this_turn", True)
        else:
            taking_over = Leader.objects.select_related("command").get(
                game=action.game, name=result.name, command__parent=command
            )
            left = taking_over.command
            action.set(fallen, "removed", True)
            action.set(taking_over, "command", command.pk)
            action.set(taking_over, "replaced_this_turn", True)
            successor = taking_over.name
            fresh = _fresh_leader(action, left, taking_over) if left.level == Command.Level.DIVISION else ""
        return action.record(LeaderReplaced(fallen.pk, fallen.name, command.name, inputs, result, successor, fresh))


def _fresh_leader(action: Action, division: Command, gone: Leader) -> str:
    """ "A fresh divisional command figure may need to be supplied from off-board to fill the gap" (R:585-587):
    the division the successor left gets one, unless another of its leaders is still in play."""
    if Leader.objects.filter(command=division, removed=False).exclude(pk=gone.pk).exists():
        return ""
    fresh = Leader(
        game=action.game,
        command=division,
        name=f"Fresh leader of {division.name}",
        leader_class=LeaderClass.CAUTIOUS.value,
        rating=0,
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
    actions=(
        Act(
            "replace-leader",
            "leader",
            Who.OWNER,
            lambda s, leader, data: VersionForm(data),
            lambda s, leader, sent, actor: replace_leader(s.game, leader, sent.cleaned_data["version"], actor),
        ),
    ),
)
