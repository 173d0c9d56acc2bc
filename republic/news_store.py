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

from typing import Any

from diskcache import DjangoCache

from republic.remembered import MISSING, Remembered

CLAIMED = ":drawing"  # the end of a claim's key
REMEMBERED_SECONDS = 10.0
REMEMBERED_MOST = 1_000  # answers of at most some tens of KB each

_remembered = Remembered(REMEMBERED_SECONDS, REMEMBERED_MOST)


class KeptOpen(DjangoCache):  # type: ignore[misc]
    def close(self, **kwargs: Any) -> None:
        """Left open: see the module."""

    def get(self, key: str, default: Any = None, version: Any = None, **options: Any) -> Any:
        if options or key.endswith(CLAIMED):
            return super().get(key, default, version, **options)
        place = (self.directory, key, version)
        value = _remembered.get(place)
        if value is MISSING:
            value = super().get(key, MISSING, version)
            if value is MISSING:
                return default
            _remembered.put(place, value)
        return value

    def delete(self, key: str, version: Any = None, **options: Any) -> bool:
        _remembered.drop((self.directory, key, version))
        return bool(super().delete(key, version, **options))

    def clear(self) -> None:
        _remembered.forget(lambda place: place[0] == self.directory)  # type: ignore[index]
        super().clear()
