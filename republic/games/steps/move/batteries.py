"""A battery in the attacker's move step (3.5): the movement functions it uses. Fire is recorded in the fire
phase; "it will fire this turn" checks the plan with fire kept last."""

from typing import Any

from django import forms

from republic.games.events.maneuver import BatteryFunctionsUsed
from republic.games.forms import VersionForm, filled
from republic.games.ledger import act
from republic.games.models import Event, Game, Unit
from republic.games.steps.move.state import ELSEWHERE, moving, state
from republic.play import move as play
from republic.rules.battery_functions import MOVEMENT_FUNCTIONS
from republic.rules.sequence import StepKey
from republic.rules.troops import BatteryFunction

FUNCTION_CHOICES = [("", "none")] + [(f.value, f.value.capitalize()) for f in MOVEMENT_FUNCTIONS]
ORDINALS = ("first", "second", "third", "fourth")


class BatteryFunctionsForm(VersionForm):
    will_fire = forms.BooleanField(
        label="It will fire in the fire phase this turn (keeps a function for it)", required=False
    )
    toward_enemy = forms.BooleanField(label="Its move or prolong heads toward an enemy", required=False)

    def __init__(self, *args: Any, slots: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slots = [f"function_{i + 1}" for i in range(slots)]
        for i, name in enumerate(self.slots):
            self.fields[name] = forms.ChoiceField(
                label=f"{ORDINALS[i].capitalize()} function", required=False, choices=FUNCTION_CHOICES
            )
        self.order_fields([*self.slots, "will_fire", "toward_enemy", "version"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["functions"] = tuple(BatteryFunction(cleaned[n]) for n in self.slots if cleaned.get(n))
        if not cleaned["functions"] and not self.errors:
            self.add_error(self.slots[0] if self.slots else None, "Choose the function(s) the battery used.")
        return cleaned


def available(game: Game, unit: Unit) -> int:
    return play.functions_of(game.chart, unit.to_rules())


def slots(game: Game, unit: Unit) -> int:
    """The functions the battery has left this turn."""
    return play.functions_left(game.chart, unit.to_rules())


def functions_form(game: Game, unit: Unit, data: Any = None) -> BatteryFunctionsForm:
    return BatteryFunctionsForm(
        data, prefix=unit.piece.prefix("functions"), slots=slots(game, unit), initial={"version": game.version}
    )


def take_functions(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    with filled(functions_form(game, unit, data)) as sent:
        return use_battery_functions(game, unit, sent, actor)


def use_battery_functions(game: Game, unit: Unit, form: BatteryFunctionsForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        battery = moving(state(action.game), unit)
        new, will_fire = data["functions"], bool(data.get("will_fire"))
        used = play.use_functions(
            action.game.chart,
            action.game.scale,
            battery.to_rules(),
            new,
            will_fire=will_fire,
            toward_enemy=bool(data.get("toward_enemy")),
        )
        action.apply(battery, used.unit)
        return action.record(
            BatteryFunctionsUsed(battery.key, battery.name, used.inputs, used.result, new, will_fire=will_fire)
        )
