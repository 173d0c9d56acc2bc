"""A saved game into a fresh game: every row made again under new ids, every reference carried over, and the
events kept with their numbers, so that the fresh game stands exactly where the saved one stood and plays on.

The whole file is checked before anything is written (its form, each value against its model's field, every
reference, the sequence of the events, each payload against its kind, the setup plus the events against the rows,
the chart), and the writing is one transaction: a file refused for any reason leaves nothing behind.
"""

import datetime
import json
import re
from typing import Any, cast

from django.db import DataError, IntegrityError, connection, models, transaction
from django.utils import timezone

from republic.file_shapes import data_too_deep
from republic.games.archive.checks import Checked, check_archive
from republic.games.archive.export import ROWS
from republic.games.archive.remap import ArchiveError, Refs
from republic.games.ledger import about
from republic.games.models import ClubChart, Command, Event, Game, GameSetup, Side
from republic.games.uploads import SAVED_GAME_MOST, in_words

Ids = dict[type[models.Model], dict[int, int]]
_LOADED_MARK = re.compile(r" \(loaded [^()]*\)$")
MOST_DEPTH = 48
"""Lists and objects inside each other: a saved game's deepest (an event's payload) is a dozen."""


def _no_constant(name: str) -> Any:
    raise ArchiveError(f"The file is not plain JSON: it holds {name}.")


def read_archive(raw: bytes) -> dict[str, Any]:
    """The file's data, or an ArchiveError saying why it is no saved game."""
    if len(raw) > SAVED_GAME_MOST:
        raise ArchiveError(f"The file is larger than {in_words(SAVED_GAME_MOST)}: it is not a saved game.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ArchiveError(f"The file is not UTF-8 text (byte {exc.start} is not).") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ArchiveError(f"The file is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.") from None
    except ArchiveError:
        raise
    except (ValueError, RecursionError):  # a number of thousands of digits, lists nested thousands deep
        raise ArchiveError("The file is not JSON a saved game is made of.") from None
    if not isinstance(data, dict):
        raise ArchiveError("The file is not a saved game: it holds no game's fields.")
    if data_too_deep(data, MOST_DEPTH):
        raise ArchiveError(f"The file nests lists and objects more than {MOST_DEPTH} deep, which no saved game does.")
    # JSON may escape what no database column holds: a NUL, half of a character's UTF-16 pair
    again = json.dumps(data, ensure_ascii=False)
    try:
        again.encode("utf-8")
    except UnicodeEncodeError:
        raise ArchiveError("The file holds an escaped character that is no character (a lone surrogate).") from None
    if "\x00" in again or "\\u0000" in again:
        raise ArchiveError("The file holds a NUL character, which no saved game does.")
    return data


def import_game(raw: bytes) -> Game:
    """A fresh game from a saved one; nothing is created when the file is refused."""
    checked = check_archive(read_archive(raw))
    try:
        with transaction.atomic():
            return _write(checked)
    except (IntegrityError, DataError) as exc:  # a value the checks let through and the database does not take
        raise ArchiveError(f"This server's database refused the file's rows: {exc}") from None


def _inserted(model: type[models.Model], rows: list[models.Model]) -> None:
    if connection.features.can_return_rows_from_bulk_insert:
        model._default_manager.bulk_create(rows)
    else:  # a database that cannot say the ids it gave: each row is saved for its id
        for row in rows:
            row.save()


def _row(model: type[models.Model], game: Game, values: dict[str, Any], fks: dict[str, Any], ids: Ids) -> Any:
    fields = {name: ids[fks[name]][v] if name in fks and v is not None else v for name, v in values.items()}
    del fields["id"]
    return model(game=game, **fields)


def loaded_name(name: str, at: datetime.datetime) -> str:
    """The name a loaded game goes by, its saved name and when it was loaded ('Gettysburg (loaded 26 Nov 14:05)'),
    so that it is never taken for the game it was saved from; a game loaded again from a loaded one's file says
    when this time only."""
    when = timezone.localtime(at)
    mark = f" (loaded {when.day} {when:%b %H:%M})"
    saved = _LOADED_MARK.sub("", name)
    most = cast(int, Game._meta.get_field("name").max_length)
    return saved[: most - len(mark)] + mark


def _write(checked: Checked) -> Game:
    ids: Ids = {}
    now = timezone.now()
    # a loaded copy is never the shipped demo: it goes by a name and a card of its own
    game = Game(**{**checked.game, "name": loaded_name(checked.game["name"], now), "demo": False, "loaded_at": now})
    for chart in checked.club_charts:
        ClubChart.objects.get_or_create(checksum=chart["checksum"], defaults=chart)
    game.save()
    ids[Game] = {checked.game_id: game.pk}
    for table, model in ROWS.items():
        ids[model] = {}
        for level in checked.levels if model is Command else [checked.rows[table]]:
            made = [_row(model, game, values, checked.fks[table], ids) for values in level]
            _inserted(model, made)
            ids[model].update((values["id"], row.pk) for values, row in zip(level, made, strict=True))
    refs = Refs(ids)
    setup = refs.setup(checked.setup)
    # the game as loaded starts from its new name, so that its rows stay the setup plus its events
    saved = setup.get(game.piece.key, {})
    saved.update({field: value for field, value in (("name", game.name), ("demo", False)) if field in saved})
    GameSetup.objects.create(game=game, state=setup)
    for name, side in checked.game_sides.items():
        setattr(game, name, refs.maybe(Side, side, f"game.{name}"))
    game.save(update_fields=list(checked.game_sides))
    events = []
    for values in checked.events:
        where = f"event #{values['seq']}"
        remapped = {
            "side_id": refs.maybe(Side, values.get("side_id"), where),
            "subject": refs.subject(values.get("subject", ""), where),
            "payload": refs.payload(values["kind"], values["payload"], f"{where}.payload"),
            "changes": [refs.change(c, f"{where}.changes") for c in values["changes"]],
        }
        events.append(Event(game=game, **{**values, **remapped}))
        events[-1].about = about(events[-1].subject, events[-1].changes, events[-1].payload)
    Event.objects.bulk_create(events)
    by_seq, undos = {event.seq: event for event in events}, []
    for event, created, undoes in zip(events, checked.created, checked.undoes, strict=True):
        # the moment each event was recorded is its own, but the database stamps a row as it is inserted
        event.created = created or timezone.now()
        if undoes is not None:
            event.undoes = by_seq[undoes]
            undos.append(event)
    Event.objects.bulk_update(events, ["created"], batch_size=500)
    Event.objects.bulk_update(undos, ["undoes"], batch_size=500)
    return game
