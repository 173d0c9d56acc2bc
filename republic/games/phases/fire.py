"""Artillery and skirmish fire phase (1.7, 4.1-4.7): skirmish blocks and attacks, artillery fire and saved fire,
the hits put on together at the end of the artillery step, and the demoralized panic test.

The leaders' hors de combat checks that sit between the artillery step and the panic test are in
hors_de_combat.py (they come back after the assaults, 5.6).
"""

from collections import defaultdict
from dataclasses import dataclass

from django import forms
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from republic.games import answers
from republic.games.dice import DiceForm, die_field
from republic.games.forms import VersionForm
from republic.games.ledger import Action, ActionRefused, act_on, this_turn
from republic.games.models import Battery, Brigade, Event, Game
from republic.games.phases.handler import StepHandler
from republic.games.text import condition_label, hits_text
from republic.rules.artillery import (
    ArtilleryFireInput,
    ArtilleryHitsInput,
    FireTarget,
    SavedFireInput,
    TargetKind,
    resolve_artillery_fire,
    resolve_artillery_hits,
    resolve_saved_fire,
)
from republic.rules.codec import encode
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, resolve_forced_move
from republic.rules.hits import Hits
from republic.rules.morale import MAX_M_HITS, MoraleCause, apply_morale_hits
from republic.rules.panic import (
    MAX_PANIC_LEVEL,
    DemoralizedPanicInput,
    PanicCell,
    panic_level_read,
    resolve_demoralized_panic,
)
from republic.rules.scale import GroundScale
from republic.rules.sequence import StepKey
from republic.rules.skirmish import (
    BlockAttempt,
    SkirmishAttackInput,
    SkirmishBlocksInput,
    lowered_type,
    resolve_skirmish_attack,
    resolve_skirmish_blocks,
)
from republic.rules.troops import BatteryType, Cover, Formation, Grade, UnitKind

MODELS = {"brigade": Brigade, "battery": Battery}
FIRE_STEPS = (StepKey.SKIRMISH.value, StepKey.ARTILLERY_FIRE.value)
HIT_EVENTS = ("SkirmishAttacked", "ArtilleryFired")


# --- the state this phase reads -----------------------------------------------------------------------------


def events_in(game: Game, kinds: tuple[str, ...], steps: tuple[str, ...]):
    """This player turn's events of these kinds in these steps that still stand (not undone, not undos)."""
    return this_turn(game, steps, kinds)


def this_step(game: Game, *kinds: str):
    return events_in(game, kinds, (game.step,))


def unit_for_key(game: Game, key: str) -> Brigade | Battery:
    model, _, pk = key.partition(":")
    return MODELS[model].objects.select_related("division").get(pk=int(pk), game=game)


def in_play(unit: Brigade | Battery) -> bool:
    return not unit.out_of_play


def side_units(game: Game, side_id: int | None) -> list[Brigade | Battery]:
    side = game.sides.filter(pk=side_id).first()
    return side.units_in_play() if side else []


def enemy_units(game: Game, side_id: int) -> list[Brigade | Battery]:
    other = game.sides.exclude(pk=side_id).first()
    return side_units(game, other.pk if other else None)


def unit_label(unit: Brigade | Battery) -> str:
    if isinstance(unit, Battery):
        extra = f"{unit.get_battery_type_display()} battery" + (", packed" if unit.packed else "")
    else:
        extra = f"{unit.bases} bases" + (", open order" if unit.formation == Formation.OPEN_ORDER else "")
    return f"{unit.name} ({condition_label(unit.m_hits)}, {extra})"


def unit_choices(units) -> list[tuple[str, str]]:
    return [(u.key, unit_label(u)) for u in units]


def pending_hits(game: Game) -> dict[str, dict[str, int]]:
    """The skirmish and artillery hits of this fire phase still waiting for the end of the artillery step."""
    totals: dict[str, dict[str, int]] = defaultdict(lambda: {"m": 0, "b": 0, "marker_b": 0})
    for event in events_in(game, HIT_EVENTS, FIRE_STEPS):
        for hit in event.inputs.get("hits", []):
            for part in ("m", "b", "marker_b"):
                totals[hit["unit"]][part] += hit.get(part, 0)
    return dict(totals)


def pending_hit_rows(game: Game) -> list[dict]:
    rows = []
    for key, hits in pending_hits(game).items():
        unit = unit_for_key(game, key)
        words = hits_text(m=hits["m"], b=hits["b"])
        if hits["marker_b"]:
            words += f" (and {hits['marker_b']}B on its packed skirmishers)"
        rows.append({"unit": unit, "hits": words})
    return rows


def skirmish_grade(brigade: Brigade) -> Grade:
    return Grade(brigade.skirmisher_grade or brigade.grade)


