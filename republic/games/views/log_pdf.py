"""The turn log as a PDF drawn on the server: the title and the copy's line, the day's pace, then each game turn
from a new page, its player turns, their messages and phases, each action's sentence in bold with its dice,
modifiers, chart cells (a provisional one marked †) and notes; "n / N" at the foot of each page.

Drawn with ReportLab's platypus from the groups the log's page shows (``turn_log.grouped``), in DejaVu Sans
(Debian's fonts-dejavu-core), which has every sign the log's words use (’ × − · † –)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from html import unescape
from io import BytesIO
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

from republic.games.models import Dispatch, Game
from republic.games.pace import Pace
from republic.games.text import pace as pace_words
from republic.games.views.access import Role
from republic.games.views.turn_log import Chosen

FONTS = Path("/usr/share/fonts/truetype/dejavu")
FACES = {"": "DejaVuSans", "b": "DejaVuSans-Bold", "i": "DejaVuSans-Oblique", "bi": "DejaVuSans-BoldOblique"}
PAPERS = {"a4": A4, "letter": LETTER}
MARGINS = {"top": 16 * mm, "right": 14 * mm, "bottom": 18 * mm, "left": 14 * mm}


@dataclass(frozen=True)
class LogCopy:
    """What a copy of the log holds: the game, its groups (``turn_log.grouped``), whose copy, its filters and the
    day's pace."""

    game: Game
    turns: list[dict[str, Any]]
    role: Role
    filters: Chosen
    pace: Pace


@cache
def _fonts(where: Path) -> bool:
    """DejaVu Sans registered as the family the log is set in, its bold and oblique faces for <b> and <i>;
    False where its files cannot be read."""
    try:
        for face in FACES.values():
            pdfmetrics.registerFont(TTFont(face, str(where / f"{face}.ttf")))
    except (TTFError, OSError):
        return False
    pdfmetrics.registerFontFamily(
        FACES[""], normal=FACES[""], bold=FACES["b"], italic=FACES["i"], boldItalic=FACES["bi"]
    )
    return True


def _styles() -> dict[str, ParagraphStyle]:
    # the print sheet's sizes (static/css/print.css), so that the PDF reads as the page printed from a browser
    body = ParagraphStyle("body", fontName=FACES[""], fontSize=9.5, leading=12.8)
    small = ParagraphStyle("small", parent=body, fontSize=8.5, leading=11.5)
    heading = ParagraphStyle("heading", parent=body, fontName=FACES["b"], keepWithNext=1)
    return {
        "body": body,
        "small": small,
        "title": ParagraphStyle("title", parent=heading, fontSize=15, leading=18, spaceAfter=2 * mm),
        "title_line": ParagraphStyle("title_line", parent=body, fontSize=10, leading=13, spaceAfter=1 * mm),
        "copy": ParagraphStyle("copy", parent=small, spaceAfter=4 * mm),
        "game_turn": ParagraphStyle(
            "game_turn", parent=heading, fontSize=13, leading=16, spaceBefore=4 * mm, spaceAfter=2.8 * mm
        ),
        "player_turn": ParagraphStyle("player_turn", parent=heading, fontSize=11, leading=13.5, spaceBefore=3 * mm),
        "phase": ParagraphStyle("phase", parent=heading, leading=11.5, spaceBefore=2 * mm, spaceAfter=0.8 * mm),
        "letter": ParagraphStyle("letter", parent=body, spaceAfter=1.5 * mm),
    }


def _text(words: str) -> str:
    """Words as a paragraph's markup: ReportLab reads <, > and & as its own, and would fetch an <img> someone wrote."""
    return escape(words)


class _Ruled(Paragraph):
    """A game turn's heading, ruled beneath as on the printed page."""

    def draw(self) -> None:
        super().draw()
        self.canv.setLineWidth(1.2)
        self.canv.line(0, -0.8 * mm, self.width, -0.8 * mm)


