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

from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from django import forms

from republic.games.events.command import LeaderMoved, RallyResolved
from republic.games.events.payload import read_all
from republic.games.forms import (
    DiceForm,
    Pick,
    PicksField,
    Refused,
    VersionForm,
    die_field,
    filled,
    inches_field,
    offer,
    offer_picks,
)
from republic.games.ledger import ActionRefused, act, acting_on
from republic.games.models import Command, Event, Game, Leader, Side, Unit, stored_label
from republic.games.pieces import Piece
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, current, unit_row
from republic.games.steps.logged import logged
from republic.games.text.terms import condition, inches
from republic.play.rally import RallyStep, leader_move, moved_before, relation
from republic.play.rally import rally as rally_of
from republic.prepared import prepared
from republic.rules.leaders import CommandRelation, gives_rally_bonus
from republic.rules.morale import Condition, condition_for
from republic.rules.rally import RallyInput, RallyLeader
from republic.rules.sequence import StepKey
from republic.rules.troops import Leader as LeaderValue
from republic.rules.troops import LeaderClass, UnitKind

PRINTED_CONDITIONS = [("", "use the app's chart")] + [(c.value, c.value.capitalize()) for c in Condition]


@dataclass(frozen=True)
class Helper:
    """One of the attacking side's leaders in action, as the step offers him: a few columns, not a row of the
    model (a club battle's side has over a hundred)."""

    pk: int
    name: str
    leader_class: str
    rating: int
    command: int
    command_name: str
    parent: int | None  # the command above his

    @property
    def value(self) -> LeaderValue:
        return LeaderValue(LeaderClass(self.leader_class), self.rating)

    def __str__(self) -> str:
        return f"{self.name} ({self.value})"


@dataclass(frozen=True)
class ToRally:
    """An attacking unit with morale hits as the step reads it: a few columns, its division and those above it, not
    a row of the model. A club battle's attacker has a hundred or more to rally, and every request of the step
    read them whole with their divisions at each version (15 ms at 1,000 units), though it draws forty rows at
    most and leaving the step needs only their names."""

    pk: int
    name: str
    kind: str
    grade: str
    m_hits: int
    bases: int
    bases_start: int
    division_id: int
    division_name: str
    # a division serves under a corps, or under the army itself (the scenario's levels only go down)
    parent: int | None
    parent_level: str | None
    grandparent: int | None

    @property
    def piece(self) -> Piece:
        return Piece("unit", self.pk)

    @property
    def condition(self) -> Condition:
        return condition_for(self.m_hits)

    @property
    def battery(self) -> bool:
        return self.kind == UnitKind.ARTILLERY

    @property
    def grade_label(self) -> str:
        return stored_label(self.grade)

    def relation(self, leader: Helper) -> CommandRelation:
        """How a leader stands to the unit, for the reach of his rally bonus (2.2)."""
        chain = [pk for pk in (self.division_id, self.parent, self.grandparent) if pk is not None]
        corps = self.parent if self.parent_level == Command.Level.CORPS else None
        return relation(chain, corps, leader.command, leader.parent)


@dataclass
class RallyState:
    game: Game
    to_rally: list[ToRally]  # the attacking units in play with M hits that have not rolled their rally, in order
    rallied: frozenset[str]  # the units that rolled their rally in this step
    moves: list[LeaderMoved]  # the leaders' moves of this step, in order

    @cached_property
    def due(self) -> dict[int, ToRally]:
        return {unit.pk: unit for unit in self.to_rally}

    @cached_property
    def leaders(self) -> list[Helper]:
        """The attacking side's leaders in action: read for a rally's form or a leader's move, not the page."""
        return [Helper(*row) for row in _LEADERS(self.game.pk, _pk(self.game.attacker))]

    @cached_property
    def allowance(self) -> float:
        """How far a leader moves in the rally step, at the game's scale (R:352-354, 1.2)."""
        return leader_move(self.game.chart, self.game.scale, (), 0).result.distance

    @property
    def moved(self) -> list[tuple[int, float]]:
        """The leaders' moves of this step as the core reads them: (leader, inches)."""
        return [(move.leader, move.inputs.moved) for move in self.moves]


@read_once
def state(game: Game) -> RallyState:
    events = logged(game, StepKey.RALLY, (RallyResolved, LeaderMoved))
    rallied = frozenset(event.unit for event in events if event.kind == RallyResolved.__name__ and event.unit)
    # the attacking units in play with M hits: the core (``due``) refuses a rally of any other when it is sent
    units = (ToRally(*row) for row in _WITH_HITS(game.pk, _pk(game.attacker)))
    return RallyState(game, [u for u in units if u.piece.key not in rallied], rallied, read_all(events, LeaderMoved))


def _pk(side: Side | None) -> int | None:
    return side.pk if side is not None else None


# read by every request of the step at each version, and each rally's form: their SQL is made once per process
_WITH_HITS = prepared(
    lambda game, side: (
        Unit.objects.filter(game=game, m_hits__gt=0)
        .of_side(side)
        .in_play()
        .in_battle_order()
        .select_related(None)
        .values_list(
            "pk",
            "name",
            "kind",
            "grade",
            "m_hits",
            "bases",
            "bases_start",
            "division_id",
            "division__name",
            "division__parent_id",
            "division__parent__level",
            "division__parent__parent_id",
        )
    )
)
_LEADERS = prepared(
    lambda game, side: (
        Leader.objects.filter(game=game)
        .of_side(side)
        .in_action()
        .order_by("command__order", "pk")
        .values_list("pk", "name", "leader_class", "rating", "command_id", "command__name", "command__parent_id")
    )
)


