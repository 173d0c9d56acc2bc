"""Maneuver phase (1.7, 3.1-3.6): the attacker's maneuver rolls, movement allowances, charge bonus, formation
changes and skirmishers, and the batteries' functions, all in the step "Attacker moves units".

Rule readings (see also the engine's own, republic/rules/maneuver.py and movement.py):
- Maneuver rolls are asked of every attacking brigade, because only the table knows which will do more than
  hold; none is required work (a brigade that does not roll holds, 3.2), so the step has nothing pending.
- A division leader who is hors de combat is "out of action and unable to contribute to unit assault or
  morale results" (2.5, 4.7): his class adds nothing to the roll, neither the Energetic +1 nor the
  Cautious -1. (The replace-leaders step comes first, so this happens only after a correction.)
- "Each proficient / energetic leader within 2"" counts friendly leaders of any command, the division
  commander too when he stands within 2" (the engine counts him in both); leaders hors de combat do not.
- The assault move bonus is used while moving forward: a brigade that has not rolled holds, and pulling
  back may not use it (3.2), so it is refused unless the roll allowed advance, maneuver or assault.
- Open order: trained brigades only (1.4), and one skirmish marker per combat base while in it, so the
  skirmisher limit is then the larger of the troop list's allowance and the bases.
- Batteries: the functions recorded here are the movement ones (move, unlimber, prolong, limber); fire is
  recorded by the fire phase. "It will fire this turn" checks the plan with fire kept last (3.5).
"""

from collections import Counter

from django import forms
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from republic.games import answers
from republic.games.dice import DiceForm, die_field
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, StaleGame, act_on
from republic.games.models import Battery, Brigade, Event, Game, Leader
from republic.games.phases.command import events_this_step
from republic.games.phases.handler import StepHandler
from republic.games.text import cell_line, condition_label, inches, modifier_line
from republic.rules.codec import encode
from republic.rules.errors import RulesInputError
from republic.rules.maneuver import ROLLED_ACTIONS, ManeuverAction, ManeuverInput, resolve_maneuver
from republic.rules.movement import (
    BatteryFunction,
    BatteryFunctionsInput,
    MovementInput,
    TerrainFeature,
    resolve_battery_functions,
    resolve_movement_allowance,
)
from republic.rules.scale import GroundScale
from republic.rules.sequence import StepKey
from republic.rules.troops import Formation, Grade, LeaderClass, UnitKind

ROLLED = "ManeuverRolled"
FORMATION_CHANGED = "FormationChanged"

# The rules list the actions from the most to the least ambitious, hold before pull back (3.2).
ACTION_ORDER = (ManeuverAction.ASSAULT, ManeuverAction.MANEUVER, ManeuverAction.ADVANCE, ManeuverAction.HOLD,
                ManeuverAction.PULL_BACK)
FORWARD = {ManeuverAction.ASSAULT, ManeuverAction.MANEUVER, ManeuverAction.ADVANCE}
MOVEMENT_FUNCTIONS = (BatteryFunction.MOVE, BatteryFunction.UNLIMBER, BatteryFunction.PROLONG, BatteryFunction.LIMBER)


# --- whose turn ----------------------------------------------------------------------------------------


def attacking_brigades(game: Game) -> list[Brigade]:
    return list(Brigade.objects.filter(game=game, division__side=game.attacker, destroyed=False, surrendered=False)
                .select_related("division").prefetch_related("division__leaders").order_by("order"))


def attacking_batteries(game: Game) -> list[Battery]:
    return list(Battery.objects.filter(game=game, division__side=game.attacker, abandoned=False)
                .select_related("division").order_by("order"))


def _own(game: Game, unit: Brigade | Battery) -> Brigade | Battery:
    """The unit as it stands now, refused unless this is the attacker's move step and the unit attacks."""
    unit = type(unit).objects.select_related("division").get(pk=unit.pk)
    if game.step != StepKey.MOVE:
        raise ActionRefused("Units move in the attacker's move step; the game is not there now.")
    if unit.division.side_id != game.attacker.pk or unit.out_of_play:
        raise ActionRefused(f"{unit.name} is not an attacking unit in play: it does not move this turn.")
    return unit