class _Entry(Flowable):
    """An action's lines beside a rule down their left, dashed for an undo and what an undo took back; kept on
    one page, unless it is longer than a page."""

    def __init__(self, lines: list[Paragraph], dashed: bool, page_height: float) -> None:
        super().__init__()
        self.lines, self.dashed, self.page_height = lines, dashed, page_height
        self.spaceAfter = 1.6 * mm
        self.indent = 2 * mm
        self.broken_at: float | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        # a paragraph's lines depend on the width alone: broken again only for another one
        if availWidth != self.broken_at:
            self.width = self.broken_at = availWidth
            self.height = sum(line.wrap(availWidth - self.indent, availHeight)[1] for line in self.lines)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        if self.wrap(availWidth, availHeight)[1] <= self.page_height:
            return []  # whole on the next page
        kept: list[Paragraph] = []
        left = availHeight
        for n, line in enumerate(self.lines):
            height = line.wrap(availWidth - self.indent, left)[1]
            if height > left:
                parts = line.split(availWidth - self.indent, left)
                first, rest = (parts[:1], parts[1:]) if len(parts) == 2 else ([], [line])
                if not kept and not first:
                    return []
                more = [*rest, *self.lines[n + 1 :]]
                return [
                    _Entry([*kept, *first], self.dashed, self.page_height),
                    _Entry(more, self.dashed, self.page_height),
                ]
            kept.append(line)
            left -= height
        return []

    def draw(self) -> None:
        top = self.height
        for line in self.lines:
            top -= line.height
            line.drawOn(self.canv, self.indent, top)
        self.canv.setLineWidth(0.6)
        self.canv.setDash(2, 1.5) if self.dashed else self.canv.setDash()
        self.canv.line(0, 0, 0, self.height)


def _entry(entry: dict[str, Any], styles: dict[str, ParagraphStyle], page_height: float) -> _Entry:
    e = entry["event"]
    head = f"#{e.seq} {_text(entry['step'])}" + (f" · {_text(e.actor)}" if e.actor else "")
    head += f" <b>{_text(entry['summary'])}</b>"
    if e.undone_in:
        head += f" (undone by #{e.undone_in})"
    lines = [head]
    if entry["rolls"]:
        lines.append(f"Dice: {_text(entry['dice'])}")
    if entry["modifiers"]:
        lines.append("Modifiers: " + _text("; ".join(entry["modifiers"])))
    if entry["cells"]:
        cells = [
            f"{_text(c['line'].replace(' (provisional)', ''))} <b>†</b>" if c["provisional"] else _text(c["line"])
            for c in entry["cells"]
        ]
        lines.append("Chart: " + "; ".join(cells))
    if entry["warning"]:
        lines.append(("" if e.printed_chart else "† ") + _text(entry["warning"]))
    if entry["notes"]:
        lines.append(_text("; ".join(entry["notes"])))
    dashed = bool(e.undoes_id or e.undone_in)
    if dashed:
        lines = [f"<i>{line}</i>" for line in lines]
    paragraphs = [Paragraph(lines[0], styles["body"]), *(Paragraph(line, styles["small"]) for line in lines[1:])]
    return _Entry(paragraphs, dashed, page_height)


def _letters(letters: Iterable[Dispatch], master: bool, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    found: list[Flowable] = [Paragraph("MESSAGES", styles["phase"])]
    for d in letters:
        side = f"<b>{_text(d.sender.side.name)}</b> · " if master else ""
        found.append(Paragraph(f"{side}{_text(d.sender.name)} to {_text(d.recipient.name)}", styles["small"]))
        found.append(Paragraph(_text(d.text).replace("\n", "<br/>"), styles["letter"]))
    return found


def _pace(pace: Pace, styles: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    """The pace of the day, as the page's pace section (templates/games/parts/pace.html) says it."""
    minutes = pace_words.minutes
    found: list[Flowable] = [_Ruled("Pace of the day", styles["game_turn"])]
    small = styles["small"]
    if pace.in_progress:
        found.append(Paragraph(f"<b>{_text(pace_words.projection(pace.projection, pace.now, True))}</b>", small))
    turn = f"A player turn: {minutes(pace.per_player_turn)}"
    turn += f" (mean of {pace.player_turns})" if pace.player_turns else ""
    turn += f" · this one so far {minutes(pace.this_player_turn)}" if pace.in_progress else ""
    turn += f" · a game turn: {minutes(pace.per_game_turn)}" if pace.per_game_turn else ""
    found.append(Paragraph(turn, small))
    if pace.slowest:
        found.append(Paragraph("Slowest steps: " + _listed((s.step, s.mean) for s in pace.slowest), small))
    if pace.waited:
        found.append(Paragraph("Waited on longest: " + _listed(pace.waited), small))
    rows = [["Step", "Mean a player turn", "All day"]]
    rows += [[s.step, minutes(s.mean) + (f" ({s.times}×)" if s.times else ""), minutes(s.total)] for s in pace.steps]
    table = Table(rows, colWidths=[width * 0.5, width * 0.3, width * 0.2], hAlign="LEFT", spaceBefore=1.5 * mm)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FACES[""], 8.5),
                ("FONT", (0, 0), (-1, 0), FACES["b"], 8.5),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, "black"),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    found.append(table)
    return found


