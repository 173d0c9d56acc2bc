"""The chart pages: the app's own chart, a game's chart, and the club charts the game master uploads.

Each page shows every cell with its provenance; a chart other than the app's own marks each cell that differs
from it, with the app's value beside it. An uploaded chart is checked like a shipped one (every table, row and
cell) and against the rules' worked examples, and is kept only when it passes them all."""

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from republic.charts import checksum_of, shipped_chart, shipped_checksums
from republic.games.forms import whole_number
from republic.games.models import ClubChart, Game
from republic.games.models.charts import (
    ChartContradicts,
    ChartIdentity,
    checked_club_chart,
    club_identity,
    loaded,
    shipped_identity,
)
from republic.games.steps.base import Who
from republic.games.text.charts import chart_problem, contradiction
from republic.games.text.terms import chart_key
from republic.games.uploads import CHART_MOST, LimitedFileField
from republic.games.views.access import allowed, master_only
from republic.rules.chart import BandSpec, Cell, Chart, ChartError, ChartTable, GridSpec
from republic.rules.chart_compare import differences


@dataclass(frozen=True)
class CellView:
    cell: Cell
    shipped: str | None = None  # the app's value where this chart differs from it


@dataclass(frozen=True)
class TableView:
    name: str
    title: str
    section: str
    note: str
    columns: tuple[str, ...]
    rows: tuple[dict[str, Any], ...]
    differ: int = 0


@dataclass
class ChartPage:
    chart: Chart
    tables: list[TableView] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    differ: int = 0


def _cells(table: ChartTable) -> list[Cell]:
    return [band.cell for band in table.bands] or list(table.cells.values())


def chart_page(chart: Chart, shipped: Chart | None) -> ChartPage:
    """Every table of ``chart`` as the page draws it; with ``shipped``, each cell that differs marked with the
    app's value."""
    found = {(d.table, d.row, d.column): d.other for d in differences(chart, shipped)} if shipped else {}
    page = ChartPage(chart)
    for table in chart.tables.values():
        spec = table.spec
        if isinstance(spec, GridSpec):
            columns = tuple(chart_key(c) for c in spec.columns)
            keyed = [(chart_key(r), [((r, c), table.cells[(r, c)]) for c in spec.columns]) for r in spec.rows]
        elif isinstance(spec, BandSpec):
            columns = ("Result",)
            keyed = [(band.label(), [((band.label(), ""), band.cell)]) for band in table.bands]
        else:
            columns = ("Value",)
            keyed = [(chart_key(k), [((k, ""), table.cells[(k, "")])]) for k in spec.keys]
        rows = tuple(
            {"label": label, "cells": [CellView(cell, found.get((spec.name, *place))) for place, cell in cells]}
            for label, cells in keyed
        )
        differ = sum(1 for key in found if key[0] == spec.name)
        page.tables.append(TableView(spec.name, spec.title, spec.section, table.note, columns, rows, differ))
        page.differ += differ
        page.counts.update(cell.provenance.value for cell in _cells(table))
    return page


def _default() -> Chart:
    return shipped_chart(settings.REPUBLIC_CHART)


def chart_reference(request: HttpRequest) -> HttpResponse:
    """The app's own chart, open to everyone."""
    return render(request, "charts/chart.html", {"page": chart_page(_default(), None)})


@allowed(Who.SEATED)
def game_chart(request: HttpRequest, game_id: int) -> HttpResponse:
    """The chart a game is played on, and how it differs from the app's."""
    game = get_object_or_404(Game, pk=game_id)
    chart, read = loaded(game.chart_checksum, game.chart_version)
    default = _default()
    page = chart_page(chart, None if chart is default else default)
    club = ClubChart.objects.filter(checksum=read).select_related("uploaded_by").first()
    context = {"page": page, "game": game, "club": club, "checksum": read, "changed": read != game.chart_checksum}
    return render(request, "charts/chart.html", context)


class ChartUploadForm(forms.Form):
    file = LimitedFileField(
        label="Chart file (YAML, as the app's own chart file)",
        most=CHART_MOST,
        what="a chart file",
        allow_empty_file=True,
    )


class Refused(Exception):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def checked_chart(upload: Any) -> tuple[str, Chart]:
    """The text of an uploaded chart file and its chart, or Refused with every problem a user can fix."""
    raw = upload.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refused(["The file is not UTF-8 text: save it from the editor as UTF-8 and upload it again."]) from None
    if not text.strip():
        raise Refused(["The file is empty."])
    try:
        chart = checked_club_chart(text)
    except ChartError as exc:
        raise Refused([chart_problem(exc)]) from None
    except ChartContradicts as exc:
        raise Refused([contradiction(c) for c in exc.found]) from None
    return text, chart


def _duplicate(checksum: str) -> str:
    stem = shipped_checksums().get(checksum)
    if stem:
        return f"This file is the app's own chart ({shipped_chart(stem).name}): games can use it already."
    same = ClubChart.objects.filter(checksum=checksum).first()
    return f"This chart was uploaded already, as {same}." if same else ""


@master_only
def club_charts(request: HttpRequest) -> HttpResponse:
    """The club charts, and the form to upload one (the game master only)."""
    form = ChartUploadForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            text, chart = checked_chart(form.cleaned_data["file"])
            problems = [found] if (found := _duplicate(checksum_of(text))) else []
            if not problems:
                with transaction.atomic():
                    club = ClubChart.objects.create(
                        name=chart.name,
                        version=chart.version,
                        checksum=checksum_of(text),
                        text=text,
                        uploaded_by_id=request.user.pk,
                    )
        except Refused as exc:
            problems = exc.problems
        except IntegrityError:  # the same file sent twice at once: the first one was kept
            problems = [_duplicate(checksum_of(text))]
        if not problems:
            messages.success(request, f"{club} is checked and kept: choose it when you start a game.")
            return redirect("club_chart", chart_id=club.pk)
    charts = ClubChart.objects.select_related("uploaded_by")
    context = {"form": form, "problems": problems, "charts": charts, "default_file": settings.REPUBLIC_CHART}
    return render(request, "charts/club_charts.html", context)


@master_only
def club_chart(request: HttpRequest, chart_id: int) -> HttpResponse:
    """One uploaded chart, as a game on it would read it, and how it differs from the app's."""
    club = get_object_or_404(ClubChart.objects.select_related("uploaded_by"), pk=chart_id)
    chart = loaded(club.checksum, club.version)[0]
    context = {"page": chart_page(chart, _default()), "club": club, "checksum": club.checksum}
    return render(request, "charts/chart.html", context)


def chart_choices() -> list[tuple[str, str]]:
    """The charts a new game may be played on: the scenario's (or the app's), each shipped chart, each club chart."""
    shipped = [(f"shipped:{stem}", f"{shipped_chart(stem).name}, shipped with the app") for stem in _shipped_files()]
    clubs = [
        (f"club:{c.pk}", f"{c.name}, version {c.version} (club chart)")
        for c in ClubChart.objects.only("name", "version")
    ]
    return [("", f"The one the scenario names, else {_default().name}"), *shipped, *clubs]


def chosen_chart(value: str) -> ChartIdentity | None:
    """The chart chosen on the new-game form; None for the scenario's own."""
    kind, _, key = value.partition(":")
    if kind == "shipped" and key in _shipped_files():
        return shipped_identity(key)
    number = whole_number(key) if kind == "club" else None
    club = ClubChart.objects.filter(pk=number).first() if number is not None else None
    return club_identity(club) if club else None


def _shipped_files() -> list[str]:
    return sorted(shipped_checksums().values())