# --- skirmish fire (4.1) ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Marker:
    """One skirmish marker of a brigade: markers of a brigade are alike, so they are counted, not named."""

    brigade: Brigade
    number: int

    @property
    def id(self) -> str:
        return f"{self.brigade.key}#{self.number}"

    @property
    def field(self) -> str:
        return f"block_{self.brigade.pk}_{self.number}"

    @property
    def label(self) -> str:
        return f"{self.brigade.name}, marker {self.number}"


def _fled(game: Game, brigade: Brigade) -> int:
    return sum(1 for e in this_step(game, "SkirmishAttacked")
               if e.inputs.get("unit") == brigade.key and e.inputs.get("fled"))


def _markers(game: Game, side_id: int | None) -> list[Marker]:
    """The side's skirmish markers as they stood when the step began (markers that fled since count)."""
    found = []
    brigades = Brigade.objects.filter(game=game, division__side_id=side_id, destroyed=False, surrendered=False)
    for brigade in brigades.select_related("division"):
        count = brigade.skirmishers_deployed + _fled(game, brigade)
        found.extend(Marker(brigade, n) for n in range(1, count + 1))
    return found


def attacking_markers(game: Game) -> list[Marker]:
    return _markers(game, game.attacker.pk if game.attacker else None)


def defending_markers(game: Game) -> list[Marker]:
    return _markers(game, game.defender.pk if game.defender else None)


def _declaration(game: Game) -> Event | None:
    return this_step(game, "SkirmishBlocksDeclared").last()


def _block_roll(game: Game) -> Event | None:
    return this_step(game, "SkirmishBlocksRolled").last()


def skirmish_stage(game: Game) -> str:
    """'declare' the blocks, 'roll' them, then 'attack': blocks are all declared before any die (4.1)."""
    if not attacking_markers(game):
        return "attack"
    declared = _declaration(game)
    if declared is None:
        return "declare" if defending_markers(game) else "attack"
    if declared.inputs["blocks"] and _block_roll(game) is None:
        return "roll"
    return "attack"


def _blocked_count(game: Game) -> dict[str, int]:
    rolled = _block_roll(game)
    counts: dict[str, int] = defaultdict(int)
    for marker in (rolled.inputs.get("blocked", []) if rolled else []):
        counts[marker.partition("#")[0]] += 1
    return counts


def attacks_left(game: Game) -> list[tuple[Brigade, int]]:
    """Attacking brigades with unblocked markers that have not attacked yet; attacking is optional (4.1)."""
    if skirmish_stage(game) != "attack":
        return []
    blocked = _blocked_count(game)
    done: dict[str, int] = defaultdict(int)
    for event in this_step(game, "SkirmishAttacked"):
        done[event.inputs["unit"]] += 1
    count: dict[int, tuple[Brigade, int]] = {}
    for marker in attacking_markers(game):
        count[marker.brigade.pk] = (marker.brigade, marker.number)
    left = []
    for brigade, markers in count.values():
        n = markers - blocked[brigade.key] - done[brigade.key]
        if n > 0:
            left.append((brigade, n))
    return left


def _skirmish_pending(game: Game) -> list[str]:
    """Blocks and attacks are optional (4.1: "may"); blocks once declared must be rolled."""
    if skirmish_stage(game) == "roll":
        n = len(_declaration(game).inputs["blocks"])
        return [f"roll the {n} declared skirmish block{'s' if n > 1 else ''}"]
    return []


class DeclareBlocksForm(VersionForm):

    def __init__(self, *args, blockers=(), targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "no block")] + [(t.id, t.label) for t in targets]
        for marker in blockers:
            self.fields[marker.field] = forms.ChoiceField(
                label=f"{marker.label} ({skirmish_grade(marker.brigade).value}) tries to block", required=False,
                choices=choices)


