"""What the benchmark measures of one request (its queries, its bytes raw and gzipped, its server time), and the
POST a phone sends for one of the app's forms, built from the form itself so the benchmark follows the forms."""

import gc
import gzip
import html
import re
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from django import forms
from django.db import connection, reset_queries
from django.db.models.sql.compiler import SQLCompiler
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import Resolver404, resolve

from republic.games.readings import forget_shared

HTMX = {"HTTP_HX_REQUEST": "true"}  # the header htmx sends: the app answers with the live fragment
PAGE, FRAGMENT, ACTION, DICE = "page", "fragment", "action", "dice"
ANSWERED = (200, 204, 302)  # 204: a page's poll while the game stands still
_HX_GET = re.compile(r'hx-get="([^"]+)"')
_ROW = re.compile(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"')
_PROBLEM = re.compile(r"(?:alert-danger[^>]*>|invalid-feedback[^>]*>\s*<p[^>]*><strong>)\s*([^<]+)")


@dataclass(frozen=True)
class Row:
    """One request measured: a page and a fragment by the median of their GETs, an action once."""

    step: str
    request: str
    kind: str  # PAGE, FRAGMENT, ACTION, or DICE for an action that enters dice
    queries: int
    raw: int
    gzipped: int
    ms: float
    written: int = 0  # of its queries, those whose SQL Django wrote for it (the rest's was kept: republic/prepared.py)


@contextmanager
def sql_written() -> Iterator[list[int]]:
    """Counts the queries whose SQL Django writes meanwhile (a subquery's within its query's)."""
    written = [0]
    write = SQLCompiler.as_sql

    def counted(compiler: SQLCompiler, *args: Any, **kwargs: Any) -> Any:
        written[0] += 1
        return write(compiler, *args, **kwargs)

    SQLCompiler.as_sql = counted  # type: ignore[method-assign]
    try:
        yield written
    finally:
        SQLCompiler.as_sql = write  # type: ignore[method-assign]


class BenchFailure(Exception):
    """The walk cannot go on: the app answered wrongly, or the bench no longer matches the app's forms."""


def form_data(form: forms.Form, **values: Any) -> dict[str, Any]:
    """The POST a phone sends for ``form`` as the page draws it: every field's initial value, ``values`` typed
    over them by field name (without the prefix), a ticked checkbox as "on", an empty field left out."""
    unknown = sorted(set(values) - set(form.fields))
    if unknown:
        raise BenchFailure(f"{type(form).__name__} has no field {', '.join(unknown)}: the bench needs updating")
    data: dict[str, Any] = {}
    for name, form_field in form.fields.items():
        value = values[name] if name in values else form[name].value()
        key = form.add_prefix(name)
        if isinstance(form_field, forms.BooleanField):
            if value:
                data[key] = "on"
        elif isinstance(value, list | tuple):
            data[key] = [str(v) for v in value]
        elif value is not None:
            data[key] = str(value)
    return data


def rows_shown(body: str) -> str:
    """The subjects of the step's rows a page or fragment draws, as a phone's script lists them."""
    return " ".join(_ROW.findall(body))


def problems(body: str) -> str:
    """The messages an answer shows, to say why an action was refused."""
    found = [html.unescape(text).strip() for text in _PROBLEM.findall(body)]
    return " | ".join(found) or "(no message in the answer)"


@dataclass
class Probe:
    """A test client whose every request is measured and checked: a status other than 200 or 302 is a failure,
    with the server's traceback."""

    client: Client
    repeat: int = 3
    say: Callable[[str], None] = print
    settle: bool = True  # collect the garbage before each timed request: earlier requests' is not its time
    rows: list[Row] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _fragments: set[tuple[str, str]] = field(default_factory=set)

    def _once(
        self,
        method: str,
        url: str,
        data: dict[str, Any] | None,
        htmx: bool,
        target: str = "",
        shown: str = "",
        device: Client | None = None,
    ) -> tuple[Any, int, float, int]:
        sent_from = {"HTTP_HX_TARGET": target, "HTTP_ROWS_SHOWN": shown} if target else {}
        extra = {**HTMX, **sent_from} if htmx else {}
        if self.settle:
            gc.collect()
        # each request is measured as the first to read its game at this version, as a page after an action is:
        # the readings that requests share (republic/games/readings.py) would make a repeated GET cheaper at
        # one size and not another; the load benchmark (tests/load.py) measures what sharing them saves
        forget_shared()
        # the log of queries keeps 9,000 at most and is not emptied between captured requests: a full log
        # would count none
        reset_queries()
        with CaptureQueriesContext(connection) as queries, sql_written() as written:
            start = perf_counter()
            sender = device or self.client
            response = (
                sender.get(url, **extra)  # type: ignore[arg-type]
                if method == "GET"
                else sender.post(url, data or {}, **extra)  # type: ignore[arg-type]
            )
            ms = (perf_counter() - start) * 1000
        return response, len(queries), ms, written[0]

    def _checked(self, step: str, request: str, method: str, url: str, response: Any) -> bool:
        if response.status_code in ANSWERED:
            return True
        exc_info = getattr(response, "exc_info", None)
        told = "".join(traceback.format_exception(*exc_info)) if exc_info else response.content.decode()[:2000]
        failure = f"{step}: {request}: {method} {url} answered {response.status_code}\n{told}"
        self.failures.append(failure)
        self.say(f"FAILED {failure}")
        return False

    def _row(self, step: str, request: str, kind: str, response: Any, queries: int, ms: float, written: int) -> Row:
        body = response.content
        row = Row(step, request, kind, queries, len(body), len(gzip.compress(body, compresslevel=6)), ms, written)
        self.rows.append(row)
        return row

    def get(
        self, step: str, request: str, url: str, kind: str = PAGE, htmx: bool = False, device: Client | None = None
    ) -> str:
        """GET ``url`` ``repeat`` times (from ``device``, else the probe's client) and keep the run of median time;
        the body, "" when it failed."""
        runs = [self._once("GET", url, None, htmx, device=device) for _ in range(self.repeat)]
        response, queries, ms, written = sorted(runs, key=lambda run: run[2])[len(runs) // 2]
        if not all(self._checked(step, request, "GET", url, run[0]) for run in runs):
            return ""
        self._row(step, request, kind, response, queries, ms, written)
        return str(response.content.decode())

    def post(
        self,
        step: str,
        request: str,
        url: str,
        data: dict[str, Any],
        dice: bool = False,
        target: str = "",
        shown: str = "",
        device: Client | None = None,
    ) -> str | None:
        """POST as htmx does, once, from the element ``target`` (a step's row) when given, by a phone (``device``,
        else the probe's client) that shows the rows ``shown`` (their subjects, as its script lists them); the
        answer's body, None when it failed."""
        response, queries, ms, written = self._once(
            "POST", url, data, htmx=True, target=target, shown=shown, device=device
        )
        if not self._checked(step, request, "POST", url, response):
            return None
        self._row(step, request, DICE if dice else ACTION, response, queries, ms, written)
        return str(response.content.decode())

    def fragments(self, step: str, body: str) -> None:
        """GET, as htmx would, each kind of fragment an answer offers (an hx-get address) once per step."""
        for address in _HX_GET.findall(body):
            url = html.unescape(address)
            pattern = re.sub(r"\d+", "N", url.split("?")[0])
            if (step, pattern) in self._fragments:
                continue
            self._fragments.add((step, pattern))
            try:
                found = resolve(url.split("?")[0])
                # a fold of the step's panel by its part, so that each is held to its own 13-unit figure
                name = " ".join(filter(None, (found.url_name or pattern, found.kwargs.get("part"))))
            except Resolver404:
                name = pattern
            self.get(step, f"GET {name}", url, kind=FRAGMENT, htmx=True)

    def note(self, step: str, message: str) -> None:
        self.notes.append(f"{step}: {message}")
