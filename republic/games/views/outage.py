"""When the database cannot be reached (PostgreSQL stopped or restarting, SQLite's file locked past its timeout),
a player is told the server cannot save right now, with 503, instead of a server error: the action was not
recorded, since every action is one transaction, and the same tap works again once the database is back."""

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django_htmx.http import reswap, retarget

logger = logging.getLogger(__name__)

MESSAGE = (
    "The server cannot save right now: its database does not answer. Try again in a moment; if what you sent "
    "was recorded before the database stopped, the game will say it moved on."
)


class DatabaseUnavailable:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # only a database that cannot be reached or answer is an outage; one that refuses what it was sent (an
        # integrity error, a value it cannot hold, a query it cannot run) did answer, and that is a mistake of the
        # app's: it stays a server error, and is seen
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("The database did not answer: %s", exception)
        # drawn without the request: the page's usual parts (who is signed in) would ask the database again
        if getattr(request, "htmx", False):
            body = render_to_string("outage.html#message", {"message": MESSAGE})
            response = HttpResponse(body, status=503)
            return retarget(reswap(response, "innerHTML"), "#refusal-slot")
        response = HttpResponse(render_to_string("outage.html", {"message": MESSAGE}), status=503)
        response["Retry-After"] = "5"
        return response
