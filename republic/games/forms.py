"""Form pieces every action shares: the game version a form was drawn for, a form filled in as its action needs
(``filled``), dice, counts and choices, and the words of a panic loss condition."""

import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any, NamedTuple, TypeVar

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString, mark_safe

from republic.rules.chart import Chart
from republic.rules.dice import RandomSource, Roll, RollSource
from republic.rules.errors import RulesInputError

ROLL_FOR_ME = "app"
_SYSTEM_RANDOM = random.SystemRandom()
MOST_WHOLE = 999_999_999
"""Beyond any count, version or id of a game, and within what every database's integer columns hold."""
F = TypeVar("F", bound=forms.Form)


def whole_number(text: str, most: int = MOST_WHOLE) -> int | None:
    """A whole number from 0 to ``most`` as a phone sends one, in the digits 0-9; None for anything else. (Python's
    own ``isdigit`` also takes ² or ٣, which ``int`` then refuses.)"""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        return None
    value = int(text)
    return value if value <= most else None


class VersionForm(forms.Form):
    """Every action form carries the game version it was drawn for, so a stale form changes nothing."""

    version = forms.IntegerField(widget=forms.HiddenInput)


class Unfilled(Exception):
    """A form not filled in as its action needs (its errors say where): it is drawn again with them."""

    def __init__(self, form: forms.Form) -> None:
        self.form = form
        super().__init__("The form was not filled in as its action needs.")


@contextmanager
def filled(form: F) -> Iterator[F]:
    """The form, when it is valid, for the action in the block; otherwise ``Unfilled``. The engine's refusal of
    an input inside the block is put on the field it names and the form is ``Unfilled`` too."""
    if not form.is_valid():
        raise Unfilled(form)
    try:
        yield form
    except RulesInputError as exc:
        form.add_error(_field_named(form, exc.field), exc.problem)
        raise Unfilled(form) from exc


def _field_named(form: forms.Form, name: str) -> str | None:
    """The form field an engine error names ('targets[1].bases' is the targets field); None (the form's own
    error) when the form has no such field."""
    base = (name or "").split("[")[0].split(".")[0]
    return base if base in form.fields else None


FACES = range(1, 11)
"""The faces of the d10 the table rolls."""


def die_field(label: str = "Die (1-10)") -> forms.IntegerField:
    """A die rolled on the table, sent as the face the player taps on its pad (templatetags/dice.py), checked
    1-10."""
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=FACES[0],
        max_value=FACES[-1],
        error_messages={
            "min_value": "A d10 shows 1 to 10.",
            "max_value": "A d10 shows 1 to 10.",
            "invalid": "A d10 shows a whole number, 1 to 10.",
        },
    )


def count_field(label: str, help_text: str = "", top: int = 9) -> forms.IntegerField:
    """A small whole number the table counts on the table."""
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=top,
        initial=0,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 0, "max": top}),
        error_messages={
            "min_value": f"0 to {top}.",
            "max_value": f"0 to {top}.",
            "required": "Type a number (0 if none).",
        },
    )


def inches_field(
    label: str, help_text: str = "Measured on the table, in this game's scale.", **kwargs: Any
) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, min_value=0, max_value=99, max_digits=5, decimal_places=2, help_text=help_text, **kwargs
    )


def offer(form: forms.Form, name: str, choices: Any) -> None:
    """Give a choice field of a form the choices of the game at hand; a list of many is drawn in one pass."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{name} is not a choice field")
    if type(field.widget) is forms.Select and len(choices) > AS_BOXES:
        field.widget = ListedChoice(attrs=field.widget.attrs)
    field.choices = choices


AS_BOXES = 12  # choices a multiple choice shows as check boxes; more are a list to pick from


class ListedChoice(forms.Select):
    """A choice from a list drawn in one pass: Django draws each option through a template of its own, and a
    hundred leaders cost more than the rest of the form."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        chosen = set(self.format_value(value))
        # escaped as plain text in one pass, not through format_html per option: a side's 130 leaders
        options = "".join(
            f'<option value="{html_text(key)}"{" selected" if str(key) in chosen else ""}>{html_text(label)}</option>'
            for key, label in self.choices
        )
        return format_html(
            "<select{}>{}</select>", flatatt({"name": name, **self.build_attrs(self.attrs, attrs)}), mark_safe(options)
        )


