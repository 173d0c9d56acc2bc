"""Declaring an assault (5.1) and ending one (5.1 Follow-up Assaults)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from republic.games.events.assault import AssaultDeclared, AssaultEnded
from republic.games.events.assault import Member as Declared
from republic.games.forms import Pick, PickField, PicksField, Refused, VersionForm, filled, offer_picks
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Unit
from republic.games.pieces import Piece
from republic.games.steps.assaults.state import ELSEWHERE, Assault, AssaultState, Member, state
from republic.games.steps.move.state import state as move_state
from republic.play import assault as play
from republic.rules.assault_sides import Contact
from republic.rules.errors import RulesInputError
from republic.rules.maneuver import assault_refusal, roll_refusal
from republic.rules.sequence import StepKey

SELECT = forms.Select(attrs={"class": "form-select"})
GENERAL = 'General contact, 2" to 4"'  # all-out, within 2", unless the table ticks this (5.1)


def _general(field: str, ticked: set[str]) -> Callable[[Pick, bool], SafeString]:
    """A chosen unit's contact: all-out unless ticked general, one tap."""

    def aside(pick: Pick, chosen: bool) -> SafeString:
        # each follows its unit's own box: a club battle's 200 defenders would repeat their names in a hidden word
        return format_html(
            '<label class="pick-aside"><input type="checkbox" name="{}" value="{}"{}>{}</label>',
            field,
            pick.key,
            mark_safe(" checked") if pick.key in ticked else "",
            GENERAL,
        )

    return aside


