"""A brigade in the attacker's move step (3.1-3.6, 1.4, 2.3): its maneuver roll, its movement allowance, the
assault move bonus, its formation, mounting or dismounting, and its skirmishers.

Rule readings (see also the engine's, republic/rules/maneuver.py and movement.py):
- Maneuver rolls are asked of every attacking brigade, because only the table knows which will do more than
  hold; none is required work (a brigade that does not roll holds, 3.2), so the step has nothing pending.
- "Each proficient / energetic leader within 2"" counts friendly leaders of any command, the division
  commander too when he stands within 2" (the engine counts him in both); leaders hors de combat do not.
- The allowance is worked out under the unit's division as it stands: its orders and whether it panicked (the
  engine halves a holding division's movement, 5.2, 6.1).
- Mounting and dismounting are recorded as the brigade's new kind, so that its movement, forced moves and
  assaults follow from it; each counts toward the formation changes the allowance form starts from (3.5).
"""

from collections.abc import Sequence
from typing import Any

from django import forms

from republic.games.events.maneuver import (
    ChargeBonusCleared,
    ChargeBonusUsed,
    FormationChanged,
    ManeuverRolled,
    MountChanged,
    SkirmishersDeployed,
)
from republic.games.forms import DiceForm, Pick, PicksField, VersionForm, count_field, die_field, filled, offer_picks
from republic.games.ledger import ActionRefused, act
from republic.games.models import Event, Game, Leader, Unit
from republic.games.steps.base import current
from republic.games.steps.move.state import ELSEWHERE, helpful_leaders, moving, state
from republic.games.text.terms import ACTION_ORDER, inches, signed
from republic.play import move as play
from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.maneuver import ROLLED_ACTIONS, ManeuverAction, ManeuverInput
from republic.rules.movement import MovementInput, MovementResult, resolve_movement_allowance
from republic.rules.sequence import StepKey
from republic.rules.terrain import TerrainFeature
from republic.rules.troops import DivisionOrders, Formation, UnitKind
from republic.rules.units import after_formation, after_skirmishers, skirmisher_limit

TOGETHER_CHOICES = [("", "none")] + [(a.value, a.title.capitalize()) for a in ROLLED_ACTIONS]
PRINTED_ACTIONS = [(a.value, a.title.capitalize()) for a in ACTION_ORDER]
FEATURES = [(f.value, f.title) for f in TerrainFeature if not f.obstacle]
OBSTACLES = [(f.value, f.title) for f in TerrainFeature if f.obstacle]
FORMATIONS = [(f.value, f.value.replace("_", " ").capitalize()) for f in Formation]


# --- 1. the maneuver roll (3.2) ------------------------------------------------------------------------


