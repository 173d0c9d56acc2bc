"""The charts a game may be played on: those shipped with the app (files) and the clubs' own, uploaded by the
game master and kept here. A chart is known by the sha256 of its text, so a game and each of its events name
exactly the chart they read, whatever its name and version say."""

from dataclasses import dataclass
from threading import Lock

from django.conf import settings
from django.db import models

from republic.charts import shipped_chart, shipped_checksum, shipped_checksums
from republic.file_shapes import control_character, past_any_file
from republic.rules.catalog import load_chart
from republic.rules.chart import Chart, ChartError
from republic.rules.worked_examples import Contradiction, contradictions

MOST_CHARACTERS = {"name": 120, "version": 80}
"""What a club chart's name and version may hold, in characters."""


class ClubChart(models.Model):
    """A club's printed chart as a chart file, checked like the shipped one when it was uploaded."""

    name = models.CharField(max_length=MOST_CHARACTERS["name"])
    version = models.CharField(max_length=MOST_CHARACTERS["version"])
    checksum = models.CharField(max_length=64, unique=True, help_text="sha256 of the text")
    text = models.TextField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-uploaded"]

    def __str__(self) -> str:
        return f"{self.name} ({self.version})"


class ChartContradicts(ValueError):
    """A chart file sound in every cell that contradicts the rules' worked examples."""

    def __init__(self, found: tuple[Contradiction, ...]):
        self.found = found
        super().__init__(", ".join(c.example.key for c in found))


def checked_club_chart(text: str) -> Chart:
    """A club's chart file held to all a club chart must be, wherever it comes from (uploaded, or carried in a
    saved game): nested no deeper than any chart file, every table, row and cell as the engine reads it, a name
    and version its row can hold with no control character, and every worked example of the rules. A ChartError
    names the file's problem; ChartContradicts each example the chart breaks."""
    past = past_any_file(text)
    if past:
        raise ChartError(f"line {past[0]}: {past[1]}, which no chart file has")
    chart = load_chart(text)
    for what, value in (("name", chart.name), ("version", chart.version)):
        if len(value) > MOST_CHARACTERS[what]:
            raise ChartError(f"its {what} is longer than {MOST_CHARACTERS[what]} characters")
        odd = control_character(value)
        if odd:
            raise ChartError(f"its {what} holds {odd}: retype it")
    found = contradictions(chart)
    if found:
        raise ChartContradicts(found)
    return chart


@dataclass(frozen=True)
class ChartIdentity:
    """What a game records of its chart: a shipped chart's file name or a club chart's version, its name, and
    the checksum of its text."""

    version: str
    name: str
    checksum: str

    def fields(self) -> dict[str, str]:
        return {"chart_version": self.version, "chart_name": self.name, "chart_checksum": self.checksum}


def shipped_identity(file_name: str) -> ChartIdentity:
    return ChartIdentity(file_name, shipped_chart(file_name).name, shipped_checksum(file_name))


def club_identity(club: ClubChart) -> ChartIdentity:
    return ChartIdentity(club.version, club.name, club.checksum)


# A chart is parsed once per process and checksum: every rule a request resolves reads the game's chart, and a
# club chart would otherwise cost a query and a parse each time.
_LOADED: dict[str, tuple[Chart, str]] = {}
_LOADING = Lock()


class KeptChartRefused(Exception):
    """A club chart kept by an earlier version of the app, before every cell was held to its table's span, that
    today's checks refuse: a game on it cannot be played until the chart is put right, and is told so."""

    def __init__(self, kept: ClubChart, problem: ChartError):
        self.kept, self.problem = kept, problem
        super().__init__(f"{kept}: {problem}")


def loaded(checksum: str, file_name: str) -> tuple[Chart, str]:
    """The chart a game reads and the checksum of what was read. A game that records no checksum (made before
    charts had one, or in the admin) reads the shipped file it names. A shipped checksum no file has any more (the
    file was edited in place) reads the file of the same name, and the checksum then says it was another text."""
    key = checksum or f"file:{file_name}"
    found = _LOADED.get(key)
    if found is not None:
        return found
    with _LOADING:
        stem = shipped_checksums().get(checksum)
        kept = None if stem or not checksum else ClubChart.objects.filter(checksum=checksum).first()
        if kept:
            try:
                found = (load_chart(kept.text), checksum)
            except ChartError as exc:
                raise KeptChartRefused(kept, exc) from None
        else:
            name = stem or file_name
            found = (shipped_chart(name), shipped_checksum(name))
        _LOADED[key] = found
    return found


def forget_loaded() -> None:
    """Drop the parsed charts (tests that replace a chart's text in place)."""
    _LOADED.clear()
