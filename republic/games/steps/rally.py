"""Attacker rallies units (1.7, 2.3): every attacking unit with M hits rolls its rally, once; and the attacking
side's leaders may move up to 2" first "in order to place them near units under their command in need of rally
support" (R:352-354).

A leader's move is recorded as the table measured it, and what it matters to is the allowance: the 2" are for the
whole step (R:353: "up to 2\" during the rally step"), so each move is checked against what the leader's earlier
moves of the step left, and a move beyond it is refused. It changes no row: the app does not know where a leader
stands, so a rally still asks the table the distance to the division leader and which other leaders are within 4"
(``RallyForm``), measured as the leaders stand after their moves; the app does not guess those answers from a
move. Nor is a move refused because a rally was rolled before it: the text orders no moves before rallies, it
only says what they are for."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from django import forms

from republic.games.events.command import LeaderMoved, RallyResolved
from republic.games.events.payload import named_in, read_all
from republic.games.forms import (
    DiceForm,
    Pick,
    PicksField,
    VersionForm,
    die_field,
    filled,
    inches_field,
    offer,
    offer_picks,
)
from republic.games.ledger import ActionRefused, act, acting_on, turn_events
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.pieces import Piece
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, row_of, unit_row
from republic.games.text.terms import condition, inches
from republic.play.rally import RallyStep, due, leader_move, moved_before, relation
from republic.play.rally import rally as rally_of
from republic.rules.leaders import CommandRelation
from republic.rules.morale import Condition
from republic.rules.rally import RallyInput, RallyLeader
from republic.rules.sequence import StepKey

PRINTED_CONDITIONS = [("", "use the app's chart")] + [(c.value, c.value.capitalize()) for c in Condition]


@dataclass
class RallyState:
    game: Game
    core: RallyStep  # the step as the game's decisions see it
    to_rally: list[Unit]  # the units the core says must still rally, with their division
    rallied: list[Event]
    moves: list[LeaderMoved]  # the leaders' moves of this step, in order

    @cached_property
    def leaders(self) -> list[Leader]:
        """The attacking side's leaders in action: read for the one unit that rallies or is opened."""
        return list(
            Leader.objects.filter(game=self.game).of_side(self.game.attacker).in_action().select_related("command")
        )

    @cached_property
    def allowance(self) -> float:
        """How far a leader moves in the rally step, at the game's scale (R:352-354, 1.2)."""
        return leader_move(self.game.chart, self.game.scale, (), 0).result.distance

    @property
    def moved(self) -> list[tuple[int, float]]:
        """The leaders' moves of this step as the core reads them: (leader, inches)."""
        return [(move.leader, move.inputs.moved) for move in self.moves]

    def whole(self, unit: Unit) -> Unit:
        """A unit to rally with its chain of command, whose leaders may help (2.3)."""
        return Unit.objects.select_related("division__parent__parent").get(pk=unit.pk)


@read_once
def state(game: Game) -> RallyState:
    events = turn_events(game, [StepKey.RALLY], [RallyResolved, LeaderMoved])
    rallied = [event for event in events if event.kind == RallyResolved.__name__]
    done = set(named_in(rallied, RallyResolved, "unit"))
    # the query narrows to the attacking units that may have a rally to make; the core says which must
    units = list(Unit.objects.filter(game=game, m_hits__gt=0).of_side(game.attacker).in_play().in_battle_order())
    core = RallyStep(tuple(u.to_rules() for u in units), frozenset(done))
    owed = {u.id for u in due(core)}
    return RallyState(game, core, [u for u in units if u.key in owed], rallied, read_all(events, LeaderMoved))


def pending(s: RallyState) -> list[str]:
    return [f"rally {u.name} ({condition(u.m_hits)})" for u in s.to_rally]


