"""One player turn of the attacker walked through every step of the turn sequence as the phones at the table walk
it: each step's page, then the step's typical actions posted over htmx with the app's own forms, then Next step.

Each step's work is a function in ``WORK``; a step without one is still visited (page and Next step), so a new
step is walked from the day it exists and measured once its function is written. Work the step requires before
the game may move on beyond the one measured action (the other rallies, the other leaders' checks) is done
through the step's own functions, unmeasured. An action the state does not allow is skipped with the reason."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from django import forms
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from republic.games.events.game import CorrectionMade, FieldValue
from republic.games.forms import VersionForm
from republic.games.ledger import act
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.pieces import Piece
from republic.games.steps import (
    adjoining_panic,
    artillery_fire,
    charge_disorder,
    demoralized_panic,
    division_panic,
    hors_de_combat,
    rally,
    skirmish,
)
from republic.games.steps import replace_leaders as replacing
from republic.games.steps.assaults import declare, rounds
from republic.games.steps.assaults.state import state as assault_state
from republic.games.steps.base import address
from republic.games.steps.move import batteries, brigades
from republic.games.steps.move.state import state as move_state
from republic.games.steps.walk import pending
from republic.rules.maneuver import ManeuverAction, charge_refusal
from republic.rules.panic_phase import PendingTest, adjoining_choices
from republic.rules.sequence import STEPS, StepKey
from republic.rules.troops import BatteryFunction
from republic.rules.units import skirmisher_limit
from tests.bench_probe import FRAGMENT, BenchFailure, Probe, form_data, problems, rows_shown

ACTOR = "bench"
F = TypeVar("F", bound=forms.Form)


def fresh(game: Game) -> Game:
    return Game.objects.select_related("first_attacker").get(pk=game.pk)


def _set(game: Game, row: Unit | Leader, **fields: Any) -> None:
    """Put a row into a state through an event, as a correction at the table would."""
    with act(game, None, ACTOR) as action:
        for name, value in fields.items():
            action.set(row, name, value)
        key = f"{row._meta.model_name}:{row.pk}"
        action.record(CorrectionMade(key, str(row), None, tuple(FieldValue(f, v) for f, v in fields.items())))


def prepare(game: Game) -> None:
    """Give every step of the attacker's turn real work, whatever the size of the battle: a quarter of the
    attacker's units hit (rally), a division leader fallen (replace leaders), defending skirmish markers out
    (blocks), two defending brigades demoralized by fire (demoralized panic), a Panic 4 event on each side
    (internal panic). The first defending brigade is left whole: it is the one fired at and assaulted."""
    game = fresh(game)
    units = Unit.objects.filter(game=game).in_battle_order()
    attacking = list(units.of_side(game.attacker))
    defending = list(units.of_side(game.defender).brigades())
    hit = attacking[1::4]
    for i, unit in enumerate(hit):
        _set(game, unit, m_hits=1 + i % 2, **({"p_hits_turn": 1} if i % 2 else {}))
    if hit:
        _set(game, hit[-1], p4_event=True)
    fallen = Leader.objects.filter(game=game, command__level=Command.Level.DIVISION).of_side(game.attacker).first()
    if fallen is not None:
        _set(game, fallen, hors_de_combat=True)
    for unit, p_hits in zip(defending[1:3], (5, 2), strict=False):
        _set(game, unit, m_hits=4, p_hits_turn=p_hits, p4_event=p_hits >= 5)
    for unit in [*defending[:1], *defending[3:6]]:
        if unit.skirmishers_available:
            _set(game, unit, skirmishers_deployed=1)


@dataclass
class Walker:
    """The table at one game: measured requests through the probe, the rest of a step's work done directly."""

    game: Game
    probe: Probe
    step: str = ""
    shown: str = ""  # the rows the step's page drew, which a phone lists when it sends from a row
    visited: list[StepKey] = field(default_factory=list)
    # a phone seated on each side (by the side's pk): a row is acted on from its side's phone, whose answer opens
    # the player's next work (views.page.next_work), as at a club; the rest from the game master's device
    phones: dict[int, Client] = field(default_factory=dict)

    def fresh(self) -> Game:
        return fresh(self.game)

    def url(self, name: str, *args: Any) -> str:
        return reverse(f"games:{name}", args=[self.game.pk, *args])

    def action(self, name: str, piece: Piece) -> str:
        """The address of a step's action about the piece (steps.base.Act)."""
        return address(self.game, name, piece)

    def skip(self, request: str, why: str) -> None:
        self.probe.note(self.step, f"{request} not walked: {why}")

    def act(
        self,
        request: str,
        url: str,
        form: forms.Form,
        fields: dict[str, Any] | None = None,
        *,
        dice: bool = False,
        records: bool = True,
        row: Model | str | None = None,
    ) -> Event | None:
        """POST ``form`` over htmx with ``fields`` typed in, from the step's row of ``row`` (a unit, leader or
        division) when given, as a phone does once it has tapped the row open; the event it recorded, None when
        it recorded none (the answer's message is noted: the state did not allow it)."""
        before = self.fresh().version
        target, phone = "", None
        if row is not None:
            name = row if isinstance(row, str) else row.piece.name
            target, phone = f"row-{name}", self.phones.get(self.side_of(name))
            opening = self.url("row", name)
            self.probe.get(self.step, f"open: {request}", opening, kind=FRAGMENT, htmx=True, device=phone)
        data = form_data(form, **(fields or {}))
        body = self.probe.post(self.step, request, url, data, dice=dice, target=target, shown=self.shown, device=phone)
        if body is None:
            return None
        self.probe.fragments(self.step, body)
        after = self.fresh()
        if not records:
            return None
        if after.version == before:
            self.skip(request, f"refused: {problems(body)}")
            return None
        # its event, and the steps that passed by themselves after it when it left nothing to do
        return Event.objects.get(game=after, seq=before + 1)

    def side_of(self, subject: str) -> int | None:
        """The side whose players act on a row: its unit's, leader's or division's; an assault's, the attacker's."""
        piece = Piece.of(subject)
        if piece is None or piece.kind == "assault":
            attacker = self.fresh().attacker
            return attacker.pk if attacker else None
        if piece.kind == "unit":
            return Unit.objects.filter(pk=piece.pk).values_list("division__side_id", flat=True).first()
        if piece.kind == "leader":
            return Leader.objects.filter(pk=piece.pk).values_list("command__side_id", flat=True).first()
        return Command.objects.filter(pk=piece.pk).values_list("side_id", flat=True).first()

    def version(self) -> VersionForm:
        return VersionForm(initial={"version": self.fresh().version})

    def direct(
        self, build: Callable[[Any], F], run: Callable[[F, str], Event], fields: dict[str, Any] | None = None
    ) -> Event:
        """The step's own action with its own form, unmeasured: work the game needs done before it moves on."""
        bound = build(form_data(build(None), **(fields or {})))
        if not bound.is_valid():
            raise BenchFailure(f"{self.step}: {type(bound).__name__} refused {fields}: {bound.errors.as_text()}")
        return run(bound, ACTOR)

    def next_step(self) -> None:
        before = self.fresh()
        body = self.probe.post(self.step, "next step", self.url("next_step"), form_data(self.version()))
        # more than one event when the steps after it had nothing to do and passed by themselves
        if body is None or self.fresh().version <= before.version:
            raise BenchFailure(f"{self.step}: the game did not move on: {'; '.join(pending(self.fresh()))}")


