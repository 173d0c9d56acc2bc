"""A shared answer drawn by one request while the others that ask for it wait (``views/shared_news.py``). After an
action, forty phones of a battle poll within three seconds, and at 400 units drawing their news takes a request
30 ms of the processor, and far longer to answer once the machine is busy: every phone that asked meanwhile drew
the same answer again, and a convention's server spent about a seventh of its processor drawing answers another
of its requests was drawing at that moment. Now the first request claims the drawing in the store the server's processes
share, and the others wait for its answer to be kept.

A claim lapses after ``CLAIM_SECONDS``, so a process killed mid-drawing holds no one up for longer; a request that
sees the claim gone without the answer kept (it was drawn for one device alone) draws its own. A waiting request
holds a server thread but no processor."""

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import caches

from republic.news_store import CLAIMED

CLAIM_SECONDS = 2.0
LOOK_EVERY = 0.02  # seconds between two looks at the store, each a few reads

T = TypeVar("T")


def drawn_once(key: str, found: Callable[[], T | None], draw: Callable[[], T]) -> T:
    """The answer kept under ``key``: ``found`` reads it (None if it is not kept), ``draw`` draws it and keeps it.
    Drawn here when it is not kept and no other request is drawing it, otherwise waited for."""
    answer = found()
    if answer is not None:
        return answer
    store = caches["news"]
    claim = f"{key}{CLAIMED}"
    if store.add(claim, 1, CLAIM_SECONDS):
        try:
            return draw()
        finally:
            store.delete(claim)
    until = time.monotonic() + CLAIM_SECONDS
    while time.monotonic() < until:
        time.sleep(LOOK_EVERY)
        answer = found()
        if answer is not None:
            return answer
        if store.get(claim) is None:
            break
    return draw()