def html_text(text: object) -> str:
    """Text as HTML, text already safe kept as it is (as Django's escaping does)."""
    return str(text) if isinstance(text, SafeData) else escape(str(text), quote=True)


class PickList(ListedChoice, forms.SelectMultiple):
    """A multiple choice as the phone's own pick list (``offer_many``)."""


def offer_many(form: forms.Form, name: str, choices: Any) -> None:
    """Give a multiple choice field its choices: check boxes for a few, and for a club battle's dozens (leaders,
    units) the phone's own pick list, not dozens of rows of boxes."""
    if len(choices) > AS_BOXES:
        form.fields[name].widget = PickList(attrs={"class": "form-select", "size": 6, "multiple": True})
    offer(form, name, choices)  # after the widget: the field hands its choices to its widget


class Pick(NamedTuple):
    """One unit, leader, division or marker to choose: the key a form sends ('unit:12'), its name as the app shows
    it, the group it is listed under (its division) and a note on how it stands now. A tuple: a club battle's
    declaration makes a thousand, and a picker looks each up among the choices it has drawn before."""

    key: str
    name: str
    group: str = ""
    note: str = ""


@dataclass(frozen=True)
class Refused:
    """One that may not take the part, with why, as the rules say it."""

    key: str
    name: str
    why: str


PICK_GROUPS = 12  # choices a picker lists whole; more are grouped by division, each group folded, with a filter


@lru_cache(maxsize=16_384)
def _plain(text: str) -> str:
    """A name as a phone may send it: its spaces, case and apostrophes (a phone's curly one) do not matter. Made
    once for each name a server process meets: a picker of a club battle's side keys its 500 names so."""
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").split()).casefold()


class Picker(forms.Widget):
    """A picker, drawn in one pass by ``{% pick %}`` (templatetags/picks.py) with its label, errors and those not
    offered: a fire row offers a side's 200 units, and Django's template per option costs more than the form."""

    many = False

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        if self.many and hasattr(data, "getlist"):
            return data.getlist(name)
        return data.get(name)

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return False  # an unchecked box sends nothing, and nothing chosen is an answer

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        raise TypeError("a picker is drawn with {% pick %}, which gives it its errors and label")


class Pickers(Picker):
    many = True


