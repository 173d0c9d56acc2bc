"""The attacker's move step as it stands: its units, the rolls made, the formation changes counted."""

from collections import Counter
from dataclasses import dataclass

from republic.games.events import FormationChanged, ManeuverRolled, read_all
from republic.games.ledger import ActionRefused, read_once, this_turn
from republic.games.models import Game, Leader, Side, Unit
from republic.rules.maneuver import ManeuverAction
from republic.rules.sequence import StepKey

ELSEWHERE = "Units move in the attacker's move step; the game is not there now."


@dataclass
class MoveState:
    game: Game
    units: list[Unit]  # the attacker's units in play, brigades first
    rolls: dict[str, ManeuverRolled]  # this step's maneuver rolls, by unit
    formation_changes: Counter[str]  # this step's formation changes, by unit
    helpful_leaders: list[Leader]  # the attacker's energetic and proficient leaders in action

    def allowed(self, unit: Unit) -> tuple[ManeuverAction, ...] | None:
        """The actions the unit's roll this turn allows; None when it has not rolled."""
        rolled = self.rolls.get(unit.key)
        return rolled.result.actions if rolled else None


@read_once
def state(game: Game) -> MoveState:
    # no leaders here: only an opened row or an action reads one unit's division leader (one query), and
    # prefetching them for 200 units costs more than the rest of the page
    units = list(Unit.objects.filter(game=game).of_side(game.attacker).in_play().in_battle_order())
    events = list(this_turn(game, [StepKey.MOVE], [ManeuverRolled, FormationChanged]))
    rolls = {rolled.unit: rolled for rolled in read_all(events, ManeuverRolled)}
    changes = Counter(changed.unit for changed in read_all(events, FormationChanged))
    return MoveState(game, units, rolls, changes, helpful_leaders(game, game.attacker))


def helpful_leaders(game: Game, side: Side | int | None) -> list[Leader]:
    """Friendly leaders in action whose class adds to a maneuver roll when within 2"."""
    return list(Leader.objects.filter(game=game).of_side(side).in_action().energetic_or_proficient())


def moving(s: MoveState, unit: Unit) -> Unit:
    """The unit as it stands, refused unless it is one of the attacker's units in play."""
    found = next((u for u in s.units if u.pk == unit.pk), None)
    if found is None:
        raise ActionRefused(f"{unit.name} is not an attacking unit in play: it does not move this turn.")
    return found
