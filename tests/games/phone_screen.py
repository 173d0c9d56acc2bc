"""A phone's game page as htmx leaves it: the page drawn once, then every answer to the phone's own requests swapped
in as htmx swaps it (the answer into its target, or where HX-Retarget and HX-Reswap send it; each out-of-band piece
in place of the element of its id), with the headers static/js/republic.js sends. What the phone shows can then be
held against a fresh reload of the page (``seen``).

A row's form is only on the screen once the row is open, a folded part's or a fold's once it is open: ``post`` taps
the row (and its folds, or opens the parts) first when the form is not shown, as a player does, and sends the
version and fields the form on the screen carries."""

import re
import xml.etree.ElementTree as ET
from typing import Any

import tinyhtml5

from republic.games.pieces import Piece
from tests.games.conftest import HTMX

NS = "{http://www.w3.org/1999/xhtml}"
CSRF = "csrfmiddlewaretoken"


def parse(html: str) -> list[ET.Element]:
    """The top-level elements of an HTML fragment."""
    return list(tinyhtml5.parse(f"<body>{html}</body>").find(f"{NS}body") or [])


def text(element: ET.Element | None) -> str:
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def text_around(element: ET.Element | None, ident: str) -> str:
    """An element's words but those of its descendant of id ``ident``."""
    if element is None:
        return ""
    copy = ET.fromstring(ET.tostring(element))
    parents = {child: parent for parent in copy.iter() for child in parent}
    inner = copy.find(f".//*[@id='{ident}']")
    if inner is not None:
        parents[inner].remove(inner)
    return text(copy)


def head_text(link: ET.Element | None) -> str:
    """A row head's words without its verb, which says "Close" while the row is open."""
    if link is None:
        return ""
    words: list[str] = []

    def walk(element: ET.Element) -> None:
        if "work-verb" in element.get("class", ""):
            return
        words.append(element.text or "")
        for child in element:
            walk(child)
            words.append(child.tail or "")

    walk(link)
    return " ".join("".join(words).split())