def pending(s: RallyState) -> list[str]:
    return [f"rally {u.name} ({condition(u.m_hits)})" for u in s.to_rally]


# why a leader's rally bonus does not reach a unit outside his own command (2.2, R:452-476): a rating of 3 or 4
# reaches every unit of the side
_OUT_OF_REACH = {
    False: "a leader rated 1 or less helps only the units of his own command (2.2)",
    True: "a leader rated 2 helps only the units of his own corps (2.2)",
}


@dataclass(frozen=True)
class Reach:
    """The side's leaders other than a unit's division leader: those whose rating reaches it, whom a rally asks
    about if they stand within 4", and those it does not, listed with why (they would add nothing)."""

    reaching: list[Helper]
    out: list[Refused]


def reach(unit: ToRally, leaders: list[Helper]) -> Reach:
    found = Reach([], [])
    for o in leaders:
        if o.command == unit.division_id:
            continue
        if gives_rally_bonus(o.rating, unit.relation(o)):
            found.reaching.append(o)
        else:
            found.out.append(Refused(str(o.pk), str(o), _OUT_OF_REACH[o.rating >= 2]))
    return found


class RallyForm(DiceForm):
    division_leader_distance = inches_field("Distance to the division leader (inches)", initial=0)
    leaders_within_4 = PicksField(
        label='Other leaders within 4"',
        required=False,
        what="leader",
        help_text="The leaders whose rating reaches this unit: corps and army leaders above it, rating 2 leaders "
        "of its corps, rating 3 and 4 leaders of the side (2.2).",
    )
    die = die_field()
    printed = forms.ChoiceField(
        label="Or: new condition from your printed chart", required=False, choices=PRINTED_CONDITIONS
    )

    def __init__(self, *args: Any, leaders: Reach, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        picks = [Pick(str(leader.pk), str(leader)) for leader in leaders.reaching]
        offer_picks(self, ["leaders_within_4"], picks, leaders.out)


def prefix(unit: Unit | ToRally) -> str:
    return unit.piece.prefix("rally")


def form(game: Game, unit: Unit | ToRally, leaders: Reach, data: Any = None) -> RallyForm:
    return RallyForm(data, prefix=prefix(unit), initial={"version": game.version}, leaders=leaders)


def rally(game: Game, unit: Unit | ToRally, form: RallyForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = f"{unit.name} has no rally to make now."
    with act(game, data["version"], actor, step=StepKey.RALLY, elsewhere=refusal) as action:
        s = state(action.game)
        listed = s.due.get(unit.pk) or _refuse(refusal)
        whole = current(unit.pk)
        leader = whole.division.leader or _refuse(f"{whole.division.name} has no leader to rally its units.")
        chosen = [o for o in reach(listed, s.leaders).reaching if str(o.pk) in data["leaders_within_4"]]
        printed = data.get("printed")
        inputs = RallyInput.of(
            whole.to_rules(),
            form.rolls("die")[0],
            leader.value,
            float(data["division_leader_distance"]),
            division_leader_hors_de_combat=leader.hors_de_combat,
            other_leaders=tuple(RallyLeader(o.value, listed.relation(o)) for o in chosen),
            scale=action.game.scale,
            printed=Condition(printed) if printed else None,
        )
        # the core refuses a unit that may not rally (out of play, without M hits, or rolled already)
        done = rally_of(action.game.chart, RallyStep((whole.to_rules(),), s.rallied), whole.key, inputs)
        action.apply(whole, done.unit)
        return action.record(
            RallyResolved(whole.key, whole.name, inputs, done.result, tuple(str(leader) for leader in chosen))
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
        (str(leader.pk), f"{leader} · {leader.command_name} · {inches(left[before[leader.pk]])} left")
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
        return action.record(LeaderMoved(leader.pk, leader.name, leader.command_name, move.inputs, move.result))


def _refuse(message: str) -> Any:
    raise ActionRefused(message)


def idle(s: RallyState) -> str:
    """A rally step with no attacking unit to rally has nothing for anyone: the leaders' 2" move is made "in order
    to place them near units under their command in need of rally support" (R:352-354), so with no such unit it
    has no purpose either, and the step passes by itself."""
    return "no attacking unit has morale hits to rally" if not (s.to_rally or s.rallied or s.moves) else ""


def rows(s: RallyState) -> list[Row]:
    return [
        unit_row(unit, f"{unit.grade_label}, {unit.m_hits} M · {unit.division_name}", "Rally", due=True)
        for unit in s.to_rally
    ]


def take_rally(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    s = state(game)
    listed = s.due.get(unit.pk)
    # a unit with no rally to make at this version is refused by the action: as stale, if it rallied since the form
    # was drawn, so its form takes any leader of the side
    leaders = reach(listed, s.leaders) if listed else Reach(s.leaders, [])
    with filled(form(game, unit, leaders, data)) as sent:
        return rally(game, unit, sent, actor)


def take_leader_move(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(leader_move_form(s, data)) as sent:
        return move_leader(game, sent, actor)


RALLY: Act = Act("rally", "unit", Who.OWNER, take_rally)


def opened(s: RallyState, row: Row, bound: Bound) -> dict[str, Any]:
    listed = s.due[Piece.at(row.subject).pk]
    return {
        "unit": current(listed.pk),
        "form": bound.get(prefix(listed)) or form(s.game, listed, reach(listed, s.leaders)),
        "action": address(s.game, "rally", listed.piece),
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
