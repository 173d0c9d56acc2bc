"""A round of an assault (5.1-5.5) as the table gives it: its form, the conditions read from it and its column;
the round itself is resolved by the game's decisions (``republic.play.assault``) and written onto the units.

Readings chosen for the table (those of the round itself live with the decisions):
- "Bases lost this turn" is the sum of the lost bases of this turn of the units taking part; "the worst P
  this phase" is the largest of their P hits of this assault phase.
- The bases a unit counts when the table gives fewer than all (5.2) stay for the next round, as its cover does.
- A bridging formation split between two assaults (5.2, R:1448-1477) must be given the bases it counts in each.
"""

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms

from republic.games.events.assault import AssaultRoundResolved, RoundConditions, UnitCover
from republic.games.events.payload import NamedUnit
from republic.games.forms import AS_BOXES, DiceForm, die_field, filled, offer, offer_many, whole_number
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Leader
from republic.games.pieces import Piece
from republic.games.steps.assaults.declare import SELECT
from republic.games.steps.assaults.state import Assault, AssaultState, Member, in_play, state
from republic.play.assault import Round, Taking, column, fight
from republic.play.refusal import Refused
from republic.rules.assault_table import AssaultColumn, AssaultColumnResult, AssaultOutcome, Struck
from republic.rules.sequence import StepKey
from republic.rules.troops import Cover

OUT = "out"
COVER_CHOICES = [
    (Cover.NONE.value, "open"),
    (Cover.LIGHT.value, "light (1)"),
    (Cover.MEDIUM.value, "medium (2)"),
    (Cover.HEAVY.value, "heavy (3)"),
    (OUT, "not in round"),
]
STRUCK_CHOICES = [(Struck.FRONT.value, "front"), (Struck.FLANK.value, "flank"), (Struck.REAR.value, "rear")]
COLUMN_CHOICES = [("", "As the rules give")] + [(c.value, c.title) for c in AssaultColumn]
FLAGS = ("surrounded", "out_of_town", "across_water")
FLAG_WORDS = {"surrounded": "Cut off", "out_of_town": "Leaves town", "across_water": "Over water"}
RARE_FLAGS = ("stalled", "square_vs_solo_cavalry")  # the round's other rare cases, folded with the units' ones


@dataclass
class Conditions:
    """What the table says about a round: each unit's cover by slot (None: not in this round), where the
    defender is struck, and any column the table names."""

    cover: dict[str, Cover | None]
    struck: Struck = Struck.FRONT
    override: AssaultColumn | None = None
    counted: dict[str, int | None] = field(default_factory=dict)  # bases counted when not all, by slot (5.2)


def _choice(raw: Any, allowed: list[tuple[str, str]], default: str) -> str:
    return str(raw) if raw in {value for value, _ in allowed} else default


def previous_conditions(assault: Assault) -> Conditions:
    """The last round's conditions, or the open ground in front for a first round."""
    last = assault.last.conditions if assault.last else RoundConditions(())
    cover = {m.unit.piece.name: last.cover_of(m.unit.key) for m in assault.members}
    counted = {m.unit.piece.name: last.bases_of(m.unit.key) for m in assault.members}
    return Conditions(cover, last.struck, last.column, counted)


def read_conditions(assault: Assault, raw: Mapping[str, Any] | None, prefix: str) -> Conditions:
    """Conditions from a round form's raw data (a bound form or the column preview's query), falling back
    on the last round's for anything missing or not understood."""
    before = previous_conditions(assault)
    if raw is None:
        return before
    cover: dict[str, Cover | None] = {}
    counted: dict[str, int | None] = {}
    for member in assault.members:
        slot = member.unit.piece.name
        was = before.cover[slot]
        value = _choice(raw.get(f"{prefix}-cover-{slot}"), COVER_CHOICES, OUT if was is None else was.value)
        cover[slot] = None if value == OUT else Cover(value)
        bases = whole_number(str(raw.get(f"{prefix}-bases-{slot}", "")))
        counted[slot] = bases if bases is not None and 0 < bases < member.unit.bases else None
    struck = Struck(_choice(raw.get(f"{prefix}-struck"), STRUCK_CHOICES, before.struck.value))
    column = _choice(raw.get(f"{prefix}-column"), COLUMN_CHOICES, "")
    return Conditions(cover, struck, AssaultColumn(column) if column else None, counted)


