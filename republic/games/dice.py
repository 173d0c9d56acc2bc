"""Dice on forms: a die typed from a physical d10 (validated 1-10) or rolled by the app on request."""

import random

from django import forms

from republic.games.forms import VersionForm
from republic.rules.dice import Roll, RollSource

ROLL_FOR_ME = "app"
_SYSTEM_RANDOM = random.SystemRandom()


def die_field(label: str = "Die (1-10)") -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=1, max_value=10,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "class": "die-input",
                                        "min": 1, "max": 10}),
        error_messages={"min_value": "A d10 shows 1 to 10.", "max_value": "A d10 shows 1 to 10.",
                        "invalid": "Type the number on the die, 1 to 10."},
    )


class DiceForm(VersionForm):
    """Base of every form that takes dice. Subclasses list their die fields in ``dice_fields``; pressing
    "Roll for me" (a submit button named ``roll`` with value ``app``) rolls every one of them instead."""

    dice_fields: tuple[str, ...] = ("die",)

    def __init__(self, *args, rng=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.rng = rng or _SYSTEM_RANDOM

    def clean(self):
        cleaned = super().clean()
        app = self.data.get("roll") == ROLL_FOR_ME
        for name in self.dice_fields:
            if app:
                cleaned[name] = Roll((self.rng.randint(1, 10),), RollSource.APP)
                self.errors.pop(name, None)
            elif name in self.errors:
                continue
            elif cleaned.get(name) is None:
                self.add_error(name, "Type the die (1-10) or press Roll for me.")
            else:
                cleaned[name] = Roll((cleaned[name],), RollSource.TYPED)
        return cleaned

    def rolls(self, *names: str) -> list[Roll]:
        return [self.cleaned_data[n] for n in (names or self.dice_fields)]
