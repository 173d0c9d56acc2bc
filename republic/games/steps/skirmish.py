"""Skirmish fire (1.7, 4.1): the defenders declare every block before any die, the blocks are rolled, then
each unblocked attacking marker may fire once. Blocks and attacks are optional ("may"); blocks once declared
must be rolled. The hits wait for the end of the artillery step. Each side's markers, the stage, which markers a
roll blocks, which brigades may still attack and what an attack changes are the game's decisions
(``republic.play.skirmish``); this step reads them from the database and writes the answer through the ledger."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import Q

from republic.games.events.fire import DeclaredBlock, SkirmishAttacked, SkirmishBlocksDeclared, SkirmishBlocksRolled
from republic.games.events.payload import payload_of
from republic.games.forms import DiceForm, Pick, PickField, VersionForm, die_field, filled, inches_field, offer_picks
from republic.games.ledger import ActionRefused, act, turn_events
from republic.games.models import Event, Game, Side, Unit, UnitChoice, UnitQuerySet
from republic.games.pieces import Piece
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, row_of, unit_row
from republic.games.steps.fire_hits import waiting, waiting_rows
from republic.games.text.terms import inches, unit_options
from republic.play import skirmish as play
from republic.play.refusal import Refused
from republic.rules.fire_results import FireHits
from republic.rules.sequence import StepKey
from republic.rules.skirmish import (
    BlockAttempt,
    SkirmishAttackInput,
    SkirmishBlocksInput,
    SkirmishVerdict,
    engagement_reach,
    resolve_skirmish_blocks,
)

DECLARE_ELSEWHERE = "The skirmish blocks are not to be declared now."
ROLL_ELSEWHERE = "There are no declared skirmish blocks to roll now."
PRINTED_BLOCKS = [("", "use the app's chart"), ("blocked", "blocked"), ("failed", "not blocked")]
PRINTED_ATTACK = [
    ("", "use the app's chart"),
    (SkirmishVerdict.HIT.value, "hit: 1M on the target"),
    (SkirmishVerdict.MISS.value, "no effect"),
    (SkirmishVerdict.FLEE.value, "the marker flees"),
]


@dataclass(frozen=True)
class Marker:
    """One skirmish marker of a brigade: markers of a brigade are alike, so they are counted, not named."""

    brigade: Unit
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


@dataclass
class SkirmishState:
    game: Game
    units: dict[str, Unit]  # the brigades with markers, and the units with hits waiting: not the whole battle
    attackers: list[Marker]  # the attacker's markers as they stood when the step began
    defenders: list[Marker]
    declared: SkirmishBlocksDeclared | None
    rolled: SkirmishBlocksRolled | None
    attacks: list[SkirmishAttacked]
    done: list[Event]
    waiting: dict[str, FireHits]
    step: play.SkirmishStep

    @property
    def stage(self) -> str:
        """'declare' the blocks, 'roll' them, then 'attack': blocks are all declared before any die (4.1)."""
        return play.stage(self.step)

    def attacks_left(self) -> list[tuple[Unit, int]]:
        """Attacking brigades with unblocked markers that have not attacked yet; attacking is optional (4.1)."""
        return [(self.units[brigade], n) for brigade, n in play.attacks_left(self.step).items()]

    def _in_play(self) -> UnitQuerySet:
        side = self.game.defender.pk if self.game.defender else None
        return Unit.objects.filter(game=self.game).of_side(side).in_play()

    def enemies(self) -> list[UnitChoice]:
        """The defender's units in play: what the attacker's markers may fire at, read when a form needs them."""
        return self._in_play().in_battle_order().choices()

    def enemy(self, key: str) -> Unit | None:
        """The defender's unit in play of that key, if there is one."""
        return self._in_play().select_related("division").filter(pk=Piece.at(key).pk).first()


@read_once
def state(game: Game) -> SkirmishState:
    events = turn_events(game, [StepKey.SKIRMISH], [SkirmishBlocksDeclared, SkirmishBlocksRolled, SkirmishAttacked])
    payloads = [payload_of(e) for e in events]
    declared = [p for p in payloads if isinstance(p, SkirmishBlocksDeclared)]
    rolled = [p for p in payloads if isinstance(p, SkirmishBlocksRolled)]
    attacks = [p for p in payloads if isinstance(p, SkirmishAttacked)]
    fled = [a.unit for a in attacks if a.result.fled]
    waits = waiting(game)
    # the brigades that have markers out or had one flee this step, and the units with hits waiting
    wanted = Q(skirmishers_deployed__gt=0) | Q(pk__in=[Piece.at(key).pk for key in [*fled, *waits]])
    units = {u.key: u for u in Unit.objects.filter(wanted, game=game).in_battle_order()}

    def markers(side: Any) -> tuple[play.Marker, ...]:
        return play.markers((u.to_rules() for u in units.values() if u.division.side_id == side), fled)

    attackers = markers(game.attacker.pk if game.attacker else None)
    defenders = markers(game.defender.pk if game.defender else None)
    last_declared = declared[-1] if declared else None
    last_rolled = rolled[-1] if rolled else None
    step = play.SkirmishStep(
        attackers,
        defenders,
        tuple((b.blocker, b.target) for b in last_declared.blocks) if last_declared else None,
        last_rolled.blocked if last_rolled else None,
        tuple(a.unit for a in attacks),
    )
    return SkirmishState(
        game,
        units,
        [Marker(units[m.brigade], m.number) for m in attackers],
        [Marker(units[m.brigade], m.number) for m in defenders],
        last_declared,
        last_rolled,
        attacks,
        events,
        waits,
        step,
    )


