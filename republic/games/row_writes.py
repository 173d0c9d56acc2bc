"""An action's changed rows saved with one UPDATE a table, however many rows it changed (the end of a player turn
changes every unit that fired, moved or took hits)."""

import sqlite3
from collections.abc import Iterator
from typing import Any

from django.db import connection, models
from django.db.models import Case, F, Value, When
from django.db.models.functions import Cast


def write_rows(rows: list[tuple[models.Model, set[str]]]) -> None:
    """Save the changed rows with one UPDATE a table, however many rows an action changed (the end of a player
    turn changes every unit). Each row gets only the fields the action changed on it; the others keep what the
    database holds, so a row read before the game was locked cannot write back a stale value."""
    tables: dict[type[models.Model], list[tuple[models.Model, set[str]]]] = {}
    for obj, changed in rows:
        tables.setdefault(type(obj), []).append((obj, changed))
    for model, found in tables.items():
        for chunk in _chunks(found):
            if len(chunk) == 1:
                obj, changed = chunk[0]
                obj.save(update_fields=sorted(changed))
            else:
                model._default_manager.filter(pk__in=[obj.pk for obj, _ in chunk]).update(**_cases(model, chunk))


def _cases(model: type[models.Model], rows: list[tuple[models.Model, set[str]]]) -> dict[str, Any]:
    """Each changed field as a CASE on the row's id, one branch a value (the end of a turn clears every unit's
    field to one value); rows that did not change the field keep their own."""
    cast = connection.features.requires_casted_case_in_updates
    cases: dict[str, Any] = {}
    for name in sorted(set().union(*(changed for _, changed in rows))):
        field = model._meta.get_field(name)
        assert isinstance(field, models.Field)
        by_value: dict[str, tuple[Any, list[Any]]] = {}
        for obj, changed in rows:
            if name in changed:
                value = getattr(obj, name)
                by_value.setdefault(repr(value), (value, []))[1].append(obj.pk)
        whens = [When(pk__in=pks, then=Value(value, output_field=field)) for value, pks in by_value.values()]
        case = Case(*whens, default=F(name), output_field=field)
        cases[name] = Cast(case, output_field=field) if cast else case
    return cases


def _chunks(rows: list[tuple[models.Model, set[str]]]) -> Iterator[list[tuple[models.Model, set[str]]]]:
    """The rows in as few statements as the database takes: each row costs its id once in the WHERE and its id
    and value for every field it changed."""
    limit = _most_parameters()
    chunk: list[tuple[models.Model, set[str]]] = []
    used = 0
    for row in rows:
        cost = 1 + 2 * len(row[1])
        if chunk and used + cost > limit:
            yield chunk
            chunk, used = [], 0
        chunk.append(row)
        used += cost
    if chunk:
        yield chunk


def _most_parameters() -> int:
    """The most values one statement may carry. Django's SQLite backend assumes the 999 of old builds; the library
    says what this one takes (32766 by default since SQLite 3.32). PostgreSQL takes 65535."""
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        return int(connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
    return connection.features.max_query_params or 65535
