"""The forms a page or fragment of the app draws, read from its HTML as a browser reads them: each form's address,
its fields with their values and choices (a select's options, a picker's radio and check boxes), its submit buttons,
and the element an htmx answer goes to (a step's row, for a form drawn in one). A die's pad of faces is read as the
number from 1 to 10 it sends, whether its faces are buttons or radios. The fuzzing tests and the random walk
post what the app really offers, so a form added to a step is walked the day it is drawn."""

import html
import random
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
NOT_OURS = ("/accounts/", "/admin/")  # Django's own sign-in and admin forms


@dataclass
class Field:
    name: str
    kind: str  # an input's type, or "select", "textarea"
    value: str = ""
    checked: bool = False
    options: list[str] = field(default_factory=list)  # a select's options
    multiple: bool = False
    minimum: str = ""
    maximum: str = ""


@dataclass
class Form:
    action: str
    fields: list[Field] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # submit buttons with a name: (name, value)
    target: str = ""  # the id of the element an htmx answer replaces, without '#'
    multipart: bool = False

    def named(self) -> dict[str, list[Field]]:
        """The fields by name: radio buttons and check boxes of one name are one field of the form."""
        found: dict[str, list[Field]] = {}
        for one in self.fields:
            found.setdefault(one.name, []).append(one)
        return found


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._open: list[tuple[str, str]] = []  # open elements and the hx-target each sets
        self._form: Form | None = None
        self._select: Field | None = None
        self._textarea: Field | None = None
        self._pad = False  # inside a die's pad (it holds no div of its own)

    def _die(self, name: str, value: str, chosen: bool) -> None:
        """A face of a die's pad: the pad is one number field, its value the face chosen."""
        assert self._form is not None
        pad = next((f for f in self._form.fields if f.name == name and f.maximum == "10"), None)
        if pad is None:
            pad = Field(name, "number", minimum="1", maximum="10")
            self._form.fields.append(pad)
        if chosen:
            pad.value = value

    def _target(self) -> str:
        return next((target for _, target in reversed(self._open) if target), "")

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attributes}
        if tag not in VOID:
            self._open.append((tag, a.get("hx-target", "")))
        if tag == "form":
            action = a.get("hx-post") or a.get("action", "")
            self._form = Form(html.unescape(action), target=self._target().lstrip("#"))
            self._form.multipart = a.get("enctype") == "multipart/form-data"
            if not action.startswith(NOT_OURS) and a.get("method", "get").lower() == "post":
                self.forms.append(self._form)
        elif tag == "div" and "die-pad" in a.get("class", "").split():
            self._pad = True
        elif self._form is None or "name" not in a:
            if tag == "option" and self._select is not None:
                self._select.options.append(a.get("value", ""))
                if "selected" in a:
                    self._select.value = a.get("value", "")
            return
        elif self._pad and tag in ("input", "button"):
            self._die(a["name"], a.get("value", ""), "checked" in a or a.get("aria-pressed") == "true")
        elif tag == "input":
            kind = a.get("type", "text")
            if kind == "submit":
                self._form.buttons.append((a["name"], a.get("value", "")))
                return
            self._form.fields.append(
                Field(
                    a["name"],
                    kind,
                    a.get("value", ""),
                    "checked" in a,
                    minimum=a.get("min", ""),
                    maximum=a.get("max", ""),
                )
            )
        elif tag == "button" and a.get("type", "submit") == "submit" and "disabled" not in a:
            self._form.buttons.append((a["name"], a.get("value", "")))  # a disabled one is never sent
        elif tag == "select":
            self._select = Field(a["name"], "select", multiple="multiple" in a)
            self._form.fields.append(self._select)
        elif tag == "textarea":
            self._textarea = Field(a["name"], "textarea")
            self._form.fields.append(self._textarea)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self._open:
            if self._open.pop()[0] == tag:
                break
        if tag == "form":
            self._form = None
        elif tag == "div":
            self._pad = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def forms_of(body: str) -> list[Form]:
    """The POST forms of a page or fragment of the app."""
    reader = _Reader()
    reader.feed(body)
    reader.close()
    return reader.forms


def as_sent(form: Form) -> dict[str, str | list[str]]:
    """What a browser sends for the form as drawn: every value, the checked boxes, the selected options."""
    data: dict[str, str | list[str]] = {}
    for name, found in form.named().items():
        first = found[0]
        if first.kind in ("checkbox", "radio"):
            chosen = [one.value for one in found if one.checked]
            if chosen:
                data[name] = chosen if first.kind == "checkbox" else chosen[0]
        elif first.kind != "file":
            data[name] = first.value
    return data


def filled(form: Form, rng: random.Random, die: int | None = None) -> dict[str, Any]:
    """The form as a player fills it: a d10's face (``die`` when given), one of the offered choices, a short
    distance, one of its submit buttons."""
    data: dict[str, Any] = dict(as_sent(form))
    for name, found in form.named().items():
        one = found[0]
        if one.kind == "number" and one.maximum == "10" and die is not None:
            data[name] = str(die)
        elif one.kind == "number":
            top = 10 if one.maximum == "10" else 2
            data[name] = str(rng.randint(int(float(one.minimum or 0)), top))
        elif one.kind == "select" and [o for o in one.options if o]:
            data[name] = rng.choice([o for o in one.options if o])
        elif one.kind in ("radio", "checkbox"):
            data[name] = rng.choice([f.value for f in found])
    if form.buttons:
        data.update([rng.choice(form.buttons)])
    return data
