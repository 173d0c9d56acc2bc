"""Artillery fire (1.7, 4.2-4.6): every battery of both sides that may fire fires or saves its fire; fire is
simultaneous, so the hits wait, and leaving the step puts every skirmish and artillery hit of the phase on the
units at once."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.urls import reverse

from republic.games.events import ArtilleryFired, FireSaved, NamedUnit, UnitFireHits, named_in
from republic.games.forms import (
    DiceForm,
    NameChoiceField,
    VersionForm,
    die_field,
    inches_field,
    offer_many,
    offer_names,
)
from republic.games.ledger import Action, ActionRefused, act, read_once, this_turn
from republic.games.models import Event, Game, Unit, UnitChoice, UnitQuerySet
from republic.games.steps.base import Bound, Row, Step, pk_of, subject_of
from republic.games.steps.fire_hits import FIRE_KINDS, FIRE_STEPS, waiting_in, waiting_rows
from republic.games.text.terms import signed, unit_options
from republic.rules.artillery import (
    ArtilleryFireInput,
    SavedFireInput,
    after_firing,
    after_saving_fire,
    resolve_artillery_fire,
    resolve_saved_fire,
)
from republic.rules.battery_functions import fire_problem
from republic.rules.chart import Chart
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import (
    ArtilleryHitsInput,
    FireHits,
    FireTarget,
    TargetRole,
    after_fire_hits,
    fire_hits,
    resolve_artillery_hits,
    resolve_fire_hits,
)
from republic.rules.hits import Hits
from republic.rules.morale import MAX_M_HITS
from republic.rules.sequence import StepKey
from republic.rules.troops import Cover

COVER_CHOICES = [(c.value, c.value) for c in Cover]
TARGET_FIELDS = ("target", "tandem", "adjacent")


@dataclass
class ArtilleryState:
    game: Game
    units: dict[str, Unit]  # the units with hits waiting, whole: not the whole battle
    ready: dict[int, tuple[int, int]]  # batteries of both sides that may still fire or save fire: division, side
    waiting: dict[str, FireHits]
    done: list[Event]
    spent: dict[int, str]  # ready batteries whose functions this turn leave no fire, only saving it: why (3.5)

    def _enemy_units(self, battery: Unit) -> UnitQuerySet:
        return Unit.objects.filter(game=self.game).exclude(division__side=battery.division.side_id).in_play()

    def enemies(self, battery: Unit) -> list[UnitChoice]:
        """The other side's units in play, read when a battery's form is drawn or checked."""
        return self._enemy_units(battery).order_by("division__side__order", "order").choices()

    def chosen(self, battery: Unit, keys: Iterable[str]) -> dict[str, Unit]:
        """The other side's units in play among those named (the targets a battery fires at), by key."""
        pks = [Unit.pk_of(key) for key in keys if key]
        return {u.key: u for u in self._enemy_units(battery).filter(pk__in=pks).select_related("division__side")}

    def batteries(self, pks: Iterable[int]) -> list[Unit]:
        """These batteries whole, with their division and side, in the order of the step's rows."""
        found = Unit.objects.select_related("division__side").in_bulk(list(pks))
        return [found[pk] for pk in self.ready if pk in found]

    def partners(self, battery: Unit) -> list[Unit]:
        """The other batteries of its side that may fire, which may join its fire: read when its form is drawn or
        sent."""
        side = battery.division.side_id
        others = [pk for pk, (_, owner) in self.ready.items() if owner == side and pk not in (battery.pk, *self.spent)]
        return self.batteries(others)


