"""A whole game as one JSON file: what the battle is (the game's own fields and its chart), the setup it started
from, every row as it stands and every event, each read from the models' own fields so that a field added to a
model later travels without a change here.

Left out, on purpose: the seats and the players' written messages (Dispatch). A seat is a phone's hold on this
server's game (a signed session, a join code), meaningless in another game; a message is one side's private word
and no event of the battle, so no page of the battle shows it, and the file is often handed round after the game.
"""

import datetime
import json
from pathlib import Path
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.text import slugify

from republic.charts import CHART_DIR, chart_path, shipped_checksums
from republic.games.archive.versions import SCHEMA
from republic.games.models import ClubChart, Command, Event, Game, Leader, Objective, Side, Unit, setup_of

FORMAT = "Republic Companion game"
ROWS: dict[str, type[models.Model]] = {
    "sides": Side,
    "commands": Command,
    "leaders": Leader,
    "units": Unit,
    "objectives": Objective,
}
"""The game's rows by the file's name for them, in the order they are made again (each after those it names)."""

# the game's identity on this server (its id, its join code, when it was made or loaded) is the server's, not the
# battle's; the setup has a section of its own
GAME_LEFT_OUT = {"id", "join_code", "created", "updated", "loaded_at"}
# an undo names its target by sequence number ("undoes_seq"); what an event is about is worked out again on load
EVENT_LEFT_OUT = {"id", "game_id", "undoes_id", "about"}
CLUB_CHART_FIELDS = ("name", "version", "checksum", "text")  # not who uploaded it, a user of this server alone


def game_fields() -> list[models.Field]:
    return [f for f in Game._meta.concrete_fields if f.attname not in GAME_LEFT_OUT]


def row_fields(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.attname != "game_id"]


def event_fields() -> list[models.Field]:
    return [f for f in Event._meta.concrete_fields if f.attname not in EVENT_LEFT_OUT]


def club_charts(checksums: set[str]) -> list[dict[str, str]]:
    """The club charts among the charts a game and its events read, with their text: the server that takes the
    file finds each by its checksum or makes it again. A shipped chart travels as its checksum alone."""
    wanted = checksums - set(shipped_checksums()) - {""}
    found = ClubChart.objects.filter(checksum__in=wanted).order_by("checksum").values(*CLUB_CHART_FIELDS)
    return [dict(chart) for chart in found]


def shipped_chart_file(version: str) -> Path | None:
    """The chart file this server ships under that name, if any (a name is never a path)."""
    if not version or not all(c.isascii() and (c.isalnum() or c in "-._") for c in version) or ".." in version:
        return None
    path = chart_path(version)
    return path if path.parent == CHART_DIR and path.is_file() else None


def export_game(game_id: int) -> dict[str, Any]:
    """The game as the file holds it: a handful of queries whatever its size (one a table)."""
    game = Game.objects.get(pk=game_id)
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "format": FORMAT,
        "exported": timezone.now(),
        "game": {"id": game.pk, **{f.attname: f.value_from_object(game) for f in game_fields()}},
        "setup": setup_of(game),
    }
    for name, model in ROWS.items():
        names = [f.attname for f in row_fields(model)]
        rows = model._default_manager.filter(game=game).order_by("pk").values_list(*names)
        data[name] = [dict(zip(names, row, strict=True)) for row in rows]
    names = [f.attname for f in event_fields()]
    events = Event.objects.filter(game=game).order_by("seq").values_list("id", "undoes_id", *names)
    seq_of: dict[int, int] = {}
    data["events"] = []
    for pk, undoes, *values in events:
        event = dict(zip(names, values, strict=True))
        seq_of[pk] = event["seq"]
        event["undoes_seq"] = seq_of.get(undoes) if undoes is not None else None
        data["events"].append(event)
    read = {game.chart_checksum, *(event.get("chart_checksum", "") for event in data["events"])}
    data["club_charts"] = club_charts(read)
    return data


class _Encoder(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        # to the microsecond, as the database keeps it (Django's encoder stops at the millisecond)
        return o.isoformat() if isinstance(o, datetime.datetime) else super().default(o)


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, cls=_Encoder, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def file_name(game: Game, on: datetime.date) -> str:
    """'gettysburg-the-morning-of-july-1-2025-06-14.json': the game's name and the day it was saved."""
    return f"{slugify(game.name)[:60].strip('-') or 'game'}-{on.isoformat()}.json"
