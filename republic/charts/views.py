from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from republic.charts import shipped_chart
from republic.rules.chart import BandSpec, Cell, ChartTable, GridSpec


@dataclass(frozen=True)
class TableView:
    name: str
    title: str
    section: str
    note: str
    columns: tuple[str, ...]
    rows: tuple[dict, ...]


def _view(table: ChartTable) -> TableView:
    spec = table.spec
    if isinstance(spec, GridSpec):
        columns = spec.columns
        rows = tuple({"label": r, "cells": [table.cells[(r, c)] for c in columns]} for r in spec.rows)
    elif isinstance(spec, BandSpec):
        columns = ("result",)
        rows = tuple({"label": band.label(), "cells": [band.cell]} for band in table.bands)
    else:
        columns = ("value",)
        rows = tuple({"label": key, "cells": [table.cells[(key, "")]]} for key in spec.keys)
    return TableView(spec.name, spec.title, spec.section, table.note, columns, rows)


def _cells(table: ChartTable) -> list[Cell]:
    return [band.cell for band in table.bands] or list(table.cells.values())


def chart_reference(request: HttpRequest) -> HttpResponse:
    chart = shipped_chart(settings.REPUBLIC_CHART)
    counts = Counter(cell.provenance.value for table in chart.tables.values() for cell in _cells(table))
    tables = [_view(table) for table in chart.tables.values()]
    return render(request, "charts/chart.html", {"chart": chart, "tables": tables, "counts": counts})
