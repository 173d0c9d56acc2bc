"""Assault phase (1.7, 5.1-5.6): declaring assaults, the column of each, its rounds until contact ends, and the
charge disorder at the end of the phase.

An assault lives in its events, not in the state: AssaultDeclared names its units (primary defender first)
with their contact, each AssaultRoundResolved applies one round to the units, AssaultEnded closes it. An
assault is known by the sequence number of its declaration, so undoing the declaration takes it away.

Readings chosen for the table:
- A round's column is read from the units taking part (their kinds and the formation's open order, from the
  state) and the table's cover and flank or rear for that round; the table may name another column.
- "Bases lost this turn" is the sum of base_hits_turn of the units taking part; "the worst P this phase"
  is the largest p_hits_turn among them (P hits of this player turn, as the state keeps them).
- A unit that must break through uses its assault bonus move (5.5), so its charge_bonus_used is set; units
  that may break through or carry say so at the charge disorder step, where the table ticks them.
- A break off gives each attacking brigade its 1M (engine break_off) unless the table says the attackers
  are stalled, with no movement left to break off (5.5 Stalled Assaults).
- A battery's damage is not a lost base for the "bases lost" modifier; a battery abandoned is.
- Charge disorder (5.6) falls on the attacker's brigades that used the charge bonus or retreated, any
  other brigade that retreated or routed this turn, and batteries whose forced move this turn was a
  retreat (a battery that routs is abandoned).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET, require_POST

from republic.games import answers
from republic.games.dice import DiceForm, die_field
from republic.games.forms import VersionForm
from republic.games.ledger import Action, ActionRefused, act_on, this_turn
from republic.games.models import Battery, Brigade, Command, Event, Game, Leader
from republic.games.phases.handler import StepHandler
from republic.games.text import condition_label
from republic.rules.assault import (
    AssaultColumn,
    AssaultColumnResult,
    AssaultOutcome,
    AssaultRoundInput,
    AssaultSide,
    AssaultUnit,
    Contact,
    OutcomeAction,
    OutcomeSide,
    Struck,
    assault_column,
    resolve_assault_round,
    side_cover,
    side_kind,
    side_open_order,
)
from republic.rules.assault_results import (
    AssaultLossesInput,
    BreakOffInput,
    UnitLoss,
    UnitTakingHits,
    resolve_assault_losses,
    resolve_break_off,
)
from republic.rules.codec import encode
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import DisorderInput, resolve_disorder
from republic.rules.results import CellUse, Provenance
from republic.rules.scale import GroundScale
from republic.rules.sequence import StepKey
from republic.rules.troops import Cover, Formation, Grade, UnitKind

DECLARED, ROUND, ENDED, DISORDER = "AssaultDeclared", "AssaultRoundResolved", "AssaultEnded", "ChargeDisorderApplied"
_MODELS = {"brigade": Brigade, "battery": Battery}
_RETREATS = (ForcedMove.RETREAT.value, ForcedMove.ROUT.value)


# --- the units ----------------------------------------------------------------------------------------


def slot(unit: Brigade | Battery) -> str:
    """A unit's name in form fields: 'brigade_12'."""
    return f"{unit._meta.model_name}_{unit.pk}"


def in_play(unit: Brigade | Battery) -> bool:
    return not unit.out_of_play and unit.bases > 0


def side_units(game: Game, side) -> list[Brigade | Battery]:
    """A side's brigades then batteries, division by division, still in play."""
    return side.units_in_play() if side is not None else []


def _all_units(game: Game) -> dict[str, Brigade | Battery]:
    units = {}
    for model in (Brigade, Battery):
        units.update({u.key: u for u in model.objects.filter(game=game).select_related("division")})
    return units


def _leaders(game: Game, side) -> list[Leader]:
    """The side's energetic and proficient leaders still in play: the ones an assault counts within 2"."""
    return list(Leader.objects.filter(game=game, command__side=side, removed=False, hors_de_combat=False,
                                      leader_class__in=["E", "P"]).select_related("command")
                .order_by("command__order", "pk"))


# --- assaults, read from their events -----------------------------------------------------------------


def turn_events(game: Game, kind: str, step: StepKey = StepKey.ASSAULTS):
    return this_turn(game, [step], [kind])


@dataclass
class Member:
    unit: Brigade | Battery
    contact: Contact

    @property
    def battery(self) -> bool:
        return isinstance(self.unit, Battery)


@dataclass
class Assault:
    seq: int
    number: int
    declared: Event
    attackers: list[Member]
    defenders: list[Member]
    rounds: list[Event] = field(default_factory=list)
    ended: Event | None = None

    @property
    def open(self) -> bool:
        return self.ended is None

    @property
    def members(self) -> list[Member]:
        return [*self.attackers, *self.defenders]

    @property
    def title(self) -> str:
        return f"{_names(self.attackers)} against {_names(self.defenders)}"

    @property
    def last(self) -> Event | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def bonus(self) -> bool:
        """The "C" bonus an All Out Win/Win of the round before gives the next round (5.1)."""
        last = self.last
        return bool(last and last.result.get("applied", {}).get("next_round_tactical_bonus"))

    def playing(self, side: str) -> list[Member]:
        return [m for m in getattr(self, f"{side}s") if in_play(m.unit)]


def _names(members: list[Member]) -> str:
    return ", ".join(m.unit.name for m in members)