def taking_part(assault: Assault, conditions: Conditions, side: str) -> list[Member]:
    return [m for m in assault.playing(side) if conditions.cover.get(m.unit.piece.name) is not None]


def column_for(assault: Assault, conditions: Conditions) -> AssaultColumnResult | None:
    """The column the rules give for these units and conditions, with the table's choice if it named
    another; None while a side has no unit in the round."""
    attackers, defenders = (
        tuple(
            Taking(m.unit.to_rules(), m.contact, conditions.cover[m.unit.piece.name] or Cover.NONE)
            for m in taking_part(assault, conditions, side)
        )
        for side in ("attacker", "defender")
    )
    return column(attackers, defenders, conditions.struck, conditions.override)


def _checkboxes(label: str, help_text: str = "") -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label, required=False, widget=forms.CheckboxSelectMultiple, help_text=help_text
    )


class RoundForm(DiceForm):
    dice_fields = ("die", "die2")
    struck = forms.ChoiceField(
        label="The attackers strike the defender in its",
        choices=STRUCK_CHOICES,
        widget=forms.RadioSelect(attrs={"class": "btn-check"}),
        help_text="Flank: part of an attacking base is past the defender's flank line; rear: past its rear "
        "line. Struck in both: rear (5.1, 5.4).",
    )
    column = forms.ChoiceField(
        label="Column", choices=COLUMN_CHOICES, required=False, widget=forms.RadioSelect(attrs={"class": "btn-check"})
    )
    attacker_leaders = _checkboxes('Attacker: E or P leaders within 2" of a unit taking part')
    defender_leaders = _checkboxes('Defender: E or P leaders within 2" of a unit taking part')
    fresh = _checkboxes(
        "Defender: fresh batteries",
        "Ticked: the batteries that did not fire this player turn (5.4); untick any that did.",
    )
    surrounded = _checkboxes(
        "Cannot move back without passing through an enemy formation",
        "These surrender if the round forces them back (5.5 Group Surrender).",
    )
    out_of_town = _checkboxes("Would retreat or rout out of town terrain", "Adds to its loss number (6.3).")
    across_water = _checkboxes("Would retreat or rout across a bridge or ford", "Adds to its loss number (6.3).")
    stalled = forms.BooleanField(
        label="The attackers are stalled: no movement left to break off",
        required=False,
        help_text='Stalled units take no break-off hit and fight on while within 2" (5.5 Stalled Assaults).',
    )
    square_vs_solo_cavalry = forms.BooleanField(
        label="The defenders are infantry in square, assaulted by mounted cavalry alone",
        required=False,
        help_text="The cavalry's numbers count at most as 3:2 against a square (5.4).",
    )
    die = die_field("Attacker's die (1-10)")
    die2 = die_field("Defender's die (1-10)")
    printed = forms.CharField(
        label="Or: the outcome from your printed chart",
        required=False,
        max_length=60,
        help_text="As the chart writes it: defender 3P 1B carry, attacker break off, both 1M roll again, -. "
        "The natural-roll M is still worked out here.",
    )

    def __init__(
        self,
        *args: Any,
        assault: Assault,
        leaders: dict[str, list[Leader]],
        bridged: Collection[str],
        near: dict[str, set[int]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.assault = assault
        self.bridged = bridged
        self.near = near or {}
        for member in assault.members:
            if in_play(member.unit):
                self.fields[f"cover-{member.unit.piece.name}"] = forms.ChoiceField(
                    label=member.unit.name, choices=COVER_CHOICES, widget=SELECT
                )
            split = member.unit.key in bridged
            if in_play(member.unit) and (member in assault.defenders or split) and not member.battery:
                self.fields[f"bases-{member.unit.piece.name}"] = forms.IntegerField(
                    label=f"{member.unit.name}: bases counted",
                    required=False,
                    min_value=1,
                    max_value=member.unit.bases,
                    widget=forms.NumberInput(
                        attrs={
                            "class": "form-control",
                            "placeholder": f"all {member.unit.bases}",
                            "inputmode": "numeric",
                        }
                    ),
                )
        for name in ("attacker", "defender"):
            choices = [(str(lead.pk), f"{lead.name} ({lead.value})") for lead in leaders[name]]
            offer_many(self, f"{name}_leaders", choices)
        offer(self, "fresh", [(m.unit.piece.name, m.unit.name) for m in assault.playing("defender") if m.battery])
        everyone = [(m.unit.piece.name, m.unit.name) for m in assault.members if in_play(m.unit)]
        for name in FLAGS:
            offer(self, name, everyone)

    def cover_rows(self, side: str) -> list[dict[str, Any]]:
        """Each unit of the side with its cover, and a defender's bases counted (blank: all of them)."""
        return [
            {
                "unit": m.unit,
                "field": self[f"cover-{m.unit.piece.name}"],
                "bases": self[f"bases-{m.unit.piece.name}"] if f"bases-{m.unit.piece.name}" in self.fields else None,
                "split": m.unit.key in self.bridged,
            }
            for m in self.assault.playing(side)
        ]

    def rare_rows(self) -> list[dict[str, Any]]:
        """Each unit in play with its box for each rare case, as one short table instead of a list of boxes a
        case: a field's boxes come in the order of its choices, which are the units in play."""
        units = [m.unit for m in self.assault.members if in_play(m.unit)]
        rows: list[dict[str, Any]] = [{"unit": unit, "boxes": []} for unit in units]
        for name in FLAGS:
            field = self[name]
            for row, box in zip(rows, field, strict=True):
                row["boxes"].append({"words": FLAG_WORDS[name], "name": field.html_name, "box": box.data})
        return rows

    def rare_fields(self) -> list[tuple[str, forms.BoundField]]:
        return [(FLAG_WORDS[name], self[name]) for name in FLAGS]

    @property
    def rare_given(self) -> bool:
        """Whether a rare case is ticked or in error: its fold is then drawn open, so that what was sent stays."""
        return any(self[name].errors or (self.is_bound and self[name].value()) for name in (*FLAGS, *RARE_FLAGS))

    @property
    def leader_sides(self) -> dict[str, dict[str, Any]]:
        """Each side's leaders as the form draws them: those of its units' commands as boxes, the side's others in
        a fold, drawn open when one of them is chosen (or the field is in error); a side with few leaders has them
        all as boxes."""
        sides = {}
        for side in ("attacker", "defender"):
            field = self[f"{side}_leaders"]
            offered: list[tuple[str, str]] = list(getattr(field.field, "choices", ()))
            chosen = {str(value) for value in field.value() or ()}
            choices = [{"value": value, "label": label, "checked": value in chosen} for value, label in offered]
            # a few are boxes all; a club battle's dozens fold behind those of the units' own commands
            few = len(choices) <= AS_BOXES
            near = {c["value"] for c in choices} if few else {str(pk) for pk in self.near.get(side, ())}
            others = [choice for choice in choices if choice["value"] not in near]
            sides[side] = {
                "field": field,
                "near": [choice for choice in choices if choice["value"] in near],
                "others": others,
                "open": bool(field.errors) or any(choice["checked"] for choice in others),
            }
        return sides

    def clean_printed(self) -> AssaultOutcome | None:
        raw = (self.cleaned_data.get("printed") or "").strip()
        if not raw:
            return None
        try:
            return AssaultOutcome.parse(raw)
        except ValueError as exc:
            raise forms.ValidationError(f"Not an assault result: {exc}.") from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        for side in ("attacker", "defender"):
            rows = [m for m in self.assault.playing(side) if cleaned.get(f"cover-{m.unit.piece.name}")]
            if rows and all(cleaned[f"cover-{m.unit.piece.name}"] == OUT for m in rows):
                self.add_error(None, f"At least one {side} unit must be in the round.")
        for m in self.assault.playing("attacker"):
            bases = f"bases-{m.unit.piece.name}"
            taking = cleaned.get(f"cover-{m.unit.piece.name}") not in (None, OUT)
            if m.unit.key in self.bridged and taking and bases in self.fields and not cleaned.get(bases):
                self.add_error(bases, f"{m.unit.name} is split between two assaults: give its bases in this one (5.2).")
        return cleaned


def prefix(assault: Assault) -> str:
    return Piece("assault", assault.seq).prefix("round")


def round_form(s: AssaultState, assault: Assault, data: Any = None) -> RoundForm:
    game = s.game
    before = previous_conditions(assault)
    last = assault.last.conditions if assault.last else RoundConditions(())
    initial: dict[str, Any] = {
        "version": game.version,
        "struck": before.struck.value,
        "column": before.override.value if before.override else "",
        "attacker_leaders": [str(pk) for pk in last.attacker_leaders],
        "defender_leaders": [str(pk) for pk in last.defender_leaders],
        "fresh": [m.unit.piece.name for m in assault.playing("defender") if m.battery and not m.unit.fired_this_turn],
    }
    for member in assault.members:
        cover = before.cover[member.unit.piece.name]
        initial[f"cover-{member.unit.piece.name}"] = OUT if cover is None else cover.value
        initial[f"bases-{member.unit.piece.name}"] = before.counted.get(member.unit.piece.name)
    return RoundForm(
        data,
        prefix=prefix(assault),
        initial=initial,
        assault=assault,
        leaders=s.leaders,
        bridged=s.bridged(assault),
        near=s.near(assault),
    )


def _taking(members: list[Member], conditions: Conditions, data: dict[str, Any]) -> tuple[Taking, ...]:
    """The units of a side taking part in the round, with what the table said of each."""
    return tuple(
        Taking(
            m.unit.to_rules(),
            m.contact,
            conditions.cover[m.unit.piece.name] or Cover.NONE,
            conditions.counted.get(m.unit.piece.name),
            fresh=m.unit.piece.name in data["fresh"],
            retreat_blocked=m.unit.piece.name in data["surrounded"],
            out_of_town=m.unit.piece.name in data["out_of_town"],
            across_water=m.unit.piece.name in data["across_water"],
        )
        for m in members
    )


ROUND_ELSEWHERE = "Assault rounds are resolved in the assault step."


def take_round(game: Game, seq: int, data: Any, actor: str) -> Event:
    """A round of an assault of this turn (one no longer this turn's is refused before its form is read)."""
    s = state(game)
    with filled(round_form(s, s.find(seq), data)) as sent:
        return resolve_round(game, seq, sent, actor)


def resolve_round(game: Game, seq: int, form: RoundForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.ASSAULTS, elsewhere=ROUND_ELSEWHERE) as action:
        s = state(action.game)
        assault = s.find(seq)
        raw = {f"{prefix(assault)}-{k}": str(v) for k, v in data.items() if isinstance(v, str | int)}
        conditions = read_conditions(assault, raw, prefix(assault))
        members = {side: taking_part(assault, conditions, side) for side in ("attacker", "defender")}
        leaders = {
            side: [lead for lead in s.leaders[side] if str(lead.pk) in data[f"{side}_leaders"]]
            for side in ("attacker", "defender")
        }
        attacker_roll, defender_roll = form.rolls()
        printed: AssaultOutcome | None = data.get("printed")
        given = Round(
            _taking(members["attacker"], conditions, data),
            _taking(members["defender"], conditions, data),
            attacker_roll,
            defender_roll,
            struck=conditions.struck,
            column=conditions.override,
            attacker_leaders=len(leaders["attacker"]),
            defender_leaders=len(leaders["defender"]),
            stalled=bool(data.get("stalled")),
            square_vs_solo_cavalry=bool(data.get("square_vs_solo_cavalry")),
            printed=printed,
        )
        try:
            fought = fight(action.game.chart, action.game.scale, s.cores, assault.core, given)
        except Refused as refusal:
            raise ActionRefused(str(refusal)) from None
        for member, after in zip((*members["attacker"], *members["defender"]), fought.after, strict=True):
            action.apply(member.unit, after)
        preview = column_for(assault, conditions)
        recorded = RoundConditions(
            cover=tuple(
                UnitCover(m.unit.key, conditions.cover[m.unit.piece.name], conditions.counted.get(m.unit.piece.name))
                for m in assault.members
            ),
            struck=conditions.struck,
            column=conditions.override,
            rules_column=preview.rules_column if preview else None,
            attacker_leaders=tuple(lead.pk for lead in leaders["attacker"]),
            defender_leaders=tuple(lead.pk for lead in leaders["defender"]),
            fresh=tuple(sorted(data["fresh"])),
            surrounded=tuple(sorted(data["surrounded"])),
            out_of_town=tuple(sorted(data["out_of_town"])),
            across_water=tuple(sorted(data["across_water"])),
            stalled=bool(data.get("stalled")),
            printed=str(printed) if printed is not None else "",
        )
        return action.record(
            AssaultRoundResolved(
                seq,
                assault.number,
                fought.number,
                tuple(NamedUnit(m.unit.key, m.unit.name) for m in assault.members),
                recorded,
                fought.inputs,
                fought.result,
                fought.on_units,
                app_outcome=fought.app_outcome,
            )
        )
