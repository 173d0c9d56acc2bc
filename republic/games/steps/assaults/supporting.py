"""A supporting brigade's hit (5.5, R:1784-1792): a defending unit that supported a defence with only a minority
of its bases in the attacker's window is not declared in the assault, but when the primary defender it
supported retreats or routs it takes a hit and disengages, withdraws or falls back. The table names the unit,
its bases in the window and its move; the primary defender's move comes from the state."""

from typing import Any

from django import forms

from republic.games.events.assault import SupportingBrigadeHit
from republic.games.forms import Pick, PickField, VersionForm, filled, offer_picks
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Unit
from republic.games.pieces import Piece
from republic.games.steps.assaults.state import ELSEWHERE, AssaultState, state
from republic.play import supporting as play
from republic.play.refusal import Refused
from republic.rules.forced_moves import ForcedMove
from republic.rules.sequence import StepKey

MOVES = [(m.value, m.title.capitalize()) for m in ForcedMove if m.faces_enemy]


class SupportingForm(VersionForm):
    unit = PickField(label="Supporting unit", what="defending unit")
    supporting_bases = forms.IntegerField(
        label="Its bases in the attacker's assault window",
        min_value=1,
        help_text="A minority of its bases: with half or more it takes part in the assault instead.",
    )
    primary = PickField(label="The primary defender it supported", what="defending unit")
    move = forms.ChoiceField(label="Its move if it is hit", choices=MOVES, initial=ForcedMove.DISENGAGE.value)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("unit") and cleaned.get("unit") == cleaned.get("primary"):
            self.add_error("primary", "The primary defender is another unit than the one supporting it.")
        return cleaned


def supporting_form(s: AssaultState, data: Any = None) -> SupportingForm:
    """The form, offering the defending side's units in play, and as the primary defender supported each of this
    turn's assaults' primary defenders: only a primary defender's retreat or rout hits its supports (R:1784-1792)."""
    form = SupportingForm(data, prefix="supporting", initial={"version": s.game.version})
    offer_picks(form, ["unit"], s.side_picks("defender"))
    primaries = {a.defenders[0].unit.key: a.defenders[0].unit for a in s.assaults if a.defenders}
    offer_picks(form, ["primary"], [Pick(key, unit.name, note=unit.division.name) for key, unit in primaries.items()])
    return form


def take_supporting_hit(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(supporting_form(s, data)) as sent:
        return supporting_hit(game, sent, actor)


def supporting_hit(game: Game, form: SupportingForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.ASSAULTS, elsewhere=ELSEWHERE) as action:
        found = Unit.objects.filter(game=action.game, pk__in=[Piece.at(data["unit"]).pk, Piece.at(data["primary"]).pk])
        units = {u.key: u for u in found.in_play().of_side(action.game.defender)}
        unit, primary = units.get(data["unit"]), units.get(data["primary"])
        if unit is None or primary is None:
            raise ActionRefused("Name two of the defending side's units in play: nothing was changed.")
        try:
            done = play.supporting_hit(
                action.game.chart,
                action.game.scale,
                unit.to_rules(),
                primary.to_rules(),
                data["supporting_bases"],
                ForcedMove(data["move"]),
            )
        except Refused as refusal:
            raise ActionRefused(f"{unit.name} is {refusal}.") from None
        action.apply(unit, done.unit)
        return action.record(SupportingBrigadeHit(unit.key, unit.name, primary.name, done.inputs, done.result))