# --- each step's work ---------------------------------------------------------------------------------------


def rally_units(w: Walker) -> None:
    s = rally.state(w.fresh())
    if not s.to_rally:
        return w.skip("rally one unit", "no attacking unit has M hits")
    unit = s.to_rally[0]
    rallying = rally.form(s.game, unit, rally.reach(unit, s.leaders))
    w.act("rally one unit", w.action("rally", unit.piece), rallying, {"die": 6}, dice=True, row=unit)
    while (s := rally.state(w.fresh())).to_rally:
        unit = s.to_rally[0]
        offered = rally.reach(unit, s.leaders)
        w.direct(partial(rally.form, s.game, unit, offered), partial(rally.rally, s.game, unit), {"die": 6})


def replace_leaders(w: Walker) -> None:
    fallen = replacing.state(w.fresh()).fallen
    if not fallen:
        return w.skip("replace one leader", "no attacking leader is hors de combat")
    w.act("replace one leader", w.action("replace-leader", fallen[0].piece), w.version())


def move(w: Walker) -> None:
    s = move_state(w.fresh())
    units = list(Unit.objects.filter(pk__in=s.units).in_battle_order())  # whole, not as rows
    brigade_list = [u for u in units if not u.battery]
    # a brigade without hits may deploy its markers: the skirmish step then has some to block and fire
    unit = next((u for u in brigade_list if u.m_hits == 0 and skirmisher_limit(u.to_rules())), None)
    unit = unit or next(iter(brigade_list), None)
    if unit is None:
        return w.skip("maneuver roll", "the attacker has no brigade in play")
    roll = brigades.roll_form(s.game, unit, s.helpful_leaders)
    # a 10 lets it assault (R:631-635): the assault step then has a brigade to declare one with
    w.act("maneuver roll", w.action("maneuver-roll", unit.piece), roll, {"die": 10}, dice=True, row=unit)
    movement = brigades.movement_form(s.game, unit)
    w.act("movement allowance", w.url("maneuver_movement", unit.pk), movement, records=False, row=unit)
    s = move_state(w.fresh())
    refused = charge_refusal(s.allowed(unit))
    if refused:
        w.skip("charge bonus used", refused)
    else:
        charge = brigades.ChargeForm(initial={"version": s.game.version})
        w.act(
            "charge bonus used",
            w.action("charge-bonus", unit.piece),
            charge,
            {"used": "1", "action": "advance"},
            row=unit,
        )
    limit = skirmisher_limit(unit.to_rules())
    markers = brigades.skirmisher_form(w.fresh(), unit, limit)
    w.act("skirmishers out", w.action("skirmishers", unit.piece), markers, {"deployed": limit}, row=unit)
    battery = next((u for u in units if u.battery), None)
    if battery is None:
        return w.skip("battery functions", "the attacker has no battery in play")
    functions = batteries.functions_form(w.fresh(), battery)
    # prolong: an unlimbered battery's one move that keeps a function to fire
    chosen = {"function_1": BatteryFunction.PROLONG.value, "will_fire": True}
    w.act("battery functions", w.action("battery-functions", battery.piece), functions, chosen, row=battery)


