"""What a server process keeps in its memory for some seconds (the news it read, the cookies it checked): values
that never change under their key, asked for by many requests within seconds. At most so many are kept, the oldest
forgotten first."""

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

MISSING = object()  # what ``get`` gives for a key not kept, or kept too long ago


class Remembered:
    def __init__(self, seconds: float, most: int):
        self.seconds, self.most = seconds, most
        self.kept: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()  # in the order the entries lapse
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        found = self.kept.get(key)
        return found[1] if found is not None and found[0] > time.monotonic() else MISSING

    def put(self, key: Hashable, value: Any) -> None:
        now = time.monotonic()
        with self.lock:
            self.kept.pop(key, None)
            self.kept[key] = (now + self.seconds, value)
            while len(self.kept) > self.most or next(iter(self.kept.values()))[0] <= now:
                self.kept.popitem(last=False)

    def drop(self, key: Hashable) -> None:
        with self.lock:
            self.kept.pop(key, None)

    def forget(self, which: Callable[[Hashable], bool]) -> None:
        with self.lock:
            for key in [key for key in self.kept if which(key)]:
                del self.kept[key]
