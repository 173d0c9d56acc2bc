"""Hors de combat checks (4.7 after the fire phase, 5.6 after the assaults): 2D10 for each leader within 4"
of a unit that suffered base hits in the phase; only doubles can be a casualty. Both steps are this one.

The bases lost in the phase are read from its events: the fire hits put on at the end of the artillery step,
each assault round's losses and surrenders, and the table's own corrections made in those steps; what they add up
to, who must roll and what a check changes are the game's decisions (``republic.play.hors_de_combat``).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms

from republic.games.events.assault import AssaultRoundResolved
from republic.games.events.command import HorsDeCombatSkipped, LeaderCheckedForCasualty
from republic.games.events.game import CorrectionMade, StepAdvanced
from republic.games.events.payload import named_in, payload_of
from republic.games.forms import DiceForm, die_field, filled
from republic.games.ledger import ActionRefused, act, turn_events
from republic.games.models import Event, Game, Leader, Unit
from republic.games.pieces import Piece
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, versioned
from republic.play.hors_de_combat import Change, CheckStep, by_command, check, losses, must, pass_over, to_check
from republic.play.refusal import Refused
from republic.rules.dice import Roll
from republic.rules.leaders import HorsDeCombatInput, HorsDeCombatOutcome
from republic.rules.sequence import StepKey
from republic.rules.units import Correction

STEPS = (StepKey.FIRE_HORS_DE_COMBAT, StepKey.ASSAULT_HORS_DE_COMBAT)
PHASE_STEPS = {
    StepKey.FIRE_HORS_DE_COMBAT: (StepKey.SKIRMISH, StepKey.ARTILLERY_FIRE),
    StepKey.ASSAULT_HORS_DE_COMBAT: (StepKey.ASSAULTS,),
}
_CORRECTED = {
    Correction.BASE_MINUS: 1,
    Correction.BASE_PLUS: -1,
    Correction.DAMAGE_PLUS: 1,
    Correction.DAMAGE_MINUS: -1,
}
PRINTED = [
    ("", "use the app's chart"),
    (HorsDeCombatOutcome.NO_EFFECT.value, "no effect"),
    (HorsDeCombatOutcome.HORS_DE_COMBAT.value, "hors de combat"),
]


def changes_this_phase(events: list[Event]) -> list[Change]:
    """What these events of the phase this check follows did to units: fire hits put on, each assault round's
    losses and surrenders, and the table's corrections of bases and damage."""
    changes = []
    for event in events:
        payload = payload_of(event)
        if isinstance(payload, StepAdvanced):
            changes += [
                Change(taken.unit, taken.result.bases_lost, taken.result.hits.b)
                for taken in payload.fire_hits
                if not taken.result.lost
            ]
        elif isinstance(payload, AssaultRoundResolved):
            on_units = payload.on_units
            for losses_of in (on_units.attacker, on_units.defender):
                for loss in losses_of.units if losses_of else ():
                    changes.append(Change(loss.id, loss.bases_before - loss.bases_after, loss.damage_taken))
            for key, bases in zip(on_units.surrendered, on_units.surrendered_bases, strict=True):
                changes.append(Change(key, bases, 0))
        elif isinstance(payload, CorrectionMade) and payload.correction in _CORRECTED:
            n = _CORRECTED[payload.correction]
            changes.append(Change(payload.target, n, n))
    return changes


@dataclass
class CheckState:
    game: Game
    core: CheckStep  # the step as the game's decisions see it
    units: dict[str, Unit]  # the units that lost something this phase
    by_command: dict[int, int]  # bases lost this phase under each command: its own units and those below
    must: list[Leader]  # the leaders the core says must roll or be passed over, with their command
    done: list[Event]

    @property
    def lost(self) -> Mapping[str, int]:
        return self.core.lost

    @property
    def to_check(self) -> dict[int, int]:
        return to_check(self.core)

    def pending(self) -> list[tuple[Leader, int]]:
        """Leaders whose own command lost bases this phase: each must roll or be passed over as not within 4"."""
        return [(leader, self.by_command[leader.command_id]) for leader in self.must]