def skirmish_fire(w: Walker) -> None:
    s = skirmish.state(w.fresh())
    if s.stage == "declare":
        blocker, target = s.defenders[0], s.attackers[0]
        declaring = skirmish.declare_form(s)
        w.act("declare blocks", w.action("declare-blocks", w.game.piece), declaring, {blocker.field: target.id})
    else:
        w.skip("declare blocks", "no skirmish markers out on one side or the other")
    s = skirmish.state(w.fresh())
    if s.stage == "roll" and s.declared:
        dice = {f"die_{i}": 1 for i in range(len(s.declared.blocks))}
        w.act("roll blocks", w.action("roll-blocks", w.game.piece), skirmish.rolls_form(s), dice, dice=True)
    s = skirmish.state(w.fresh())
    left, enemies = s.attacks_left(), [u for u in s.enemies() if not u.battery]
    if not left or not enemies:
        return w.skip("skirmish attack", "no unblocked attacking marker, or no enemy brigade")
    brigade = left[0][0]
    attack = skirmish.attack_form(s, brigade)
    aimed = {"target": enemies[0].key, "range": 2, "die": 10}
    w.act("skirmish attack", w.action("skirmish-attack", brigade.piece), attack, aimed, dice=True, row=brigade)


def artillery(w: Walker) -> None:
    s = artillery_fire.state(w.fresh())
    attacker = s.game.attacker.pk if s.game.attacker else None
    # the attacker's batteries first
    ready = sorted(s.batteries(s.ready), key=lambda b: b.division.side_id != attacker)
    if not ready:
        return w.skip("battery fires", "no battery may fire")
    battery = ready[0]
    targets = [u for u in s.enemies(battery) if not u.battery]
    if targets:
        fire = artillery_fire.fire_form(s, battery)
        aimed = {"target": targets[0].key, "range": 3, "die": 10}
        w.act("battery fires", w.action("artillery-fire", battery.piece), fire, aimed, dice=True, row=battery)
    else:
        w.skip("battery fires", "no enemy brigade in play")
    if len(ready) < 2:
        return w.skip("battery saves fire", "no second battery may fire")
    s = artillery_fire.state(w.fresh())
    saving = artillery_fire.save_form(s, ready[1])
    w.act("battery saves fire", w.action("save-fire", ready[1].piece), saving, row=ready[1])


def leader_checks(w: Walker) -> None:
    s = hors_de_combat.state(w.fresh())
    if not s.pending():
        return w.skip("check one leader", "no unit lost bases in the phase")
    leader, hits = s.pending()[0]
    check = hors_de_combat.check_form(s.game, leader, hits)
    dice = {"die": 3, "die2": 7}
    w.act("check one leader", w.action("check-leader", leader.piece), check, dice, dice=True, row=leader)
    for other, _ in hors_de_combat.state(w.fresh()).pending():
        hors_de_combat.skip_leader(w.fresh(), other, w.fresh().version, ACTOR)