@read_once
def state(game: Game) -> ArtilleryState:
    """Batteries that may still fire or save fire: not abandoned, limbered or silenced (demoralized), not fired
    this player turn and not announced as saving fire this step (4.2), and with a function left to fire with
    (3.5), or else allowed to save fire."""
    # the phase's events, read once: those of this step are its work done, all of them the hits waiting
    phase = list(this_turn(game, FIRE_STEPS, [*FIRE_KINDS, FireSaved]))
    own = (ArtilleryFired.__name__, FireSaved.__name__)
    events = [e for e in phase if e.step == StepKey.ARTILLERY_FIRE and e.kind in own]
    saved = [Unit.pk_of(key) for key in named_in(events, FireSaved, "unit")]
    waits = waiting_in(phase)
    hit = Unit.objects.filter(game=game, pk__in=[Unit.pk_of(key) for key in waits]).select_related("division__side")
    # every ready battery is a row, but only the rows a request draws read what they show (``fill``)
    ready = (
        Unit.objects.filter(game=game, abandoned=False, limbered=False, fired_this_turn=False, m_hits__lt=MAX_M_HITS)
        .batteries()
        .exclude(pk__in=saved)
        .order_by("division__side__order", "order")
        .values_list("pk", "division_id", "division__side_id", "functions_used")
    )
    found = {pk: (division, side) for pk, division, side, _ in ready}
    # only a battery that used functions this turn can have none left: those few are read whole
    used = [pk for pk, *_, functions in ready if functions]
    spent = {}
    for battery in Unit.objects.filter(pk__in=used) if used else ():
        problem = fire_problem(game.chart, battery.to_rules())
        if problem and not resolve_saved_fire(game.chart, SavedFireInput.of(battery.to_rules())).allowed:
            del found[battery.pk]
        elif problem:
            spent[battery.pk] = problem
    return ArtilleryState(game, {u.key: u for u in hit}, found, waits, events, spent)


def pending(s: ArtilleryState) -> list[str]:
    return []  # fire is not mandatory


