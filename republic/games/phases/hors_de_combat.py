"""Hors de combat checks (4.7 after the fire phase, 5.6 after the assaults): 2D10 for each leader within 4" of a
unit that suffered base hits in the phase; only doubles can be a casualty."""

from collections import defaultdict

from django import forms
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from republic.games import answers
from republic.games.dice import DiceForm, die_field
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, act_on, this_turn
from republic.games.models import Battery, Brigade, Event, Game, Leader
from republic.games.phases.fire import this_step
from republic.games.phases.handler import StepHandler
from republic.rules.codec import encode
from republic.rules.dice import Roll
from republic.rules.leaders import HorsDeCombatInput, HorsDeCombatOutcome, resolve_hors_de_combat
from republic.rules.sequence import StepKey

PHASE_STEPS = {
    StepKey.FIRE_HORS_DE_COMBAT: (StepKey.SKIRMISH.value, StepKey.ARTILLERY_FIRE.value),
    StepKey.ASSAULT_HORS_DE_COMBAT: (StepKey.ASSAULTS.value,),
}
DONE_EVENTS = ("LeaderCheckedForCasualty", "HorsDeCombatSkipped")


def base_hits_this_phase(game: Game) -> dict[str, int]:
    """Bases lost (and battery damage taken) per unit in the phase this check follows, read from the changes
    of the phase's events that still stand, whoever recorded them."""
    lost: dict[str, int] = defaultdict(int)
    steps = PHASE_STEPS.get(StepKey(game.step), ())
    for event in this_turn(game, steps):
        for change in event.changes:
            if change["model"] == "brigade" and change["field"] == "bases":
                lost[f"brigade:{change['id']}"] += change["before"] - change["after"]
            elif change["model"] == "battery" and change["field"] == "damage":
                lost[f"battery:{change['id']}"] += change["after"] - change["before"]
    return {key: n for key, n in lost.items() if n > 0}


def losses_by_command(game: Game, lost: dict[str, int]) -> dict[int, int]:
    """Bases lost this phase under each command: a division's own units, and every division below a corps
    or army. One pass over the units, whatever the number of leaders."""
    totals: dict[int, int] = defaultdict(int)
    for model in (Brigade, Battery):
        for unit in model.objects.filter(game=game).select_related("division__parent__parent"):
            if lost.get(unit.key):
                for command in unit.division.chain():
                    totals[command.pk] += lost[unit.key]
    return totals


def leaders_to_check(game: Game) -> list[Leader]:
    """Leaders of both sides still in action who have neither rolled nor been passed over this step."""
    done = {e.inputs.get("leader") for e in this_step(game, *DONE_EVENTS)}
    leaders = (Leader.objects.filter(game=game, hors_de_combat=False, removed=False)
               .select_related("command__side").order_by("command__side__order", "command__order", "pk"))
    return [leader for leader in leaders if leader.pk not in done]


def pending_leaders(game: Game) -> list[tuple[Leader, int]]:
    """Leaders whose own command lost bases this phase and who have not rolled: each must roll or be
    passed over as not within 4"."""
    lost = base_hits_this_phase(game)
    if not lost:
        return []
    totals = losses_by_command(game, lost)
    return [(leader, totals[leader.command_id]) for leader in leaders_to_check(game) if totals.get(leader.command_id)]


def _pending(game: Game) -> list[str]:
    return [f"hors de combat check for {leader.name} ({leader.command.name} lost {hits} base"
            f"{'s' if hits > 1 else ''}), or pass him over if not within 4\""
            for leader, hits in pending_leaders(game)]


PRINTED = [("", "use the app's chart"), (HorsDeCombatOutcome.NO_EFFECT.value, "no effect"),
           (HorsDeCombatOutcome.HORS_DE_COMBAT.value, "hors de combat")]


class HorsDeCombatForm(DiceForm):
    dice_fields = ("die", "die2")
    die = die_field("First die (1-10)")
    die2 = die_field("Second die (1-10)")
    base_hits_within_4 = forms.IntegerField(
        label="Base hits (B) within 4\" this phase", min_value=0, max_value=99, initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Filled in with the bases your own command lost this phase; count every friendly base hit "
                  "within 4\" of the leader.")
    enemy_skirmishers_within_4 = forms.BooleanField(label="An enemy skirmish marker is within 4\"", required=False)
    printed = forms.ChoiceField(label="Or: the result from your printed chart", required=False, choices=PRINTED)