def demoralized_tests(w: Walker) -> None:
    s = demoralized_panic.state(w.fresh())
    if not s.to_test:
        return w.skip("panic test one unit", "no demoralized unit took P hits")
    unit = s.to_test[0]
    testing = demoralized_panic.panic_form(s.game, unit)
    w.act("panic test one unit", w.action("demoralized-panic-test", unit.piece), testing, row=unit)
    while (s := demoralized_panic.state(w.fresh())).to_test:
        unit = s.to_test[0]
        w.direct(
            partial(demoralized_panic.panic_form, s.game, unit), partial(demoralized_panic.panic_test, s.game, unit)
        )


def assaults(w: Walker) -> None:
    s = assault_state(w.fresh())
    # the brigade that used its charge bonus assaults, so that charge disorder has it to disorder; only a brigade
    # whose maneuver roll allowed it may (R:631-635)
    charged = set(Unit.objects.filter(game=s.game, charge_bonus_used=True).values_list("pk", flat=True))
    rolls = move_state(s.game).rolls
    may = {key for key, rolled in rolls.items() if ManeuverAction.ASSAULT in rolled.result.actions}
    attackers = sorted(
        (u for u in s.side_units("attacker") if not u.battery and u.bases and u.key in may),
        key=lambda u: u.pk not in charged,
    )
    defenders = [u for u in s.side_units("defender") if not u.battery and u.bases]
    if not attackers or not defenders:
        return w.skip("declare an assault", "a side has no brigade in play")
    contact = {"attackers": [attackers[0].key], "defenders": [defenders[0].key]}  # all-out, the contact unticked
    declared = w.act("declare an assault", w.action("declare-assault", w.game.piece), declare.declare_form(s), contact)
    if declared is None:
        return
    s = assault_state(w.fresh())
    fight = rounds.round_form(s, s.find(declared.seq))
    round_url, dice = w.action("assault-round", Piece("assault", declared.seq)), {"die": 8, "die2": 3}
    w.act("fight one round", round_url, fight, dice, dice=True, row=Piece("assault", declared.seq).name)
    w.act("end the assault", w.action("end-assault", Piece("assault", declared.seq)), w.version())


def disorder(w: Walker) -> None:
    s = charge_disorder.state(w.fresh())
    if not s.disordered:
        return w.skip("apply charge disorder", "no unit used charge movement or retreated")
    w.act("apply charge disorder", w.action("charge-disorder", w.game.piece), charge_disorder.disorder_form(s))


def _division_test(w: Walker, request: str, die: int, test: PendingTest | None = None) -> None:
    s = division_panic.state(w.fresh())
    test = test or s.lacking[0]
    test_form = division_panic.panic_form(s.game, test.division, test.triggers)
    dice = dict.fromkeys(test_form.dice_fields, die)
    division = s.divisions[test.division]
    w.act(
        request,
        w.action("panic-test", Piece("command", division.pk)),
        test_form,
        dice,
        dice=True,
        row=Piece("command", division.pk).name,
    )


def _no_neighbours(w: Walker) -> None:
    """Every panicked division not named yet has no adjoining division: the round's tests can be asked."""
    while (s := division_panic.state(w.fresh())).undeclared and s.game.step_key is StepKey.ADJOINING_PANIC:
        key = s.undeclared[0]
        build = partial(adjoining_panic.adjoining_form, s, key)
        declare = partial(adjoining_panic.declare_adjoining, s.game, Command.objects.get(pk=key))
        w.direct(build, declare, {"adjoining": []})


def _finish_panic_phase(w: Walker) -> None:
    """Every division still to test holds (a 10); every panicked one has no adjoining division."""
    for _ in range(100):
        _no_neighbours(w)
        s = division_panic.state(w.fresh())
        if not s.lacking:
            return
        test = s.lacking[0]
        build = partial(division_panic.panic_form, s.game, test.division, test.triggers)
        dice = dict.fromkeys(build(None).dice_fields, 10)
        w.direct(build, partial(division_panic.roll_panic_test, s.game, Command.objects.get(pk=test.division)), dice)


def internal_panic(w: Walker) -> None:
    if not division_panic.state(w.fresh()).lacking:
        return w.skip("division panic test", "no division had a Panic 4 event")
    # a 1 for a division with a neighbour of its own side, so that the adjoining panic step has a test to walk
    s = division_panic.state(w.fresh())
    phase = tuple(s.phase.values())
    test = next((t for t in s.lacking if adjoining_choices(phase, t.division)), s.lacking[0])
    _division_test(w, "division panic test", die=1, test=test)
    _finish_panic_phase(w)