def assaults(game: Game) -> list[Assault]:
    """Every assault declared this player turn, in order, with its rounds and end."""
    declared = list(turn_events(game, DECLARED))
    if not declared:
        return []
    units = _all_units(game)
    found = {}
    for number, event in enumerate(declared, start=1):
        sides = {name: [Member(units[m["unit"]], Contact(m["contact"])) for m in event.inputs[name]
                        if m["unit"] in units] for name in ("attackers", "defenders")}
        found[event.seq] = Assault(event.seq, number, event, sides["attackers"], sides["defenders"])
    for event in turn_events(game, ROUND):
        if event.inputs.get("assault") in found:
            found[event.inputs["assault"]].rounds.append(event)
    for event in turn_events(game, ENDED):
        if event.inputs.get("assault") in found:
            found[event.inputs["assault"]].ended = event
    return list(found.values())


def find_assault(game: Game, seq: int) -> Assault:
    """The assault declared by event ``seq`` of this game (404 if there is none); refused when it is not
    one of this player turn's."""
    if not Event.objects.filter(game=game, seq=seq, kind=DECLARED).exists():
        raise Http404("No such assault in this game.")
    assault = next((a for a in assaults(game) if a.seq == seq), None)
    if assault is None:
        raise ActionRefused("That assault is not one of this player turn's.")
    return assault


def busy_units(game: Game) -> dict[str, Assault]:
    """Units in an open assault, with it: a unit may not be in two open assaults."""
    return {m.unit.key: a for a in assaults(game) if a.open for m in a.members}


def _assault_pending(game: Game) -> list[str]:
    return [f"finish assault {a.number} ({a.title}): resolve round {len(a.rounds) + 1} or end it"
            for a in assaults(game) if a.open]


# --- declaring an assault (5.1) -------------------------------------------------------------------------


_SELECT = forms.Select(attrs={"class": "form-select"})
CONTACT_CHOICES = [("", "—"), (Contact.ALL_OUT.value, 'all-out, within 2"'),
                   (Contact.GENERAL.value, 'general, 2" to 4"')]


