"""A saved game's data held to what a game is, before anything is written: its form and version, each value
against its model's field, every reference by id, the events in sequence with payloads their kinds read, the
setup plus the events against the rows, and the chart. Every problem is an ArchiveError naming its place."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from republic.charts import checksum_of, shipped_checksums
from republic.games.archive.export import (
    CLUB_CHART_FIELDS,
    FORMAT,
    ROWS,
    event_fields,
    game_fields,
    row_fields,
    shipped_chart_file,
)
from republic.games.archive.remap import KEY_FORM, ArchiveError, Refs, foreign_keys
from republic.games.archive.versions import SCHEMA, brought_up_to_date
from republic.games.events.payload import KINDS
from republic.games.ledger import TRACKED, tracked_fields
from republic.games.models import ClubChart, Game, Side
from republic.games.models.charts import ChartContradicts, checked_club_chart
from republic.games.pieces import Piece
from republic.rules.chart import ChartError
from republic.rules.codec import decode

SECTIONS = ("game", "setup", *ROWS, "events", "club_charts")
_TABLE_KEY = {model: key for key, model in TRACKED.items()}


@dataclass
class Checked:
    """What the file holds, every value checked, with ids still the file's."""

    game_id: int
    game: dict[str, Any]  # the game's fields but those naming sides, which are set once the sides are made
    game_sides: dict[str, int | None]
    rows: dict[str, list[dict[str, Any]]]
    levels: list[list[dict[str, Any]]]  # the commands, those above first
    fks: dict[str, dict[str, type[models.Model]]]
    setup: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    created: list[datetime | None] = field(default_factory=list)
    undoes: list[int | None] = field(default_factory=list)
    club_charts: list[dict[str, Any]] = field(default_factory=list)  # to make: this server does not have them


def value(found: models.Field, raw: Any, where: str) -> Any:
    """A value the file gives a field: the very type the field holds (a replayed value is compared as it is) and
    what the field allows (its length, its choices, its range)."""
    if raw is None:
        if found.null:
            return None
        raise ArchiveError(f"{where}: has no value")
    if isinstance(found, models.ForeignKey | models.AutoField):
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
            raise ArchiveError(f"{where}: expected a row's id, got {raw!r}")
        return raw
    kinds: dict[type[models.Field], tuple[type, str]] = {
        models.BooleanField: (bool, "true or false"),
        models.IntegerField: (int, "a whole number"),
        models.CharField: (str, "text"),
        models.TextField: (str, "text"),
        models.DateTimeField: (str, "a moment such as 2025-06-14T10:30:00+00:00"),
    }
    for kind, (python, words) in kinds.items():
        if isinstance(found, kind) and (not isinstance(raw, python) or (python is int and isinstance(raw, bool))):
            raise ArchiveError(f"{where}: expected {words}, got {raw!r}")
    try:
        cleaned = found.to_python(raw)
        if found.editable:
            found.validate(cleaned, None)
        found.run_validators(cleaned)
    except ValidationError as exc:
        raise ArchiveError(f"{where}: {' '.join(exc.messages)}") from None
    if isinstance(found, models.DateTimeField) and cleaned is None:
        raise ArchiveError(f"{where}: expected a moment such as 2025-06-14T10:30:00+00:00, got {raw!r}")
    return cleaned


