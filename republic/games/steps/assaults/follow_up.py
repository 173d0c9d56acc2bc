"""The attackers' moves after a round (5.5) and before any (R:1320-1323), and a local breakthrough at the start of
the phase (5.2): the table says what each unit did, the engine checks it against the result and says whether it
spent its assault move bonus, which the unit keeps for the end of the turn's 1M."""

from dataclasses import dataclass
from typing import Any

from django import forms

from republic.games.events.assault import AssaultFollowedUp, LocalBreakthroughDeclared, UnitFollowUp
from republic.games.forms import PickField, VersionForm, filled, offer_picks
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Unit
from republic.games.pieces import Piece
from republic.games.steps.assaults.state import ELSEWHERE, Assault, AssaultState, Member, state
from republic.games.steps.move.state import state as move_state
from republic.play import follow_up as play
from republic.rules.assault_moves import FollowUp
from republic.rules.sequence import StepKey
from republic.rules.units import UnitState


@dataclass(frozen=True)
class Mover:
    member: Member
    moves: tuple[FollowUp, ...]


def _units(assault: Assault) -> dict[str, UnitState]:
    return {m.unit.key: m.unit.to_rules() for m in assault.members}


def movers(assault: Assault, done: set[tuple[int, int]]) -> list[Mover]:
    """The attackers with a move of their own to choose, until it is recorded for this round."""
    found = play.movers(assault.core, _units(assault), (assault.seq, len(assault.rounds)) in done)
    return [Mover(m, found[m.unit.key]) for m in assault.attackers if m.unit.key in found]


def recorded(s: AssaultState) -> set[tuple[int, int]]:
    """The (assault, round) pairs whose moves are recorded."""
    return {(p.assault, p.round) for p in s.follow_ups}


class FollowUpForm(VersionForm):
    def __init__(self, *args: Any, movers: list[Mover], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.movers = movers
        for mover in movers:
            slot = mover.member.unit.piece.name
            self.fields[f"move-{slot}"] = forms.ChoiceField(
                label=mover.member.unit.name,
                choices=[(m.value, m.words.capitalize()) for m in mover.moves],
                widget=forms.Select(attrs={"class": "form-select"}),
            )
            self.fields[f"bonus-{slot}"] = forms.BooleanField(
                label="It needed its assault move bonus",
                required=False,
                widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
            )

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "unit": m.member.unit,
                "move": self[f"move-{m.member.unit.piece.name}"],
                "bonus": self[f"bonus-{m.member.unit.piece.name}"],
            }
            for m in self.movers
        ]


def follow_up_form(s: AssaultState, assault: Assault, data: Any = None) -> FollowUpForm:
    found = movers(assault, recorded(s))
    initial: dict[str, Any] = {"version": s.game.version}
    initial.update({f"move-{m.member.unit.piece.name}": m.moves[0].value for m in found})
    return FollowUpForm(data, prefix=Piece("assault", assault.seq).prefix("follow"), initial=initial, movers=found)


def take_follow_up(game: Game, seq: int, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(follow_up_form(s, s.find(seq), data)) as sent:
        return follow_up(game, seq, sent, actor)


def follow_up(game: Game, seq: int, form: FollowUpForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.ASSAULTS, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        assault = s.find(seq)
        found = movers(assault, recorded(s))
        if not found or [m.member.unit.key for m in found] != [m.member.unit.key for m in form.movers]:
            raise ActionRefused(f"Assault {assault.number} has no move of the attackers to record now.")
        result, moves = play.result_of(assault.core, _units(assault)), []
        for mover in found:
            unit = mover.member.unit
            slot = unit.piece.name
            move = FollowUp(data[f"move-{slot}"])
            done = play.follow_up(action.game.chart, result, unit.to_rules(), move, data[f"bonus-{slot}"])
            action.apply(unit, done.unit)
            moves.append(UnitFollowUp(unit.key, unit.name, done.inputs, done.result))
        return action.record(AssaultFollowedUp(assault.seq, assault.number, len(assault.rounds), tuple(moves)))


class LocalBreakthroughForm(VersionForm):
    unit = PickField(label="Attacking brigade", what="attacking brigade")
    used_bonus = forms.BooleanField(label="It uses its assault move bonus", required=False)


def local_breakthrough_form(s: AssaultState, data: Any = None) -> LocalBreakthroughForm:
    form = LocalBreakthroughForm(data, prefix="breakthrough", initial={"version": s.game.version})
    # a battery makes no breakthrough
    brigades = [p for u, p in zip(s.side_units("attacker"), s.side_picks("attacker"), strict=True) if not u.battery]
    offer_picks(form, ["unit"], brigades)
    return form


def take_local_breakthrough(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(local_breakthrough_form(s, data)) as sent:
        return local_breakthrough(game, sent, actor)


def local_breakthrough(game: Game, form: LocalBreakthroughForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.ASSAULTS, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        owner = action.game.attacker
        unit = Unit.objects.filter(game=action.game, pk=Piece.at(data["unit"]).pk).in_play().of_side(owner).first()
        if unit is None or unit.battery:
            raise ActionRefused("Name an attacking brigade in play: nothing was changed.")
        rolled = move_state(action.game).rolls.get(unit.key)
        allowed = rolled.result.actions if rolled else None
        done = play.local_breakthrough(action.game.chart, s.cores, unit.to_rules(), data["used_bonus"], allowed)
        action.apply(unit, done.unit)
        return action.record(LocalBreakthroughDeclared(unit.key, unit.name, done.inputs, done.result))
