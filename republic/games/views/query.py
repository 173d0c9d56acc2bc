"""A page's query string (``?shown=80``, ``rows/?after=40``, ``poll/?since=12``, ``log/?page=3``): every parameter
is read here, and one that is given but cannot be read is answered with 400 naming it and what it takes, never
taken for something else and never a server error."""

from collections.abc import Mapping
from typing import TypeVar

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.loader import render_to_string

from republic.games.forms import MOST_WHOLE, whole_number

T = TypeVar("T")


class UnreadableQuery(BadRequest):
    """A query parameter the page cannot read; its message says which and what it takes."""


def whole(query: QueryDict, name: str, default: int, most: int = MOST_WHOLE) -> int:
    """A whole number from 0 to ``most``; ``default`` when the parameter is absent or empty."""
    found = optional_whole(query, name, most)
    return default if found is None else found


def optional_whole(query: QueryDict, name: str, most: int = MOST_WHOLE) -> int | None:
    raw = query.get(name, "")
    if raw == "":
        return None
    value = whole_number(raw, most)
    if value is None:
        raise UnreadableQuery(
            f"?{name}= takes a whole number from 0 to {most}, written in digits 0-9; got {raw[:20]!r}."
        )
    return value


def choice(query: QueryDict, name: str, choices: Mapping[str, T], default: T) -> T:
    """One of ``choices`` by its key; ``default`` when the parameter is absent or empty."""
    raw = query.get(name, "")
    if raw == "":
        return default
    if raw not in choices:
        raise UnreadableQuery(f"?{name}= takes {' or '.join(choices)}; got {raw[:20]!r}.")
    return choices[raw]


def flag(query: QueryDict, name: str) -> bool:
    """Whether the parameter is given as 1 (a link's ``?close=1``); absent, empty or 0 is no."""
    return choice(query, name, {"1": True, "0": False}, False)


def text(query: QueryDict, name: str) -> str:
    """Text the page compares with its own (a join code), so any text is read as it is."""
    return query.get(name, "")


def texts(query: QueryDict, name: str) -> list[str]:
    """Every value of a parameter given many times (``?open=unit-12&open=unit-14``)."""
    return query.getlist(name)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The answer to a request the app cannot read: what was wrong with its query, else that it was unreadable."""
    said = str(exception) if isinstance(exception, UnreadableQuery) else "The server could not read this request."
    # drawn without the request, as the outage page is: nothing here needs the database
    return HttpResponse(render_to_string("bad_request.html", {"message": said}), status=400)