class DeclareForm(VersionForm):
    primary = forms.ChoiceField(label="Primary defender", required=False,
                                help_text="The unit the attackers have the greatest contact frontage with (5.1).")

    def __init__(self, *args, attackers=(), defenders=(), busy=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.attacker_units, self.defender_units, self.busy = list(attackers), list(defenders), dict(busy)
        for prefix, units in (("a", self.attacker_units), ("d", self.defender_units)):
            for unit in units:
                self.fields[f"{prefix}-{slot(unit)}"] = forms.ChoiceField(
                    label=unit.name, choices=CONTACT_CHOICES, required=False, widget=_SELECT)
        self.fields["primary"].choices = [("", "—")] + [(slot(u), u.name) for u in self.defender_units
                                                         if u.key not in self.busy]

    def rows(self, prefix: str) -> list[dict]:
        units = self.attacker_units if prefix == "a" else self.defender_units
        return [{"unit": u, "field": self[f"{prefix}-{slot(u)}"]} for u in units if u.key not in self.busy]

    def clean(self):
        cleaned = super().clean()
        chosen = {}
        for prefix, units in (("a", self.attacker_units), ("d", self.defender_units)):
            chosen[prefix] = [Member(u, Contact(cleaned[f"{prefix}-{slot(u)}"])) for u in units
                              if cleaned.get(f"{prefix}-{slot(u)}")]
            for member in chosen[prefix]:
                if member.unit.key in self.busy:
                    self.add_error(None, f"{member.unit.name} is already in open "
                                   f"assault {self.busy[member.unit.key].number}: a unit is in one assault at a time.")
        if not chosen["a"]:
            self.add_error(None, "Choose at least one attacking unit and how close it is.")
        elif all(m.battery for m in chosen["a"]):
            self.add_error(None, "Artillery alone does not initiate an assault (5.1): add a brigade.")
        if not chosen["d"]:
            self.add_error(None, "Choose at least one defending unit and how close it is.")
        primary = cleaned.get("primary")
        defenders = chosen["d"]
        if primary and defenders:
            first = [m for m in defenders if slot(m.unit) == primary]
            if not first:
                self.add_error("primary", "The primary defender must be one of the defending units chosen above.")
            else:
                defenders = first + [m for m in defenders if m is not first[0]]
        elif len(defenders) > 1:
            self.add_error("primary", "Name the primary defender: the unit with the greatest contact frontage.")
        cleaned["attackers"], cleaned["defenders"] = chosen["a"], defenders
        return cleaned


def _declare_form(game: Game, data=None) -> DeclareForm:
    return DeclareForm(data, prefix="declare", initial={"version": game.version},
                       attackers=side_units(game, game.attacker), defenders=side_units(game, game.defender),
                       busy=busy_units(game))


def _member_text(member: Member) -> str:
    how = "all-out" if member.contact is Contact.ALL_OUT else "general"
    return f"{member.unit.name} ({how})"


def declare_assault(game: Game, form: DeclareForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        if game.step != StepKey.ASSAULTS:
            raise ActionRefused("Assaults are declared in the assault step.")
        busy = busy_units(game)
        taken = [m.unit.name for m in (*data["attackers"], *data["defenders"]) if m.unit.key in busy]
        if taken:
            raise ActionRefused(f"{', '.join(taken)} already in an open assault: nothing was changed.")
        number = len(assaults(game)) + 1
        attackers, defenders = data["attackers"], data["defenders"]
        parts = [_member_text(m) for m in defenders]
        parts[0] += ", primary"
        summary = (f"Assault {number} declared: {', '.join(_member_text(m) for m in attackers)} "
                   f"against {'; '.join(parts)}")
        return action.record(
            DECLARED, summary, subject=f"{_names(attackers)} against {_names(defenders)}",
            inputs={name: [{"unit": m.unit.key, "name": m.unit.name, "contact": m.contact.value} for m in members]
                    for name, members in (("attackers", attackers), ("defenders", defenders))},
        )


def _invalid(request: HttpRequest, game: Game, prefix: str, form: forms.Form) -> HttpResponse:
    """A form drawn again with its errors; one without its (hidden) version changes nothing and says so."""
    if "version" in form.errors:
        return answers.stale(request, game, "The form was incomplete: nothing was changed.")
    return answers.invalid(request, game, {prefix: form})


@require_POST
def declare_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = _declare_form(game, request.POST)
    return answers.form_action(request, game, form, "declare",
                               lambda: declare_assault(game, form, answers.actor_of(request)))


# --- a round: its conditions and column (5.1-5.3) -------------------------------------------------------


OUT = "out"
COVER_CHOICES = [(Cover.NONE.value, "open"), (Cover.LIGHT.value, "light (1)"), (Cover.MEDIUM.value, "medium (2)"),
                 (Cover.HEAVY.value, "heavy (3)"), (OUT, "not in round")]
STRUCK_CHOICES = [(Struck.FRONT.value, "front"), (Struck.FLANK.value, "flank (outflanked)"),
                  (Struck.REAR.value, "rear")]
COLUMN_CHOICES = [("", "As the rules give")] + [(c.value, c.title) for c in AssaultColumn]


@dataclass
class Conditions:
    """What the table says about a round: each unit's cover (None: not in this round), where the defender is
    struck, and any column the table names."""

    cover: dict[str, Cover | None]
    struck: Struck = Struck.FRONT
    override: AssaultColumn | None = None


def _choice(raw, allowed: list[tuple[str, str]], default: str) -> str:
    return raw if raw in {value for value, _ in allowed} else default


def previous_conditions(assault: Assault) -> Conditions:
    """The last round's conditions, or the open ground in front for a first round."""
    table = assault.last.inputs.get("table", {}) if assault.last else {}
    cover = {}
    for member in assault.members:
        raw = table.get("cover", {}).get(slot(member.unit), Cover.NONE.value)
        cover[slot(member.unit)] = None if raw == OUT else Cover(raw)
    override = table.get("column") or None
    return Conditions(cover, Struck(table.get("struck", Struck.FRONT.value)),
                      AssaultColumn(override) if override else None)


def read_conditions(assault: Assault, raw: Mapping | None, prefix: str) -> Conditions:
    """Conditions from a round form's raw data (a bound form or the column preview's query), falling back
    on the last round's for anything missing or not understood."""
    before = previous_conditions(assault)
    if raw is None:
        return before
    cover = {}
    for member in assault.members:
        key = slot(member.unit)
        default = OUT if before.cover[key] is None else before.cover[key].value
        value = _choice(raw.get(f"{prefix}-cover-{key}"), COVER_CHOICES, default)
        cover[key] = None if value == OUT else Cover(value)
    struck = Struck(_choice(raw.get(f"{prefix}-struck"), STRUCK_CHOICES, before.struck.value))
    column = _choice(raw.get(f"{prefix}-column"), COLUMN_CHOICES, "")
    return Conditions(cover, struck, AssaultColumn(column) if column else None)


def _assault_unit(member: Member, cover: Cover) -> AssaultUnit:
    unit = member.unit
    if member.battery:
        return AssaultUnit(Grade(unit.grade), unit.bases, unit.m_hits, UnitKind.ARTILLERY, member.contact, cover)
    return AssaultUnit(
        Grade(unit.grade), unit.bases, unit.m_hits, UnitKind(unit.kind), member.contact, cover,
        open_order=unit.formation == Formation.OPEN_ORDER.value, repeaters=unit.repeaters,
        skirmishers_deployed=unit.skirmishers_deployed, skirmishers_available=unit.skirmishers_available,
    )


def taking_part(assault: Assault, conditions: Conditions, side: str) -> list[Member]:
    return [m for m in assault.playing(side) if conditions.cover.get(slot(m.unit)) is not None]


def column_for(assault: Assault, conditions: Conditions) -> AssaultColumnResult | None:
    """The column the rules give for these units and conditions (engine assault_column), with the table's
    choice if it named another; None while a side has no unit in the round."""
    sides = {}
    for name in ("attacker", "defender"):
        members = taking_part(assault, conditions, name)
        if not members:
            return None
        try:
            sides[name] = tuple(_assault_unit(m, conditions.cover[slot(m.unit)]) for m in members)
        except RulesInputError:
            return None
    return assault_column(
        side_kind(sides["attacker"]), side_kind(sides["defender"]), conditions.struck,
        attacker_in_cover=side_cover(sides["attacker"]) is not Cover.NONE,
        defender_in_cover=side_cover(sides["defender"]) is not Cover.NONE,
        attacker_open_order=side_open_order(sides["attacker"]),
        defender_open_order=side_open_order(sides["defender"]),
        override=conditions.override,
    )


# --- a round: the form ------------------------------------------------------------------------------------


def _outcome(raw: str) -> AssaultOutcome | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    try:
        return AssaultOutcome.parse(raw)
    except ValueError as exc:
        raise forms.ValidationError(f"Not an assault result: {exc}.") from None


def _checkboxes(label: str, help_text: str = "") -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(label=label, required=False, widget=forms.CheckboxSelectMultiple,
                                     help_text=help_text)


class RoundForm(DiceForm):
    dice_fields = ("die", "die2")
    struck = forms.ChoiceField(
        label="The attackers strike the defender in its", choices=STRUCK_CHOICES, widget=forms.RadioSelect,
        help_text="Flank: part of an attacking base is past the defender's flank line; rear: past its rear "
                  "line. Struck in both: rear (5.1, 5.4).")
    column = forms.ChoiceField(label="Column", choices=COLUMN_CHOICES, required=False,
                               widget=forms.RadioSelect(attrs={"class": "btn-check"}))
    attacker_leaders = _checkboxes('Attacker: E or P leaders within 2" of a unit taking part')
    defender_leaders = _checkboxes('Defender: E or P leaders within 2" of a unit taking part')
    fresh = _checkboxes("Defender: fresh batteries", "Ticked: the batteries that did not fire this player turn "
                                                     "(5.4); untick any that did.")
    surrounded = _checkboxes("Cannot move back without passing through an enemy formation",
                             "These surrender if the round forces them back (5.5 Group Surrender).")
    out_of_town = _checkboxes("Would retreat or rout out of town terrain", "Adds to its loss number (6.3).")
    across_water = _checkboxes("Would retreat or rout across a bridge or ford", "Adds to its loss number (6.3).")
    stalled = forms.BooleanField(
        label="The attackers are stalled: no movement left to break off", required=False,
        help_text="Stalled units take no break-off hit and fight on while within 2\" (5.5 Stalled Assaults).")
    die = die_field("Attacker's die (1-10)")
    die2 = die_field("Defender's die (1-10)")
    printed = forms.CharField(
        label="Or: the outcome from your printed chart", required=False, max_length=60,
        help_text="As the chart writes it: defender 3P 1B carry, attacker break off, both 1M roll again, -. "
                  "The natural-roll M is still worked out here.")

    def __init__(self, *args, assault: Assault, leaders: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.assault = assault
        for member in assault.members:
            if in_play(member.unit):
                self.fields[f"cover-{slot(member.unit)}"] = forms.ChoiceField(
                    label=member.unit.name, choices=COVER_CHOICES, widget=_SELECT)
        for name in ("attacker", "defender"):
            self.fields[f"{name}_leaders"].choices = [(str(lead.pk), f"{lead.name} ({lead.value}), "
                                                      f"{lead.command.name}") for lead in leaders[name]]
        batteries = [m.unit for m in assault.playing("defender") if m.battery]
        self.fields["fresh"].choices = [(slot(b), b.name) for b in batteries]
        everyone = [(slot(m.unit), m.unit.name) for m in assault.members if in_play(m.unit)]
        for name in ("surrounded", "out_of_town", "across_water"):
            self.fields[name].choices = everyone

    def cover_rows(self, side: str) -> list[dict]:
        return [{"unit": m.unit, "field": self[f"cover-{slot(m.unit)}"]} for m in self.assault.playing(side)]

    def clean_printed(self):
        return _outcome(self.cleaned_data.get("printed"))

    def clean(self):
        cleaned = super().clean()
        for side in ("attacker", "defender"):
            rows = [m for m in self.assault.playing(side) if cleaned.get(f"cover-{slot(m.unit)}")]
            if rows and all(cleaned[f"cover-{slot(m.unit)}"] == OUT for m in rows):
                self.add_error(None, f"At least one {side} unit must be in the round.")
        if not self.assault.playing("attacker") or not self.assault.playing("defender"):
            self.add_error(None, "One side has no unit left in play: end this assault.")
        return cleaned


def _round_prefix(assault: Assault) -> str:
    return f"round-{assault.seq}"


def _round_form(game: Game, assault: Assault, data=None) -> RoundForm:
    before = previous_conditions(assault)
    last = assault.last.inputs.get("table", {}) if assault.last else {}
    initial = {
        "version": game.version,
        "struck": before.struck.value,
        "column": before.override.value if before.override else "",
        "attacker_leaders": last.get("attacker_leaders", []),
        "defender_leaders": last.get("defender_leaders", []),
        "fresh": [slot(m.unit) for m in assault.playing("defender") if m.battery and not m.unit.fired_this_turn],
    }
    for member in assault.members:
        cover = before.cover[slot(member.unit)]
        initial[f"cover-{slot(member.unit)}"] = OUT if cover is None else cover.value
    leaders = {"attacker": _leaders(game, game.attacker), "defender": _leaders(game, game.defender)}
    return RoundForm(data, prefix=_round_prefix(assault), initial=initial, assault=assault, leaders=leaders)


# --- a round: resolving it and writing it onto the units (5.1, 5.5) ---------------------------------------


_COLUMN_TABLES = {column.table for column in AssaultColumn}


class PrintedChart:
    """The game's chart, but with the assault cell the players read from their printed chart, so the engine
    works out everything else (natural M, Win/Win extras, the hits on each unit) around it."""

    def __init__(self, chart, outcome: AssaultOutcome):
        self._chart, self._outcome = chart, outcome

    def band(self, table: str, n: int):
        if table in _COLUMN_TABLES:
            return self._outcome, CellUse(table, f"{n:+d}", str(self._outcome), Provenance.CONFIRMED,
                                          "read from the players' printed chart")
        return self._chart.band(table, n)

    def __getattr__(self, name):
        return getattr(self._chart, name)


class _Writer:
    """Writes results onto the units through the action. A field may change more than once in a round (a
    unit's natural-roll M, then its break-off M), but an event must change each field once for its undo to
    check it, so the values are gathered on one instance per row and handed to the action at the end."""

    def __init__(self, action: Action):
        self.action = action
        self.divisions: dict[int, Command] = {}
        self.lines: list[dict] = []
        self.moved: set[str] = set()
        self._before: dict[tuple, tuple] = {}

    def set(self, obj, name: str, value) -> None:
        self._before.setdefault((type(obj), obj.pk, name), (obj, getattr(obj, name)))
        setattr(obj, name, value)

    def flush(self) -> None:
        for (_, _, name), (obj, before) in self._before.items():
            after = getattr(obj, name)
            setattr(obj, name, before)
            self.action.set(obj, name, after)

    def division(self, unit) -> Command:
        if unit.division_id not in self.divisions:
            self.divisions[unit.division_id] = Command.objects.get(pk=unit.division_id)
        return self.divisions[unit.division_id]

    def move(self, unit, move: ForcedMove | None) -> None:
        if move is None:
            return
        self.moved.add(unit.key)
        current = unit.forced_move
        if not current or ForcedMove(current).severity < move.severity:
            self.set(unit, "forced_move", move.value)
        if isinstance(unit, Brigade) and move.value in _RETREATS:
            self.set(unit, "retreated", True)

    def p4(self, unit) -> None:
        self.set(unit, "p4_event", True)
        self.set(self.division(unit), "p4_event", True)

    def loss(self, unit, loss: UnitLoss) -> None:
        set_ = self.set
        set_(unit, "m_hits", loss.m_after)
        set_(unit, "p_hits_turn", loss.phase_panic_hits)
        lost = loss.bases_before - loss.bases_after
        if lost:
            set_(unit, "base_hits_turn", unit.base_hits_turn + lost)
        set_(unit, "bases", loss.bases_after)
        if loss.p4_event:
            self.p4(unit)
        self.move(unit, loss.move)
        if isinstance(unit, Battery):
            set_(unit, "damage", loss.damage_after)
            set_(unit, "limbered", loss.limbered_after)
            if loss.abandoned or loss.surrendered:
                set_(unit, "abandoned", True)
        else:
            set_(unit, "destroyed", loss.destroyed)
            set_(unit, "surrendered", loss.surrendered)
        self.lines.append({"unit": unit.key, "name": unit.name, "text": _loss_text(loss),
                           "instruction": loss.instruction, "condition": loss.condition_after.value})

    def break_off(self, unit, result) -> None:
        self.set(unit, "m_hits", result.m_after)
        if result.panic_hits:
            self.set(unit, "p_hits_turn", unit.p_hits_turn + result.panic_hits)
        if result.p4_event:
            self.p4(unit)
        self.move(unit, result.move)
        text = f"breaks off, 1M: now {condition_label(result.m_after)}"
        if result.panic_hits:
            text += f"; Panic {result.panic_level}"
        self.lines.append({"unit": unit.key, "name": unit.name, "text": text,
                           "instruction": result.instruction or "Break off: withdraw out of assault contact "
                                                                'range (beyond 4" of the enemy).',
                           "condition": result.condition_after.value})

    def surrender(self, unit) -> None:
        set_ = self.set
        if unit.bases:
            set_(unit, "base_hits_turn", unit.base_hits_turn + unit.bases)
        set_(unit, "bases", 0)
        set_(unit, "abandoned" if isinstance(unit, Battery) else "surrendered", True)
        self.lines.append({"unit": unit.key, "name": unit.name, "text": "surrenders", "instruction":
                           "Remove the unit: it surrendered.", "condition": unit.condition.value})


def _loss_text(loss: UnitLoss) -> str:
    parts = []
    if loss.base_hits:
        parts.append(f"loses {loss.base_hits} base(s)")
    if loss.prisoners:
        parts.append(f"{loss.prisoners} taken prisoner")
    if loss.damage_taken:
        parts.append(f"{loss.damage_taken} damage")
    if loss.m_taken:
        parts.append(f"{loss.m_taken}M")
    if loss.panic_hits:
        parts.append(f"Panic {loss.panic_level}" + (" (P4 event)" if loss.p4_event else ""))
    parts.append(f"now {loss.condition_after.value.capitalize()}")
    for flag, words in ((loss.destroyed, "destroyed"), (loss.surrendered, "surrenders"),
                        (loss.abandoned, "abandoned"),
                        (loss.battery_action is not None and not loss.abandoned, "limbers up")):
        if flag:
            parts.append(words)
    return ", ".join(parts)


_FOLLOW_UP = {
    OutcomeAction.CARRY: "The attackers may carry the position: advance into the ground the defenders left (5.5).",
    OutcomeAction.DRIVE_AWAY: "Drive away: the attackers hold where they are; the defenders' position is left "
                              "empty (5.5).",
    OutcomeAction.MAY_BREAKTHROUGH: "The attackers may break through (or carry the position instead), within "
                                    "their full assault move (5.5).",
    OutcomeAction.MUST_BREAKTHROUGH: "The attackers must break through to the limit of their full assault move "
                                     "(5.5); they take charge disorder at the end of the phase.",
    OutcomeAction.OVERRUN: "Overrun: the mounted cavalry may ride on and assault units behind (5.5).",
    OutcomeAction.BREAK_OFF: "The attackers break off out of assault contact range, 1M each (5.5).",
    OutcomeAction.ROLL_AGAIN: "Roll again: resolve another round; it reads the new conditions (5.1).",
}


def next_hint(event: Event) -> str:
    """What the table decides after a round: another round while units face each other within 2"."""
    action = event.result.get("applied", {}).get("action", "none")
    if action == OutcomeAction.ROLL_AGAIN:
        return "Roll again: resolve the next round."
    if action in (OutcomeAction.MAY_BREAKTHROUGH, OutcomeAction.MUST_BREAKTHROUGH, OutcomeAction.OVERRUN):
        return ('After the breakthrough moves: if attackers face these defenders within 2", resolve another round; '
                "otherwise contact has ended.")
    if action == OutcomeAction.BREAK_OFF and not event.inputs.get("table", {}).get("stalled"):
        return "The attackers broke off: contact has ended."
    return ('After the moves: if attackers still face an enemy within 2" (all-out contact), resolve another round; '
            "otherwise contact has ended.")


def _members_taking_part(assault: Assault, conditions: Conditions) -> dict[str, list[Member]]:
    return {name: taking_part(assault, conditions, name) for name in ("attacker", "defender")}


def resolve_round(game: Game, seq: int, form: RoundForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        if game.step != StepKey.ASSAULTS:
            raise ActionRefused("Assault rounds are resolved in the assault step.")
        assault = find_assault(game, seq)
        if not assault.open:
            raise ActionRefused(f"Assault {assault.number} has ended.")
        chart, scale = game.chart, GroundScale(game.ground_scale)
        conditions = read_conditions(assault, {f"{form.prefix}-{k}": v for k, v in data.items()
                                               if isinstance(v, str)}, form.prefix)
        members = _members_taking_part(assault, conditions)
        if not members["attacker"] or not members["defender"]:
            raise ActionRefused("Each side needs a unit in the round.")
        leaders = {name: [lead for lead in _leaders(game, side) if str(lead.pk) in data[f"{name}_leaders"]]
                   for name, side in (("attacker", game.attacker), ("defender", game.defender))}
        rolls = dict(zip(("attacker", "defender"), form.rolls(), strict=True))
        sides = {}
        for name in ("attacker", "defender"):
            units = [m.unit for m in members[name]]
            extra = {}
            if name == "defender":
                fresh = sum(1 for m in members[name] if m.battery and slot(m.unit) in data["fresh"])
                extra = {"fresh_batteries": fresh,
                         "outflanked": conditions.struck is Struck.FLANK, "rear": conditions.struck is Struck.REAR}
            sides[name] = AssaultSide(
                rolls[name], tuple(_assault_unit(m, conditions.cover[slot(m.unit)]) for m in members[name]),
                leaders_within_2=len(leaders[name]),
                saved_fire_batteries=sum(1 for u in units if isinstance(u, Battery) and u.saved_fire),
                bases_lost=sum(u.base_hits_turn for u in units), worst_panic=max(u.p_hits_turn for u in units),
                tactical_bonus=name == "attacker" and assault.bonus, **extra,
            )
        inputs = AssaultRoundInput(sides["attacker"], sides["defender"], column=conditions.override)
        engine = resolve_assault_round(chart, inputs)
        printed: AssaultOutcome | None = data.get("printed")
        applied = engine if printed is None else resolve_assault_round(PrintedChart(chart, printed), inputs)
        preview = column_for(assault, conditions)

        writer = _Writer(action)
        flags = {key: set(data[key]) for key in ("surrounded", "out_of_town", "across_water")}
        losses = {}
        surrendering = applied.outcome.action is OutcomeAction.SURRENDER
        for name in ("attacker", "defender"):
            side = getattr(applied, name)
            if surrendering and applied.outcome.to.value == name:
                for member in members[name]:
                    writer.surrender(member.unit)
                continue
            if not side.hits:
                continue
            units = tuple(
                UnitTakingHits(
                    m.unit.key, UnitKind.ARTILLERY if m.battery else UnitKind(m.unit.kind), Grade(m.unit.grade),
                    m.unit.bases, m_hits=m.unit.m_hits, earlier_panic_hits=m.unit.p_hits_turn, contact=m.contact,
                    damage=m.unit.damage if m.battery else 0, limbered=m.unit.limbered if m.battery else False,
                    natural_m=side.natural_m_by_unit[i], retreat_blocked=slot(m.unit) in flags["surrounded"],
                    out_of_town=slot(m.unit) in flags["out_of_town"],
                    across_bridge_or_ford=slot(m.unit) in flags["across_water"],
                    away_from_rear_assault=name == "defender" and conditions.struck is Struck.REAR,
                )
                for i, m in enumerate(members[name])
            )
            losses[name] = resolve_assault_losses(chart, AssaultLossesInput(
                units, side.table_hits, side.natural_m, side.all_out_extra_m, scale))
            for member, loss in zip(members[name], losses[name].units, strict=True):
                writer.loss(member.unit, loss)

        broke_off = []
        action_taken = applied.outcome.action
        stalled = bool(data.get("stalled"))
        for member in members["attacker"]:
            unit = member.unit
            if member.battery or not in_play(unit):
                continue
            if action_taken is OutcomeAction.BREAK_OFF and not stalled:
                result = resolve_break_off(chart, BreakOffInput(Grade(unit.grade), unit.m_hits,
                                                                UnitKind(unit.kind).horse, scale))
                writer.break_off(unit, result)
                broke_off.append({"unit": unit.key, **encode(result)})
            elif action_taken is OutcomeAction.MUST_BREAKTHROUGH and unit.key not in writer.moved:
                writer.set(unit, "charge_bonus_used", True)
        for member in (*members["attacker"], *members["defender"]):
            if member.battery:
                writer.set(member.unit, "saved_fire", False)  # an assault uses up saved fire (4.2)
        writer.flush()

        number = len(assault.rounds) + 1
        natural = ""
        if engine.natural_loser is not OutcomeSide.NONE:
            loser = engine.natural_loser.value
            natural = f"; natural roll lost by the {loser}: {getattr(applied, loser).natural_m}M"
        how = f"printed chart: {printed}" if printed is not None else f"{engine.difference:+d} on {engine.column.title}"
        summary = (f"Assault {assault.number}, round {number}: {engine.attacker.modified} to "
                   f"{engine.defender.modified} ({how}) → {applied.outcome}{natural}")
        if applied.win_win:
            summary += "; Win/Win"
        dice = [{**encode(rolls["attacker"]), "label": "attacker"}, {**encode(rolls["defender"]), "label": "defender"}]
        table = {
            "cover": {key: OUT if cover is None else cover.value for key, cover in conditions.cover.items()},
            "struck": conditions.struck.value,
            "column": conditions.override.value if conditions.override else "",
            "rules_column": preview.rules_column.value if preview else "",
            "attacker_leaders": [str(lead.pk) for lead in leaders["attacker"]],
            "defender_leaders": [str(lead.pk) for lead in leaders["defender"]],
            "fresh": sorted(data["fresh"]), "surrounded": sorted(flags["surrounded"]),
            "out_of_town": sorted(flags["out_of_town"]), "across_water": sorted(flags["across_water"]),
            "stalled": stalled, "printed": str(printed) if printed is not None else "",
        }
        result = {
            "round": encode(engine),
            "losses": {name: encode(loss) for name, loss in losses.items()},
            "break_off": broke_off,
            "applied": {"outcome": str(applied.outcome), "action": applied.outcome.action.value,
                        "attacker": str(applied.attacker.hits), "defender": str(applied.defender.hits),
                        "next_round_tactical_bonus": applied.next_round_tactical_bonus},
            "follow_up": _FOLLOW_UP.get(applied.outcome.action, ""),
            "orders": writer.lines,
        }
        provisional = (engine.provisional or any(loss.provisional for loss in losses.values())
                       or any(b["provisional"] for b in broke_off))
        return action.record(
            ROUND, summary, subject=assault.title,
            inputs={"assault": assault.seq, "round": number, "engine": encode(inputs), "table": table},
            dice=dice, result=result, provisional=provisional and printed is None, printed_chart=printed is not None,
        )


@require_POST
def round_view(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    try:
        assault = find_assault(game, seq)
    except ActionRefused as exc:
        return answers.stale(request, game, str(exc))
    form = _round_form(game, assault, request.POST)
    return answers.form_action(request, game, form, form.prefix,
                               lambda: resolve_round(game, seq, form, answers.actor_of(request)))


@require_GET
def column_view(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    """The column for the conditions as the round form holds them now (htmx preview; changes nothing)."""
    game = answers.game_or_404(game_id)
    try:
        assault = find_assault(game, seq)
    except ActionRefused as exc:
        raise Http404(str(exc)) from None
    conditions = read_conditions(assault, request.GET, _round_prefix(assault))
    return render(request, "games/steps/assault_column.html", {"column": column_for(assault, conditions)})


# --- ending an assault (5.1 Follow-up Assaults) ---------------------------------------------------------



def end_assault(game: Game, seq: int, version: int, actor: str) -> Event:
    with act_on(game, version, actor) as action:
        game = action.game
        if game.step != StepKey.ASSAULTS:
            raise ActionRefused("Assaults are ended in the assault step.")
        assault = find_assault(game, seq)
        if not assault.open:
            raise ActionRefused(f"Assault {assault.number} has already ended.")
        rounds = len(assault.rounds)
        how = (f"contact ended after {rounds} round{'s' if rounds != 1 else ''}" if rounds
               else "called off before any round")
        return action.record(ENDED, f"Assault {assault.number} over: {how} ({assault.title})",
                             subject=assault.title, inputs={"assault": assault.seq, "rounds": rounds})


@require_POST
def end_view(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = VersionForm(request.POST)
    return answers.form_action(request, game, form, None, lambda: end_assault(
        game, seq, form.cleaned_data["version"], answers.actor_of(request)))


# --- the assault step's panel ---------------------------------------------------------------------------


def _side_facts(members: list[Member], bonus: bool = False) -> str:
    units = [m.unit for m in members]
    if not units:
        return "no unit in play"
    facts = [f"{sum(u.bases for u in units)} bases"]
    lost = sum(u.base_hits_turn for u in units)
    worst = max(u.p_hits_turn for u in units)
    deployed = sum(getattr(u, "skirmishers_deployed", 0) for u in units)
    available = sum(getattr(u, "skirmishers_available", 0) for u in units)
    saved = sum(1 for u in units if isinstance(u, Battery) and u.saved_fire)
    facts.append(f"{lost} lost this turn")
    facts.append(f"worst P {worst}")
    if available:
        facts.append(f"skirmishers out {deployed}/{available}")
    if saved:
        facts.append(f"{saved} with saved fire")
    if bonus:
        facts.append('"C" bonus from the last round\'s All Out Win/Win')
    return ", ".join(facts)


def _assault_card(game: Game, assault: Assault, bound: dict) -> dict:
    prefix = _round_prefix(assault)
    form = bound.get(prefix) or _round_form(game, assault)
    conditions = read_conditions(assault, form.data if form.is_bound else None, prefix)
    last = assault.last
    return {
        "assault": assault,
        "form": form,
        "prefix": prefix,
        "number": len(assault.rounds) + 1,
        "column": column_for(assault, conditions),
        "sides": [("Attacking", assault.attackers), ("Defending", assault.defenders)],
        "cover_rows": [("Attacker", form.cover_rows("attacker")), ("Defender", form.cover_rows("defender"))],
        "attacker_facts": _side_facts(assault.playing("attacker"), assault.bonus),
        "defender_facts": _side_facts(assault.playing("defender")),
        "last": last,
        "hint": next_hint(last) if last else "",
        "action": f"/games/{game.pk}/assault/{assault.seq}/round/",
        "column_url": f"/games/{game.pk}/assault/{assault.seq}/column/",
        "end_url": f"/games/{game.pk}/assault/{assault.seq}/end/",
    }


def _assault_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    found = assaults(game)
    declare = bound.get("declare") or _declare_form(game)
    return {
        "open_assaults": [_assault_card(game, a, bound) for a in found if a.open],
        "ended_assaults": [a for a in found if not a.open],
        "declare": declare,
        "attacker_rows": declare.rows("a"),
        "defender_rows": declare.rows("d"),
        "busy": sorted({m.unit.name for a in found if a.open for m in a.members}),
        "declare_open": bool(bound.get("declare")) or not any(a.open for a in found),
    }


# --- charge and retreat disorder (5.6) --------------------------------------------------------------------


def disorder_reasons(game: Game, unit: Brigade | Battery) -> dict[str, bool]:
    """Why a unit suffers charge disorder (5.6): it used its charge movement (the attacker's brigades) or
    retreated or routed this turn."""
    if isinstance(unit, Brigade):
        charged = unit.charge_bonus_used and unit.division.side_id == game.attacker.pk
        return {"charged": charged, "retreated": unit.retreated or unit.forced_move in _RETREATS}
    return {"charged": False, "retreated": unit.forced_move in _RETREATS}


def reasons_text(reasons: dict[str, bool]) -> str:
    return " and ".join(words for key, words in (("charged", "used its charge movement"),
                                                  ("retreated", "retreated or routed")) if reasons[key])


def disordered(game: Game) -> list[tuple[Brigade | Battery, dict[str, bool]]]:
    """Every unit in play that suffers charge disorder this turn, with why."""
    found = []
    for side in (game.attacker, game.defender):
        for unit in side_units(game, side):
            reasons = disorder_reasons(game, unit)
            if any(reasons.values()):
                found.append((unit, reasons))
    return found


def _disorder_applied(game: Game) -> Event | None:
    return turn_events(game, DISORDER, StepKey.CHARGE_DISORDER).last()


def _disorder_pending(game: Game) -> list[str]:
    units = disordered(game)
    if not units or _disorder_applied(game):
        return []
    return [f"apply charge disorder: 1M to {', '.join(u.name for u, _ in units)}"]


class DisorderForm(VersionForm):
    also = forms.MultipleChoiceField(
        label="Also used charge movement this turn", required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Units that spent any of their assault bonus move, in the maneuver phase or to carry a position "
                  "or break through (5.5, 5.6).")

    def __init__(self, *args, candidates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["also"].choices = [(slot(u), u.name) for u in candidates]


def _also_candidates(game: Game) -> list[Brigade]:
    chosen = {u.key for u, _ in disordered(game)}
    return [u for u in side_units(game, game.attacker) if isinstance(u, Brigade) and u.key not in chosen]


def _disorder_form(game: Game, data=None) -> DisorderForm:
    return DisorderForm(data, prefix="disorder", initial={"version": game.version},
                        candidates=_also_candidates(game))


def apply_disorder(game: Game, form: DisorderForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        if game.step != StepKey.CHARGE_DISORDER:
            raise ActionRefused("Charge disorder is applied in its own step, after the assaults.")
        if _disorder_applied(game):
            raise ActionRefused("Charge disorder is already applied this turn.")
        units = [(u, reasons, False) for u, reasons in disordered(game)]
        units += [(u, {"charged": True, "retreated": False}, True) for u in _also_candidates(game)
                  if slot(u) in data["also"]]
        if not units:
            raise ActionRefused("No unit suffers charge disorder this turn.")
        results, words = [], []
        for unit, reasons, also in units:
            result = resolve_disorder(game.chart, DisorderInput(unit.m_hits, used_charge_bonus=reasons["charged"],
                                                                retreated_or_routed=reasons["retreated"]))
            action.set(unit, "m_hits", result.m_after)
            if also:
                action.set(unit, "charge_bonus_used", True)
            results.append({"unit": unit.key, "name": unit.name, **encode(result)})
            words.append(f"{unit.name} ({condition_label(result.m_after)})")
        return action.record(
            DISORDER, f"Charge disorder: 1M to {', '.join(words)}", subject=", ".join(u.name for u, _, _ in units),
            inputs={"units": [u.key for u, _, _ in units], "also": [u.key for u, _, also in units if also]},
            result={"units": results},
        )


@require_POST
def disorder_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = _disorder_form(game, request.POST)
    return answers.form_action(request, game, form, "disorder",
                               lambda: apply_disorder(game, form, answers.actor_of(request)))


def _disorder_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    return {
        "disordered": [{"unit": u, "reasons": reasons_text(r)} for u, r in disordered(game)],
        "applied": _disorder_applied(game),
        "form": bound.get("disorder") or _disorder_form(game),
    }


STEPS = {
    StepKey.ASSAULTS: StepHandler("games/steps/assault.html", _assault_pending, _assault_panel),
    StepKey.CHARGE_DISORDER: StepHandler("games/steps/charge_disorder.html", _disorder_pending, _disorder_panel),
}
urls = [
    path("games/<int:game_id>/assault/declare/", declare_view, name="assault_declare"),
    path("games/<int:game_id>/assault/<int:seq>/round/", round_view, name="assault_round"),
    path("games/<int:game_id>/assault/<int:seq>/column/", column_view, name="assault_column"),
    path("games/<int:game_id>/assault/<int:seq>/end/", end_view, name="assault_end"),
    path("games/<int:game_id>/assault/disorder/", disorder_view, name="assault_disorder"),
]