def _listed(pairs: Iterable[tuple[str, timedelta]]) -> str:
    return " · ".join(f"{_text(name)} {pace_words.minutes(spent)}" for name, spent in pairs)


def _story(copy: LogCopy, styles: dict[str, ParagraphStyle], width: float, page_height: float) -> list[Flowable]:
    game, master = copy.game, copy.role.master
    printed = date_format(timezone.localtime(), "j F Y")
    begun = date_format(timezone.localtime(game.created), "j F Y")
    line = game.name + (f" · {game.scenario}" if game.scenario != game.name else "")
    line += f" · chart {game.chart_version} · begun {begun} · printed {printed}"
    # the copy's line in the page's own words, one template for both
    said = unescape(render_to_string("games/parts/log_copy.html", {"role": copy.role, "filters": copy.filters}))
    story: list[Flowable] = [
        Paragraph(f"{_text(game.name)}: turn log", styles["title"]),
        Paragraph(_text(line), styles["title_line"]),
        Paragraph(_text(said.strip()), styles["copy"]),
    ]
    if copy.pace.steps:
        story += _pace(copy.pace, styles, width)
    for n, turn in enumerate(copy.turns):
        if n:
            story.append(PageBreak())  # each game turn from a new page: one turn read at the table is one hand
        story.append(_Ruled(f"Game turn {turn['number']}", styles["game_turn"]))
        for pt in turn["player_turns"]:
            attacker = f": {_text(pt['attacker'])} attacking" if pt["attacker"] else ""
            story.append(Paragraph(f"Player turn {pt['number']}{attacker}", styles["player_turn"]))
            if pt["spent"]:
                took = f"The table took {pace_words.minutes(pt['spent'])}{' so far' if pt['playing'] else ''}."
                story.append(Paragraph(took, styles["small"]))
            if pt["letters"]:
                story += _letters(pt["letters"], master, styles)
            for phase in pt["phases"]:
                story.append(Paragraph(_text(phase["name"].upper()), styles["phase"]))
                story += [_entry(entry, styles, page_height) for entry in phase["entries"]]
    if not copy.turns:
        story.append(
            Paragraph("No action matches these filters." if copy.filters.any else "No events yet.", styles["body"])
        )
    return story


class _Numbered(Canvas):
    """A canvas that holds its pages until the last, to write "n / N" at the foot of each."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pages: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self.pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        for number, page in enumerate(self.pages, start=1):
            self.__dict__.update(page)
            self.setFont(FACES[""], 8)
            width = self._pagesize[0]
            self.drawRightString(width - MARGINS["right"], MARGINS["bottom"] / 2, f"{number} / {len(self.pages)}")
            super().showPage()
        super().save()


def drawn(copy: LogCopy, paper: Sequence[float]) -> bytes | None:
    """The copy of the log as a PDF on this paper (``PAPERS``); None where its font cannot be read."""
    if not _fonts(FONTS):
        return None
    out = BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=paper,
        topMargin=MARGINS["top"],
        rightMargin=MARGINS["right"],
        bottomMargin=MARGINS["bottom"],
        leftMargin=MARGINS["left"],
        title=f"Turn log · {copy.game.name}",
        initialFontName=FACES[""],
    )
    story = _story(copy, _styles(), doc.width, doc.height)
    doc.build(story, canvasmaker=_Numbered)
    return out.getvalue()