class DeclareForm(VersionForm):
    """The attacking and defending units, each chosen by a tap among those that may take that part, with its
    contact (all-out unless ticked general) and, when several defend, the primary defender among them."""

    attackers = PicksField(
        label="Attacking units",
        what="attacking unit",
        refusal="{name} may not assault: {why}.",
        error_messages={"required": "Choose at least one attacking unit."},
    )
    defenders = PicksField(
        label="Defending units",
        what="defending unit",
        refusal="{name} is {why}: only the attacker splits a unit between two assaults (5.2).",
        error_messages={"required": "Choose at least one defending unit."},
    )
    general = PicksField(required=False, what="unit ticked general")
    primary = PickField(required=False, what="defending unit")
    bridging = forms.BooleanField(
        label="Split a bridging formation (5.2)",
        required=False,
        help_text="An attacking unit already in an open assault that also faces these defenders: choose it here too "
        "and give its bases in each assault's rounds. Only the attacker splits a unit, and into two assaults at most.",
    )

    def __init__(self, *args: Any, game: Game, offer: "Offer", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.busy = offer.busy
        self.fields["attackers"].label = f"Attacking units ({game.attacker})"
        self.fields["defenders"].label = f"Defending units ({game.defender})"
        offer_picks(self, ["attackers"], offer.attackers, offer.refused)
        offer_picks(self, ["defenders", "primary"], offer.defenders, offer.busy_defenders)
        general = self.fields["general"]
        assert isinstance(general, PicksField)
        general.join(self.fields["attackers"], self.fields["defenders"])  # type: ignore[arg-type]
        ticked, named = set(self["general"].value() or ()), self.add_prefix("general")
        primary = self.fields["primary"]
        assert isinstance(primary, PickField)
        chosen = primary.key_of(str(self["primary"].value() or "")) or ""
        self.fields["attackers"].aside = _general(named, ticked)  # type: ignore[attr-defined]
        self.fields["defenders"].aside = _defender(named, ticked, self["primary"].html_name, chosen)  # type: ignore[attr-defined]
        self.fields["attackers"].aside_by_key = self.fields["defenders"].aside_by_key = True  # type: ignore[attr-defined]

    def _named(self, keys: list[str]) -> dict[str, Unit]:
        """The units chosen, read as rows: a dozen at most, not the two sides."""
        pks = [Piece.at(key).pk for key in keys]
        return {u.key: u for u in Unit.objects.filter(game=self.game, pk__in=pks).select_related("division")}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        keys = {side: list(cleaned.get(side) or []) for side in ("attackers", "defenders")}
        units = self._named([*keys["attackers"], *keys["defenders"]])
        general = set(cleaned.get("general") or ())
        chosen = {
            side: [Member(units[key], Contact.GENERAL if key in general else Contact.ALL_OUT) for key in found]
            for side, found in keys.items()
        }
        for side in ("attackers", "defenders"):
            for member in chosen[side]:
                key = member.unit.key
                if key in self.busy and not (side == "attackers" and cleaned.get("bridging")):
                    self.add_error(
                        side,
                        f"{member.unit.name} is already in open assault {self.busy[key].number}: a unit is in one "
                        "assault at a time, unless the attacker splits a bridging formation (5.2).",
                    )
        if "attackers" in self.errors or "defenders" in self.errors:
            return cleaned
        if not chosen["attackers"]:
            self.add_error("attackers", "Choose at least one attacking unit.")
        elif all(m.battery for m in chosen["attackers"]):
            self.add_error("attackers", "Artillery alone does not initiate an assault (5.1): add a brigade.")
        defenders = chosen["defenders"]
        primary = cleaned.get("primary") or (defenders[0].unit.key if len(defenders) == 1 else "")
        if not defenders:
            self.add_error("defenders", "Choose at least one defending unit.")
        elif not primary:
            self.add_error("primary", "Choose the primary defender: the unit with the greatest contact frontage.")
        else:
            first = [m for m in defenders if m.unit.key == primary]
            if not first:
                self.add_error("primary", "The primary defender must be one of the defending units chosen.")
            else:
                defenders = first + [m for m in defenders if m is not first[0]]
        cleaned["attackers"], cleaned["defenders"] = chosen["attackers"], defenders
        return cleaned


def _defender(general: str, ticked: set[str], field: str, primary: str) -> Callable[[Pick, bool], SafeString]:
    """A chosen defender's contact and, among several, whether it is the primary defender."""
    contact = _general(general, ticked)

    def aside(pick: Pick, chosen: bool) -> SafeString:
        return format_html(
            '{}<label class="pick-aside"><input type="radio" name="{}" value="{}"{}>Primary defender</label>',
            contact(pick, chosen),
            field,
            pick.key,
            mark_safe(" checked") if pick.key and pick.key == primary else "",
        )

    return aside


@dataclass(frozen=True)
class Offer:
    """What the declaration offers: the attacking units that may initiate or join an assault, those that may not
    with why, the defending units, and the units already in an open assault."""

    attackers: list[Pick]
    refused: list[Refused]
    defenders: list[Pick]
    busy_defenders: list[Refused]
    busy: dict[str, Assault]


def offer(s: AssaultState) -> Offer:
    """The attacking side's units whose condition and maneuver roll this turn let them assault (a battery joins
    any), and the defending side's units not in an open assault. Whether a brigade may assault these defenders
    (infantry against horse or guns, 2.3) is known once they are chosen: the declaration refuses it then."""
    busy = s.busy()
    rolls = move_state(s.game).rolls
    side = list(zip(s.side_picks("attacker"), s.side_units("attacker"), strict=True))
    rolled = {p.key: rolls[p.key].result.actions for p, unit in side if not unit.battery and p.key in rolls}
    # the condition is read whole only for the brigades whose roll allows an assault: a handful, not the side
    may = [Piece.at(key).pk for key, allowed in rolled.items() if not roll_refusal(allowed)]
    states = {u.key: u.to_rules() for u in Unit.objects.filter(game=s.game, pk__in=may)}
    attackers, refused = [], []
    for pick, unit in side:
        key = pick.key
        why = "" if unit.battery else roll_refusal(rolled.get(key))
        if not why and key in states:
            why = assault_refusal(states[key], rolled[key], ())
        if why:
            refused.append(Refused(key, pick.name, why))
        elif key in busy:
            note = f"in open assault {busy[key].number}: only to split a bridging formation (5.2)"
            attackers.append(Pick(key, pick.name, pick.group, note))
        else:
            attackers.append(pick)
    defenders, busy_defenders = [], []
    for pick in s.side_picks("defender"):
        if pick.key in busy:
            busy_defenders.append(Refused(pick.key, pick.name, f"already in open assault {busy[pick.key].number}"))
        else:
            defenders.append(pick)
    return Offer(attackers, refused, defenders, busy_defenders, busy)


def declare_form(s: AssaultState, data: Any = None) -> DeclareForm:
    return DeclareForm(data, prefix="declare", initial={"version": s.game.version}, game=s.game, offer=offer(s))


def take_declare(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(declare_form(s, data)) as sent:
        return declare_assault(game, sent, actor)


def declare_assault(game: Game, form: DeclareForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.ASSAULTS, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        names = {m.unit.key: m.unit.name for m in (*data["attackers"], *data["defenders"])}
        keys = {side: [m.unit.key for m in data[side]] for side in ("attackers", "defenders")}
        busy = [names[key] for key in play.taken(s.cores, keys["attackers"], keys["defenders"], data["bridging"])]
        if busy:
            raise ActionRefused(f"{', '.join(busy)} already in an open assault: nothing was changed.")
        twice = [names[key] for key in play.split_twice(s.cores, keys["attackers"])]
        if twice:
            raise ActionRefused(f"{', '.join(twice)} already split between two assaults (5.2): nothing was changed.")
        rolls = move_state(action.game).rolls
        assaulted = [m.unit.to_rules() for m in data["defenders"]]
        for member in data["attackers"]:
            rolled = rolls.get(member.unit.key)
            refusal = assault_refusal(member.unit.to_rules(), rolled.result.actions if rolled else None, assaulted)
            if refusal:
                raise RulesInputError("attackers", f"{member.unit.name} may not assault: {refusal}.")
        attackers, defenders = (
            tuple(Declared(m.unit.key, m.unit.name, m.contact) for m in data[side])
            for side in ("attackers", "defenders")
        )
        return action.record(AssaultDeclared(len(s.assaults) + 1, attackers, defenders))


END_ELSEWHERE = "Assaults are ended in the assault step."


def end_assault(game: Game, seq: int, version: int, actor: str) -> Event:
    with act(game, version, actor, step=StepKey.ASSAULTS, elsewhere=END_ELSEWHERE) as action:
        assault = state(action.game).find(seq)
        refusal = play.end_refusal(assault.core)
        if refusal:
            raise ActionRefused(refusal)
        return action.record(AssaultEnded(assault.seq, assault.number, len(assault.rounds), assault.title))
