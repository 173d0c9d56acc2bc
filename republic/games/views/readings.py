"""A request reads each step's state once per game version: the page, the form it checks, the action and the
rows of its answer share that reading. A request that changes nothing (GET, HEAD) may share it with the other
requests of this process (``republic.games.readings``)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from republic.games.readings import readings

READ_ONLY = ("GET", "HEAD")


class ReadOncePerRequest:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with readings(shared=request.method in READ_ONLY):
            return self.get_response(request)
