"""Queries whose SQL is made once per server process, not at every request.

Django builds a query's conditions and writes its SQL anew each time a queryset runs, and for the app's queries
(a few joins, a model of thirty columns) that costs about a millisecond each on the club's laptop: a quarter of a
request's processor, on a day whose requests all run the same few dozen queries with other keys. ``prepared``
takes a function that builds a queryset from primary keys and numbers, and runs it: the first time, it builds it
three times, with the keys given and with two sets of marker numbers in their place, and when all give the same SQL
whose parameters differ only where the markers stand, it keeps that SQL, the columns it selects and the built
query.
Every later call takes the kept query, puts the keys in the markers' places and runs it, building and writing
nothing. Its other arguments (a step's name, ``None``) are part of what is kept: each value keeps SQL of its own. A
function whose SQL changes with its numbers, or called with anything else (a list of keys, a game), is never kept,
only run as it is, so that a kept query is always the one the function would build."""

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet
from django.db.models.sql import Query

T = TypeVar("T")
# two sets of numbers, each standing for the arguments while the SQL is made: within the range of every integer
# column (Django drops a condition no value of its column can miss), and two, so that a constant of the query that
# happens to equal one of them is never taken for an argument
_MARKERS = (tuple(32_749 - 2 * index for index in range(8)), tuple(32_719 - 2 * index for index in range(8)))

# PostgreSQL's numbers as Django types them for a column of 2 or 4 bytes; any other is given as 8 bytes
_BOUNDS = {"Int2": 2**15, "Int4": 2**31}
# what a call's arguments may be for its SQL to be kept: whole numbers, and a few names each writing SQL of its own
_KEYS = (int, str, tuple, bool, type(None))


@dataclass(frozen=True)
class _Made:
    queryset: QuerySet[Any]  # built with the markers, never run itself
    sql: str
    params: tuple[Any, ...]  # the markers' params, the markers where the arguments go
    places: tuple[tuple[int, int], ...]  # (param's index, argument's index)
    compiled: dict[str, Any]  # what the compiler found as it wrote the SQL, which reading its rows needs

    def takes(self, arguments: tuple[Any, ...]) -> bool:
        """Whether each number fits the column it is compared with as the database is given it: a larger one (a
        URL's 30 digits) is left to Django, which finds that no row can match it."""
        return all(
            -bound <= arguments[argument] < bound
            for place, argument in self.places
            for bound in [_BOUNDS.get(type(self.params[place]).__name__, 2**63)]
        )


class _KeptQuery(Query):
    """The kept query with this call's arguments: its compiler writes nothing and finds no column again."""

    made: _Made
    arguments: tuple[Any, ...]

    def get_compiler(self, using: Any = None, connection: Any = None, elide_empty: bool = True) -> Any:
        compiler = super().get_compiler(using, connection, elide_empty)
        compiler.__dict__.update(self.made.compiled)
        params = _filled(self.made, self.arguments)
        compiler.as_sql = lambda *args, **kwargs: (self.made.sql, params)
        return compiler


def _filled(made: _Made, arguments: tuple[Any, ...]) -> tuple[Any, ...]:
    """The kept query's parameters with this call's arguments in the markers' places."""
    params = list(made.params)
    for place, argument in made.places:
        params[place] = _as(params[place], arguments[argument])
    return tuple(params)


def _as(marker: int, argument: int) -> int:
    """The argument as the marker in its place was given to the database (PostgreSQL's are typed: ``Int2(5)``)."""
    return type(marker)(argument)


def _compiled(queryset: QuerySet[Any]) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    found = ("select", "klass_info", "annotation_col_map", "col_count", "has_extra_select")
    return sql, tuple(params), {name: getattr(compiler, name) for name in found}


class prepared(Generic[T]):
    """``build(*arguments)`` run as a list, its SQL made once per process for each value of its arguments that
    are not whole numbers (see the module): a process serves one database."""

    def __init__(self, build: Callable[..., QuerySet[Any, T]]):
        self.build = build
        # by the arguments that are not whole numbers (a step's name, a tuple of kinds): each writes its own SQL;
        # None where a kind of call was found not to keep, and is run as it is
        self.made: dict[tuple[Any, ...], _Made | None] = {}
        self.lock = threading.Lock()

    def __call__(self, *arguments: Any) -> list[T]:
        made = self._found(arguments)
        if made is None:
            return list(self.build(*arguments))
        return list(self._kept(made, arguments))

    def rows(self, *arguments: Any) -> list[tuple[Any, ...]]:
        """The rows of ``build(*arguments)`` (a values query) as the database gives them, numbers and words alike
        on SQLite and PostgreSQL: a reading of a thousand rows whose values Django would convert one by one."""
        made = self._found(arguments)
        try:
            sql, params = (
                (made.sql, _filled(made, arguments)) if made else self.build(*arguments).query.sql_with_params()
            )
        except EmptyResultSet:
            return []
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()

    def _found(self, arguments: tuple[Any, ...]) -> _Made | None:
        """The kept query for these arguments, or None when they are run as they are."""
        if not all(type(argument) in _KEYS for argument in arguments):  # a game, a list: run as it is
            return None
        numbers = [index for index, argument in enumerate(arguments) if type(argument) is int]
        kind = tuple(int if index in numbers else argument for index, argument in enumerate(arguments))
        try:
            made = self.made[kind]
        except KeyError:
            with self.lock:
                made = self.made[kind] = self._make(arguments, numbers)
        return made if made is not None and made.takes(arguments) else None

    def _make(self, arguments: tuple[Any, ...], numbers: list[int]) -> _Made | None:
        if len(numbers) > len(_MARKERS[0]):
            return None
        try:
            real_sql, real_params, _ = _compiled(self.build(*arguments))
            (marked, sql, params, places, compiled), (_, other_sql, _, other_places, _) = (
                self._marked(arguments, numbers, markers) for markers in _MARKERS
            )
        except EmptyResultSet:
            return None
        made = _Made(marked, sql, params, places, compiled)
        if (sql, places) != (other_sql, other_places) or (sql, _filled(made, arguments)) != (real_sql, real_params):
            return None
        return made

    def _marked(
        self, arguments: tuple[Any, ...], numbers: list[int], markers: tuple[int, ...]
    ) -> tuple[Any, str, tuple[Any, ...], tuple[tuple[int, int], ...], Any]:
        """The query built with a marker for each whole number; its SQL, and where each number's marker stands."""
        stands = dict(zip(markers, numbers, strict=False))
        marked = self.build(*(markers[numbers.index(i)] if i in numbers else a for i, a in enumerate(arguments)))
        sql, params, compiled = _compiled(marked)
        places = tuple(
            (index, stands[param])
            for index, param in enumerate(params)
            if isinstance(param, int) and not isinstance(param, bool) and param in stands
        )
        return marked, sql, params, places, compiled

    def _kept(self, made: _Made, arguments: tuple[int, ...]) -> QuerySet[Any, T]:
        # the kept query is never changed: this call's shares its conditions and columns, with its own arguments
        marked: Any = made.queryset
        query = _KeptQuery.__new__(_KeptQuery)
        query.__dict__.update(marked.query.__dict__)
        query.made, query.arguments = made, arguments
        queryset = marked.__class__(model=marked.model, query=query, using=marked._db, hints=marked._hints)
        queryset._iterable_class, queryset._fields = marked._iterable_class, marked._fields
        queryset._known_related_objects = marked._known_related_objects
        return queryset
