"""What the load benchmark's phones (tests/load_devices.py) read in the pages and fragments the server draws: the
forms with what a browser would send for each, a refusal's reason, the poll's address and the game's version."""

import html
import re
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser

_POLL_URL = re.compile(r'id="poll"[^>]*?hx-get="([^"]+)"')
_ERROR = re.compile(r'id="error"[^>]*>([^<]*)<')
_DIE = re.compile(r"(?:^|-)die\d*$")


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)  # what the form sends as drawn
    dice: list[str] = field(default_factory=list)
    button: tuple[str, str] | None = None
    die_faces: bool = False  # its die is one of ten buttons, the one pressed sent alone


class _Forms(HTMLParser):
    """The forms of a fragment with what a browser would send for each as drawn: hidden and filled fields,
    checked boxes, each select's selected (or first) option, the first named submit button; a die drawn as ten
    buttons is one of the dice, and pressing one sends it in place of that submit button."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attributes}
        if tag == "form":
            self._form = Form(a.get("hx-post") or a.get("action", ""))
            self.forms.append(self._form)
        form = self._form
        if form is None:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if _DIE.search(name):
                form.dice.append(name)
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
            elif kind not in ("submit", "button") and a.get("value"):
                form.fields.append((name, a["value"]))
        elif tag == "button" and _DIE.search(name):
            form.die_faces = True
            if name not in form.dice:
                form.dice.append(name)
        elif tag == "button" and name and form.button is None and a.get("type", "submit") == "submit":
            form.button = (name, a.get("value", ""))
        elif tag == "select" and name:
            self._select, self._options = name, []
        elif tag == "option" and self._select is not None:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None and self._form is not None:
            chosen = next(
                (v for v, selected in self._options if selected), self._options[0][0] if self._options else ""
            )
            if chosen:
                self._form.fields.append((self._select, chosen))
            self._select = None


def forms_of(text: str) -> list[Form]:
    reader = _Forms()
    reader.feed(text)
    return reader.forms


def refusal(text: str) -> str:
    found = _ERROR.search(text)
    if found:
        return html.unescape(found.group(1)).strip()
    return "a field in error" if "is-invalid" in text else ""


def poll_address(text: str) -> str | None:
    """The address the poll an answer draws asks next (``#poll`` in the step bar), None when it draws no poll."""
    found = _POLL_URL.search(text)
    return html.unescape(found.group(1)) if found else None


def version_in(text: str) -> int | None:
    """The game's version an answer shows: the ``since`` of the poll it draws, None when it draws no poll."""
    since = urllib.parse.parse_qs(urllib.parse.urlsplit(poll_address(text) or "").query).get("since")
    return int(since[0]) if since and since[0].isdigit() else None
