"""The store of the news the polls share (views/shared_news.py): diskcache's Django cache, kept open. Django closes
every cache as each request ends; closed, diskcache's store opens its database files again, with their settings,
at the next request's first read, which costs a poll that finds its answer kept more than the rest of it. Its
connections are each thread's own, so keeping them open between requests is safe."""

from typing import Any

from diskcache import DjangoCache


class KeptOpen(DjangoCache):  # type: ignore[misc]
    def close(self, **kwargs: Any) -> None:
        """Left open: see the module."""