def adjoining(w: Walker) -> None:
    s = division_panic.state(w.fresh())
    if not s.undeclared:
        return w.skip("name adjoining divisions", "no division panicked")
    key = s.undeclared[0]
    naming = adjoining_panic.adjoining_form(s, key)
    panicked = {t.division for r in s.rounds for t in r.tests if t.panicked}
    choices = [pick.key for pick in naming.fields["adjoining"].picks]  # type: ignore[attr-defined]
    # a neighbour (of its own side, the only ones offered) that has not panicked: one that will have to test
    others = [c for c in choices if c not in panicked][:1]
    w.act("name adjoining divisions", w.action("adjoining", Piece("command", int(key))), naming, {"adjoining": others})
    _no_neighbours(w)
    if division_panic.state(w.fresh()).lacking:
        _division_test(w, "adjoining panic test", die=10)
    else:
        w.skip("adjoining panic test", "no division adjoins the one that panicked")
    _finish_panic_phase(w)


WORK: dict[StepKey, Callable[[Walker], None]] = {
    StepKey.RALLY: rally_units,
    StepKey.REPLACE_LEADERS: replace_leaders,
    StepKey.MOVE: move,
    StepKey.SKIRMISH: skirmish_fire,
    StepKey.ARTILLERY_FIRE: artillery,
    StepKey.FIRE_HORS_DE_COMBAT: leader_checks,
    StepKey.DEMORALIZED_PANIC: demoralized_tests,
    StepKey.ASSAULTS: assaults,
    StepKey.ASSAULT_HORS_DE_COMBAT: leader_checks,
    StepKey.CHARGE_DISORDER: disorder,
    StepKey.INTERNAL_PANIC: internal_panic,
    StepKey.ADJOINING_PANIC: adjoining,
}


def seated(game: Game) -> dict[int, Client]:
    """A player's phone for each side of the game, seated with its join link."""
    phones = {}
    for side in game.sides.all():
        phone = Client(enforce_csrf_checks=False, raise_request_exception=False)
        taken = {"name": f"{side.name} player", "seat": f"side-{side.pk}"}
        phone.post(reverse("games:join", args=[game.join_code]), taken)
        phones[side.pk] = phone
    return phones


def walk(
    game: Game, client: Client, repeat: int = 3, say: Callable[[str], None] = print, settle: bool = True
) -> Walker:
    """Walk the attacker's player turn from the first step to the next player turn; the walker holds the
    measured rows, the steps visited, what was skipped and any failure (which ends the walk). ``repeat`` GETs
    of each page; ``settle`` collects the garbage before each timed request (steadier times, a slower walk)."""
    w = Walker(game, Probe(client, repeat, say, settle), phones=seated(game))
    if w.fresh().step_key is not STEPS[0].key or not w.fresh().in_progress:
        raise BenchFailure(f"the walk starts at the first step of a game in play, not at {w.fresh().step}")
    turn = (w.fresh().game_turn, w.fresh().player_turn)
    order = [step.key for step in STEPS]
    try:
        for step in STEPS:
            now = w.fresh()
            if now.step_key is not step.key and _passed(now, turn, order, step.key):
                w.visited.append(step.key)
                w.probe.note(step.key.value, "passed by itself: nothing to do in this battle")
                continue
            if now.step_key is not step.key:
                raise BenchFailure(f"expected the game at {step.key}, found it at {now.step}")
            w.step = step.key.value
            w.visited.append(step.key)
            # the page as the attacking side's player has it, his next work drawn open
            attacker = w.fresh().attacker
            player = w.phones.get(attacker.pk) if attacker else None
            page = w.probe.get(w.step, "page", w.url("game"), device=player)
            w.shown = rows_shown(page)
            w.probe.fragments(w.step, page)
            WORK.get(step.key, lambda w: None)(w)
            if w.fresh().step_key is step.key:  # else it passed by itself once its work was done
                w.next_step()
    except BenchFailure as exc:
        w.probe.failures.append(str(exc))
        say(f"FAILED {exc}")
    return w


def _passed(game: Game, turn: tuple[int, int], order: list[StepKey], step: StepKey) -> bool:
    """The game went through ``step`` by itself: it stands at a later step of the walked player turn, or in the
    next player turn."""
    if (game.game_turn, game.player_turn) != turn:
        return True
    return order.index(game.step_key) > order.index(step)
