"""Artillery fire (1.7, 4.2-4.6): every battery of both sides that may fire fires or saves its fire; fire is
simultaneous, so the hits wait, and leaving the step puts every skirmish and artillery hit of the phase on the
units at once. Enemy artillery's hits on a battery that prolonged this turn land at once instead, before it fires
(3.5, see ``republic.rules.battery_functions.prolonged``); a battery that made passing fire in the attacker's move
neither fires nor saves fire here (R:1235-1237). Which batteries may fire or save fire, who may join a fire and
what a fire or a saved fire changes are the game's decisions (``republic.play.fire``); this step reads them from
the database and writes the answer through the ledger."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms

from republic.games.events.fire import ArtilleryFired, FireSaved, PassingFireConducted
from republic.games.events.payload import NamedUnit, named_in
from republic.games.forms import Pick, VersionForm, filled
from republic.games.ledger import Action, ActionRefused, act, turn_events
from republic.games.models import Event, Game, Unit, UnitChoice, UnitQuerySet, battery_type_label
from republic.games.pieces import Piece
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, current, shows_unit
from republic.games.steps.battery_fire import TARGET_FIELDS, ArtilleryFireForm, aim, from_state, point_blank
from republic.games.steps.fire_hits import FIRE_KINDS, FIRE_STEPS, put_on, waiting_in, waiting_rows
from republic.play.fire import FireStep, fired, fires, partners, readiness, save
from republic.play.refusal import Refused
from republic.rules.battery_functions import prolonged
from republic.rules.fire_results import FireHits, TargetRole
from republic.rules.sequence import StepKey


@dataclass
class ArtilleryState:
    game: Game
    units: dict[str, Unit]  # the units with hits waiting, whole: not the whole battle
    ready: dict[int, tuple[int, int]]  # batteries of both sides that may still fire or save fire: division, side
    waiting: dict[str, FireHits]
    done: list[Event]
    step: FireStep
    # how a ready battery is offered to join another's fire, read with the rows: a battery's form offers its side's
    # (a hundred in a battle of 1,000 units), most of them below the rows a page draws
    joining: dict[int, Pick] = field(default_factory=dict, repr=False, compare=False)
    # the batteries read whole and each side's enemies, kept as requests read them: after Next step forty phones of
    # a battle each draw a battery's form from one reading of the step (``readings``), most of them the same
    # batteries' rows and the same enemies to fire at; an action reads its own state, so what it changes stays its own
    whole: dict[int, Unit] = field(default_factory=dict, repr=False, compare=False)
    enemies_of: dict[int, list[UnitChoice]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def spent(self) -> Mapping[int, str]:
        """Ready batteries whose functions this turn leave no fire, only saving it: why (3.5)."""
        return self.step.spent

    @property
    def passed(self) -> Mapping[int, str]:
        """Batteries that made passing fire in the attacker's move this turn: their names."""
        return self.step.passed

    def _enemy_units(self, battery: Unit) -> UnitQuerySet:
        return Unit.objects.filter(game=self.game).exclude(division__side=battery.division.side_id).in_play()

    def enemies(self, battery: Unit) -> list[UnitChoice]:
        """The other side's units in play, read when a battery's form is drawn or checked."""
        side = battery.division.side_id
        if side not in self.enemies_of:
            self.enemies_of[side] = self._enemy_units(battery).order_by("division__side__order", "order").choices()
        return self.enemies_of[side]

    def chosen(self, battery: Unit, keys: Iterable[str]) -> dict[str, Unit]:
        """The other side's units in play among those named (the targets a battery fires at), by key."""
        pks = [Piece.at(key).pk for key in keys if key]
        return {u.key: u for u in self._enemy_units(battery).filter(pk__in=pks).select_related("division__side")}

    def batteries(self, pks: Iterable[int]) -> list[Unit]:
        """These batteries whole, with their division and side, in the order of the step's rows."""
        wanted = set(pks)
        missing = [pk for pk in wanted if pk not in self.whole]
        if missing:
            self.whole.update(Unit.objects.select_related("division__side").in_bulk(missing))
        return [self.whole[pk] for pk in self.ready if pk in wanted and pk in self.whole]

    def partners(self, battery: Unit) -> list[Pick]:
        """The other batteries of its side that may fire, which may join its fire, as its form offers them."""
        return [self.joining[pk] for pk in partners(self.step, battery.pk)]


_JOINING = ("name", "division__name", "battery_type")  # what a battery's form shows of one that may join it