def rolls_this_step(game: Game) -> dict[str, Event]:
    return {e.inputs["unit"]: e for e in events_this_step(game, ROLLED).order_by("seq")}


# --- words -----------------------------------------------------------------------------------------------


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def actions_sentence(allowed) -> str:
    """'may advance, hold or pull back; may not maneuver or assault', the rules' own way of saying it."""
    allowed = {ManeuverAction(a) for a in allowed} | {ManeuverAction.HOLD}
    may = [a.title for a in ACTION_ORDER if a in allowed]
    may_not = [a.title for a in reversed(ACTION_ORDER) if a not in allowed]
    text = "may only hold" if may == ["hold"] else f"may {_join(may)}"
    return f"{text}; may not {_join(may_not)}" if may_not else text


def allowed_actions(event: Event) -> list[str]:
    return event.inputs.get("allowed_actions", [])


# --- rule checks on the state (morale restrictions 2.3, open order 1.4, skirmishers 3.5) ----------------


def _restricted(unit: Brigade | Battery, words: str) -> str:
    condition = unit.condition
    if f"may not {words}" in condition.restrictions:
        return f"{condition_label(unit.m_hits)}: may not {words} (2.3)"
    return ""


def formation_change_refusal(unit: Brigade | Battery) -> str:
    return _restricted(unit, "change formation")


def skirmisher_limit(brigade: Brigade) -> int:
    if brigade.formation == Formation.OPEN_ORDER:
        return max(brigade.skirmishers_available, brigade.bases)
    return brigade.skirmishers_available


def skirmisher_refusal(brigade: Brigade, wanted: int | None = None) -> str:
    """Why the brigade may not deploy (more) skirmishers; with ``wanted``, whether that number is allowed."""
    if not Grade(brigade.grade).trained:
        return "Untrained: no skirmishers (3.5: trained brigades, Green or better, deploy them)"
    if wanted is not None and wanted <= brigade.skirmishers_deployed:
        return ""  # recalling is always allowed
    refused = _restricted(brigade, "deploy skirmishers")
    if refused:
        return f"{refused}; it may recall them"
    limit = skirmisher_limit(brigade)
    if wanted is not None and wanted > limit:
        return f"at most {limit} skirmish marker(s) for this brigade" + (
            " (one per combat base in open order, 1.4)" if brigade.formation == Formation.OPEN_ORDER else "")
    if wanted is None and limit == 0:
        return "No skirmish markers in this brigade's troop list (open order deploys one per base, 1.4)"
    return ""


def formation_refusal(brigade: Brigade, formation: Formation) -> str:
    if formation == brigade.formation:
        return f"{brigade.name} is already in {formation.value.replace('_', ' ')}."
    refused = formation_change_refusal(brigade)
    if refused:
        return refused
    if formation is Formation.OPEN_ORDER and not Grade(brigade.grade).trained:
        return "Untrained: may not use open order (1.4: open order must be trained, Green grade or better)"
    if brigade.formation == Formation.OPEN_ORDER and brigade.skirmishers_deployed > brigade.skirmishers_available:
        return (f"recall skirmishers to {brigade.skirmishers_available} first: only open order deploys one per "
                "base (1.4)")
    return ""


def charge_refusal(brigade: Brigade, event: Event | None) -> str:
    """The assault move bonus is used moving forward (3.1, 3.2); ``event`` is the brigade's roll this turn."""
    if event is None:
        return "No maneuver roll this turn: a brigade that has not rolled holds (3.2)."
    if not FORWARD & {ManeuverAction(a) for a in allowed_actions(event)}:
        return "Its roll allows only hold or pull back: no assault move bonus (3.2)."
    return ""


# --- 1. the maneuver roll (3.2) ------------------------------------------------------------------------


TOGETHER_CHOICES = [("", "none")] + [(a.value, a.title.capitalize()) for a in ROLLED_ACTIONS]
PRINTED_ACTIONS = [(a.value, a.title.capitalize()) for a in ACTION_ORDER]


