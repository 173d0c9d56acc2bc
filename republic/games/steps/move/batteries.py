"""A battery in the attacker's move step (3.5): the movement functions it uses. Fire is recorded in the fire
phase; "it will fire this turn" checks the plan with fire kept last."""

from typing import Any

from django import forms

from republic.games.events.maneuver import BatteryFunctionsUsed
from republic.games.forms import VersionForm
from republic.games.ledger import act
from republic.games.models import Event, Game, Unit
from republic.games.steps.move.state import ELSEWHERE, moving, state
from republic.rules.battery_functions import (
    MOVEMENT_FUNCTIONS,
    BatteryFunctionsInput,
    after_battery_functions,
    functions_available,
    resolve_battery_functions,
)
from republic.rules.errors import RulesInputError
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
    return functions_available(game.chart, unit.horse)[0]


def slots(game: Game, unit: Unit) -> int:
    """The functions the battery has left this turn."""
    return max(0, available(game, unit) - len(unit.functions_used))


def functions_form(game: Game, unit: Unit, data: Any = None) -> BatteryFunctionsForm:
    return BatteryFunctionsForm(
        data, prefix=unit.piece.prefix("functions"), slots=slots(game, unit), initial={"version": game.version}
    )


def use_battery_functions(game: Game, unit: Unit, form: BatteryFunctionsForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.MOVE, elsewhere=ELSEWHERE) as action:
        battery = moving(state(action.game), unit)
        before = battery.to_rules()
        new = data["functions"]
        inputs = BatteryFunctionsInput.planned(
            before,
            new,
            will_fire=bool(data.get("will_fire")),
            toward_enemy=bool(data.get("toward_enemy")),
            scale=action.game.scale,
        )
        result = resolve_battery_functions(action.game.chart, inputs)
        if not result.allowed:
            raise RulesInputError(_field(result.index, len(before.functions_used), len(new)), result.problem)
        action.apply(battery, after_battery_functions(before, result, new))
        return action.record(
            BatteryFunctionsUsed(battery.key, battery.name, inputs, result, new, will_fire=bool(data.get("will_fire")))
        )


def _field(index: int | None, used: int, new: int) -> str:
    """The form field of the refused function: one of the new ones, or the fire kept for the fire phase."""
    if index is None:
        return ""
    return f"function_{index - used + 1}" if index - used < new else "will_fire"
