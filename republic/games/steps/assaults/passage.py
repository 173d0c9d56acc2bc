"""Lose/lose passage of lines (5.5, R:1679-1701): an assault loser that lost both rolls and was driven back
through friendly formations within its reach behind it gives them M hits for its condition and P hits for its
move. The table names the friendly unit passed through and how far each loser's front edge was from its front
edge; whether a loser lost both rolls, its condition and its move come from the round it fought, and the engine
counts the two worst results of each kind. A battery at packed frontage blocks all movement through it (R:842-845):
no loser passes through one, and the table is pointed to the loser's blocked move instead (3.3).

Losers are offered side by side: a form for each side with a loser this turn, naming its own side's units."""

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString

from republic.games.events.assault import LinesPassedThrough
from republic.games.events.payload import NamedUnit
from republic.games.forms import Pick, PickField, PicksField, VersionForm, filled, inches_field, offer_picks
from republic.games.ledger import ActionRefused, act, acting_side
from republic.games.models import Event, Game, Unit
from republic.games.pieces import Piece
from republic.games.steps.anytime import blocked_input
from republic.games.steps.assaults.state import ELSEWHERE, AssaultState, state
from republic.games.text.maneuver import blocked_offer, last_move
from republic.games.text.terms import condition
from republic.play import passage as play
from republic.play.passage import SIDES
from republic.rules.assault_fixed_hits import passage_blocked
from republic.rules.forced_moves import ForcedMove, resolve_blocked_move
from republic.rules.sequence import StepKey


@dataclass(frozen=True)
class Loser:
    unit: Unit
    lost_both_rolls: bool

    @property
    def standing(self) -> str:
        """How it came out of its round, as the pass-through table reads it: 'Shaken, must retreat'."""
        return f"{condition(self.unit.m_hits)}, must {ForcedMove(self.unit.forced_move).title}"


def losers(s: AssaultState) -> dict[str, list[Loser]]:
    """Each side's losers of this turn's assaults, as ``republic.play.passage`` finds them."""
    units = {key: unit.to_rules() for key, unit in s.units.items()}
    found = play.losers(s.cores, units)
    return {side: [Loser(s.units[loser.unit], loser.lost_both_rolls) for loser in found[side]] for side in SIDES}


NO_HITS = " (did not lose both rolls: no pass-through hits)"


class PassageForm(VersionForm):
    """The friend passed through, and the losers that passed through it, each ticked with how far it was: the form
    grows by one loser at a time, and the engine counts the two worst of each kind however many passed."""

    side = forms.ChoiceField(choices=[(side, side) for side in SIDES], widget=forms.HiddenInput)
    unit = PickField(label="Friendly unit passed through", what="unit of that side")
    passers = PicksField(
        label="Losers passing through it",
        what="loser of this turn's assaults",
        error_messages={"required": "Tick each loser that passed through it."},
    )

    def __init__(self, *args: Any, side: str, losers: list[Loser], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.whose = side  # the side whose form it is: both sides' forms share a prefix
        for loser in losers:
            self.fields[_distance(loser.unit.key)] = inches_field(
                "Its front edge to the friend's front edge (inches)", help_text="", required=False
            )
        picks = [
            Pick(loser.unit.key, loser.unit.name, note=loser.standing + ("" if loser.lost_both_rolls else NO_HITS))
            for loser in losers
        ]
        offer_picks(self, ["passers"], picks)
        self.fields["passers"].aside = self._distance  # type: ignore[attr-defined]

    def _distance(self, pick: Pick, chosen: bool) -> SafeString:
        """A ticked loser's distance, typed as measured."""
        field = self[_distance(pick.key)]
        errors = " ".join(str(error) for error in field.errors)
        return format_html(
            '<div class="pick-aside pick-measure">{}{}{}</div>',
            field.label_tag(),
            field.as_widget(
                attrs={"class": "form-control is-invalid" if errors else "form-control", "inputmode": "decimal"}
            ),
            format_html('<div class="invalid-feedback d-block">{}</div>', errors) if errors else "",
        )

    def pairs(self) -> list[tuple[str, Any]]:
        data = self.cleaned_data
        return [(key, data[_distance(key)]) for key in data["passers"]]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for key in cleaned.get("passers") or ():
            if cleaned.get(_distance(key)) is None and _distance(key) not in self.errors:
                self.add_error(_distance(key), "How far was it? Measure front edge to front edge.")
            if key == cleaned.get("unit"):
                self.add_error("passers", "A loser does not pass through itself.")
        return cleaned


def _distance(key: str) -> str:
    """The field of a loser's distance, named after it."""
    return f"distance-{Piece.at(key).name}"


def passage_form(s: AssaultState, side: str, data: Any = None) -> PassageForm:
    """One side's form, offering that side's units in play and its losers."""
    form = PassageForm(
        data,
        side=side,
        losers=losers(s)[side],
        prefix="passage",
        auto_id=f"id_passage_{side}_%s",
        initial={"version": s.game.version, "side": side},
    )
    offer_picks(form, ["unit"], s.side_picks(side))
    return form


def sent_form(s: AssaultState, data: Any) -> PassageForm:
    """The form of the side its POST names: one form an action for both sides, as the side's players enter it."""
    side = data.get("passage-side")
    if side not in SIDES:
        raise ActionRefused("Nothing was changed: say which side's losers passed through.")
    return passage_form(s, side, data)


def _blocked_offer(game: Game, loser: Unit) -> str:
    """What a loser's card offers for its forced move blocked where it would pass (3.3), in the card's words."""
    inputs = blocked_input(loser.to_rules(), game.scale)
    if inputs is None:
        return ""
    result = resolve_blocked_move(game.chart, inputs)
    if result.last:
        return last_move(loser.name)
    return f"{loser.name}'s move is blocked there: on its card, “{blocked_offer(result)}”."


def take_passage(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(sent_form(s, data)) as sent:
        return pass_through(game, sent, actor)


def pass_through(game: Game, form: PassageForm, actor: str) -> Event:
    data = form.cleaned_data
    side = data["side"]
    with act(game, data["version"], actor, step=StepKey.ASSAULTS, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        found = {loser.unit.key: loser for loser in losers(s)[side]}
        owner = action.game.attacker if side == "attacker" else action.game.defender
        unit = Unit.objects.filter(game=action.game, pk=Piece.at(data["unit"]).pk).in_play().of_side(owner).first()
        if unit is None:
            raise ActionRefused("Name a unit in play of the losers' own side: nothing was changed.")
        if owner is None or acting_side() not in (None, owner.pk):
            raise ActionRefused(f"{unit.name} is the other side's: its hits are for its own players to apply.")
        blocked = passage_blocked(unit.to_rules())
        if blocked:
            blocked_losers = [found[key].unit for key, _ in form.pairs() if key in found]
            raise ActionRefused(
                f"{unit.name} takes no hits: {blocked}, so no loser passes through it. "
                + " ".join(_blocked_offer(action.game, loser) for loser in blocked_losers)
                + " Nothing was changed."
            )
        passers = []
        for key, distance in form.pairs():
            loser = found.get(key)
            if loser is None:
                raise ActionRefused("Each loser is a unit driven back by its assault this turn: nothing was changed.")
            passers.append(play.Passer(loser.unit.to_rules(), loser.unit.name, float(distance), loser.lost_both_rolls))
        done = play.pass_through(action.game.chart, action.game.scale, unit.to_rules(), passers)
        action.apply(unit, done.unit)
        named = tuple(NamedUnit(key, found[key].unit.name) for key, _ in form.pairs())
        return action.record(LinesPassedThrough(unit.key, unit.name, named, done.inputs, done.result))
