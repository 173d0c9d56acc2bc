"""Command phase (1.7, 2.3, 2.5): the defenders' messages, the attacker's rally, replacing fallen leaders."""

from django import forms
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from republic.games import answers
from republic.games.dice import DiceForm, die_field
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, act_on, this_turn
from republic.games.models import Battery, Brigade, Command, Event, Game, Leader
from republic.games.phases.handler import StepHandler
from republic.games.text import condition_label
from republic.rules.codec import encode
from republic.rules.leaders import Candidate as ReplacementCandidate
from republic.rules.leaders import (
    CommandRelation,
    LeaderRank,
    LeaderReplacementInput,
    resolve_leader_replacement,
)
from republic.rules.morale import Condition
from republic.rules.rally import RallyInput, RallyLeader, resolve_rally
from republic.rules.scale import GroundScale
from republic.rules.sequence import StepKey
from republic.rules.troops import Grade

# --- whose turn, what is done ---------------------------------------------------------------------------


def attacking_units(game: Game) -> list[Brigade | Battery]:
    return game.attacker.units_in_play() if game.attacker else []


def events_this_step(game: Game, kind: str):
    return this_turn(game, [game.step], [kind])


def to_rally(game: Game) -> list[Brigade | Battery]:
    done = set(events_this_step(game, "RallyResolved").values_list("inputs__unit", flat=True))
    return [u for u in attacking_units(game) if u.m_hits and u.key not in done]


def _rally_pending(game: Game) -> list[str]:
    return [f"rally {u.name} ({condition_label(u.m_hits)})" for u in to_rally(game)]


# --- rally ------------------------------------------------------------------------------------------------


PRINTED_CONDITIONS = [("", "use the app's chart")] + [(c.value, c.value.capitalize()) for c in Condition]


