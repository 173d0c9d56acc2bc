"""The attacker's move step as it stands: its units, the rolls made, the formation changes counted, and the
defending batteries that may make passing fire at them (R:1229-1237)."""

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property

from republic.games.events.maneuver import FormationChanged, ManeuverRolled, MountChanged
from republic.games.events.payload import named_in, payload_of
from republic.games.ledger import ActionRefused
from republic.games.models import Game, Leader, Side, Unit, UnitChoice
from republic.games.pieces import Piece
from republic.games.readings import read_once
from republic.games.steps.base import current
from republic.games.steps.logged import Logged, logged
from republic.play import move as play
from republic.play.refusal import Refused
from republic.prepared import prepared
from republic.rules.maneuver import ManeuverAction
from republic.rules.sequence import StepKey
from republic.rules.troops import UnitKind

ELSEWHERE = "Units move in the attacker's move step; the game is not there now."
ROW_FIELDS = (
    "name",
    "division_id",
    "kind",
    "m_hits",
    "bases",
    "bases_start",
    "formation",
    "battery_type",
    "limbered",
    "functions_used",
    "saved_fire",
)
"""What a unit's row in the move step shows."""


class Rolls(Mapping[str, ManeuverRolled]):
    """This step's maneuver rolls by unit, each decoded when first asked for. A club battle's attacker rolls for
    up to 200 units in the step, and every request of the step reads its state: decoding them all cost each
    poll, page and action 0.4 ms a roll (80 ms once 200 rolled), while a request draws 40 rows at most and a
    poll or a dice entry redraws a few."""

    def __init__(self, events: list[Logged]):
        # a later roll for the same unit (after an undo and a roll again) is the one that stands
        self._events = {event.unit: event for event in events if event.kind == ManeuverRolled.__name__ and event.unit}
        self._decoded: dict[str, ManeuverRolled] = {}

    def __getitem__(self, key: str) -> ManeuverRolled:
        if key not in self._decoded:
            payload = payload_of(self._events[key])
            assert isinstance(payload, ManeuverRolled)
            self._decoded[key] = payload
        return self._decoded[key]

    def __contains__(self, key: object) -> bool:
        return key in self._events

    def __iter__(self) -> Iterator[str]:
        return iter(self._events)

    def __len__(self) -> int:
        return len(self._events)


@dataclass
class MoveState:
    """The step as it stands, each part read when first asked for: an action on a defending unit (a dismount in
    reaction, 3.5) reads none of the attacker's."""

    game: Game

    @cached_property
    def _attacking(self) -> list[tuple[int, int, str]]:
        # every attacking unit is a row, but only the rows a request draws read what they show (``rows.fill``),
        # and only an opened row or an action reads its unit whole, with its division and leader (``moving``)
        return _ATTACKING(self.game.pk, _pk(self.game.attacker))

    @cached_property
    def units(self) -> dict[int, int]:
        """The attacker's units in play, brigades first, in battle order: each one's division."""
        return {pk: division for pk, division, _ in self._attacking}

    @cached_property
    def brigades(self) -> frozenset[int]:
        """The attacker's units in play that make a maneuver roll: all but its batteries, which record functions."""
        return frozenset(pk for pk, _, kind in self._attacking if kind != UnitKind.ARTILLERY)

    @cached_property
    def keys(self) -> frozenset[str]:
        """The attacker's units in play as the game's decisions name them: the units that move."""
        return frozenset(Piece("unit", pk).key for pk in self.units)

    @cached_property
    def core(self) -> play.MoveStep:
        """The units that move and those that rolled, as the game's decisions see the step: read for a roll."""
        return play.MoveStep(tuple(Piece("unit", pk).key for pk in self.units), frozenset(self.rolls))

    @cached_property
    def _events(self) -> list[Logged]:
        return logged(self.game, StepKey.MOVE, (ManeuverRolled, FormationChanged, MountChanged))

    @cached_property
    def rolls(self) -> Mapping[str, ManeuverRolled]:
        """This step's maneuver rolls, by unit."""
        return Rolls(self._events)

    @cached_property
    def formation_changes(self) -> Counter[str]:
        """This step's formation changes, mounting and dismounting too, by unit."""
        # mounting or dismounting "counts as a standard formation change" (3.5, R:819-820)
        kinds = (FormationChanged, MountChanged)
        return Counter(unit for kind in kinds for unit in named_in(self._events, kind, "unit"))

    @cached_property
    def passing(self) -> dict[int, int]:
        """The defender's batteries that may make passing fire, in battle order: each one's division."""
        # a defending battery that fired this turn fired passing fire: the artillery phase comes after this step
        return dict(_PASSING(self.game.pk, _pk(self.game.defender)))

    @cached_property
    def helpful_leaders(self) -> list[Leader]:
        """The attacker's energetic and proficient leaders in action: read for a roll's form, not the page."""
        return helpful_leaders(self.game, self.game.attacker)

    def targets(self) -> list[UnitChoice]:
        """The attacker's units in play, passing fire's targets: read when a battery's passing fire form is drawn
        or sent."""
        attacking = Unit.objects.filter(game=self.game).of_side(self.game.attacker).in_play()
        return attacking.order_by("division__order", "order").choices()

    def allowed(self, unit: Unit) -> tuple[ManeuverAction, ...] | None:
        """The actions the unit's roll this turn allows; None when it has not rolled."""
        rolled = self.rolls.get(unit.key)
        return rolled.result.actions if rolled else None


@read_once
def state(game: Game) -> MoveState:
    return MoveState(game)


def helpful_leaders(game: Game, side: Side | int | None) -> list[Leader]:
    """Friendly leaders in action whose class adds to a maneuver roll when within 2"."""
    return _HELPFUL(game.pk, _pk(side))


def _pk(side: Side | int | None) -> int | None:
    return side.pk if isinstance(side, Side) else side


# read by every request of the step at each version, and each roll's form: their SQL is made once per process
_ATTACKING = prepared(
    lambda game, side: (
        Unit.objects.filter(game=game)
        .of_side(side)
        .in_play()
        .in_battle_order()
        .select_related(None)
        .values_list("pk", "division_id", "kind")
    )
)
_PASSING = prepared(
    lambda game, side: (
        Unit.objects.filter(game=game)
        .of_side(side)
        .may_fire()
        .order_by("division__order", "order")
        .values_list("pk", "division_id")
    )
)
_HELPFUL = prepared(
    lambda game, side: Leader.objects.filter(game=game).of_side(side).in_action().energetic_or_proficient()
)


def passing(s: MoveState, unit: Unit) -> Unit:
    """The battery as it stands, whole, refused unless it is a defending battery that may make passing fire."""
    try:
        play.may_pass(frozenset(Piece("unit", pk).key for pk in s.passing), unit.key, unit.name)
    except Refused as refused:
        raise ActionRefused(str(refused)) from None
    return current(unit.pk)


def moving(s: MoveState, unit: Unit) -> Unit:
    """The unit as it stands, whole, refused unless it is one of the attacker's units in play."""
    try:
        play.moving(s.keys, unit.key, unit.name)
    except Refused as refused:
        raise ActionRefused(str(refused)) from None
    return current(unit.pk)