def record(fields: dict[str, models.Field], raw: Any, where: str, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """One row's fields. A field the file lacks takes its default when it has one, so that a game saved before
    a field was added still loads; a field this server does not know is refused."""
    if not isinstance(raw, dict):
        raise ArchiveError(f"{where}: expected the fields of a row")
    unknown = sorted(str(name) for name in set(raw) - set(fields) - set(extra))
    if unknown:
        raise ArchiveError(f"{where}: {unknown[0]!r} is no field this server knows")
    found: dict[str, Any] = {}
    for name, each in fields.items():
        if name in raw:
            found[name] = value(each, raw[name], f"{where}.{name}")
        elif each.has_default() or getattr(each, "auto_now_add", False):
            found[name] = each.get_default() if each.has_default() else None
        else:
            raise ArchiveError(f"{where}: missing {name}")
    return found


def _named(where: str, row: Any) -> str:
    name = row.get("name") if isinstance(row, dict) else None
    return f"{where} ({name})" if isinstance(name, str) and name else where


def check_form(data: dict[str, Any]) -> dict[str, Any]:
    """The file's data at this server's version of the format (see ``versions``), once it is a whole saved game."""
    if "schema" not in data:
        if "sides" in data and "scenario" in data:
            raise ArchiveError("This is a scenario file, not a saved game: start a new game from it instead.")
        raise ArchiveError(f"The file has no schema version: it is not a game saved by this app ({SCHEMA}).")
    if data.get("format") != FORMAT:
        raise ArchiveError(f"The file is of the format {data.get('format')!r}, not a {FORMAT}.")
    data = brought_up_to_date(data)
    missing = [name for name in SECTIONS if name not in data]
    if missing:
        raise ArchiveError(f"The file has no {', '.join(missing)}: it is not a whole saved game.")
    return data


def _rows(table: str, model: type[models.Model], raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        raise ArchiveError(f"{table}: expected a list of rows")
    fields = {f.attname: f for f in row_fields(model)}
    rows = [record(fields, row, _named(f"{table}[{i}]", row)) for i, row in enumerate(raw)]
    ids = [row["id"] for row in rows]
    if len(set(ids)) != len(ids):
        raise ArchiveError(f"{table}: two rows have the same id")
    return rows


def _levels(commands: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The commands by depth, so each is made after its parent; a chain that loops is refused."""
    by_id = {c["id"]: c for c in commands}
    levels: list[list[dict[str, Any]]] = []
    for command in commands:
        depth, above = 0, command["parent_id"]
        while above is not None:
            depth += 1
            if depth > len(commands):
                raise ArchiveError(f"commands: {command['name']!r} is under itself")
            above = by_id[above]["parent_id"]
        levels.extend([] for _ in range(depth + 1 - len(levels)))
        levels[depth].append(command)
    return levels


def _charts(raw: Any, game: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every chart the game and its events read is here already (shipped, or a club's uploaded before) or comes in
    the file with its text; the club charts to make are returned. A game that records no checksum (made before
    charts had one) reads the shipped file it names."""
    if not isinstance(raw, list):
        raise ArchiveError("club_charts: expected a list of charts")
    fields = {f.attname: f for f in ClubChart._meta.concrete_fields if f.attname in CLUB_CHART_FIELDS}
    carried = {}
    for i, chart in enumerate(raw):
        found = record(fields, chart, _named(f"club_charts[{i}]", chart))
        if checksum_of(found["text"]) != found["checksum"]:
            raise ArchiveError(f"The club chart {found['name']!r} in the file is not the text its checksum names.")
        try:
            checked_club_chart(found["text"])
        except (ChartError, RecursionError) as exc:
            raise ArchiveError(f"The club chart {found['name']!r} in the file is no chart: {exc}") from None
        except ChartContradicts as exc:
            broken = " ".join(c.sentence() for c in exc.found)
            raise ArchiveError(
                f"The club chart {found['name']!r} in the file contradicts the rules' worked examples, and would be "
                f"refused as an upload: {broken}"
            ) from None
        carried[found["checksum"]] = found
    version, read = game.get("chart_version", ""), game.get("chart_checksum", "")
    if not read and shipped_chart_file(version) is None:
        raise ArchiveError(f"The game was played on the chart {version!r}, which this server does not have.")
    wanted = {read: "The game"} | {e["chart_checksum"]: f"Event #{e['seq']}" for e in events if e.get("chart_checksum")}
    wanted.pop("", None)
    here = set(shipped_checksums()) | set(
        ClubChart.objects.filter(checksum__in=wanted).values_list("checksum", flat=True)
    )
    for checksum, who in wanted.items():
        if checksum not in here and checksum not in carried:
            raise ArchiveError(
                f"{who} was played on a chart (checksum {checksum}) this server does not have, and the file does "
                "not carry its text: the same dice would not give the same results here."
            )
    return [chart for checksum, chart in carried.items() if checksum not in here]


def _setup(raw: Any, ident: Refs, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ArchiveError("setup: expected each row of the game as it started")
    for key, entry in raw.items():
        where = _named(f"setup.{key}", rows.get(key))
        found = KEY_FORM.match(key)
        if found is None or found.group(3) or key not in rows:
            raise ArchiveError(f"{where}: the setup holds a row the file's rows do not")
        model = TRACKED[found.group(1)]
        fields = {f.attname: f for f in model._meta.concrete_fields if f.attname in tracked_fields(model)}
        if not isinstance(entry, dict):
            raise ArchiveError(f"{where}: expected the row's fields")
        for name, given in entry.items():
            if name not in fields:
                raise ArchiveError(f"{where}: {name!r} is no field of a {found.group(1)}")
            value(fields[name], given, f"{where}.{name}")
    ident.setup(raw)
    missing = sorted(set(rows) - set(raw))
    if missing:
        raise ArchiveError(f"setup: it does not hold {_named(missing[0], rows[missing[0]])}")
    return raw


def _event(raw: Any, i: int, ident: Refs, undone: set[int], fields: dict[str, models.Field]) -> dict[str, Any]:
    found = record(fields, raw, f"events[{i}]", extra=("undoes_seq",))
    seq, kind, where = found["seq"], found["kind"], f"event #{found['seq']}"
    if seq != i + 1:
        raise ArchiveError(f"The events are out of sequence: event {i + 1} in the file is #{seq}.")
    if kind not in KINDS:
        raise ArchiveError(f"{where}: {kind!r} is no kind of event this server knows")
    try:
        decode(KINDS[kind], found["payload"])
    except Exception as exc:  # whatever a payload that is not its kind's raises, the file is at fault, not the app
        raise ArchiveError(f"{where}: its payload is not a {kind}: {exc}") from None
    undoes = raw.get("undoes_seq")
    target = found["payload"].get("seq") if kind == "EventUndone" else None
    if undoes != target or (undoes is not None and (not isinstance(undoes, int) or not 0 < undoes < seq)):
        raise ArchiveError(f"{where}: its undoes_seq {undoes!r} is not an earlier event it takes back")
    if undoes is not None and undoes in undone:
        raise ArchiveError(f"{where}: event #{undoes} is taken back twice")
    if undoes is not None:
        undone.add(undoes)
    ident.maybe(Side, found.get("side_id"), f"{where}.side_id")
    ident.subject(found.get("subject", ""), f"{where}.subject")
    ident.payload(kind, found["payload"], f"{where}.payload")
    if not isinstance(found["changes"], list):
        raise ArchiveError(f"{where}.changes: expected a list")
    for change in found["changes"]:
        ident.change(change, f"{where}.changes")
        model = TRACKED[change["model"]]
        names = {f.attname: f for f in model._meta.concrete_fields if f.attname in tracked_fields(model)}
        if change["field"] not in names:
            raise ArchiveError(f"{where}.changes: {change['field']!r} is no field of a {change['model']}")
        for side in ("before", "after"):
            value(names[change["field"]], change[side], f"{where}.changes.{change['field']}.{side}")
    return found


def _replayed(setup: dict[str, Any], events: list[dict[str, Any]], rows: dict[str, dict[str, Any]]) -> None:
    """The setup plus every event's changes must be the rows, as the ledger keeps them."""
    state = {key: dict(values) for key, values in setup.items()}
    for event in events:
        for change in event["changes"]:
            state[f"{change['model']}:{change['id']}"][change["field"]] = change["after"]
    for key, values in state.items():
        for name, replayed in values.items():
            if rows[key].get(name) != replayed:
                raise ArchiveError(
                    f"The events do not replay to the file's rows: after them {_named(key, rows[key])} {name} is "
                    f"{replayed!r}, but the row says {rows[key].get(name)!r}."
                )


def check_archive(data: dict[str, Any]) -> Checked:
    data = check_form(data)
    rows = {table: _rows(table, model, data[table]) for table, model in ROWS.items()}
    game = record({f.attname: f for f in game_fields()}, data["game"], "game", extra=("id",))
    game_id = value(Game._meta.pk, data["game"].get("id"), "game.id")  # type: ignore[arg-type]
    ident = Refs({model: {row["id"]: row["id"] for row in rows[table]} for table, model in ROWS.items()})
    ident.ids[Game] = {game_id: game_id}
    fks = {table: {n: to for n, to in foreign_keys(model).items() if n != "game_id"} for table, model in ROWS.items()}
    for table in ROWS:
        for i, row in enumerate(rows[table]):
            for name, to in fks[table].items():
                ident.maybe(to, row[name], _named(f"{table}[{i}].{name}", row))
    names = [side["name"] for side in rows["sides"]]
    if len(set(names)) != len(names):
        raise ArchiveError("sides: two sides have the same name")
    sides = {f.attname: game.pop(f.attname) for f in game_fields() if f.is_relation and f.related_model is Side}
    for name, side in sides.items():
        ident.maybe(Side, side, f"game.{name}")
    by_key = {f"{_TABLE_KEY[model]}:{row['id']}": row for table, model in ROWS.items() for row in rows[table]}
    by_key[Piece("game", game_id).key] = {**game, **sides}
    setup = _setup(data["setup"], ident, by_key)
    checked = Checked(game_id, game, sides, rows, _levels(rows["commands"]), fks, setup)
    if not isinstance(data["events"], list):
        raise ArchiveError("events: expected a list")
    fields, undone = {f.attname: f for f in event_fields()}, set[int]()
    for i, raw in enumerate(data["events"]):
        found = _event(raw, i, ident, undone, fields)
        checked.created.append(found.pop("created", None))
        checked.undoes.append(raw.get("undoes_seq"))
        checked.events.append(found)
    if game.get("version", len(checked.events)) != len(checked.events):
        raise ArchiveError(f"game.version is {game['version']}, but the file holds {len(checked.events)} events.")
    _replayed(setup, checked.events, by_key)
    checked.club_charts = _charts(data["club_charts"], game, checked.events)
    return checked
