"""Declaring an assault (5.1) and ending one (5.1 Follow-up Assaults)."""

from typing import Any

from django import forms

from republic.games.events.assault import AssaultDeclared, AssaultEnded
from republic.games.events.assault import Member as Declared
from republic.games.forms import NameChoiceField, VersionForm, filled, offer_names
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Unit, UnitChoice
from republic.games.pieces import Piece
from republic.games.steps.assaults.state import ELSEWHERE, Assault, AssaultState, Member, state
from republic.games.steps.move.state import state as move_state
from republic.games.text.terms import unit_options
from republic.play import assault as play
from republic.rules.assault_sides import Contact
from republic.rules.errors import RulesInputError
from republic.rules.maneuver import assault_refusal
from republic.rules.sequence import StepKey

SELECT = forms.Select(attrs={"class": "form-select"})
CONTACT_CHOICES = [
    ("", "—"),
    (Contact.ALL_OUT.value, 'all-out, within 2"'),
    (Contact.GENERAL.value, 'general, 2" to 4"'),
]


SLOTS = 6  # units a side may commit to one assault, as the form offers them


class DeclareForm(VersionForm):
    """Up to six units a side, each named (typed, or picked from the side's free units) with its contact,
    and the primary defender."""

    primary = NameChoiceField(
        label="Primary defender",
        required=False,
        help_text="The unit the attackers have the greatest contact frontage with (5.1).",
        what="defending unit",
    )
    bridging = forms.BooleanField(
        label="Split a bridging formation (5.2)",
        required=False,
        help_text="An attacking unit already in an open assault that also faces these defenders: name it here too "
        "and give its bases in each assault's rounds. Only the attacker splits a unit, and into two assaults at most.",
    )

    def __init__(
        self,
        *args: Any,
        game: Game,
        attackers: list[UnitChoice],
        defenders: list[UnitChoice],
        busy: dict[str, Assault],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.busy = busy
        self.order = [u.key for u in (*attackers, *defenders)]  # the order of battle
        self.lists = {}
        for side, units in (("a", attackers), ("d", defenders)):
            names = [f"{side}{n}" for n in range(1, SLOTS + 1)]
            for name in names:
                self.fields[name] = NameChoiceField(
                    label="Unit", required=False, what="attacking unit" if side == "a" else "defending unit"
                )
                self.fields[name].widget.attrs["class"] = "form-control"
                self.fields[f"{name}_contact"] = forms.ChoiceField(
                    label="Contact", choices=CONTACT_CHOICES, required=False, widget=SELECT
                )
            options = unit_options(units)
            listed = self.add_prefix(f"{side}-units")
            offer_names(self, [*names, *(["primary"] if side == "d" else [])], options, listed)
            self.lists[side] = (listed, [o for o in options if o[0] not in busy])

    def slots(self, side: str) -> list[dict[str, Any]]:
        return [
            {"number": n, "unit": self[f"{side}{n}"], "contact": self[f"{side}{n}_contact"]}
            for n in range(1, SLOTS + 1)
        ]

    def _named(self, cleaned: dict[str, Any]) -> dict[str, Unit]:
        """The units the slots name, read as rows: a dozen at most, not the two sides."""
        keys = [cleaned.get(f"{side}{n}") for side in ("a", "d") for n in range(1, SLOTS + 1)]
        pks = [Piece.at(key).pk for key in keys if key]
        return {u.key: u for u in Unit.objects.filter(game=self.game, pk__in=pks).select_related("division")}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        units = self._named(cleaned)
        chosen: dict[str, list[Member]] = {}
        named: set[str] = set()
        slot_of: dict[str, str] = {}
        for side in ("a", "d"):
            chosen[side] = []
            for n in range(1, SLOTS + 1):
                key, contact = cleaned.get(f"{side}{n}"), cleaned.get(f"{side}{n}_contact")
                if not key:
                    continue
                unit = units[key]
                if key in named:
                    self.add_error(f"{side}{n}", f"{unit.name} is named twice.")
                elif not contact:
                    self.add_error(f"{side}{n}_contact", f"Say how close {unit.name} is: all-out or general.")
                elif key in self.busy and not (side == "a" and cleaned.get("bridging")):
                    self.add_error(
                        None,
                        f"{unit.name} is already in open assault {self.busy[key].number}: a unit is in one assault "
                        "at a time, unless the attacker splits a bridging formation (5.2).",
                    )
                else:
                    chosen[side].append(Member(unit, Contact(contact)))
                    slot_of[key] = f"{side}{n}"
                named.add(key)
        for members in chosen.values():  # in the order of battle, whatever order the table named them in
            members.sort(key=lambda m: self.order.index(m.unit.key))
        if not chosen["a"]:
            self.add_error(None, "Choose at least one attacking unit and how close it is.")
        elif all(m.battery for m in chosen["a"]):
            self.add_error(None, "Artillery alone does not initiate an assault (5.1): add a brigade.")
        if not chosen["d"]:
            self.add_error(None, "Choose at least one defending unit and how close it is.")
        primary = cleaned.get("primary")
        defenders = chosen["d"]
        if primary and defenders:
            first = [m for m in defenders if m.unit.key == primary]
            if not first:
                self.add_error("primary", "The primary defender must be one of the defending units chosen above.")
            else:
                defenders = first + [m for m in defenders if m is not first[0]]
        elif len(defenders) > 1:
            self.add_error("primary", "Name the primary defender: the unit with the greatest contact frontage.")
        cleaned["attackers"], cleaned["defenders"], cleaned["slots"] = chosen["a"], defenders, slot_of
        return cleaned


def declare_form(s: AssaultState, data: Any = None) -> DeclareForm:
    return DeclareForm(
        data,
        prefix="declare",
        initial={"version": s.game.version},
        game=s.game,
        attackers=s.side_units("attacker"),
        defenders=s.side_units("defender"),
        busy=s.busy(),
    )


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
                raise RulesInputError(data["slots"][member.unit.key], f"{member.unit.name} may not assault: {refusal}.")
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