class ManeuverForm(DiceForm):
    acting_together = forms.ChoiceField(
        label='Other friendly brigades within 2" doing the same action', required=False, choices=TOGETHER_CHOICES
    )
    leaders_within_2 = PicksField(label='Friendly leaders within 2"', required=False, what="leader")
    die = die_field()
    printed = forms.MultipleChoiceField(
        label="Or: the actions your printed chart allows",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=PRINTED_ACTIONS,
        help_text="Tick every action the chart allows; tick Hold alone if nothing more.",
    )

    def __init__(self, *args: Any, chart: Chart, leaders: Sequence[Leader] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.leaders = list(leaders)
        offer_picks(self, ["leaders_within_2"], [Pick(str(leader.pk), str(leader)) for leader in leaders])
        together, proficient, energetic = (
            signed(chart.entry("maneuver_modifiers", key)[0])
            for key in ("acting_together", "proficient_leader_within_2", "energetic_leader_within_2")
        )
        self.fields["acting_together"].help_text = f"{together} toward that action only (3.2)."
        self.fields["leaders_within_2"].help_text = (
            f"Any chain of command, the division commander too: proficient {proficient}, energetic {energetic} "
            "each (3.2)."
        )


def roll_form(game: Game, unit: Unit, leaders: Sequence[Leader], data: Any = None) -> ManeuverForm:
    return ManeuverForm(
        data, prefix=unit.piece.prefix("roll"), initial={"version": game.version}, chart=game.chart, leaders=leaders
    )


def roll_form_for(game: Game, unit: Unit, data: Any = None) -> ManeuverForm:
    return roll_form(game, unit, helpful_leaders(game, unit.division.side_id), data)


def roll_maneuver(game: Game, unit: Unit, form: ManeuverForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        brigade = moving(s, unit)
        leader = brigade.division.leader
        # the leaders the form offered, read at the version the action is checked against: none has changed since
        chosen = [leader for leader in form.leaders if str(leader.pk) in data["leaders_within_2"]]
        together, printed = data.get("acting_together"), data.get("printed") or []
        inputs = ManeuverInput.of(
            brigade.to_rules(),
            form.rolls("die")[0],
            division_leader=leader.value if leader else None,
            division_leader_hors_de_combat=bool(leader and leader.hors_de_combat),
            division_leader_replaced=bool(leader and leader.replaced_this_turn),
            leaders_within_2=tuple(c.value for c in chosen),
            acting_together=ManeuverAction(together) if together else None,
            printed=tuple(ManeuverAction(a) for a in printed) if printed else None,
        )
        try:
            result = play.roll(action.game.chart, s.core, brigade.key, brigade.name, inputs).result
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        return action.record(
            ManeuverRolled(
                brigade.key,
                brigade.name,
                inputs,
                result,
                division_leader=leader.name if leader else "",
                division_leader_value=leader.value if leader else None,
                division_leader_hors_de_combat=bool(leader and leader.hors_de_combat),
                leaders_within_2=tuple(str(c) for c in chosen),
            )
        )


# --- 2. the movement allowance (3.1, 3.4, 3.5, 3.6): worked out, not recorded ------------------------
# It adds the charge bonus when the unit's card recorded it as used (``mark_charge_bonus``): the bonus is one fact,
# which the charge-disorder step reads too, never a box ticked for a calculation that records nothing.


class MovementForm(forms.Form):
    formation_changes = count_field(
        "Formation changes this turn",
        "Each change, mount or dismount, and any second reversal of facing (1.4, 3.1, 3.5).",
    )
    formation_changes_in_rough = count_field("Of those, made in rough ground")
    passages_of_lines = count_field(
        "Units passed through (passage of lines)",
        "A trained unit's first is free; a second bars the charge bonus (3.5).",
        top=5,
    )
    terrain_within = forms.MultipleChoiceField(
        label="Terrain it will move in",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=FEATURES,
        help_text="Rough costs apply while any base is within (3.6).",
    )
    obstacles_crossed = forms.MultipleChoiceField(
        label="Obstacles it will cross", required=False, widget=forms.CheckboxSelectMultiple, choices=OBSTACLES
    )

    def __init__(self, *args: Any, chart: Chart, battery: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rough = chart.entry("movement_box", "formation_change_in_rough")[0]
        self.fields["formation_changes_in_rough"].help_text = f"+{inches(rough)} each (3.4)."
        if battery:
            self.fields["formation_changes"].help_text = ""
            self.fields["formation_changes"].label = "Formation changes this turn (3.4)"


def movement_form(game: Game, unit: Unit, data: Any = None, changes: int = 0) -> MovementForm:
    return MovementForm(
        data,
        prefix=unit.piece.prefix("move"),
        chart=game.chart,
        battery=unit.battery,
        initial={"formation_changes": changes},
    )


def movement(game: Game, unit: Unit, form: MovementForm) -> MovementResult:
    """The allowance as the table works it out; nothing is recorded (a calculation changes no state)."""
    if not game.in_progress or game.step_key is not StepKey.MOVE:
        raise ActionRefused("Movement allowances are worked out in the attacker's move step.")
    data = form.cleaned_data
    unit = moving(state(game), unit)
    division = unit.division
    inputs = MovementInput.of(
        unit.to_rules(),
        formation_changes=data["formation_changes"],
        formation_changes_in_rough=data["formation_changes_in_rough"],
        # one fact, recorded once: the bonus the unit's card recorded as used (3.1), read here and by charge disorder
        charge_bonus=unit.charge_bonus_used,
        passages_of_lines=data["passages_of_lines"],
        obstacles_crossed=tuple(TerrainFeature(f) for f in data["obstacles_crossed"]),
        terrain_within=tuple(TerrainFeature(f) for f in data["terrain_within"]),
        scale=game.scale,
        division_orders=DivisionOrders(division.orders),
        division_panicked=division.panicked,
    )
    return resolve_movement_allowance(game.chart, inputs)


# --- 3. the charge bonus used (3.1) ------------------------------------------------------------------------


class ChargeForm(VersionForm):
    used = forms.TypedChoiceField(choices=[("1", "used"), ("0", "not used")], coerce=lambda v: v == "1")
    action = forms.ChoiceField(label="Its action this turn", choices=[("", ""), *PRINTED_ACTIONS], required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors and "version" not in self.errors:
            # its buttons send fixed values: a form without them is an incomplete form, as one without its version
            self.add_error("version", "incomplete")
        return cleaned


def mark_charge_bonus(game: Game, unit: Unit, form: ChargeForm, actor: str) -> Event:
    """The bonus marked used or not. A roll that allows a forward action also allows pulling back and holding, so
    the table says which action the brigade took with it: a brigade that pulled back may not use it (R:650-653)."""
    used: bool = form.cleaned_data["used"]
    taken = form.cleaned_data["action"]
    with act(game, form.cleaned_data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        brigade = moving(s, unit)
        try:
            after = play.charge(
                brigade.to_rules(), brigade.name, s.allowed(brigade), used, ManeuverAction(taken) if taken else None
            )
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        action.apply(brigade, after)
        return action.record((ChargeBonusUsed if used else ChargeBonusCleared)(brigade.key, brigade.name))


# --- 4. formation and skirmishers (1.4, 2.3, 3.5) ----------------------------------------------------------


class FormationForm(VersionForm):
    formation = forms.ChoiceField(
        label="New formation",
        choices=FORMATIONS,
        help_text="Each change costs movement (3.4); skirmishers are not a change.",
    )


def formation_form(game: Game, unit: Unit, data: Any = None) -> FormationForm:
    return FormationForm(
        data, prefix=unit.piece.prefix("formation"), initial={"version": game.version, "formation": unit.formation}
    )


class SkirmisherForm(VersionForm):
    deployed = forms.IntegerField(
        label="Skirmish markers deployed",
        min_value=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 0}),
        error_messages={"required": "Type how many are deployed (0 to recall all).", "min_value": "0 or more."},
    )

    def __init__(self, *args: Any, limit: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["deployed"]
        assert isinstance(field, forms.IntegerField)
        field.max_value = limit
        field.widget.attrs["max"] = limit
        field.validators.append(_at_most(limit))
        field.help_text = f'0 to {limit}; within 5" of the brigade, 2" apart (3.5).'


def _at_most(limit: int) -> Any:
    def check(value: int | None) -> None:
        if value is not None and value > limit:
            raise forms.ValidationError(f"At most {limit} for this brigade.")

    return check


def skirmisher_form(game: Game, unit: Unit, limit: int, data: Any = None) -> SkirmisherForm:
    return SkirmisherForm(
        data,
        prefix=unit.piece.prefix("skirmishers"),
        limit=limit,
        initial={"version": game.version, "deployed": unit.skirmishers_deployed},
    )


def change_formation(game: Game, unit: Unit, form: FormationForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        brigade = moving(state(action.game), unit)
        before = brigade.to_rules()
        after = after_formation(before, Formation(data["formation"]))
        action.apply(brigade, after)
        return action.record(FormationChanged(brigade.key, brigade.name, before.formation, after.formation))


def deploy_skirmishers(game: Game, unit: Unit, form: SkirmisherForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        brigade = moving(state(action.game), unit)
        before = brigade.to_rules()
        after = after_skirmishers(before, data["deployed"])
        action.apply(brigade, after)
        return action.record(
            SkirmishersDeployed(
                brigade.key,
                brigade.name,
                before.skirmishers_deployed,
                after.skirmishers_deployed,
                skirmisher_limit(before),
            )
        )


# --- 5. mounting and dismounting (3.5) -------------------------------------------------------------------------


class MountForm(VersionForm):
    mount = forms.TypedChoiceField(
        choices=[("1", "mount"), ("0", "dismount")],
        coerce=lambda v: v == "1",
        error_messages={"required": "Say whether it mounts or dismounts.", "invalid_choice": "Mount or dismount."},
    )


def mount_form(game: Game, unit: Unit, data: Any = None) -> MountForm:
    """The one tap that puts the brigade on its other footing: a mounted brigade dismounts, a dismounted one mounts."""
    mount = "0" if UnitKind(unit.kind).horse else "1"
    return MountForm(data, prefix=unit.piece.prefix("mount"), initial={"version": game.version, "mount": mount})


def mount_or_dismount(game: Game, unit: Unit, form: MountForm, actor: str) -> Event:
    """An attacking brigade mounts or dismounts as it moves; a defending one may dismount in reaction to the
    enemy's move (3.5, R:804-816)."""
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        defender = action.game.defender
        reacting = defender is not None and unit.side_id == defender.pk
        brigade = current(unit.pk) if reacting else moving(state(action.game), unit)
        before = brigade.to_rules()
        try:
            done = play.mount(action.game.chart, before, brigade.name, data["mount"], reacting)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        action.apply(brigade, done.unit)
        return action.record(MountChanged(brigade.key, brigade.name, before.kind, done.inputs, done.result))


# --- the step's actions on a brigade, each taken in one call: its form bound, checked and recorded ----------------


def take_maneuver_roll(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    with filled(roll_form_for(game, unit, data)) as sent:
        return roll_maneuver(game, unit, sent, actor)


def take_charge_bonus(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    with filled(ChargeForm(data)) as sent:
        return mark_charge_bonus(game, unit, sent, actor)


def take_formation(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    with filled(formation_form(game, unit, data)) as sent:
        return change_formation(game, unit, sent, actor)


def take_mount(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    with filled(mount_form(game, unit, data)) as sent:
        return mount_or_dismount(game, unit, sent, actor)


def take_skirmishers(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    with filled(skirmisher_form(game, unit, skirmisher_limit(unit.to_rules()), data)) as sent:
        return deploy_skirmishers(game, unit, sent, actor)
