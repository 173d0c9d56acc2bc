"""A defending battery's passing fire during the attacker's move (4.5, R:1229-1237): at an enemy unit about to move
out of its arc of fire, -2 on the die, its saved fire used when it has one. The engine resolves it as any artillery
fire (see ``republic.rules.artillery`` for the readings): its hits land at once, during the move, and the battery
has made its one fire of the player turn, so the artillery step neither offers it fire nor lets it save fire."""

from typing import Any

from republic.games.events.fire import PassingFireConducted
from republic.games.forms import filled
from republic.games.ledger import act
from republic.games.models import Event, Game, Unit
from republic.games.pieces import Piece
from republic.games.steps.base import Bound, address
from republic.games.steps.battery_fire import TARGET_FIELDS, PassingFireForm, aim, from_state, point_blank
from republic.games.steps.fire_hits import put_on
from republic.games.steps.move.state import MoveState, passing, state
from republic.games.text.terms import condition
from republic.rules.artillery import after_firing
from republic.rules.fire_results import TargetRole
from republic.rules.sequence import StepKey

ELSEWHERE = "Passing fire is made during the attacker's move; the game is not there now."


def passing_form(s: MoveState, battery: Unit, data: Any = None) -> PassingFireForm:
    return PassingFireForm(
        data,
        prefix=battery.piece.prefix("passing"),
        initial={"version": s.game.version},
        targets=s.targets(),
        point_blank=point_blank(s.game.chart, s.game.scale),
    )


def take_passing_fire(game: Game, battery: Unit, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(passing_form(s, battery, data)) as sent:
        return conduct_passing_fire(game, battery, sent, actor)


def conduct_passing_fire(game: Game, battery: Unit, form: PassingFireForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        firing = passing(state(action.game), battery)
        keys = [Piece.at(key).pk for name in TARGET_FIELDS if (key := data.get(name))]
        attacking = Unit.objects.filter(game=action.game, pk__in=keys).of_side(action.game.attacker).in_play()
        # no hit of the fire phase waits yet: the move comes before it
        fire = aim(action.game, form, firing, (), {u.key: u for u in attacking}, {}, passing_fire=True)
        action.apply(firing, after_firing(firing.to_rules()))
        landed = put_on(action, fire.landing())
        named = fire.named
        return action.record(
            PassingFireConducted(
                firing.key,
                firing.name,
                named[TargetRole.MAIN],
                named.get(TargetRole.TANDEM),
                named.get(TargetRole.ADJACENT),
                compound=named.get(TargetRole.COMPOUND),
                inputs=fire.inputs,
                printed=fire.printed,
                result=fire.result,
                shared=fire.shared,
                landed=landed,
            )
        )


def card(s: MoveState, battery: Unit, bound: Bound) -> dict[str, Any]:
    """A defending battery's row, open: its passing fire form."""
    prefix = battery.piece.prefix("passing")
    return {
        "passing": True,
        "unit": battery,
        "key": battery.key,
        "condition": condition(battery.m_hits),
        "from_state": from_state(s.game.chart, battery),
        "form": bound.get(prefix) or passing_form(s, battery),
        "action": address(s.game, "passing-fire", battery.piece),
    }