@read_once
def state(game: Game) -> ArtilleryState:
    """Batteries that may still fire or save fire: not abandoned, limbered or silenced (demoralized), not fired
    this player turn (in passing fire neither) and not announced as saving fire this step (4.2), and with a
    function left to fire with (3.5), or else allowed to save fire."""
    # the turn's fire events, read once: those of this step are its work done, the phase's the hits waiting, and
    # the move step's the batteries that made passing fire
    steps, kinds = [*FIRE_STEPS, StepKey.MOVE], [*FIRE_KINDS, FireSaved, PassingFireConducted]
    turn = turn_events(game, steps, kinds)
    phase = [e for e in turn if e.step != StepKey.MOVE]
    own = (ArtilleryFired.__name__, FireSaved.__name__)
    events = [e for e in phase if e.step == StepKey.ARTILLERY_FIRE and e.kind in own]
    saved = [Piece.at(key).pk for key in named_in(events, FireSaved, "unit")]
    passing = [e for e in turn if e.step == StepKey.MOVE]
    keys, names = (named_in(passing, PassingFireConducted, field) for field in ("unit", "name"))
    passed = {Piece.at(key).pk: name for key, name in zip(keys, names, strict=True)}
    waits = waiting_in(phase)
    hit = Unit.objects.filter(game=game, pk__in=[Piece.at(key).pk for key in waits]).select_related("division__side")
    # every ready battery is a row, but only the rows a request draws read what they show (``fill``)
    ready = (
        Unit.objects.filter(game=game)
        .may_fire()
        .exclude(pk__in=saved)
        .order_by("division__side__order", "order")
        .values_list("pk", "division_id", "division__side_id", "functions_used", *_JOINING)
    )
    sides = {pk: side for pk, _, side, *_ in ready}
    # only a battery that used functions this turn can have none left: those few are read whole
    used = [pk for pk, _, _, functions, *_ in ready if functions]
    whole = {b.pk: b.to_rules() for b in Unit.objects.filter(pk__in=used)} if used else {}
    offered, spent = readiness(game.chart, sides, whole)
    found = {pk: (division, side) for pk, division, side, *_ in ready if pk in offered}
    joining = {
        pk: Pick(Piece("unit", pk).key, name, division_name, f"{battery_type_label(kind)} battery")
        for pk, _, _, _, name, division_name, kind in ready
        if pk in offered
    }
    step = FireStep(offered, spent, passed)
    return ArtilleryState(game, {u.key: u for u in hit}, found, waits, events, step, joining)


def pending(s: ArtilleryState) -> list[str]:
    return []  # fire is not mandatory


class SaveFireForm(VersionForm):
    moved_this_turn = forms.BooleanField(label="It moved this player turn (also facing or prolonging)", required=False)
    out_of_command_radius = forms.BooleanField(label="It is out of command radius", required=False)


def fire_form(s: ArtilleryState, battery: Unit, data: Any = None) -> ArtilleryFireForm:
    return ArtilleryFireForm(
        data,
        prefix=battery.piece.prefix("fire"),
        initial={"version": s.game.version},
        partners=s.partners(battery),
        targets=s.enemies(battery),
        point_blank=point_blank(s.game.chart, s.game.scale),
    )


def save_form(s: ArtilleryState, battery: Unit, data: Any = None) -> SaveFireForm:
    return SaveFireForm(data, prefix=battery.piece.prefix("save"), initial={"version": s.game.version})


def cannot_fire(battery: Unit) -> str:
    return f"{battery.name} cannot fire now."


def cannot_save(battery: Unit) -> str:
    return f"{battery.name} cannot save fire now."