class RallyForm(DiceForm):
    division_leader_distance = inches_field("Distance to the division leader (inches)", initial=0)
    leaders_within_4 = PicksField(
        label='Other leaders within 4"',
        required=False,
        what="leader",
        help_text="Corps and army leaders of the chain count; rating 2 and 3 leaders also reach further (2.2).",
    )
    die = die_field()
    printed = forms.ChoiceField(
        label="Or: new condition from your printed chart", required=False, choices=PRINTED_CONDITIONS
    )

    def __init__(self, *args: Any, leaders: Sequence[Leader] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_picks(self, ["leaders_within_4"], [Pick(str(leader.pk), str(leader)) for leader in leaders])


def prefix(unit: Unit) -> str:
    return unit.piece.prefix("rally")


def other_leaders(unit: Unit, leaders: list[Leader]) -> list[Leader]:
    """Leaders of the unit's side other than its division leader, who might stand within 4"."""
    return [leader for leader in leaders if leader.command_id != unit.division_id]


def form(game: Game, unit: Unit, leaders: list[Leader], data: Any = None) -> RallyForm:
    return RallyForm(data, prefix=prefix(unit), initial={"version": game.version}, leaders=other_leaders(unit, leaders))


def _relation(unit: Unit, leader: Leader) -> CommandRelation:
    chain = unit.division.chain()
    corps = next((c.pk for c in chain if c.level == Command.Level.CORPS), None)
    return relation([c.pk for c in chain], corps, leader.command_id, leader.command.parent_id)


def rally(game: Game, unit: Unit, form: RallyForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = f"{unit.name} has no rally to make now."
    with act(game, data["version"], actor, step=StepKey.RALLY, elsewhere=refusal) as action:
        s = state(action.game)
        unit = s.whole(next((u for u in s.to_rally if u.pk == unit.pk), None) or _refuse(refusal))
        leader = unit.division.leader or _refuse(f"{unit.division.name} has no leader to rally its units.")
        others = {str(leader.pk): leader for leader in other_leaders(unit, s.leaders)}
        chosen = [others[pk] for pk in data["leaders_within_4"] if pk in others]
        printed = data.get("printed")
        inputs = RallyInput.of(
            unit.to_rules(),
            form.rolls("die")[0],
            leader.value,
            float(data["division_leader_distance"]),
            division_leader_hors_de_combat=leader.hors_de_combat,
            other_leaders=tuple(RallyLeader(o.value, _relation(unit, o)) for o in chosen),
            scale=action.game.scale,
            printed=Condition(printed) if printed else None,
        )
        done = rally_of(action.game.chart, s.core, unit.key, inputs)
        action.apply(unit, done.unit)
        return action.record(
            RallyResolved(unit.key, unit.name, inputs, done.result, tuple(str(leader) for leader in chosen))
        )


# --- a leader's move (R:352-354) ---------------------------------------------------------------------------

MOVE_PREFIX = "leader-move"
MOVE_ELSEWHERE = (
    "A leader's rally-step move is made in the attacker's rally step; the game is not there now: nothing moved."
)


class LeaderMoveForm(VersionForm):
    leader = forms.ChoiceField(
        label="Leader",
        error_messages={
            "required": "Choose the leader who moved.",
            "invalid_choice": "That is not one of the attacking side's leaders in action: choose one from the list.",
        },
    )
    moved = inches_field("Distance moved (inches)")

    def clean_moved(self) -> Any:
        moved = self.cleaned_data["moved"]
        if moved == 0:
            raise forms.ValidationError('A move of 0" is no move: type the distance the leader moved.')
        return moved


def leader_move_form(s: RallyState, data: Any = None) -> LeaderMoveForm:
    """The form of a leader's move, each leader offered with what is left of his 2"."""
    form = LeaderMoveForm(data, prefix=MOVE_PREFIX, initial={"version": s.game.version})
    before = {leader.pk: moved_before(s.moved, leader.pk) for leader in s.leaders}
    # asked of the engine once for each distance moved before: most leaders have not moved, and are all alike
    left: dict[float, float] = {}
    for pk, moved in before.items():
        if moved not in left:
            left[moved] = leader_move(s.game.chart, s.game.scale, s.moved, pk).result.left
    choices = [
        (str(leader.pk), f"{leader} · {leader.command.name} · {inches(left[before[leader.pk]])} left")
        for leader in s.leaders
    ]
    offer(form, "leader", [("", "Choose a leader"), *choices])
    return form


def move_leader(game: Game, form: LeaderMoveForm, actor: str) -> Event:
    """A leader's move in the rally step, checked by the engine against what is left of his allowance."""
    data = form.cleaned_data
    # about the leader alone: another player's rally meanwhile does not make this form stale
    with (
        acting_on(Piece("leader", int(data["leader"])).name),
        act(game, data["version"], actor, step=StepKey.RALLY, elsewhere=MOVE_ELSEWHERE) as action,
    ):
        s = state(action.game)
        leader = next((found for found in s.leaders if str(found.pk) == data["leader"]), None)
        if leader is None:
            raise ActionRefused("That leader is not one of the attacking side's leaders in action: nothing moved.")
        move = leader_move(action.game.chart, action.game.scale, s.moved, leader.pk, float(data["moved"]))
        return action.record(LeaderMoved(leader.pk, leader.name, leader.command.name, move.inputs, move.result))


def _refuse(message: str) -> Any:
    raise ActionRefused(message)


def idle(s: RallyState) -> str:
    """A rally step with no attacking unit to rally has nothing for anyone: the leaders' 2" move is made "in order
    to place them near units under their command in need of rally support" (R:352-354), so with no such unit it
    has no purpose either, and the step passes by itself."""
    return "no attacking unit has morale hits to rally" if not (s.to_rally or s.rallied or s.moves) else ""


def rows(s: RallyState) -> list[Row]:
    return [
        unit_row(unit, f"{unit.grade_label}, {unit.m_hits} M · {unit.division.name}", "Rally", due=True)
        for unit in s.to_rally
    ]


def take_rally(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(form(game, unit, s.leaders, data)) as sent:
        return rally(game, unit, sent, actor)


def take_leader_move(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(leader_move_form(s, data)) as sent:
        return move_leader(game, sent, actor)


RALLY: Act = Act("rally", "unit", Who.OWNER, take_rally)


def opened(s: RallyState, row: Row, bound: Bound) -> dict[str, Any]:
    unit = s.whole(row_of(row, s.to_rally))
    return {
        "unit": unit,
        "form": bound.get(prefix(unit)) or form(s.game, unit, s.leaders),
        "action": address(s.game, "rally", unit.piece),
    }


def panel(s: RallyState, bound: Bound) -> dict[str, Any]:
    return {
        "nothing": "Every attacking unit with morale hits has rolled its rally.",
        "rallied": len(s.rallied),
        "allowance": inches(s.allowance),
        "scale": s.game.get_ground_scale_display(),
        # each leader offered with what is left of his allowance: made only once the part is open
        "move_form": bound.get(MOVE_PREFIX) or partial(leader_move_form, s, None),
        "move_open": MOVE_PREFIX in bound,
        "move_action": address(s.game, "leader-move", s.game.piece),
        "moves": [f"{move.name} {inches(move.inputs.moved)}" for move in s.moves],
    }


STEP = Step(
    "games/steps/rally.html",
    state,
    pending,
    panel,
    rows=rows,
    form="games/rows/rally.html",
    opened=opened,
    idle=idle,
    parts=("leader-move",),
    actions=(
        RALLY,
        # one of the attacking side's leaders moved up to 2" in the rally step (R:352-354)
        Act("leader-move", "game", Who.PHASING, take_leader_move, MOVE_ELSEWHERE),
    ),
)
