"""When the database cannot be reached (PostgreSQL stopped or restarting, SQLite's file locked past its timeout),
a player is told the server cannot save right now, with 503, instead of a server error: the action was not
recorded, since every action is one transaction, and the same tap works again once the database is back.

When a game's club chart, kept by an earlier version, is refused by today's checks of its cells, everyone on the
game is told which chart and which cell, with 503, instead of a server error on every page."""

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django_htmx.http import reswap, retarget

from republic.games.models.charts import KeptChartRefused
from republic.games.text.charts import chart_problem

logger = logging.getLogger(__name__)

MESSAGE = (
    "The server cannot save right now: its database does not answer. Try again in a moment; if what you sent "
    "was recorded before the database stopped, the game will say it moved on."
)


def _unavailable(request: HttpRequest, title: str, message: str) -> HttpResponse:
    # drawn without the request: the page's usual parts (who is signed in) would ask the database again
    if getattr(request, "htmx", False):
        body = render_to_string("outage.html#message", {"message": message})
        return retarget(reswap(HttpResponse(body, status=503), "innerHTML"), "#refusal-slot")
    response = HttpResponse(render_to_string("outage.html", {"message": message, "title": title}), status=503)
    response["Retry-After"] = "5"
    return response


class Unavailable:
    """The middleware that answers both with 503 and the words for the table, instead of a server error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # only a database that cannot be reached or answer is an outage; one that refuses what it was sent (an
        # integrity error, a value it cannot hold, a query it cannot run) did answer, and that is a mistake of the
        # app's: it stays a server error, and is seen
        if isinstance(exception, OperationalError | InterfaceError):
            logger.error("The database did not answer: %s", exception)
            return _unavailable(request, "The server cannot save right now", MESSAGE)
        if isinstance(exception, KeptChartRefused):
            logger.error("A kept club chart is refused: %s", exception)
            message = (
                f"This game is played on the club chart {exception.kept}, kept by an earlier version of the app that "
                f"did not check every cell, and today's checks refuse it: {chart_problem(exception.problem)}. "
                "Nothing of the game is lost, but it cannot be played on until that chart is put right on the server."
            )
            return _unavailable(request, "This game's chart cannot be read", message)
        return None