class ArtilleryFireForm(DiceForm):
    joined = forms.MultipleChoiceField(
        label="Joint battery fire with",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Batteries firing at the same target at the same range (4.2). The group fires as this "
        "battery's type and range: the others downgrade to join.",
    )
    target = NameChoiceField(label="Main target")
    range = inches_field("Range to the main target (inches)")
    deep_target = forms.BooleanField(
        label='Deep target: three or more combat bases within 4" depth, in the open', required=False
    )
    square = forms.BooleanField(label="The target is infantry in square", required=False)
    moving_cavalry = forms.BooleanField(label="Over half the target is moving cavalry", required=False)
    cover = forms.ChoiceField(label="Half or more of the target in cover", choices=COVER_CHOICES, initial="none")
    enfilade = forms.BooleanField(label="Enfilade fire", required=False)
    packed_skirmishers = forms.BooleanField(
        label="Firing at the target's packed skirmish markers (under 2\" apart)",
        required=False,
        help_text="M go to the brigade, each B lowers its skirmisher type (4.5).",
    )
    open_order = forms.BooleanField(
        label="At open order", required=False, help_text="Set for you when the target brigade is in open order."
    )
    passing_fire = forms.BooleanField(label="Passing fire", required=False)
    tandem = NameChoiceField(label="Tandem target (within 3\" of the main target's front, in the open)", required=False)
    adjacent = NameChoiceField(label="Adjacent target (next to the main target, same range bracket)", required=False)
    die = die_field()
    printed = forms.CharField(
        label="Or: the result from your printed chart",
        required=False,
        max_length=20,
        help_text="Written as on the chart, like 2M 1B, or - for no effect.",
    )

    def __init__(
        self, *args: Any, partners: Sequence[Unit] = (), targets: Sequence[UnitChoice] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        offer_many(self, "joined", [(b.key, f"{b.name} ({b.battery_label})") for b in partners])
        self.targets = unit_options(targets)
        self.targets_list = self.add_prefix("targets")
        offer_names(self, TARGET_FIELDS, self.targets, self.targets_list)

    def clean_printed(self) -> Hits | None:
        text = self.cleaned_data.get("printed", "").strip()
        if not text:
            return None
        try:
            hits = Hits.parse(text)
        except ValueError:
            raise forms.ValidationError("Write the hits as on the chart, like 2M 1B, or - for no effect.") from None
        if hits.p:
            raise forms.ValidationError("Artillery fire scores M and B hits, not P.")
        return hits

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        main, tandem, adjacent = cleaned.get("target"), cleaned.get("tandem"), cleaned.get("adjacent")
        if tandem and tandem == main:
            self.add_error("tandem", "The tandem target is another unit than the main target.")
        if adjacent and adjacent in (main, tandem):
            self.add_error("adjacent", "The adjacent target is another unit than the main and tandem targets.")
        return cleaned


class SaveFireForm(VersionForm):
    moved_this_turn = forms.BooleanField(label="It moved this player turn (also facing or prolonging)", required=False)
    out_of_command_radius = forms.BooleanField(label="It is out of command radius", required=False)


def fire_form(s: ArtilleryState, battery: Unit, data: Any = None) -> ArtilleryFireForm:
    return ArtilleryFireForm(
        data,
        prefix=f"fire-{battery.key}",
        initial={"version": s.game.version},
        partners=s.partners(battery),
        targets=s.enemies(battery),
    )


def save_form(s: ArtilleryState, battery: Unit, data: Any = None) -> SaveFireForm:
    return SaveFireForm(data, prefix=f"save-{battery.key}", initial={"version": s.game.version})


def _ready(s: ArtilleryState, battery: Unit, refusal: str) -> Unit:
    """The battery whole, as it stands inside the action, refused unless it may fire or save fire now."""
    if battery.pk not in s.ready:
        raise ActionRefused(refusal)
    return s.batteries([battery.pk])[0]


def fire_battery(game: Game, battery: Unit, form: ArtilleryFireForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = f"{battery.name} cannot fire now."
    with act(game, data["version"], actor, step=StepKey.ARTILLERY_FIRE, elsewhere=refusal) as action:
        s = state(action.game)
        firing = _ready(s, battery, refusal)
        ready = {b.key: b for b in s.partners(firing)}
        if firing.pk in s.spent:
            raise ActionRefused(f"{firing.name} may not fire this turn: {s.spent[firing.pk]}.")
        joined = [ready[key] for key in data["joined"] if key in ready]
        if len(joined) != len(data["joined"]):
            raise ActionRefused("A battery chosen for joint fire cannot fire now.")
        enemies = s.chosen(firing, [data.get(name) or "" for name in TARGET_FIELDS])
        roles = {
            role: enemies.get(data.get(name) or "")
            for role, name in (
                (TargetRole.MAIN, "target"),
                (TargetRole.TANDEM, "tandem"),
                (TargetRole.ADJACENT, "adjacent"),
            )
        }
        target = roles[TargetRole.MAIN]
        if target is None:
            raise RulesInputError("target", "Choose one of the enemy's units in play.")
        inputs = ArtilleryFireInput.of(
            firing.to_rules(),
            tuple(b.to_rules() for b in joined),
            target.to_rules(),
            range=float(data["range"]),
            roll=form.rolls("die")[0],
            scale=action.game.scale,
            deep_target=data["deep_target"],
            square=data["square"],
            moving_cavalry=data["moving_cavalry"],
            cover=Cover(data["cover"]),
            enfilade=data["enfilade"],
            packed_skirmishers=data["packed_skirmishers"],
            open_order=data["open_order"],
            passing_fire=data["passing_fire"],
        )
        printed: Hits | None = data.get("printed")
        chart = action.game.chart.overlay({"artillery": str(printed)}) if printed is not None else action.game.chart
        result = resolve_artillery_fire(chart, inputs)

        def aimed(role: TargetRole) -> FireTarget | None:
            unit = roles[role]
            if unit is None:
                return None
            packed = role is TargetRole.MAIN and data["packed_skirmishers"]
            return FireTarget.of(unit.to_rules(), s.waiting.get(unit.key), packed_skirmishers=packed)

        shared = resolve_artillery_hits(
            chart,
            ArtilleryHitsInput(
                result.result,
                aimed(TargetRole.MAIN) or FireTarget(),
                aimed(TargetRole.TANDEM),
                aimed(TargetRole.ADJACENT),
            ),
        )
        group = [firing, *joined]
        for member in group:
            action.apply(member, after_firing(member.to_rules()))
        worst = max(group, key=lambda b: b.m_hits + b.damage).name if joined else ""
        named = {role: NamedUnit(u.key, u.name) for role, u in roles.items() if u is not None}
        return action.record(
            ArtilleryFired(
                tuple(NamedUnit(b.key, b.name) for b in group),
                named[TargetRole.MAIN],
                named.get(TargetRole.TANDEM),
                named.get(TargetRole.ADJACENT),
                inputs=inputs,
                printed=printed,
                result=result,
                shared=shared,
                hits=fire_hits(shared, {role: u.unit for role, u in named.items()}),
                worst=worst,
            )
        )


def save_fire(game: Game, battery: Unit, form: SaveFireForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = f"{battery.name} cannot save fire now."
    with act(game, data["version"], actor, step=StepKey.ARTILLERY_FIRE, elsewhere=refusal) as action:
        saving = _ready(state(action.game), battery, refusal)
        before = saving.to_rules()
        inputs = SavedFireInput.of(
            before, moved_this_turn=data["moved_this_turn"], in_command_radius=not data["out_of_command_radius"]
        )
        result = resolve_saved_fire(action.game.chart, inputs)
        if not result.allowed:
            raise RulesInputError(
                "moved_this_turn" if data["moved_this_turn"] else "__all__",
                f"{saving.name} may not save fire: {result.reason}",
            )
        action.apply(saving, after_saving_fire(before))
        return action.record(FireSaved(saving.key, saving.name, inputs, result, kept=before.saved_fire))


def leave(action: Action, s: ArtilleryState) -> dict[str, Any]:
    """The end of the artillery step: every skirmish and artillery hit of the phase goes on at once (4.1, 4.2),
    summed per unit."""
    taken = []
    for unit in s.units.values():
        hit = s.waiting.get(unit.key)
        if hit is None:
            continue
        before = unit.to_rules()
        result = resolve_fire_hits(before, hit)
        action.apply(unit, after_fire_hits(before, result))
        taken.append(UnitFireHits(unit.key, unit.name, result))
    return {"fire_hits": tuple(taken)}


def from_state(chart: Chart, battery: Unit) -> str:
    """What the app fills in for a firing battery: its own hits on the die, its saved fire's column shift."""
    hits = battery.m_hits + battery.damage
    on_die = hits * chart.entry("artillery_die_modifiers", "battery_hit")[0]
    shift = chart.entry("artillery_column_modifiers", "saved_fire")[0]
    columns = f"{abs(shift)} column{'' if abs(shift) == 1 else 's'} {'left' if shift < 0 else 'right'}"
    return (
        f"From the state: {battery.get_grade_display()}, {battery.m_hits} M, damage {battery.damage}"
        + (f" ({signed(on_die)} on the die)" if hits else "")
        + f"; saved fire {f'used now ({columns})' if battery.saved_fire else 'none'}."
    )


def rows(s: ArtilleryState) -> list[Row]:
    return [Row(subject_of(Unit, pk), "", command=division) for pk, (division, _) in s.ready.items()]


def fill(s: ArtilleryState, rows: list[Row]) -> None:
    found = {subject_of(Unit, b.pk): b for b in s.batteries(pk_of(row.subject) for row in rows)}
    for row in rows:
        battery = found[row.subject]
        facts = f"{battery.division.side.name} · {battery.battery_label} battery"
        spent = battery.pk in s.spent
        row.title, row.verb, row.condition = battery.name, "Save fire" if spent else "Fire", battery.condition
        row.facts = facts + (" · saved fire" if battery.saved_fire else "") + (" · no function left to fire" * spent)


def opened(s: ArtilleryState, row: Row, bound: Bound) -> dict[str, Any]:
    battery = s.batteries([pk_of(row.subject)])[0]
    prefix, save_prefix = f"fire-{battery.key}", f"save-{battery.key}"
    return {
        "battery": battery,
        "spent": s.spent.get(battery.pk, ""),
        "from_state": from_state(s.game.chart, battery),
        "form": bound.get(prefix) or fire_form(s, battery),
        "save": bound.get(save_prefix) or save_form(s, battery),
        "action": reverse("games:fire_artillery", args=[s.game.pk, battery.pk]),
        "save_action": reverse("games:fire_save", args=[s.game.pk, battery.pk]),
    }


def panel(s: ArtilleryState, bound: Bound) -> dict[str, Any]:
    return {
        "ready": len(s.ready),
        "nothing": "No battery is left that may fire.",
        "pending_hits": waiting_rows(s.waiting, s.units),
        "done": len(s.done),
    }


STEP = Step(
    "games/steps/fire_artillery.html",
    state,
    pending,
    panel,
    leave,
    rows=rows,
    form="games/rows/fire_artillery.html",
    opened=opened,
    fill=fill,
)