class PickField(forms.Field):
    """One unit (leader, division, marker) among those offered (``offer_picks``), chosen by tap: it cleans to the
    chosen one's key. A name sent by an older page is still taken, whatever its apostrophes."""

    widget = Picker
    default_error_messages = {"required": "Choose one from the list."}

    def __init__(self, *, what: str = "unit", refusal: str = "{name} is not offered: {why}.", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.what = what
        self.refusal = refusal  # what a choice not offered is refused with, naming it and why
        self.picks: Sequence[Pick] = ()
        self.refused: Sequence[Refused] = ()
        self.keys: dict[str, str] = {}
        self.aside: Callable[[Pick, bool], SafeString] | None = None  # what a choice shows beside it once chosen
        # an aside that reads nothing of its choice but the key: a grouped list draws it for the chosen alone, and
        # a script draws it for one ticked (templatetags/picks.py)
        self.aside_by_key = False

    def offer(self, picks: Sequence[Pick], refused: Sequence[Refused] = (), keys: dict[str, str] | None = None) -> None:
        """Offer ``picks``; ``keys``: their keys by key and by name, made already for another picker of them."""
        self.picks, self.refused = picks, refused
        if keys is None:
            keys = {p.key: p.key for p in picks}
            keys.update({_plain(p.name): p.key for p in picks})
        self.keys = keys

    def join(self, *pickers: "PickField") -> None:
        """Offer what ``pickers`` offer, together: a choice made of any one of theirs (a contact ticked general)."""
        self.offer(
            [p for picker in pickers for p in picker.picks],
            [r for picker in pickers for r in picker.refused],
            {key: found for picker in pickers for key, found in picker.keys.items()},
        )

    def key_of(self, text: str) -> str | None:
        """The key of the choice sent, by its key or its name; None when it is not offered."""
        return self.keys.get(text) or self.keys.get(_plain(text))

    def _one(self, value: Any) -> str:
        text = " ".join(str(value).split())
        key = self.key_of(text)
        if key is None:
            refused = next((r for r in self.refused if text == r.key or _plain(text) == _plain(r.name)), None)
            if refused:
                raise forms.ValidationError(self.refusal.format(name=refused.name, why=refused.why))
            if re.fullmatch(r"([a-z]+[:-])?\d+(#\d+)?", text):  # a key or id: of another game or side, or not allowed
                raise forms.ValidationError(f"That {self.what} is not one to choose here: choose one from the list.")
            raise forms.ValidationError(f"No {self.what} to choose here is called “{text[:80]}”: choose one listed.")
        return key

    def clean(self, value: Any) -> Any:
        text = " ".join(str(value or "").split())
        if not text:
            if self.required:
                raise forms.ValidationError(self.error_messages["required"], code="required")
            return ""
        return self._one(text)


class PicksField(PickField):
    """Several among those offered, each by a tap: cleans to their keys, in the order offered."""

    widget = Pickers
    default_error_messages = {"required": "Choose at least one."}

    def clean(self, value: Any) -> Any:
        sent = [v for v in (value if isinstance(value, list | tuple) else [value]) if str(v or "").strip()]
        if not sent and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        chosen = {self._one(v) for v in sent}
        return [p.key for p in self.picks if p.key in chosen]


def offer_picks(form: forms.Form, names: Sequence[str], picks: Sequence[Pick], refused: Sequence[Refused] = ()) -> None:
    """Give the pickers ``names`` of a form what they may choose, and what is not offered with why."""
    keys = None  # made for the first, shared by the others: a club battle's side offers 500 units
    for name in names:
        field = form.fields[name]
        if not isinstance(field, PickField):
            raise TypeError(f"{name} is not a picker")
        field.offer(picks, refused, keys)
        keys = field.keys


class DiceForm(VersionForm):
    """Base of every form that takes dice. Subclasses list their die fields in ``dice_fields``; pressing
    "Roll for me" (a submit button named ``roll`` with value ``app``) rolls every one of them instead, once no
    face is chosen: a die the table rolled is never thrown away for the app's. Pressed with a face chosen, it is
    refused naming the face, and the form comes back with that face no longer chosen (``cleared``), so that
    pressing it again is the player's own choice to let the app roll."""

    dice_fields: tuple[str, ...] = ("die",)

    def __init__(self, *args: Any, rng: RandomSource | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rng = rng or _SYSTEM_RANDOM
        self.cleared: set[str] = set()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        app = self.data.get("roll") == ROLL_FOR_ME
        typed = {name: self._typed(name) for name in self.dice_fields} if app else {}
        if any(typed.values()):
            # The table rolled a real die and chose its face: the whole action waits rather than mix or drop dice.
            for name, text in typed.items():
                if text:
                    self.errors.pop(name, None)
                    self.cleared.add(name)
                    self.add_error(
                        name,
                        f"You chose {text[:12]} on this die, so the app did not roll: tap the face you rolled to "
                        "send it, or press Roll for me again to let the app roll.",
                    )
            return cleaned
        for name in self.dice_fields:
            if app:
                cleaned[name] = Roll((self.rng.randint(1, 10),), RollSource.APP)
                self.errors.pop(name, None)
            elif name in self.errors:
                continue
            elif cleaned.get(name) is None:
                self.add_error(name, "Tap the die you rolled (1-10), or press Roll for me.")
            else:
                cleaned[name] = Roll((cleaned[name],), RollSource.TYPED)
        return cleaned

    def rolls(self, *names: str) -> list[Roll]:
        return [self.cleaned_data[n] for n in (names or self.dice_fields)]

    def _typed(self, name: str) -> str:
        """The face the phone sent for a die, as sent; empty when none was chosen."""
        return str(self.data.get(self.add_prefix(name), "")).strip()


def loss_labels(form: forms.Form, chart: Chart, labels: Mapping[str, str]) -> None:
    """Each retreat-or-rout condition labelled with the bases it adds to the loss, as the game's chart has it."""
    for name, words in labels.items():
        bases = chart.entry("panic_loss_modifiers", name)[0]
        form.fields[name].label = f"{words} (+{bases} base{'' if bases == 1 else 's'} lost)"