class RallyForm(DiceForm):
    division_leader_distance = forms.DecimalField(
        label='Distance to the division leader (inches)', min_value=0, max_digits=5, decimal_places=2,
        initial=0, help_text="Measured on the table, in this game's scale.")
    leaders_within_4 = forms.MultipleChoiceField(
        label='Other leaders within 4"', required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Corps and army leaders of the chain count; rating 2 and 3 leaders also reach further (2.2).")
    die = die_field()
    printed = forms.ChoiceField(label="Or: new condition from your printed chart", required=False,
                                choices=PRINTED_CONDITIONS)

    def __init__(self, *args, leaders=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["leaders_within_4"].choices = [(str(leader.pk), str(leader)) for leader in leaders]


def _other_leaders(unit: Brigade | Battery) -> list[Leader]:
    """Leaders of the unit's side other than its division leader, who might stand within 4"."""
    division = unit.division
    return [
        leader for leader in Leader.objects.filter(game=unit.game, command__side_id=division.side_id, removed=False,
                                                   hors_de_combat=False).select_related("command")
        if leader.command_id != division.pk
    ]


def _relation(unit: Brigade | Battery, leader: Leader) -> CommandRelation:
    chain = {c.pk for c in unit.division.chain()}
    if leader.command_id in chain:
        return CommandRelation.CHAIN_OF_COMMAND
    corps = next((c for c in unit.division.chain() if c.level == Command.Level.CORPS), None)
    if corps is not None and leader.command.parent_id == corps.pk:
        return CommandRelation.ADJOINING_SAME_CORPS
    return CommandRelation.SAME_SIDE_OTHER


def rally_unit(game: Game, unit: Brigade | Battery, form: RallyForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        unit = type(unit).objects.select_related("division__parent__parent").get(pk=unit.pk)
        if game.step != StepKey.RALLY or unit not in to_rally(game):
            raise ActionRefused(f"{unit.name} has no rally to make now.")
        division_leader = unit.division.leader
        others = {str(leader.pk): leader for leader in _other_leaders(unit)}
        chosen = [others[pk] for pk in data["leaders_within_4"] if pk in others]
        battery = isinstance(unit, Battery)
        inputs = RallyInput(
            grade=Grade(unit.grade), m_hits=unit.m_hits, roll=form.rolls("die")[0],
            division_leader=division_leader.value,
            division_leader_distance=float(data["division_leader_distance"]),
            division_leader_hors_de_combat=division_leader.hors_de_combat,
            bases_at_start=None if battery else unit.bases_start, bases_now=None if battery else unit.bases,
            battery_damage=unit.damage if battery else None,
            other_leaders=tuple(RallyLeader(leader.value, _relation(unit, leader)) for leader in chosen),
            scale=GroundScale(game.ground_scale),
        )
        result = resolve_rally(game.chart, inputs)
        printed = data.get("printed")
        after = Condition(printed).m_hits if printed else result.m_hits
        action.set(unit, "m_hits", after)
        dice = [{**encode(inputs.roll), "label": "rally"}]
        how = "printed chart" if printed else f"new number {result.new_number}"
        summary = (f"{unit.name} rallies: {result.condition_before.value.capitalize()} → {condition_label(after)} "
                   f"(die {inputs.roll.faces[0]} {inputs.roll.source}, {how})")
        return action.record(
            "RallyResolved", summary, subject=unit.name,
            inputs={"unit": unit.key, **encode(inputs), "leaders_within_4": [str(leader) for leader in chosen]},
            dice=dice, result=encode(result), provisional=result.provisional and not printed,
            printed_chart=bool(printed),
        )


def _rally_forms(request: HttpRequest, game: Game, bound: dict) -> dict:
    rows = []
    for unit in to_rally(game):
        prefix = f"rally-{unit.key}"
        form = bound.get(prefix) or RallyForm(prefix=prefix, initial={"version": game.version},
                                              leaders=_other_leaders(unit))
        rows.append({"unit": unit, "form": form, "prefix": prefix,
                     "action": f"/games/{game.pk}/rally/{unit._meta.model_name}/{unit.pk}/"})
    done = events_this_step(game, "RallyResolved").order_by("seq")
    return {"rally_rows": rows, "rallied": list(done)}


@require_POST
def rally_view(request: HttpRequest, game_id: int, kind: str, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    unit = answers.unit_of_game({"brigade": Brigade, "battery": Battery}.get(kind, Brigade), game, unit_id)
    prefix = f"rally-{unit.key}"
    form = RallyForm(request.POST, prefix=prefix, leaders=_other_leaders(unit))
    return answers.form_action(request, game, form, prefix,
                               lambda: rally_unit(game, unit, form, answers.actor_of(request)))


# --- replacing fallen leaders (2.5) ---------------------------------------------------------------------


def fallen_leaders(game: Game) -> list[Leader]:
    return list(Leader.objects.filter(game=game, command__side=game.attacker, hors_de_combat=True, removed=False)
                .select_related("command"))


def _replace_pending(game: Game) -> list[str]:
    return [f"replace {leader.name}, hors de combat" for leader in fallen_leaders(game)]


_RANK = {"army": LeaderRank.ARMY, "corps": LeaderRank.CORPS, "division": LeaderRank.DIVISION}


def replace_leader(game: Game, leader: Leader, version: int, actor: str) -> Event:
    with act_on(game, version, actor) as action:
        game = action.game
        leader = Leader.objects.select_related("command").get(pk=leader.pk)
        if game.step != StepKey.REPLACE_LEADERS or leader not in fallen_leaders(game):
            raise ActionRefused(f"{leader.name} has nothing to be replaced for now.")
        command = leader.command
        candidates = []
        if command.level != Command.Level.DIVISION:
            below = Leader.objects.filter(game=game, command__parent=command, removed=False, hors_de_combat=False)
            candidates = [ReplacementCandidate(c.name, _RANK[c.command.level], c.value) for c in below]
        inputs = LeaderReplacementInput(rank=_RANK[command.level], leader=leader.value, name=leader.name,
                                        candidates=tuple(candidates))
        result = resolve_leader_replacement(game.chart, inputs)
        action.set(leader, "hors_de_combat", False)
        if command.level == Command.Level.DIVISION:
            action.set(leader, "rating", result.leader.rating)
            action.set(leader, "replaced_this_turn", True)
            summary = f"{leader.name} returns to {command.name} as {result.leader}"
        else:
            successor = Leader.objects.filter(game=game, name=result.name, command__parent=command).first()
            action.set(leader, "removed", True)
            action.set(successor, "command", command.pk)
            action.set(successor, "replaced_this_turn", True)
            summary = f"{successor.name} takes over {command.name} from {leader.name}"
        return action.record("LeaderReplaced", summary, subject=leader.name, inputs=encode(inputs),
                             result=encode(result))



@require_POST
def replace_view(request: HttpRequest, game_id: int, leader_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    leader = answers.unit_of_game(Leader, game, leader_id)
    form = VersionForm(request.POST)
    return answers.form_action(request, game, form, None, lambda: replace_leader(
        game, leader, form.cleaned_data["version"], answers.actor_of(request)))


def _replace_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    return {"fallen": fallen_leaders(game)}


STEPS = {
    StepKey.MESSAGES: StepHandler(),
    StepKey.RALLY: StepHandler("games/steps/rally.html", _rally_pending, _rally_forms),
    StepKey.REPLACE_LEADERS: StepHandler("games/steps/replace_leaders.html", _replace_pending, _replace_panel),
}
urls = [
    path("games/<int:game_id>/rally/<str:kind>/<int:unit_id>/", rally_view, name="rally"),
    path("games/<int:game_id>/replace/<int:leader_id>/", replace_view, name="replace_leader"),
]