def side_name(side: Side | None) -> str:
    return side.name if side else ""


def pending(s: SkirmishState) -> list[str]:
    if s.stage == "roll" and s.declared:
        n = len(s.declared.blocks)
        return [f"roll the {n} declared skirmish block{'s' if n > 1 else ''}"]
    return []


# --- the blocks ---------------------------------------------------------------------------------------


class DeclareBlocksForm(VersionForm):
    """A picker per defending marker choosing the attacking marker it tries to block (none: no block)."""

    def __init__(
        self, *args: Any, blockers: Sequence[Marker] = (), targets: Sequence[Marker] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for marker in blockers:
            self.fields[marker.field] = PickField(
                label=f"{marker.label} ({marker.brigade.to_rules().skirmisher_type.value}) tries to block",
                required=False,
                what="attacking marker",
            )
        offer_picks(self, [m.field for m in blockers], [Pick(t.id, t.label, t.brigade.division.name) for t in targets])


def declare_form(s: SkirmishState, data: Any = None) -> DeclareBlocksForm:
    return DeclareBlocksForm(
        data, prefix="skirmish-declare", initial={"version": s.game.version}, blockers=s.defenders, targets=s.attackers
    )


class BlockRollsForm(DiceForm):
    def __init__(self, *args: Any, blocks: tuple[DeclaredBlock, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.dice_fields = tuple(f"die_{i}" for i in range(len(blocks)))
        for i, block in enumerate(blocks):
            self.fields[f"die_{i}"] = die_field(f"{block.blocker_name} blocks {block.target_name}: die")
            self.fields[f"printed_{i}"] = forms.ChoiceField(
                label=f"Or: {block.blocker_name}'s block by your printed chart", required=False, choices=PRINTED_BLOCKS
            )


def rolls_form(s: SkirmishState, data: Any = None) -> BlockRollsForm:
    return BlockRollsForm(
        data,
        prefix="skirmish-rolls",
        initial={"version": s.game.version},
        blocks=s.declared.blocks if s.declared else (),
    )


def declare_blocks(game: Game, form: DeclareBlocksForm, actor: str) -> Event:
    refusal = DECLARE_ELSEWHERE
    with act(game, form.cleaned_data["version"], actor, step=StepKey.SKIRMISH, elsewhere=refusal) as action:
        s = state(action.game)
        chosen = {m.id: form.cleaned_data.get(m.field) or "" for m in s.defenders}
        try:
            declared = play.declare(s.step, chosen, refusal).declared or ()
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        names = {m.id: m.label for m in s.attackers}
        blockers = {m.id: m for m in s.defenders}
        blocks = tuple(
            DeclaredBlock(
                blocker,
                blockers[blocker].label,
                blockers[blocker].brigade.to_rules().skirmisher_type,
                target,
                names[target],
            )
            for blocker, target in declared
        )
        return action.record(
            SkirmishBlocksDeclared(side_name(action.game.defender), blocks, tuple(m.id for m in s.attackers))
        )


def roll_blocks(game: Game, form: BlockRollsForm, actor: str) -> Event:
    refusal = ROLL_ELSEWHERE
    with act(game, form.cleaned_data["version"], actor, step=StepKey.SKIRMISH, elsewhere=refusal) as action:
        s = state(action.game)
        if s.stage != "roll" or s.declared is None:
            raise ActionRefused(refusal)
        blocks = s.declared.blocks
        rolls = form.rolls()
        printed = [form.cleaned_data.get(f"printed_{i}") for i in range(len(blocks))]
        inputs = SkirmishBlocksInput(
            tuple(
                BlockAttempt(b.blocker_name, b.grade, b.target_name, roll, printed=p == "blocked" if p else None)
                for b, roll, p in zip(blocks, rolls, printed, strict=True)
            )
        )
        result = resolve_skirmish_blocks(action.game.chart, inputs)
        try:
            blocked = play.rolled(s.step, result, refusal).blocked or ()
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        return action.record(SkirmishBlocksRolled(side_name(action.game.defender), blocks, inputs, result, blocked))


# --- the attacks --------------------------------------------------------------------------------------


class SkirmishAttackForm(DiceForm):
    target = PickField(label="Target unit (enemy combat bases in line of sight)", what="enemy unit")
    range = inches_field("Range to the target (inches)")
    die = die_field()
    printed = forms.ChoiceField(label="Or: result from your printed chart", required=False, choices=PRINTED_ATTACK)

    def __init__(self, *args: Any, targets: Sequence[UnitChoice] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_picks(self, ["target"], list(map(Pick._make, unit_options(targets))))


def attack_form(s: SkirmishState, brigade: Unit, data: Any = None) -> SkirmishAttackForm:
    return SkirmishAttackForm(
        data, prefix=brigade.piece.prefix("skirmish"), initial={"version": s.game.version}, targets=s.enemies()
    )


def no_attack(brigade: Unit) -> str:
    return f"{brigade.name} has no skirmish attack to make now."


def skirmish_attack(game: Game, brigade: Unit, form: SkirmishAttackForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = no_attack(brigade)
    with act(game, data["version"], actor, step=StepKey.SKIRMISH, elsewhere=refusal) as action:
        s = state(action.game)
        firing = next((b for b, _ in s.attacks_left() if b.pk == brigade.pk), brigade)
        target = s.enemy(data["target"])
        aim = target.key if target else None
        try:
            play.may_attack(s.step, firing.key, aim, refusal)
            printed = data.get("printed")
            inputs = SkirmishAttackInput.of(
                firing.to_rules(),
                float(data["range"]),
                form.rolls("die")[0],
                action.game.scale,
                SkirmishVerdict(printed) if printed else None,
            )
            done = play.attack(action.game.chart, s.step, firing.to_rules(), aim, inputs, refusal)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        assert target is not None
        action.apply(firing, done.after)
        return action.record(
            SkirmishAttacked(firing.key, firing.name, target.key, target.name, inputs, done.result, done.hits)
        )


def rows(s: SkirmishState) -> list[Row]:
    return [
        unit_row(
            brigade,
            f"{left} marker{'s' if left > 1 else ''} to fire · {brigade.to_rules().skirmisher_type.value} skirmishers",
            "Fire",
            due=True,
        )
        for brigade, left in s.attacks_left()
    ]


def opened(s: SkirmishState, row: Row, bound: Bound) -> dict[str, Any]:
    brigade = row_of(row, (b for b, _ in s.attacks_left()))
    return {
        "brigade": brigade,
        "form": bound.get(brigade.piece.prefix("skirmish")) or attack_form(s, brigade),
        "action": address(s.game, "skirmish-attack", brigade.piece),
    }


def nothing_to_fire(s: SkirmishState) -> str:
    """Why no attacking marker is listed to fire: the blocks come first (4.1), or every marker has fired or was
    blocked, or none is out."""
    attacker = side_name(s.game.attacker)
    if not s.attackers:
        return f"{attacker} have no skirmish markers out: no skirmish fire this turn."
    if s.stage == "declare":
        return f"The {attacker} markers fire once the blocks are declared and rolled."
    if s.stage == "roll":
        return f"The {attacker} markers fire once the declared blocks are rolled."
    if not s.attacks:
        return "Every attacking skirmish marker was blocked: no skirmish fire this turn."
    return "Every unblocked attacking skirmish marker has fired."


def panel(s: SkirmishState, bound: Bound) -> dict[str, Any]:
    game = s.game
    context: dict[str, Any] = {
        "stage": s.stage,
        "reach": inches(engagement_reach(game.chart, game.scale)),
        "attackers": len(s.attackers),
        "pending_hits": waiting_rows(s.waiting, s.units),
        "done": len(s.done),
        "declare_url": address(game, "declare-blocks", game.piece),
        "rolls_url": address(game, "roll-blocks", game.piece),
        "nothing": nothing_to_fire(s),
    }
    if s.stage == "declare":
        context["declare_form"] = bound.get("skirmish-declare") or declare_form(s)
        context["declare_fields"] = [context["declare_form"][m.field] for m in s.defenders]
    elif s.stage == "roll" and s.declared:
        roll = bound.get("skirmish-rolls") or rolls_form(s)
        context["roll_form"] = roll
        context["printed_blocks"] = [roll[f"printed_{i}"] for i in range(len(s.declared.blocks))]
    return context


def take_declare_blocks(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(declare_form(s, data)) as sent:
        return declare_blocks(game, sent, actor)


def take_roll_blocks(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(rolls_form(s, data)) as sent:
        return roll_blocks(game, sent, actor)


def take_skirmish_attack(game: Game, brigade: Unit, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(attack_form(s, brigade, data)) as sent:
        return skirmish_attack(game, brigade, sent, actor)


def idle(s: SkirmishState) -> str:
    """No attacking skirmish marker out: the defenders block only attacking markers (4.1), so nobody has anything
    to do in the step and it passes by itself."""
    return "no attacking skirmish marker is out" if not s.attackers and not s.done else ""


STEP = Step(
    "games/steps/fire_skirmish.html",
    state,
    pending,
    panel,
    rows=rows,
    form="games/rows/fire_skirmish.html",
    opened=opened,
    idle=idle,
    actions=(
        # the defenders declare every block before any die (4.1)
        Act("declare-blocks", "game", Who.DEFENDING, take_declare_blocks, DECLARE_ELSEWHERE),
        # the declared blocks rolled, by either side's player at the table
        Act("roll-blocks", "game", Who.SEATED, take_roll_blocks, ROLL_ELSEWHERE),
        Act("skirmish-attack", "unit", Who.OWNER, take_skirmish_attack, no_attack),
    ),
)