@read_once
def state(game: Game) -> CheckState:
    # the losses are read from the events first, so that only the units that lost something are loaded, with
    # their chain of command: a handful, not the battle's 400. The phase's losses and this step's checks, read at once
    phase = PHASE_STEPS.get(game.step_key, ())
    found = turn_events(
        game,
        (*phase, game.step_key),
        [StepAdvanced, AssaultRoundResolved, CorrectionMade, LeaderCheckedForCasualty, HorsDeCombatSkipped],
    )
    changes = changes_this_phase([e for e in found if e.step in phase])
    # which of the units changed are batteries (they lose by damage): those few, not the battle's 200 batteries
    changed = Unit.objects.filter(game=game, pk__in={Piece.at(c.unit).pk for c in changes}).batteries()
    batteries = frozenset(Piece("unit", pk).key for pk in changed.values_list("pk", flat=True))
    lost = losses(changes, batteries)
    losers = Unit.objects.filter(game=game, pk__in=[Piece.at(key).pk for key in lost])
    units = {u.key: u for u in losers.select_related("division__parent__parent")}
    checks = (LeaderCheckedForCasualty.__name__, HorsDeCombatSkipped.__name__)
    events = [e for e in found if e.step == game.step_key and e.kind in checks]
    checked = {*named_in(events, LeaderCheckedForCasualty, "leader"), *named_in(events, HorsDeCombatSkipped, "leader")}
    # every leader in action is a row (any may stand within 4" of a loss), but only the rows a request draws
    # read what they show (``fill``); those whose command lost bases are read whole, to say so
    leaders = Leader.objects.filter(game=game).in_action().order_by("command__side__order", "command__order", "pk")
    core = CheckStep(
        lost,
        {key: [c.pk for c in unit.division.chain()] for key, unit in units.items()},
        tuple(leaders.values_list("pk", "command_id")),
        frozenset(checked),
    )
    owed = must(core)
    whole = {lr.pk: lr for lr in Leader.objects.filter(pk__in=list(owed)).select_related("command__side")}
    return CheckState(game, core, units, by_command(core), [whole[pk] for pk in owed], events)


def pending(s: CheckState) -> list[str]:
    return [
        f"hors de combat check for {leader.name} ({leader.command.name} lost {hits} base"
        f'{"s" if hits > 1 else ""}), or pass him over if not within 4"'
        for leader, hits in s.pending()
    ]


def idle(s: CheckState) -> str:
    """Every leader in action is a row, as any may stand within 4" of a loss; but with no base lost (nor a
    battery's damage) in the phase no leader stands near one, so nobody rolls and the step passes by itself."""
    return "no unit lost a base this phase" if not (s.lost or s.done) else ""


class HorsDeCombatForm(DiceForm):
    dice_fields = ("die", "die2")
    die = die_field("First die (1-10)")
    die2 = die_field("Second die (1-10)")
    base_hits_within_4 = forms.IntegerField(
        label='Base hits (B) within 4" this phase',
        min_value=0,
        max_value=99,
        initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Filled in with the bases your own command lost this phase; count every friendly base hit "
        'within 4" of the leader.',
    )
    enemy_skirmishers_within_4 = forms.BooleanField(label='An enemy skirmish marker is within 4"', required=False)
    printed = forms.ChoiceField(label="Or: the result from your printed chart", required=False, choices=PRINTED)


def prefix(leader: Leader) -> str:
    return leader.piece.prefix("hdc")


def check_form(game: Game, leader: Leader, hits: int = 0, data: Any = None) -> HorsDeCombatForm:
    return HorsDeCombatForm(data, prefix=prefix(leader), initial={"version": game.version, "base_hits_within_4": hits})


