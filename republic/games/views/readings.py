"""A request reads each step's state once per game version: the page, the form it checks, the action and the
rows of its answer share that reading (``ledger.read_once``)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from republic.games.ledger import readings


class ReadOncePerRequest:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with readings():
            return self.get_response(request)