class BlockRollsForm(DiceForm):
    def __init__(self, *args, blocks=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.dice_fields = tuple(f"die_{i}" for i in range(len(blocks)))
        for i, block in enumerate(blocks):
            self.fields[f"die_{i}"] = die_field(f"{block['blocker_name']} blocks {block['target_name']}: die")
            self.fields[f"printed_{i}"] = forms.ChoiceField(
                label=f"Or: {block['blocker_name']}'s block by your printed chart", required=False,
                choices=[("", "use the app's chart"), ("blocked", "blocked"), ("failed", "not blocked")])

    def die_names(self) -> list[str]:
        return list(self.dice_fields)


def _marker_name(game: Game, marker_id: str) -> str:
    key, _, number = marker_id.partition("#")
    return f"{unit_for_key(game, key).name}, marker {number}"


def declare_blocks(game: Game, form: DeclareBlocksForm, actor: str) -> Event:
    with act_on(game, form.cleaned_data["version"], actor) as action:
        game = action.game
        if game.step != StepKey.SKIRMISH or skirmish_stage(game) != "declare":
            raise ActionRefused("The skirmish blocks are not to be declared now.")
        blocks = []
        for marker in defending_markers(game):
            target = form.cleaned_data.get(marker.field)
            if target:
                blocks.append({"blocker": marker.id, "blocker_name": marker.label,
                               "grade": skirmish_grade(marker.brigade).value, "target": target,
                               "target_name": _marker_name(game, target)})
        words = "; ".join(f"{b['blocker_name']} on {b['target_name']}" for b in blocks) or "no blocks"
        return action.record(
            "SkirmishBlocksDeclared", f"{game.defender.name} declare skirmish blocks: {words}",
            subject=game.defender.name,
            inputs={"blocks": blocks, "markers": [m.id for m in attacking_markers(game)]})


def roll_blocks(game: Game, form: BlockRollsForm, actor: str) -> Event:
    with act_on(game, form.cleaned_data["version"], actor) as action:
        game = action.game
        if game.step != StepKey.SKIRMISH or skirmish_stage(game) != "roll":
            raise ActionRefused("There are no declared skirmish blocks to roll now.")
        blocks = _declaration(game).inputs["blocks"]
        rolls = form.rolls()
        inputs = SkirmishBlocksInput(tuple(
            BlockAttempt(b["blocker_name"], Grade(b["grade"]), b["target_name"], roll)
            for b, roll in zip(blocks, rolls, strict=True)))
        result = resolve_skirmish_blocks(game.chart, inputs)
        blocked, printed_any, provisional = [], False, False
        for i, (block, outcome) in enumerate(zip(blocks, result.attempts, strict=True)):
            printed = form.cleaned_data.get(f"printed_{i}")
            success = printed == "blocked" if printed else outcome.blocked
            printed_any = printed_any or bool(printed)
            provisional = provisional or (not printed and result.cells[i].provenance == "provisional")
            if success and block["target"] not in blocked:
                blocked.append(block["target"])
        names = [_marker_name(game, m) for m in blocked]
        dice = [{**encode(roll), "label": b["blocker_name"]} for b, roll in zip(blocks, rolls, strict=True)]
        summary = (f"Skirmish blocks: {', '.join(names)} blocked" if names else "Skirmish blocks: none succeeded")
        return action.record(
            "SkirmishBlocksRolled", summary, subject=game.defender.name,
            inputs={**encode(inputs), "blocked": blocked}, dice=dice, result=encode(result),
            provisional=provisional, printed_chart=printed_any)


PRINTED_ATTACK = [("", "use the app's chart"), ("hit", "hit: 1M on the target"), ("miss", "no effect"),
                  ("flee", "the marker flees")]


class SkirmishAttackForm(DiceForm):
    target = forms.ChoiceField(label="Target unit (enemy combat bases in line of sight)")
    range = forms.DecimalField(label="Range to the target (inches)", min_value=0, max_value=99, max_digits=5,
                               decimal_places=2, help_text="Measured on the table, in this game's scale.")
    die = die_field()
    printed = forms.ChoiceField(label="Or: result from your printed chart", required=False, choices=PRINTED_ATTACK)

    def __init__(self, *args, targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [("", "choose the target"), *unit_choices(targets)]


def skirmish_attack(game: Game, brigade: Brigade, form: SkirmishAttackForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        brigade = Brigade.objects.select_related("division").get(pk=brigade.pk)
        if game.step != StepKey.SKIRMISH or brigade.pk not in {b.pk for b, _ in attacks_left(game)}:
            raise ActionRefused(f"{brigade.name} has no skirmish attack to make now.")
        target = unit_for_key(game, data["target"])
        inputs = SkirmishAttackInput(grade=skirmish_grade(brigade), range=float(data["range"]),
                                     roll=form.rolls("die")[0], scale=GroundScale(game.ground_scale))
        result = resolve_skirmish_attack(game.chart, inputs)
        printed = data.get("printed")
        hit = printed == "hit" if printed else result.hit
        fled = printed == "flee" if printed else result.fled
        if fled:
            action.set(brigade, "skirmishers_deployed", max(0, brigade.skirmishers_deployed - 1))
        outcome = ("1M on " + target.name + ", held to the end of the artillery step" if hit
                   else "the marker flees back to its brigade" if fled else "no effect")
        face = inputs.roll.faces[0]
        summary = f"{brigade.name}'s skirmishers fire at {target.name}: {outcome} (die {face} {inputs.roll.source})"
        return action.record(
            "SkirmishAttacked", summary, subject=brigade.name,
            inputs={"unit": brigade.key, "target": target.key, **encode(inputs),
                    "hits": [{"unit": target.key, "m": 1, "b": 0}] if hit else [], "fled": fled},
            dice=[{**encode(inputs.roll), "label": "skirmish attack"}],
            result=encode(result),
            provisional=result.provisional and not printed, printed_chart=bool(printed))


def _skirmish_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    stage = skirmish_stage(game)
    context: dict = {"stage": stage, "attackers": attacking_markers(game), "defenders": defending_markers(game),
                     "pending_hits": pending_hit_rows(game),
                     "done": list(this_step(game, "SkirmishBlocksDeclared", "SkirmishBlocksRolled",
                                            "SkirmishAttacked"))}
    if stage == "declare":
        context["declare_form"] = bound.get("skirmish-declare") or DeclareBlocksForm(
            prefix="skirmish-declare", initial={"version": game.version}, blockers=context["defenders"],
            targets=context["attackers"])
        context["declare_fields"] = [context["declare_form"][m.field] for m in context["defenders"]]
    elif stage == "roll":
        blocks = _declaration(game).inputs["blocks"]
        form = bound.get("skirmish-rolls") or BlockRollsForm(prefix="skirmish-rolls",
                                                             initial={"version": game.version}, blocks=blocks)
        context["roll_form"] = form
        context["roll_rows"] = [{"die": form[f"die_{i}"], "printed": form[f"printed_{i}"]}
                                for i in range(len(blocks))]
    else:
        rows = []
        targets = enemy_units(game, game.attacker.pk)
        for brigade, left in attacks_left(game):
            prefix = f"skirmish-{brigade.key}"
            form = bound.get(prefix) or SkirmishAttackForm(prefix=prefix, initial={"version": game.version},
                                                           targets=targets)
            rows.append({"brigade": brigade, "left": left, "form": form, "open": prefix in bound,
                         "grade": skirmish_grade(brigade),
                         "action": f"/games/{game.pk}/fire/skirmish/{brigade.pk}/"})
        context["attack_rows"] = rows
    return context


# --- artillery fire (4.2-4.6) -------------------------------------------------------------------------------


def batteries_to_act(game: Game) -> list[Battery]:
    """Batteries of both sides that may still fire or save fire this step: not abandoned, not limbered, not
    silenced (demoralized), not fired this player turn, not announced as saving fire (4.2)."""
    acted = {key for e in this_step(game, "FireSaved") for key in e.inputs.get("units", [])}
    found = Battery.objects.filter(game=game, abandoned=False, limbered=False, fired_this_turn=False,
                                   m_hits__lt=MAX_M_HITS).select_related("division__side").order_by(
        "division__side__order", "order")
    return [b for b in found if b.key not in acted]


COVER_CHOICES = [(c.value, c.value) for c in Cover]


class ArtilleryFireForm(DiceForm):
    joined = forms.MultipleChoiceField(
        label="Joint battery fire with", required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Batteries firing at the same target at the same range (4.2). The group fires as this "
                  "battery's type and range: the others downgrade to join.")
    target = forms.ChoiceField(label="Main target")
    range = forms.DecimalField(label="Range to the main target (inches)", min_value=0, max_value=99, max_digits=5,
                               decimal_places=2, help_text="Measured on the table, in this game's scale.")
    deep_target = forms.BooleanField(label="Deep target: three or more combat bases within 4\" depth, in the open",
                                     required=False)
    square = forms.BooleanField(label="The target is infantry in square", required=False)
    moving_cavalry = forms.BooleanField(label="Over half the target is moving cavalry", required=False)
    cover = forms.ChoiceField(label="Half or more of the target in cover", choices=COVER_CHOICES, initial="none")
    enfilade = forms.BooleanField(label="Enfilade fire", required=False)
    packed_skirmishers = forms.BooleanField(
        label="Firing at the target's packed skirmish markers (under 2\" apart)", required=False,
        help_text="M go to the brigade, each B lowers its skirmisher type (4.5).")
    open_order = forms.BooleanField(label="At open order", required=False,
                                    help_text="Set for you when the target brigade is in open order.")
    passing_fire = forms.BooleanField(label="Passing fire", required=False)
    tandem = forms.ChoiceField(label="Tandem target (within 3\" of the main target's front, in the open)",
                               required=False)
    adjacent = forms.ChoiceField(label="Adjacent target (next to the main target, same range bracket)",
                                 required=False)
    die = die_field()
    printed = forms.CharField(label="Or: the result from your printed chart", required=False, max_length=20,
                              help_text="Written as on the chart, like 2M 1B, or - for no effect.")

    def __init__(self, *args, partners=(), targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["joined"].choices = [(b.key, f"{b.name} ({b.get_battery_type_display()})") for b in partners]
        choices = unit_choices(targets)
        self.fields["target"].choices = [("", "choose the target"), *choices]
        self.fields["tandem"].choices = [("", "none"), *choices]
        self.fields["adjacent"].choices = [("", "none"), *choices]

    def clean_printed(self):
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

    def clean(self):
        cleaned = super().clean()
        main, tandem, adjacent = cleaned.get("target"), cleaned.get("tandem"), cleaned.get("adjacent")
        if tandem and tandem == main:
            self.add_error("tandem", "The tandem target is another unit than the main target.")
        if adjacent and adjacent in (main, tandem):
            self.add_error("adjacent", "The adjacent target is another unit than the main and tandem targets.")
        return cleaned


class SaveFireForm(VersionForm):
    moved_this_turn = forms.BooleanField(label="It moved this player turn (also facing or prolonging)",
                                         required=False)
    out_of_command_radius = forms.BooleanField(label="It is out of command radius", required=False)


def _fire_target(unit: Brigade | Battery, pending: dict, packed_skirmishers: bool = False) -> FireTarget:
    """A target as the state has it, with the hits already waiting on it this phase taken into account:
    fire is simultaneous, so B a unit cannot absorb any more pass on (4.5)."""
    waiting = pending.get(unit.key, {"m": 0, "b": 0})
    m_hits = min(MAX_M_HITS, unit.m_hits + waiting["m"])
    if isinstance(unit, Battery):
        return FireTarget(kind=TargetKind.BATTERY, m_hits=m_hits, packed_battery=unit.packed)
    if packed_skirmishers:
        return FireTarget(kind=TargetKind.SKIRMISH_MARKER, m_hits=m_hits, skirmisher_type=skirmish_grade(unit))
    return FireTarget(kind=TargetKind.UNIT, bases=max(1, unit.bases - waiting["b"]), m_hits=m_hits)


def fire_battery(game: Game, battery: Battery, form: ArtilleryFireForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        battery = Battery.objects.select_related("division").get(pk=battery.pk)
        ready = {b.key: b for b in batteries_to_act(game)}
        if game.step != StepKey.ARTILLERY_FIRE or battery.key not in ready:
            raise ActionRefused(f"{battery.name} cannot fire now.")
        joined = [ready[key] for key in data["joined"] if key in ready and key != battery.key]
        if len(joined) != len(data["joined"]):
            raise ActionRefused("A battery chosen for joint fire cannot fire now.")
        group = [battery, *joined]
        worst = max(group, key=lambda b: b.m_hits + b.damage)
        target = unit_for_key(game, data["target"])
        packed_skirmishers = data["packed_skirmishers"]
        if packed_skirmishers and not (isinstance(target, Brigade) and target.skirmishers_deployed):
            raise RulesInputError("packed_skirmishers", f"{target.name} has no skirmish markers out")
        if data["moving_cavalry"] and not (isinstance(target, Brigade) and UnitKind(target.kind).horse):
            raise RulesInputError("moving_cavalry", f"{target.name} is not mounted cavalry")
        open_order = data["open_order"] or (isinstance(target, Brigade) and not packed_skirmishers
                                            and target.formation == Formation.OPEN_ORDER)
        fire_inputs = ArtilleryFireInput(
            battery=BatteryType(battery.battery_type), range=float(data["range"]), roll=form.rolls("die")[0],
            scale=GroundScale(game.ground_scale), joint_bases=sum(b.bases for b in group),
            saved_fire=battery.saved_fire and not joined, m_hits=worst.m_hits, damage=worst.damage,
            deep_target=data["deep_target"], square=data["square"], moving_cavalry=data["moving_cavalry"],
            cover=Cover(data["cover"]), enfilade=data["enfilade"], packed_skirmishers=packed_skirmishers,
            open_order=open_order, passing_fire=data["passing_fire"],
            packed_battery=isinstance(target, Battery) and target.packed,
        )
        fire = resolve_artillery_fire(game.chart, fire_inputs)
        printed = data.get("printed")
        rolled = printed if printed is not None else fire.result
        waiting = pending_hits(game)
        units = {"main": target}
        for role in ("tandem", "adjacent"):
            if data.get(role):
                units[role] = unit_for_key(game, data[role])
        hits_inputs = ArtilleryHitsInput(
            rolled=rolled, main=_fire_target(target, waiting, packed_skirmishers),
            tandem=_fire_target(units["tandem"], waiting) if "tandem" in units else None,
            adjacent=_fire_target(units["adjacent"], waiting) if "adjacent" in units else None)
        shared = resolve_artillery_hits(game.chart, hits_inputs)
        hits = []
        for outcome in shared.targets:
            unit = units[outcome.role.value]
            hit = {"unit": unit.key, "m": outcome.taken.m,
                   "b": outcome.bases_lost if outcome.kind is TargetKind.UNIT else outcome.damage,
                   "marker_b": outcome.taken.b if outcome.kind is TargetKind.SKIRMISH_MARKER else 0}
            if hit["m"] or hit["b"] or hit["marker_b"]:
                hits.append(hit)
        for member in group:
            action.set(member, "fired_this_turn", True)
            action.set(member, "saved_fire", False)
        names = " and ".join(b.name for b in group)
        shares = "; ".join(f"{unit_for_key(game, h['unit']).name} {hits_text(m=h['m'], b=h['b'] + h['marker_b'])}"
                           for h in hits) or "no effect"
        face = fire_inputs.roll.faces[0]
        how = "printed chart" if printed is not None else f"die {face} {fire_inputs.roll.source}"
        summary = (f"{names} fire{'s' if not joined else ''} at {target.name}: {rolled} ({how}); "
                   f"{shares}, held to the end of the artillery step")
        notes = [f"joint fire: the group's most hit battery ({worst.name}) gives the die modifier"] if joined else []
        return action.record(
            "ArtilleryFired", summary, subject=battery.name,
            inputs={"battery": battery.key, "batteries": [b.key for b in group], "target": target.key,
                    "tandem": units["tandem"].key if "tandem" in units else None,
                    "adjacent": units["adjacent"].key if "adjacent" in units else None,
                    "fire": encode(fire_inputs), "printed": str(printed) if printed is not None else None,
                    "hits": hits},
            dice=[{**encode(fire_inputs.roll), "label": "artillery"}],
            result={"fire": encode(fire), "hits": encode(shared), "notes": notes},
            provisional=fire.provisional and printed is None, printed_chart=printed is not None)


def save_fire(game: Game, battery: Battery, form: SaveFireForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        battery = Battery.objects.get(pk=battery.pk)
        if game.step != StepKey.ARTILLERY_FIRE or battery.key not in {b.key for b in batteries_to_act(game)}:
            raise ActionRefused(f"{battery.name} cannot save fire now.")
        inputs = SavedFireInput(moved_this_turn=data["moved_this_turn"], m_hits=battery.m_hits,
                                in_command_radius=not data["out_of_command_radius"])
        result = resolve_saved_fire(game.chart, inputs)
        if not result.allowed:
            raise RulesInputError("moved_this_turn" if data["moved_this_turn"] else "__all__",
                                  f"{battery.name} may not save fire: {result.reason}")
        kept = " (it keeps its one saved fire marker)" if battery.saved_fire else ""
        action.set(battery, "saved_fire", True)
        return action.record("FireSaved", f"{battery.name} saves its fire{kept}", subject=battery.name,
                             inputs={"units": [battery.key], **encode(inputs)}, result=encode(result))


def _artillery_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    ready = batteries_to_act(game)
    rows = []
    for battery in ready:
        prefix, save_prefix = f"fire-{battery.key}", f"save-{battery.key}"
        partners = [b for b in ready if b.division.side_id == battery.division.side_id and b.pk != battery.pk]
        targets = enemy_units(game, battery.division.side_id)
        form = bound.get(prefix) or ArtilleryFireForm(prefix=prefix, initial={"version": game.version},
                                                      partners=partners, targets=targets)
        save = bound.get(save_prefix) or SaveFireForm(prefix=save_prefix, initial={"version": game.version})
        rows.append({"battery": battery, "form": form, "save": save, "open": prefix in bound or save_prefix in bound,
                     "action": f"/games/{game.pk}/fire/artillery/{battery.pk}/",
                     "save_action": f"/games/{game.pk}/fire/artillery/{battery.pk}/save/"})
    return {"battery_rows": rows, "pending_hits": pending_hit_rows(game),
            "done": list(this_step(game, "ArtilleryFired", "FireSaved"))}


def apply_fire_hits(action: Action) -> list[str]:
    """The end of the artillery step: every skirmish and artillery hit of the phase goes on at once (4.1, 4.2),
    summed per unit. M walk the morale ladder, beyond Demoralized they become P (4.6); B remove bases from
    brigades and damage batteries; B on packed skirmish markers lower the brigade's skirmisher type (4.5)."""
    game = action.game
    notes = []
    for key, hits in sorted(pending_hits(game).items()):
        unit = unit_for_key(game, key)
        if unit.out_of_play:
            notes.append(f"{unit.name} is out of play: its {hits_text(m=hits['m'], b=hits['b'])} are lost")
            continue
        morale = apply_morale_hits(unit.m_hits, hits["m"], MoraleCause.FIRE)
        action.set(unit, "m_hits", morale.m_after)
        if morale.panic_hits:
            action.set(unit, "p_hits_turn", unit.p_hits_turn + morale.panic_hits)
        words = [hits_text(m=hits["m"], b=hits["b"]), f"now {condition_label(morale.m_after)}"]
        if morale.panic_hits:
            words.append(f"{morale.panic_hits}P")
        if isinstance(unit, Brigade):
            lost = min(hits["b"], unit.bases)
            if lost:
                action.set(unit, "bases", unit.bases - lost)
                action.set(unit, "base_hits_turn", unit.base_hits_turn + lost)
                words.append(f"{unit.bases} bases left")
                if unit.bases == 0:
                    action.set(unit, "destroyed", True)
                    words.append("destroyed")
            if hits["marker_b"]:
                lowered = lowered_type(skirmish_grade(unit), hits["marker_b"])
                action.set(unit, "skirmisher_grade", lowered.value)
                words.append(f"skirmishers now {lowered.value}")
        else:
            if hits["b"]:
                action.set(unit, "damage", unit.damage + hits["b"])
                words.append(f"damage {unit.damage}")
            if unit.saved_fire and morale.m_after >= 2:
                action.set(unit, "saved_fire", False)
                words.append("loses its saved fire")
        notes.append(f"{unit.name}: {', '.join(words)}")
    return notes or ["no skirmish or artillery hits to put on"]


# --- the demoralized panic test (4.7) -----------------------------------------------------------------------


def _unit_kind(unit: Brigade | Battery) -> UnitKind:
    return UnitKind.ARTILLERY if isinstance(unit, Battery) else UnitKind(unit.kind)


def to_panic_test(game: Game) -> list[Brigade | Battery]:
    """Demoralized units of either side with P hits this turn (their excess M from fire), not yet tested."""
    done = set(this_step(game, "DemoralizedPanicTested").values_list("inputs__unit", flat=True))
    units = [*side_units(game, game.attacker.pk), *side_units(game, game.defender.pk)]
    return [u for u in units if u.m_hits == MAX_M_HITS and u.p_hits_turn and u.bases and u.key not in done]


def _panic_pending(game: Game) -> list[str]:
    return [f"demoralized panic test for {u.name} ({u.p_hits_turn}P)" for u in to_panic_test(game)]


class DemoralizedPanicForm(VersionForm):
    out_of_town = forms.BooleanField(label="Retreating or routing out of town terrain", required=False)
    across_bridge_or_ford = forms.BooleanField(label="Retreating or routing across a bridge or fordable stream",
                                               required=False)
    printed = forms.CharField(label="Or: the move and loss from your printed Panic Index", required=False,
                              max_length=10, help_text="Like F, Re 1 or Rt 2: the move, then the bases that desert.")

    def clean_printed(self):
        text = self.cleaned_data.get("printed", "").strip()
        if not text:
            return None
        try:
            return PanicCell.parse(text)
        except ValueError:
            raise forms.ValidationError("Write the move as D, W, F, Re or Rt, then any loss number: Re 1.") from None


def panic_test(game: Game, unit: Brigade | Battery, form: DemoralizedPanicForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        unit = type(unit).objects.select_related("division").get(pk=unit.pk)
        if game.step != StepKey.DEMORALIZED_PANIC or unit.key not in {u.key for u in to_panic_test(game)}:
            raise ActionRefused(f"{unit.name} has no demoralized panic test to make now.")
        kind, scale = _unit_kind(unit), GroundScale(game.ground_scale)
        inputs = DemoralizedPanicInput(grade=Grade(unit.grade), panic_hits=unit.p_hits_turn, bases=unit.bases,
                                       kind=kind, scale=scale, out_of_town=data["out_of_town"],
                                       across_bridge_or_ford=data["across_bridge_or_ford"])
        result = resolve_demoralized_panic(game.chart, inputs)
        printed = data.get("printed")
        if printed is not None:
            forced = resolve_forced_move(game.chart, ForcedMoveInput(printed.move, horse=kind.horse, scale=scale))
            move, distance, instruction = printed.move, forced.distance, forced.instruction
            deserters = min(printed.loss, unit.bases)
            p4 = panic_level_read(unit.p_hits_turn) == MAX_PANIC_LEVEL
        else:
            move, distance, instruction = result.move, result.distance, result.instruction
            deserters, p4 = result.deserters, result.p4_event
        words = [instruction]
        if deserters:
            action.set(unit, "bases", unit.bases - deserters)
            words.append(f"{deserters} base{'s' if deserters > 1 else ''} desert")
            if isinstance(unit, Brigade):
                action.set(unit, "base_hits_turn", unit.base_hits_turn + deserters)
                if unit.bases == 0:
                    action.set(unit, "destroyed", True)
                    words.append("destroyed")
            elif unit.bases == 0:
                action.set(unit, "abandoned", True)
                words.append("abandoned")
        if isinstance(unit, Battery) and move is ForcedMove.ROUT and not unit.abandoned:
            action.set(unit, "abandoned", True)
            words.append("a battery required to rout is abandoned")
        if not unit.forced_move or ForcedMove(unit.forced_move).severity < move.severity:
            action.set(unit, "forced_move", move.value)
        if isinstance(unit, Brigade) and move in (ForcedMove.RETREAT, ForcedMove.ROUT):
            action.set(unit, "retreated", True)
        if p4:
            action.set(unit, "p4_event", True)
            action.set(unit.division, "p4_event", True)
            words.append("Panic 4 event: the division tests in the panic phase")
        summary = f"{unit.name} ({unit.p_hits_turn}P) panics: {'; '.join(words)}"
        return action.record(
            "DemoralizedPanicTested", summary, subject=unit.name,
            inputs={"unit": unit.key, **encode(inputs), "printed": str(printed) if printed else None},
            result={**encode(result), "applied": {"move": move.value, "distance": distance, "deserters": deserters,
                                                  "p4_event": p4}},
            provisional=result.provisional and printed is None, printed_chart=printed is not None)


def _panic_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    rows = []
    for unit in to_panic_test(game):
        prefix = f"panic-{unit.key}"
        form = bound.get(prefix) or DemoralizedPanicForm(prefix=prefix, initial={"version": game.version})
        rows.append({"unit": unit, "form": form, "level": panic_level_read(unit.p_hits_turn),
                     "action": f"/games/{game.pk}/fire/panic/{unit._meta.model_name}/{unit.pk}/"})
    return {"panic_rows": rows, "done": list(this_step(game, "DemoralizedPanicTested"))}


# --- views ----------------------------------------------------------------------------------------------------




@require_POST
def declare_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    form = DeclareBlocksForm(request.POST, prefix="skirmish-declare", blockers=defending_markers(game),
                             targets=attacking_markers(game))
    return answers.form_action(request, game, form, "skirmish-declare",
                   lambda: declare_blocks(game, form, answers.actor_of(request)))


@require_POST
def block_rolls_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    declared = _declaration(game)
    if game.step != StepKey.SKIRMISH or declared is None:
        return answers.stale(request, game, "There are no declared skirmish blocks to roll now.")
    form = BlockRollsForm(request.POST, prefix="skirmish-rolls", blocks=declared.inputs["blocks"])
    return answers.form_action(request, game, form, "skirmish-rolls",
                               lambda: roll_blocks(game, form, answers.actor_of(request)))


@require_POST
def skirmish_attack_view(request: HttpRequest, game_id: int, brigade_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    brigade = answers.unit_of_game(Brigade, game, brigade_id)
    prefix = f"skirmish-{brigade.key}"
    targets = enemy_units(game, brigade.division.side_id)
    form = SkirmishAttackForm(request.POST, prefix=prefix, targets=targets)
    return answers.form_action(request, game, form, prefix,
                               lambda: skirmish_attack(game, brigade, form, answers.actor_of(request)))


@require_POST
def artillery_view(request: HttpRequest, game_id: int, battery_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    battery = answers.unit_of_game(Battery.objects.select_related("division"), game, battery_id)
    prefix = f"fire-{battery.key}"
    partners = [b for b in batteries_to_act(game)
                if b.division.side_id == battery.division.side_id and b.pk != battery.pk]
    form = ArtilleryFireForm(request.POST, prefix=prefix, partners=partners,
                             targets=enemy_units(game, battery.division.side_id))
    return answers.form_action(request, game, form, prefix,
                               lambda: fire_battery(game, battery, form, answers.actor_of(request)))


@require_POST
def save_fire_view(request: HttpRequest, game_id: int, battery_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    battery = answers.unit_of_game(Battery, game, battery_id)
    prefix = f"save-{battery.key}"
    form = SaveFireForm(request.POST, prefix=prefix)
    return answers.form_action(request, game, form, prefix,
                               lambda: save_fire(game, battery, form, answers.actor_of(request)))


@require_POST
def panic_view(request: HttpRequest, game_id: int, kind: str, unit_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    unit = answers.unit_of_game(MODELS.get(kind, Brigade), game, unit_id)
    prefix = f"panic-{unit.key}"
    form = DemoralizedPanicForm(request.POST, prefix=prefix)
    return answers.form_action(request, game, form, prefix,
                               lambda: panic_test(game, unit, form, answers.actor_of(request)))


STEPS = {
    StepKey.SKIRMISH: StepHandler("games/steps/fire_skirmish.html", _skirmish_pending, _skirmish_panel),
    StepKey.ARTILLERY_FIRE: StepHandler("games/steps/fire_artillery.html", panel=_artillery_panel,
                                        on_leave=apply_fire_hits),
    StepKey.DEMORALIZED_PANIC: StepHandler("games/steps/fire_panic.html", _panic_pending, _panic_panel),
}
urls = [
    path("games/<int:game_id>/fire/skirmish/declare/", declare_view, name="fire_skirmish_declare"),
    path("games/<int:game_id>/fire/skirmish/blocks/", block_rolls_view, name="fire_skirmish_blocks"),
    path("games/<int:game_id>/fire/skirmish/<int:brigade_id>/", skirmish_attack_view, name="fire_skirmish_attack"),
    path("games/<int:game_id>/fire/artillery/<int:battery_id>/", artillery_view, name="fire_artillery"),
    path("games/<int:game_id>/fire/artillery/<int:battery_id>/save/", save_fire_view, name="fire_save"),
    path("games/<int:game_id>/fire/panic/<str:kind>/<int:unit_id>/", panic_view, name="fire_panic"),
]