def check_leader(game: Game, leader: Leader, form: HorsDeCombatForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        leader = Leader.objects.select_related("command").get(pk=leader.pk)
        if game.step not in PHASE_STEPS or leader.pk not in {x.pk for x in leaders_to_check(game)}:
            raise ActionRefused(f"{leader.name} has no hors de combat check to make now.")
        first, second = form.rolls("die", "die2")
        roll = Roll((first.faces[0], second.faces[0]), first.source)
        inputs = HorsDeCombatInput(roll=roll, base_hits_within_4=data["base_hits_within_4"],
                                   enemy_skirmishers_within_4=data["enemy_skirmishers_within_4"])
        result = resolve_hors_de_combat(game.chart, inputs)
        printed = data.get("printed")
        outcome = HorsDeCombatOutcome(printed) if printed else result.outcome
        casualty = outcome is HorsDeCombatOutcome.HORS_DE_COMBAT
        if casualty:
            action.set(leader, "hors_de_combat", True)
        faces = f"{roll.faces[0]}-{roll.faces[1]} {roll.source}"
        if casualty:
            summary = (f"{leader.name} is hors de combat ({faces}): move him to the rear of {leader.command.name} "
                       "and flag him until his side's next Replace leaders step")
        else:
            summary = f"{leader.name} is unhurt ({faces}{', not a double' if not result.double else ''})"
        return action.record(
            "LeaderCheckedForCasualty", summary, subject=leader.name,
            inputs={"leader": leader.pk, "name": leader.name, **encode(inputs)},
            dice=[{**encode(roll), "label": "hors de combat"}], result={**encode(result), "casualty": casualty},
            provisional=result.provisional and not printed, printed_chart=bool(printed))



def skip_leader(game: Game, leader: Leader, version: int, actor: str) -> Event:
    with act_on(game, version, actor) as action:
        game = action.game
        if game.step not in PHASE_STEPS or leader.pk not in {x.pk for x, _ in pending_leaders(game)}:
            raise ActionRefused(f"{leader.name} has no hors de combat check waiting.")
        return action.record("HorsDeCombatSkipped", f"{leader.name} was not within 4\" of a unit that lost bases: "
                                                    "no roll", subject=leader.name,
                             inputs={"leader": leader.pk, "name": leader.name})


def _panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    lost = base_hits_this_phase(game)
    totals = losses_by_command(game, lost)
    must = {leader.pk for leader, _ in pending_leaders(game)}
    rows = []
    for leader in leaders_to_check(game):
        prefix = f"hdc-leader:{leader.pk}"
        hits = totals.get(leader.command_id, 0)
        form = bound.get(prefix) or HorsDeCombatForm(prefix=prefix, initial={"version": game.version,
                                                                            "base_hits_within_4": hits})
        rows.append({"leader": leader, "hits": hits, "form": form, "pending": leader.pk in must,
                     "open": prefix in bound,
                     "action": f"/games/{game.pk}/hors-de-combat/{leader.pk}/",
                     "skip_action": f"/games/{game.pk}/hors-de-combat/{leader.pk}/skip/"})
    losses = []
    for key, n in lost.items():
        model, _, pk = key.partition(":")
        unit = (Brigade if model == "brigade" else Battery).objects.get(pk=int(pk))
        losses.append(f"{unit.name}: {n} {'damage' if model == 'battery' else 'base' + ('s' if n > 1 else '')}")
    return {"must_rows": [r for r in rows if r["pending"]], "other_rows": [r for r in rows if not r["pending"]],
            "losses": losses, "done": list(this_step(game, *DONE_EVENTS)),
            "open_others": any(r["open"] for r in rows if not r["pending"])}


@require_POST
def check_view(request: HttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.unit_of_game(Leader, game, leader_id)
    prefix = f"hdc-leader:{leader.pk}"
    form = HorsDeCombatForm(request.POST, prefix=prefix)
    return answers.form_action(request, game, form, prefix,
                               lambda: check_leader(game, leader, form, answers.actor_of(request)))


@require_POST
def skip_view(request: HttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.unit_of_game(Leader, game, leader_id)
    form = VersionForm(request.POST)
    return answers.form_action(request, game, form, None, lambda: skip_leader(
        game, leader, form.cleaned_data["version"], answers.actor_of(request)))


_HANDLER = StepHandler("games/steps/hors_de_combat.html", _pending, _panel)
STEPS = {StepKey.FIRE_HORS_DE_COMBAT: _HANDLER, StepKey.ASSAULT_HORS_DE_COMBAT: _HANDLER}
urls = [
    path("games/<int:game_id>/hors-de-combat/<int:leader_id>/", check_view, name="hors_de_combat_check"),
    path("games/<int:game_id>/hors-de-combat/<int:leader_id>/skip/", skip_view, name="hors_de_combat_skip"),
]
