"""The store of the news the polls share (views/shared_news.py): diskcache's Django cache, kept open, with what each
server process has read from it in the last seconds kept in its memory.

Django closes every cache as each request ends; closed, diskcache's store opens its database files again, with their
settings, at the next request's first read, which costs a poll that finds its answer kept more than the rest of it.
Its connections are each thread's own, so keeping them open between requests is safe.

A kept answer never changes: its key holds everything it is drawn from, the game's version among them. After an
action forty phones of a battle ask for the same answers within three seconds, a tenth of them in each process, and
reading one from the disk again (its database, its file, unpickled) cost a convention's server a twentieth of its
processor. So an answer read is kept in the process for ``REMEMBERED_SECONDS`` as well. A claim to draw an answer
(``CLAIMED``, views/claims.py) changes and lapses, and is always read from the store."""

import threading
import time
from collections import OrderedDict
from typing import Any

from diskcache import DjangoCache

CLAIMED = ":drawing"  # the end of a claim's key
REMEMBERED_SECONDS = 10.0
REMEMBERED_MOST = 1_000  # answers of at most some tens of KB each

_MISSING = object()
_remembered: OrderedDict[tuple[str, str, Any], tuple[float, Any]] = OrderedDict()
_lock = threading.Lock()


class KeptOpen(DjangoCache):  # type: ignore[misc]
    def close(self, **kwargs: Any) -> None:
        """Left open: see the module."""

    def get(self, key: str, default: Any = None, version: Any = None, **options: Any) -> Any:
        if options or key.endswith(CLAIMED):
            return super().get(key, default, version, **options)
        place = (self.directory, key, version)
        now = time.monotonic()
        found = _remembered.get(place)
        if found is not None and found[0] > now:
            return found[1]
        value = super().get(key, _MISSING, version)
        if value is _MISSING:
            return default
        with _lock:
            _remembered.pop(place, None)  # put last, in the order the entries lapse
            _remembered[place] = (now + REMEMBERED_SECONDS, value)
            while _remembered and (len(_remembered) > REMEMBERED_MOST or next(iter(_remembered.values()))[0] <= now):
                _remembered.popitem(last=False)
        return value

    def delete(self, key: str, version: Any = None, **options: Any) -> bool:
        with _lock:
            _remembered.pop((self.directory, key, version), None)
        return bool(super().delete(key, version, **options))

    def clear(self) -> None:
        with _lock:
            for place in [place for place in _remembered if place[0] == self.directory]:
                del _remembered[place]
        super().clear()