class Screen:
    def __init__(self, client: Any, game_url: str):
        self.client, self.game_url = client, game_url
        self.load()

    def load(self) -> None:
        self.live = self.drawn()

    def drawn(self) -> ET.Element:
        response = self.client.get(self.game_url)
        assert response.status_code == 200
        found = tinyhtml5.parse(response.content.decode()).find(f".//{NS}div[@id='live']")
        assert found is not None
        return found

    # --- finding things on the screen ---

    def _parents(self) -> dict[ET.Element, ET.Element]:
        return {child: parent for parent in self.live.iter() for child in parent}

    def by_id(self, ident: str) -> ET.Element | None:
        if self.live.get("id") == ident:
            return self.live
        return self.live.find(f".//*[@id='{ident}']")

    def form_for(self, url: str) -> ET.Element | None:
        return next((f for f in self.live.iter(f"{NS}form") if f.get("hx-post", f.get("action")) == url), None)

    def rows(self) -> list[ET.Element]:
        listed = self.by_id("work-list")
        return [li for li in listed if (li.get("id") or "").startswith("row-")] if listed is not None else []

    def parts(self) -> list[ET.Element]:
        """The folded parts of the step's panel (``<details data-part>``)."""
        return [d for d in self.live.iter(f"{NS}details") if d.get("data-part") is not None]

    def open_parts(self) -> None:
        """Open every folded part of the panel that is closed, as a tap on its summary does: its form is fetched."""
        for part in self.parts():
            if part.get("open") is None and part.get("hx-get"):
                part.set("open", "")
                ident = part.get("id", "")
                response = self.client.get(part.get("hx-get"), **self.headers(ident))
                self.swap(response, ident, "outerHTML")

    def open_folds(self, subject: str, url: str) -> ET.Element | None:
        """Open the folds of an open row's form, as taps on their summaries do (each is fetched), until the form of
        ``url`` shows."""
        row = self.by_id(f"row-{subject}")
        for fold in list(row.iter(f"{NS}details")) if row is not None else []:
            if fold.get("open") is None and "?fold=" in (fold.get("hx-get") or ""):
                ident = fold.get("id", "")
                self.swap(self.client.get(fold.get("hx-get"), **self.headers(ident)), ident, "outerHTML")
                if (form := self.form_for(url)) is not None:
                    return form
        return None

    def _inherited(self, element: ET.Element, name: str) -> str | None:
        parents = self._parents()
        at: ET.Element | None = element
        while at is not None:
            if at.get(name) is not None:
                return at.get(name)
            at = parents.get(at)
        return None

    # --- the phone's requests ---

    def headers(self, target: str | None) -> dict[str, str]:
        rows = self.rows()
        bar = self.by_id("step-bar")
        headers = {
            **HTMX,
            "HTTP_ROWS_SHOWN": " ".join(li.get("id", "")[4:] for li in rows),
            "HTTP_ROWS_OPEN": " ".join(li.get("id", "")[4:] for li in rows if "is-open" in li.get("class", "")),
            "HTTP_PARTS_OPEN": " ".join(d.get("id", "")[5:] for d in self.parts() if d.get("open") is not None),
        }
        if bar is not None and bar.get("data-drawn"):
            headers["HTTP_DRAWN"] = bar.get("data-drawn", "")
        if target:
            headers["HTTP_HX_TARGET"] = target
        return headers

    def tap_row(self, subject: str) -> None:
        row = self.by_id(f"row-{subject}")
        assert row is not None, f"the phone shows no row {subject}"
        link = row.find(f"{NS}a")
        assert link is not None and link.get("hx-get")
        response = self.client.get(link.get("hx-get"), **self.headers(f"row-{subject}"))
        self.swap(response, f"row-{subject}", "outerHTML")

    def post(self, url: str, data: dict[str, Any]) -> Any:
        """Send the form of ``url`` the screen shows (tapping its row open first when it is closed), with the
        given fields over the form's own hidden ones, and swap the answer in."""
        form = self.form_for(url)
        if form is None:
            # the row of the piece the action is about: named in its address ('/act/rally/unit-12/'), or by the
            # number in an older address ('/assault/21/round/')
            piece = Piece.of(url.rstrip("/").rsplit("/", 1)[1])
            number = re.search(r"/(\d+)/", url.split("/games/", 1)[1].split("/", 1)[1])
            subjects = [li.get("id", "")[4:] for li in self.rows()]
            match = [
                s for s in subjects if (piece and s == piece.name) or (number and s.endswith(f"-{number.group(1)}"))
            ]
            if len(match) == 1:
                self.tap_row(match[0])
                form = self.form_for(url) or self.open_folds(match[0], url)
            else:
                self.open_parts()
                form = self.form_for(url)
        assert form is not None, f"the phone shows no form for {url}"
        hidden = {
            i.get("name"): i.get("value", "")
            for i in form.iter(f"{NS}input")
            if i.get("type") == "hidden" and i.get("name") and i.get("name") != CSRF
        }
        versions = {name: value for name, value in hidden.items() if name.endswith("version")}
        sent = {**data, **versions}
        target = (self._inherited(form, "hx-target") or "").lstrip("#") or None
        swap = self._inherited(form, "hx-swap") or "innerHTML"
        response = self.client.post(url, sent, **self.headers(target))
        self.swap(response, target, swap)
        return response

    def swap(self, response: Any, target: str | None, swap: str) -> None:
        assert response.status_code in (200, 204, 286), response.status_code
        if response.headers.get("HX-Redirect") or response.status_code == 204:
            if response.headers.get("HX-Redirect"):
                self.load()
            return
        target = (response.headers.get("HX-Retarget") or (f"#{target}" if target else "#live")).lstrip("#")
        swap = response.headers.get("HX-Reswap", swap).split()[0]
        pieces = parse(response.content.decode())
        main = []
        for piece in pieces:
            oob = piece.get("hx-swap-oob")
            if oob is None:
                main.append(piece)
            elif oob == "delete":
                self._replace(piece.get("id", ""), [])
            else:
                del piece.attrib["hx-swap-oob"]
                self._replace(piece.get("id", ""), [piece])
        if swap != "none":
            self._into(target, swap, main)
        for ahead in [e for e in self.live.iter() if e.get("data-next") is not None and e.get("hx-trigger") == "load"]:
            # the player's next work, which the phone fetches open as it arrives (hx-trigger="load")
            ident = ahead.get("id", "")
            self.swap(self.client.get(ahead.get("hx-get"), **self.headers(ident)), ident, "outerHTML")

    def _into(self, target: str, swap: str, main: list[ET.Element]) -> None:
        assert swap in ("outerHTML", "innerHTML"), swap
        if swap == "outerHTML":
            self._replace(target, main)
        else:
            into = self.by_id(target)
            assert into is not None, target
            tail = into.get("id")
            into.clear()
            into.set("id", tail or "")
            into.extend(main)

    def _replace(self, ident: str, by: list[ET.Element]) -> None:
        if self.live.get("id") == ident:
            assert len(by) == 1
            self.live = by[0]
            return
        parents = self._parents()
        old = self.by_id(ident)
        if old is None:
            return  # htmx drops a piece whose place the page does not have
        parent = parents[old]
        place = list(parent).index(old)
        parent.remove(old)
        for offset, element in enumerate(by):
            parent.insert(place + offset, element)

    # --- what the player sees ---

    def seen(self) -> dict[str, Any]:
        return seen(self.live)