def fire_battery(game: Game, battery: Unit, form: ArtilleryFireForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = cannot_fire(battery)
    with act(game, data["version"], actor, step=StepKey.ARTILLERY_FIRE, elsewhere=refusal) as action:
        s = state(action.game)
        # a key that names no unit names no battery that may join (pk 0 is none)
        joining = [p.pk if p else 0 for p in (Piece.named(key, "unit") for key in data["joined"])]
        try:
            fires(s.step, battery.pk, battery.name, joining, refusal)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        # the battery and those that join it, as they stand inside the action, read at once
        read = {b.pk: b for b in s.batteries([battery.pk, *joining])}
        firing, joined = read[battery.pk], [read[pk] for pk in joining]
        enemies = s.chosen(firing, [data.get(name) or "" for name in TARGET_FIELDS])
        fire = aim(action.game, form, firing, joined, enemies, s.waiting)
        group = [firing, *joined]
        for member, after in zip(group, fired(b.to_rules() for b in group), strict=True):
            action.apply(member, after)
        landed = put_on(action, fire.landing())
        worst = max(group, key=lambda b: b.m_hits + b.damage).name if joined else ""
        named = fire.named
        return action.record(
            ArtilleryFired(
                tuple(NamedUnit(b.key, b.name) for b in group),
                named[TargetRole.MAIN],
                named.get(TargetRole.TANDEM),
                named.get(TargetRole.ADJACENT),
                compound=named.get(TargetRole.COMPOUND),
                inputs=fire.inputs,
                printed=fire.printed,
                result=fire.result,
                shared=fire.shared,
                hits=fire.hits(),
                worst=worst,
                landed=landed,
            )
        )


def save_fire(game: Game, battery: Unit, form: SaveFireForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = cannot_save(battery)
    with act(game, data["version"], actor, step=StepKey.ARTILLERY_FIRE, elsewhere=refusal) as action:
        s = state(action.game)
        # the battery as it stands inside the action: read only when it may be answered for
        if battery.pk in s.passed:
            saving = current(battery.pk)
        elif battery.pk in s.step.ready:
            saving = s.batteries([battery.pk])[0]
        else:
            saving = battery
        before = saving.to_rules()
        moved, in_radius = data["moved_this_turn"], not data["out_of_command_radius"]
        try:
            saved = save(action.game.chart, s.step, before, battery.pk, saving.name, moved, in_radius, refusal)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        action.apply(saving, saved.after)
        return action.record(FireSaved(saving.key, saving.name, saved.inputs, saved.result, kept=saved.kept))


def leave(action: Action, s: ArtilleryState) -> dict[str, Any]:
    """The end of the artillery step: every skirmish and artillery hit of the phase goes on at once (4.1, 4.2),
    summed per unit."""
    found = [(unit, s.waiting[unit.key]) for unit in s.units.values() if unit.key in s.waiting]
    return {"fire_hits": put_on(action, found)}


def rows(s: ArtilleryState) -> list[Row]:
    # a battery with no function left to fire may still save its fire: not work that is due
    return [
        Row(Piece("unit", pk).name, "", command=division, due=pk not in s.spent)
        for pk, (division, _) in s.ready.items()
    ]


def fill(s: ArtilleryState, rows: list[Row]) -> None:
    found = {Piece("unit", b.pk).name: b for b in s.batteries(Piece.at(row.subject).pk for row in rows)}
    for row in rows:
        battery = found[row.subject]
        facts = f"{battery.division.side.name} · {battery.battery_label} battery"
        spent = battery.pk in s.spent
        row.verb = "Save fire" if spent else "Fire"
        shows_unit(row, battery)
        facts += (" · saved fire" if battery.saved_fire else "") + (" · no function left to fire" * spent)
        # set once, whole: the row is shared, and another request may copy it as it is filled in (``Row.filled``)
        row.facts = facts + " · prolonged: enemy fire at it comes first" * prolonged(battery.to_rules())


def opened(s: ArtilleryState, row: Row, bound: Bound) -> dict[str, Any]:
    battery = s.batteries([Piece.at(row.subject).pk])[0]
    prefix, save_prefix = battery.piece.prefix("fire"), battery.piece.prefix("save")
    return {
        "battery": battery,
        "spent": s.spent.get(battery.pk, ""),
        "prolonged": prolonged(battery.to_rules()),
        "from_state": from_state(s.game.chart, battery),
        "form": bound.get(prefix) or fire_form(s, battery),
        "save": bound.get(save_prefix) or save_form(s, battery),
        "action": address(s.game, "artillery-fire", battery.piece),
        "save_action": address(s.game, "save-fire", battery.piece),
    }


def panel(s: ArtilleryState, bound: Bound) -> dict[str, Any]:
    return {
        "ready": len(s.ready),
        "nothing": "No battery is left that may fire.",
        "pending_hits": waiting_rows(s.waiting, s.units),
        "done": len(s.done),
        "passed": sorted(s.passed.values()),
    }


def take_fire(game: Game, battery: Unit, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(fire_form(s, battery, data)) as sent:
        return fire_battery(game, battery, sent, actor)


def take_save(game: Game, battery: Unit, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(save_form(s, battery, data)) as sent:
        return save_fire(game, battery, sent, actor)


STEP = Step(
    "games/steps/fire_artillery.html",
    state,
    pending,
    panel,
    leave,
    rows=rows,
    form="games/rows/fire_artillery.html",
    folds=("secondary-targets",),
    opened=opened,
    fill=fill,
    actions=(
        Act("artillery-fire", "unit", Who.OWNER, take_fire, cannot_fire),
        Act("save-fire", "unit", Who.OWNER, take_save, cannot_save),
    ),
)