def check_leader(game: Game, leader: Leader, form: HorsDeCombatForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = f"{leader.name} has no hors de combat check to make now."
    with act(game, data["version"], actor, step=STEPS, elsewhere=refusal) as action:
        s = state(action.game)
        checking = leader
        first, second = form.rolls("die", "die2")
        inputs = HorsDeCombatInput(
            roll=Roll((first.faces[0], second.faces[0]), first.source),
            base_hits_within_4=data["base_hits_within_4"],
            enemy_skirmishers_within_4=data["enemy_skirmishers_within_4"],
        )
        printed = data.get("printed")
        chart = action.game.chart.overlay({"hors_de_combat": printed}) if printed else action.game.chart
        try:
            done = check(chart, s.core, checking.pk, inputs, refusal)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        if done.casualty:
            action.set(checking, "hors_de_combat", True)
        payload = LeaderCheckedForCasualty(checking.pk, checking.name, checking.command.name, inputs, done.result)
        return action.record(payload)


def skip_leader(game: Game, leader: Leader, version: int, actor: str) -> Event:
    refusal = f"{leader.name} has no hors de combat check waiting."
    with act(game, version, actor, step=STEPS, elsewhere=refusal) as action:
        try:
            pass_over(state(action.game).core, leader.pk, refusal)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        return action.record(HorsDeCombatSkipped(leader.pk, leader.name))


def rows(s: CheckState) -> list[Row]:
    """Leaders whose command lost bases first (each must roll or be passed over), then every other leader in
    action, who rolls only if within 4" of a unit that lost bases."""
    must = {leader.pk for leader in s.must}
    return [
        Row(Piece("leader", pk).name, "", command=command, due=pk in must)
        for pk, command in sorted(s.to_check.items(), key=lambda found: found[0] not in must)
    ]


def fill(s: CheckState, rows: list[Row]) -> None:
    leaders = Leader.objects.select_related("command__side").in_bulk([Piece.at(r.subject).pk for r in rows])
    for row in rows:
        leader = leaders[Piece.at(row.subject).pk]
        hits = s.by_command.get(leader.command_id, 0)
        facts = f"{leader.command.name} · {leader.command.side.name}"
        if hits:
            facts += f" · his command lost {hits} base{'s' if hits > 1 else ''}: roll or pass him over"
        row.title, row.facts, row.verb = f"{leader.name} ({leader.value})", facts, "Check"


def checked_form(s: CheckState, leader: Leader, data: Any) -> HorsDeCombatForm:
    return check_form(s.game, leader, s.by_command.get(leader.command_id, 0), data)


def take_check(game: Game, leader: Leader, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(checked_form(s, leader, data)) as sent:
        return check_leader(game, leader, sent, actor)


CHECK: Act = Act("check-leader", "leader", Who.OWNER, take_check)


def opened(s: CheckState, row: Row, bound: Bound) -> dict[str, Any]:
    leader = Leader.objects.select_related("command").get(pk=Piece.at(row.subject).pk)
    hits = s.by_command.get(leader.command_id, 0)
    return {
        "leader": leader,
        "hits": hits,
        "pending": leader.pk in {lr.pk for lr in s.must},
        "form": bound.get(prefix(leader)) or checked_form(s, leader, None),
        "action": address(s.game, "check-leader", leader.piece),
        "skip_action": address(s.game, "pass-over-leader", leader.piece),
    }


def panel(s: CheckState, bound: Bound) -> dict[str, Any]:
    losses = []
    for key, n in s.lost.items():
        unit = s.units[key]
        losses.append(f"{unit.name}: {n} {'damage' if unit.battery else 'base' + ('s' if n > 1 else '')}")
    return {
        "losses": losses,
        "must": len(s.pending()),
        "done": len(s.done),
        "nothing": "Every leader has rolled or been passed over.",
    }


STEP = Step(
    "games/steps/hors_de_combat.html",
    state,
    pending,
    panel,
    rows=rows,
    form="games/rows/hors_de_combat.html",
    opened=opened,
    fill=fill,
    actions=(CHECK, versioned("pass-over-leader", "leader", Who.OWNER, skip_leader)),
    idle=idle,
)