def folded(element: ET.Element | None) -> ET.Element | None:
    """A copy of the element with the panel's parts folded to their summaries: whether a part is open is the
    player's, not the game's."""
    if element is None:
        return None
    copy = ET.fromstring(ET.tostring(element))
    for part in copy.iter(f"{NS}details"):
        if part.get("data-part") is not None:
            for child in list(part):
                if child.tag != f"{NS}summary":
                    part.remove(child)
    return copy


def seen(live: ET.Element) -> dict[str, Any]:
    """What a player reads on the game page, and what its forms would send: the step's title and panel, the last
    result, the work left (rows, as their heads say, and how many more), what the step bar says and polls with,
    and the version every form carries. A row's open or closed state is the player's, not the game's; the line a
    finished row leaves where it was ("is-done") is the answer to the player's own tap, and shows the result the
    result card shows."""
    listed = live.find(".//*[@id='work-list']")
    rows = [li for li in listed if (li.get("id") or "").startswith("row-")] if listed is not None else []
    heads = [
        (li.get("id"), li.get("class", "").replace(" is-open", ""), head_text(li.find(f"{NS}a")))
        for li in rows
        if "is-done" not in li.get("class", "")
    ]
    more = live.find(".//*[@id='work-more']")
    counted = re.search(r"\((\d+) left\)", text(more))
    left = int(counted.group(1)) if counted else 0
    head = live.find(".//*[@id='step-head']")
    bar = live.find(".//*[@id='step-bar']")
    poll = live.find(".//*[@id='poll']")
    versions = sorted(
        {i.get("value", "") for i in live.iter(f"{NS}input") if (i.get("name") or "").endswith("version")}
    )
    return {
        "title": text(live.find(".//*[@id='step-title']")),
        "result": text(live.find(".//*[@id='result-slot']")),
        "head": text_around(folded(head), "work-list"),  # a step whose rows are in its panel: rows below
        "rows": heads,
        "work": len(heads) + left,
        "bar": text(bar),
        "poll": poll.get("hx-get") if poll is not None else None,
        "versions": versions,
        "error": text(live.find(".//*[@id='error']")),
        "nothing left": text(live.find(".//*[@class='work-empty']")),
    }
