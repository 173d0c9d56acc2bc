"""Declaring an assault (5.1) and ending one (5.1 Follow-up Assaults)."""

from typing import Any

from django import forms

from republic.games.events import AssaultDeclared, AssaultEnded
from republic.games.events import Member as Declared
from republic.games.forms import VersionForm, offer
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Unit
from republic.games.steps.assaults.state import ELSEWHERE, Assault, AssaultState, Member, state
from republic.rules.assault_sides import Contact
from republic.rules.sequence import StepKey

SELECT = forms.Select(attrs={"class": "form-select"})
CONTACT_CHOICES = [
    ("", "—"),
    (Contact.ALL_OUT.value, 'all-out, within 2"'),
    (Contact.GENERAL.value, 'general, 2" to 4"'),
]


class DeclareForm(VersionForm):
    primary = forms.ChoiceField(
        label="Primary defender",
        required=False,
        help_text="The unit the attackers have the greatest contact frontage with (5.1).",
    )

    def __init__(
        self, *args: Any, attackers: list[Unit], defenders: list[Unit], busy: dict[str, Assault], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.attacker_units, self.defender_units, self.busy = attackers, defenders, busy
        for prefix, units in (("a", self.attacker_units), ("d", self.defender_units)):
            for unit in units:
                self.fields[f"{prefix}-{unit.slot}"] = forms.ChoiceField(
                    label=unit.name, choices=CONTACT_CHOICES, required=False, widget=SELECT
                )
        offer(self, "primary", [("", "—")] + [(u.slot, u.name) for u in self.defender_units if u.key not in self.busy])

    def rows(self, prefix: str) -> list[dict[str, Any]]:
        units = self.attacker_units if prefix == "a" else self.defender_units
        return [{"unit": u, "field": self[f"{prefix}-{u.slot}"]} for u in units if u.key not in self.busy]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = {}
        for prefix, units in (("a", self.attacker_units), ("d", self.defender_units)):
            chosen[prefix] = [
                Member(u, Contact(cleaned[f"{prefix}-{u.slot}"])) for u in units if cleaned.get(f"{prefix}-{u.slot}")
            ]
            for member in chosen[prefix]:
                if member.unit.key in self.busy:
                    self.add_error(
                        None,
                        f"{member.unit.name} is already in open "
                        f"assault {self.busy[member.unit.key].number}: a unit is in one assault at a time.",
                    )
        if not chosen["a"]:
            self.add_error(None, "Choose at least one attacking unit and how close it is.")
        elif all(m.battery for m in chosen["a"]):
            self.add_error(None, "Artillery alone does not initiate an assault (5.1): add a brigade.")
        if not chosen["d"]:
            self.add_error(None, "Choose at least one defending unit and how close it is.")
        primary = cleaned.get("primary")
        defenders = chosen["d"]
        if primary and defenders:
            first = [m for m in defenders if m.unit.slot == primary]
            if not first:
                self.add_error("primary", "The primary defender must be one of the defending units chosen above.")
            else:
                defenders = first + [m for m in defenders if m is not first[0]]
        elif len(defenders) > 1:
            self.add_error("primary", "Name the primary defender: the unit with the greatest contact frontage.")
        cleaned["attackers"], cleaned["defenders"] = chosen["a"], defenders
        return cleaned


def declare_form(s: AssaultState, data: Any = None) -> DeclareForm:
    return DeclareForm(
        data,
        prefix="declare",
        initial={"version": s.game.version},
        attackers=s.side_units("attacker"),
        defenders=s.side_units("defender"),
        busy=s.busy(),
    )


def declare_assault(game: Game, form: DeclareForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.ASSAULTS, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        busy = s.busy()
        taken = [m.unit.name for m in (*data["attackers"], *data["defenders"]) if m.unit.key in busy]
        if taken:
            raise ActionRefused(f"{', '.join(taken)} already in an open assault: nothing was changed.")
        attackers, defenders = (
            tuple(Declared(m.unit.key, m.unit.name, m.contact) for m in data[side])
            for side in ("attackers", "defenders")
        )
        return action.record(AssaultDeclared(len(s.assaults) + 1, attackers, defenders))


def end_assault(game: Game, seq: int, version: int, actor: str) -> Event:
    with act(
        game, version, actor, step=StepKey.ASSAULTS, elsewhere="Assaults are ended in the assault step."
    ) as action:
        assault = state(action.game).find(seq)
        if not assault.open:
            raise ActionRefused(f"Assault {assault.number} has already ended.")
        return action.record(AssaultEnded(assault.seq, assault.number, len(assault.rounds), assault.title))