class ManeuverForm(DiceForm):
    acting_together = forms.ChoiceField(
        label='Other friendly brigades within 2" doing the same action', required=False, choices=TOGETHER_CHOICES,
        help_text="+1 toward that action only (3.2).")
    leaders_within_2 = forms.MultipleChoiceField(
        label='Friendly leaders within 2"', required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Any chain of command, the division commander too: proficient +1, energetic +2 each (3.2).")
    die = die_field()
    printed = forms.MultipleChoiceField(
        label="Or: the actions your printed chart allows", required=False, widget=forms.CheckboxSelectMultiple,
        choices=PRINTED_ACTIONS, help_text="Tick every action the chart allows; tick Hold alone if nothing more.")

    def __init__(self, *args, leaders=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["leaders_within_2"].choices = [(str(leader.pk), str(leader)) for leader in leaders]


def helpful_leaders(game: Game, side_id: int) -> list[Leader]:
    """Friendly leaders in action whose class adds to a maneuver roll when within 2" (cautious ones add nothing)."""
    return list(Leader.objects.filter(game=game, command__side_id=side_id, removed=False, hors_de_combat=False,
                                      leader_class__in=[LeaderClass.ENERGETIC, LeaderClass.PROFICIENT])
                .select_related("command").order_by("command__order", "pk"))


def division_commander(brigade: Brigade) -> dict:
    """What the state says of the brigade's division commander for the roll."""
    leader = brigade.division.leader
    if leader is None:
        return {"leader": None, "class": None, "replaced": False, "text": "no division leader"}
    if leader.hors_de_combat:
        return {"leader": leader, "class": None, "replaced": leader.replaced_this_turn,
                "text": f"{leader.name} {leader.value}, hors de combat: his class adds nothing (2.5)"}
    text = f"{leader.name} {leader.value}" + (", replaced at the start of the turn (-3)"
                                             if leader.replaced_this_turn else "")
    return {"leader": leader, "class": LeaderClass(leader.leader_class), "replaced": leader.replaced_this_turn,
            "text": text}


def roll_maneuver(game: Game, brigade: Brigade, form: ManeuverForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        brigade = _own(game, brigade)
        if brigade.key in rolls_this_step(game):
            raise ActionRefused(f"{brigade.name} has already rolled its maneuver this turn; undo it to roll again.")
        commander = division_commander(brigade)
        leaders = {str(leader.pk): leader for leader in helpful_leaders(game, brigade.side_id)}
        chosen = [leaders[pk] for pk in data["leaders_within_2"] if pk in leaders]
        classes = Counter(leader.leader_class for leader in chosen)
        together = data.get("acting_together")
        inputs = ManeuverInput(
            grade=Grade(brigade.grade), roll=form.rolls("die")[0], m_hits=brigade.m_hits,
            division_commander=commander["class"],
            proficient_leaders_within_2=classes[LeaderClass.PROFICIENT],
            energetic_leaders_within_2=classes[LeaderClass.ENERGETIC],
            acting_together=ManeuverAction(together) if together else None,
            division_leader_replaced=commander["replaced"],
        )
        result = resolve_maneuver(game.chart, inputs)
        printed = data.get("printed") or []
        if printed:
            # the printed chart replaces the table's numbers, not the morale restrictions (2.3): an action the
            # roll reached but the unit's condition forbids stays forbidden
            forbidden = {c.action for c in result.refused if c.roll is not None and c.roll >= c.needed}
            allowed = {ManeuverAction(a) for a in printed} - forbidden | {ManeuverAction.HOLD}
        else:
            allowed = set(result.actions)
        allowed_list = [a.value for a in ACTION_ORDER if a in allowed]
        how = "printed chart" if printed else f"modified {result.modified_roll}"
        summary = (f"{brigade.name} maneuver: {actions_sentence(allowed_list)} "
                   f"(die {inputs.roll.faces[0]} {inputs.roll.source}, {how})")
        return action.record(
            ROLLED, summary, subject=brigade.name,
            inputs={"unit": brigade.key, **encode(inputs), "leaders_within_2": [str(leader) for leader in chosen],
                    "division_leader": commander["text"], "printed_actions": list(printed),
                    "allowed_actions": allowed_list},
            dice=[{**encode(inputs.roll), "label": "maneuver"}], result=encode(result),
            provisional=result.provisional and not printed, printed_chart=bool(printed),
        )


@require_POST
def roll_view(request: HttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    brigade = answers.unit_of_game(Brigade, game, unit_id)
    prefix = f"roll-{brigade.key}"
    form = ManeuverForm(request.POST, prefix=prefix, leaders=helpful_leaders(game, brigade.side_id))
    return answers.form_action(request, game, form, prefix,
                               lambda: roll_maneuver(game, brigade, form, answers.actor_of(request)))


# --- 2. the movement allowance (3.1, 3.4, 3.5, 3.6) ---------------------------------------------------


FEATURES = [(f.value, f.title) for f in TerrainFeature if not f.obstacle]
OBSTACLES = [(f.value, f.title) for f in TerrainFeature if f.obstacle]


def _count(label: str, help_text: str = "", top: int = 9) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=top, initial=0, help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 0, "max": top}),
        error_messages={"min_value": f"0 to {top}.", "max_value": f"0 to {top}.",
                        "required": "Type a number (0 if none)."})


class MovementForm(forms.Form):
    formation_changes = _count("Formation changes this turn",
                               "Each change, mount or dismount, and any second reversal of facing (1.4, 3.1, 3.5).")
    formation_changes_in_rough = _count("Of those, made in rough ground", "+2\" each (3.4).")
    charge_bonus = forms.BooleanField(label="Will use the assault (charge) move bonus", required=False)
    passages_of_lines = _count("Units passed through (passage of lines)",
                               "A trained unit's first is free; a second bars the charge bonus (3.5).", top=5)
    terrain_within = forms.MultipleChoiceField(
        label="Terrain it will move in", required=False, widget=forms.CheckboxSelectMultiple, choices=FEATURES,
        help_text="Rough costs apply while any base is within (3.6).")
    obstacles_crossed = forms.MultipleChoiceField(
        label="Obstacles it will cross", required=False, widget=forms.CheckboxSelectMultiple, choices=OBSTACLES)

    def __init__(self, *args, battery: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if battery:
            del self.fields["charge_bonus"]
            self.fields["formation_changes"].help_text = ""
            self.fields["formation_changes"].label = "Formation changes this turn (3.4)"


def movement_input(game: Game, unit: Brigade | Battery, data: dict) -> MovementInput:
    """The engine's input: the unit's kind, grade, damage and horse from the state, the rest from the table."""
    battery = isinstance(unit, Battery)
    return MovementInput(
        kind=UnitKind.ARTILLERY if battery else UnitKind(unit.kind),
        grade=Grade(unit.grade),
        horse_artillery=battery and unit.horse,
        formation_changes=data["formation_changes"],
        formation_changes_in_rough=data["formation_changes_in_rough"],
        charge_bonus=bool(data.get("charge_bonus")),
        battery_damage=unit.damage if battery else 0,
        passages_of_lines=data["passages_of_lines"],
        obstacles_crossed=tuple(TerrainFeature(f) for f in data["obstacles_crossed"]),
        terrain_within=tuple(TerrainFeature(f) for f in data["terrain_within"]),
        scale=GroundScale(game.ground_scale),
    )



def compute_movement(game: Game, unit: Brigade | Battery, data: dict) -> dict:
    """The allowance as the card shows it; nothing is recorded (a calculation changes no state)."""
    if game.step != StepKey.MOVE:
        raise ActionRefused("Movement allowances are worked out in the attacker's move step.")
    if data["formation_changes"]:
        refused = formation_change_refusal(unit)
        if refused:
            raise RulesInputError("formation_changes", refused)
    result = resolve_movement_allowance(game.chart, movement_input(game, unit, data))
    scale = game.get_ground_scale_display()
    ground = [f"{g.ground.value.replace('_', ' ').capitalize()}: each inch costs {g.cost}\" of allowance; "
              f"{inches(g.reach)} on that ground alone" for g in result.ground]
    encoded = encode(result)
    return {
        "allowance": inches(result.allowance),
        "normal": inches(result.normal),
        "scale": scale,
        "charge_bonus": inches(result.charge_bonus) if result.charge_bonus else "",
        "with_charge": inches(result.with_charge),
        "charge_refused": result.charge_bonus_refused,
        "ground": ground,
        "modifiers": [modifier_line(m) for m in encoded["modifiers"]],
        "cells": [{"line": cell_line(c), "provisional": c["provenance"] == "provisional"} for c in encoded["cells"]],
        "notes": list(result.notes),
        "provisional": result.provisional,
    }


@require_POST
def movement_view(request: HttpRequest, game_id: int, kind: str, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    unit = answers.unit_of_game(_MODELS.get(kind, Brigade), game, unit_id)
    prefix = f"move-{unit.key}"
    form = MovementForm(request.POST, prefix=prefix, battery=isinstance(unit, Battery))
    shown = {prefix: form}
    if form.is_valid():
        try:
            _own_now(game, unit)
            shown[f"{prefix}-result"] = compute_movement(game, unit, form.cleaned_data)
        except ActionRefused as exc:
            return answers.stale(request, game, str(exc))
        except RulesInputError as exc:
            form.add_error(answers.error_field(form, exc.field), exc.problem)
    return answers.invalid(request, game, shown)


def _own_now(game: Game, unit: Brigade | Battery) -> None:
    game.refresh_from_db()
    _own(game, unit)


# --- 3. the charge bonus used (3.1) ------------------------------------------------------------------------



class ChargeForm(VersionForm):
    used = forms.TypedChoiceField(choices=[("1", "used"), ("0", "not used")], coerce=lambda v: v == "1")


def mark_charge_bonus(game: Game, brigade: Brigade, used: bool, version: int, actor: str) -> Event:
    with act_on(game, version, actor) as action:
        game = action.game
        brigade = _own(game, brigade)
        if used:
            refused = charge_refusal(brigade, rolls_this_step(game).get(brigade.key))
            if refused:
                raise ActionRefused(f"{brigade.name}: {refused}")
        if brigade.charge_bonus_used == used:
            raise ActionRefused(f"{brigade.name} is already marked as {'having' if used else 'not having'} used "
                                "its charge bonus.")
        action.set(brigade, "charge_bonus_used", used)
        if used:
            summary = f"{brigade.name} used its assault move bonus: 1M at the end of the turn (3.1, 5.6)"
            return action.record("ChargeBonusUsed", summary, subject=brigade.name, inputs={"unit": brigade.key})
        summary = f"{brigade.name} did not use its assault move bonus after all"
        return action.record("ChargeBonusCleared", summary, subject=brigade.name, inputs={"unit": brigade.key})


@require_POST
def charge_view(request: HttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    brigade = answers.unit_of_game(Brigade, game, unit_id)
    form = ChargeForm(request.POST)
    if not form.is_valid():
        return answers.stale(request, game, "The form was incomplete: nothing was changed.")
    try:
        event = mark_charge_bonus(game, brigade, form.cleaned_data["used"], form.cleaned_data["version"],
                                  answers.actor_of(request))
    except StaleGame as exc:
        return answers.stale(request, exc.game, str(exc))
    except ActionRefused as exc:
        return answers.stale(request, game, str(exc))
    return answers.done(request, game, event)


# --- 4. formation and skirmishers (1.4, 2.3, 3.5) ----------------------------------------------------------


FORMATIONS = [(f.value, f.value.replace("_", " ").capitalize()) for f in Formation]


class FormationForm(VersionForm):
    formation = forms.ChoiceField(label="New formation", choices=FORMATIONS,
                                  help_text="Each change costs movement (3.4); skirmishers are not a change.")


class SkirmisherForm(VersionForm):
    deployed = forms.IntegerField(
        label="Skirmish markers deployed", min_value=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 0}),
        error_messages={"required": "Type how many are deployed (0 to recall all).",
                        "min_value": "0 or more."})

    def __init__(self, *args, limit: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["deployed"].max_value = limit
        self.fields["deployed"].widget.attrs["max"] = limit
        self.fields["deployed"].validators.append(_at_most(limit))
        self.fields["deployed"].help_text = f"0 to {limit}; within 5\" of the brigade, 2\" apart (3.5)."


def _at_most(limit: int):
    def check(value):
        if value is not None and value > limit:
            raise forms.ValidationError(f"At most {limit} for this brigade.")
    return check


def change_formation(game: Game, brigade: Brigade, formation: Formation, version: int, actor: str) -> Event:
    with act_on(game, version, actor) as action:
        game = action.game
        brigade = _own(game, brigade)
        refused = formation_refusal(brigade, formation)
        if refused:
            raise RulesInputError("formation", refused)
        before = brigade.formation
        action.set(brigade, "formation", formation.value)
        summary = (f"{brigade.name} changes formation: {before.replace('_', ' ')} → "
                   f"{formation.value.replace('_', ' ')}")
        return action.record(FORMATION_CHANGED, summary, subject=brigade.name,
                             inputs={"unit": brigade.key, "from": before, "to": formation.value})


def deploy_skirmishers(game: Game, brigade: Brigade, deployed: int, version: int, actor: str) -> Event:
    with act_on(game, version, actor) as action:
        game = action.game
        brigade = _own(game, brigade)
        refused = skirmisher_refusal(brigade, deployed)
        if refused:
            raise RulesInputError("deployed", refused)
        before = brigade.skirmishers_deployed
        if deployed == before:
            raise RulesInputError("deployed", f"{before} already deployed.")
        action.set(brigade, "skirmishers_deployed", deployed)
        verb = "deploys" if deployed > before else "recalls"
        summary = f"{brigade.name} {verb} skirmishers: {before} → {deployed} of {skirmisher_limit(brigade)}"
        return action.record("SkirmishersDeployed", summary, subject=brigade.name,
                             inputs={"unit": brigade.key, "from": before, "to": deployed})


@require_POST
def formation_view(request: HttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    brigade = answers.unit_of_game(Brigade, game, unit_id)
    prefix = f"formation-{brigade.key}"
    form = FormationForm(request.POST, prefix=prefix)
    return answers.form_action(request, game, form, prefix, lambda: change_formation(
        game, brigade, Formation(form.cleaned_data["formation"]), form.cleaned_data["version"],
        answers.actor_of(request)))


@require_POST
def skirmishers_view(request: HttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    brigade = answers.unit_of_game(Brigade, game, unit_id)
    prefix = f"skirmishers-{brigade.key}"
    form = SkirmisherForm(request.POST, prefix=prefix, limit=skirmisher_limit(brigade))
    return answers.form_action(request, game, form, prefix, lambda: deploy_skirmishers(
        game, brigade, form.cleaned_data["deployed"], form.cleaned_data["version"], answers.actor_of(request)))


# --- 5. battery functions (3.5) ----------------------------------------------------------------------------


FUNCTION_CHOICES = [("", "none")] + [(f.value, f.value.capitalize()) for f in MOVEMENT_FUNCTIONS]
ORDINALS = ("first", "second", "third", "fourth")


class BatteryFunctionsForm(VersionForm):
    will_fire = forms.BooleanField(label="It will fire in the fire phase this turn (keeps a function for it)",
                                   required=False)
    toward_enemy = forms.BooleanField(label="Its move or prolong heads toward an enemy", required=False)

    def __init__(self, *args, slots: int = 2, **kwargs):
        super().__init__(*args, **kwargs)
        self.slots = [f"function_{i + 1}" for i in range(slots)]
        for i, name in enumerate(self.slots):
            self.fields[name] = forms.ChoiceField(label=f"{ORDINALS[i].capitalize()} function", required=False,
                                                  choices=FUNCTION_CHOICES)
        self.order_fields([*self.slots, "will_fire", "toward_enemy", "version"])

    def clean(self):
        cleaned = super().clean()
        cleaned["functions"] = [BatteryFunction(cleaned[n]) for n in self.slots if cleaned.get(n)]
        if not cleaned["functions"] and not self.errors:
            self.add_error(self.slots[0] if self.slots else None, "Choose the function(s) the battery used.")
        return cleaned


def functions_available(game: Game, battery: Battery) -> int:
    available, _ = game.chart.entry("artillery_functions", "horse" if battery.horse else "foot")
    return available


def _limbered_at_start(battery: Battery) -> bool:
    """Undo the functions already used this turn to find whether the battery began it limbered."""
    limbered = battery.limbered
    for function in reversed(battery.functions_used):
        if function == BatteryFunction.UNLIMBER:
            limbered = True
        elif function == BatteryFunction.LIMBER:
            limbered = False
    return limbered


def use_battery_functions(game: Game, battery: Battery, data: dict, actor: str) -> Event:
    with act_on(game, data["version"], actor) as action:
        game = action.game
        battery = _own(game, battery)
        used = [BatteryFunction(f) for f in battery.functions_used]
        new = list(data["functions"])
        plan = used + new + ([BatteryFunction.FIRE] if data.get("will_fire") else [])
        inputs = BatteryFunctionsInput(
            functions=tuple(plan), horse_artillery=battery.horse, limbered=_limbered_at_start(battery),
            m_hits=battery.m_hits, toward_enemy=bool(data.get("toward_enemy")), scale=GroundScale(game.ground_scale))
        result = resolve_battery_functions(game.chart, inputs)
        if not result.allowed:
            raise RulesInputError(_offending_field(game, inputs, len(used), len(new)), result.problem)
        action.set(battery, "functions_used", [f.value for f in used + new])
        action.set(battery, "limbered", result.limbered_after)
        lost_fire = battery.saved_fire and bool({BatteryFunction.MOVE, BatteryFunction.PROLONG} & set(new))
        if lost_fire:
            action.set(battery, "saved_fire", False)
        words = ", ".join(f.value for f in new)
        summary = (f"{battery.name}: {words} ({len(used) + len(new)} of {result.functions_available} functions"
                   f"{', one kept to fire' if data.get('will_fire') else ''}); now "
                   f"{'limbered' if result.limbered_after else 'unlimbered'}"
                   f"{'; saved fire lost' if lost_fire else ''}")
        return action.record("BatteryFunctionsUsed", summary, subject=battery.name,
                             inputs={"unit": battery.key, **encode(inputs), "recorded": [f.value for f in new]},
                             result=encode(result), provisional=result.provisional)


@require_POST
def battery_view(request: HttpRequest, game_id: int, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    battery = answers.unit_of_game(Battery, game, unit_id)
    prefix = f"functions-{battery.key}"
    form = BatteryFunctionsForm(request.POST, prefix=prefix, slots=_slots(game, battery))
    return answers.form_action(request, game, form, prefix, lambda: use_battery_functions(
        game, battery, form.cleaned_data, answers.actor_of(request)))


def _offending_field(game: Game, inputs: BatteryFunctionsInput, used: int, new: int) -> str:
    """The form field of the first function the engine refuses: the shortest refused plan ends with it."""
    for end in range(used + 1, len(inputs.functions) + 1):
        shorter = BatteryFunctionsInput(**{**inputs.__dict__, "functions": inputs.functions[:end]})
        if not resolve_battery_functions(game.chart, shorter).allowed:
            return f"function_{end - used}" if end - used <= new else "will_fire"
    return ""


def _slots(game: Game, battery: Battery) -> int:
    return max(0, functions_available(game, battery) - len(battery.functions_used))


# --- answering and the panel -----------------------------------------------------------------------------


_MODELS = {"brigade": Brigade, "battery": Battery}






def _brigade_card(game: Game, brigade: Brigade, rolled: dict, changes: Counter, bound: dict) -> dict:
    key = brigade.key
    event = rolled.get(key)
    roll = f"roll-{key}"
    move = f"move-{key}"
    formation = f"formation-{key}"
    skirmishers = f"skirmishers-{key}"
    base = f"/games/{game.pk}/maneuver"
    card = {
        "unit": brigade, "key": key, "battery": False, "condition": condition_label(brigade.m_hits),
        "commander": division_commander(brigade)["text"],
        "rolled": event, "sentence": actions_sentence(allowed_actions(event)) if event else "",
        "roll_url": f"{base}/roll/{brigade.pk}/",
        "move_url": f"{base}/movement/brigade/{brigade.pk}/",
        "charge_url": f"{base}/charge/{brigade.pk}/",
        "formation_url": f"{base}/formation/{brigade.pk}/",
        "skirmishers_url": f"{base}/skirmishers/{brigade.pk}/",
        "charge_refused": "" if brigade.charge_bonus_used else charge_refusal(brigade, event),
        "formation_refused": formation_change_refusal(brigade),
        "skirmishers_refused": skirmisher_refusal(brigade),
        "skirmisher_limit": skirmisher_limit(brigade),
        "formation_changes": changes.get(key, 0),
    }
    if event is None:
        card["roll_form"] = bound.get(roll) or ManeuverForm(prefix=roll, initial={"version": game.version},
                                                            leaders=helpful_leaders(game, brigade.side_id))
    card["move_form"] = bound.get(move) or MovementForm(prefix=move, initial={"formation_changes": card[
        "formation_changes"]})
    card["move_result"] = bound.get(f"{move}-result")
    card["move_open"] = move in bound
    card["formation_form"] = bound.get(formation) or FormationForm(prefix=formation, initial={
        "version": game.version, "formation": brigade.formation})
    # recalling stays possible when deploying is refused (Rattled or worse)
    limit = card["skirmisher_limit"] if not _restricted(brigade, "deploy skirmishers") else brigade.skirmishers_deployed
    card["skirmisher_form"] = bound.get(skirmishers) or SkirmisherForm(
        prefix=skirmishers, limit=limit, initial={"version": game.version, "deployed": brigade.skirmishers_deployed})
    card["show_skirmishers"] = Grade(brigade.grade).trained and (limit or brigade.skirmishers_deployed)
    card["formation_open"] = formation in bound or skirmishers in bound
    return card


def _battery_card(game: Game, battery: Battery, bound: dict) -> dict:
    key = battery.key
    move = f"move-{key}"
    functions = f"functions-{key}"
    base = f"/games/{game.pk}/maneuver"
    slots = _slots(game, battery)
    return {
        "unit": battery, "key": key, "battery": True, "condition": condition_label(battery.m_hits),
        "available": functions_available(game, battery), "slots": slots,
        "move_url": f"{base}/movement/battery/{battery.pk}/",
        "functions_url": f"{base}/battery/{battery.pk}/",
        "move_form": bound.get(move) or MovementForm(prefix=move, battery=True),
        "move_result": bound.get(f"{move}-result"),
        "move_open": move in bound,
        "functions_form": bound.get(functions) or BatteryFunctionsForm(prefix=functions, slots=slots,
                                                                       initial={"version": game.version}),
        "functions_open": functions in bound,
    }


def _panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    rolled = rolls_this_step(game)
    changes = Counter(e.inputs["unit"] for e in events_this_step(game, FORMATION_CHANGED))
    cards = [_brigade_card(game, b, rolled, changes, bound) for b in attacking_brigades(game)]
    cards += [_battery_card(game, b, bound) for b in attacking_batteries(game)]
    return {"move_cards": cards, "scale": game.get_ground_scale_display()}


STEPS = {
    StepKey.MOVE: StepHandler("games/steps/move.html", panel=_panel),
}
urls = [
    path("games/<int:game_id>/maneuver/roll/<int:unit_id>/", roll_view, name="maneuver_roll"),
    path("games/<int:game_id>/maneuver/movement/<str:kind>/<int:unit_id>/", movement_view,
         name="maneuver_movement"),
    path("games/<int:game_id>/maneuver/charge/<int:unit_id>/", charge_view, name="maneuver_charge"),
    path("games/<int:game_id>/maneuver/formation/<int:unit_id>/", formation_view, name="maneuver_formation"),
    path("games/<int:game_id>/maneuver/skirmishers/<int:unit_id>/", skirmishers_view, name="maneuver_skirmishers"),
    path("games/<int:game_id>/maneuver/battery/<int:unit_id>/", battery_view, name="maneuver_battery"),
]
