"""A device's session, kept in its own signed cookie (Django's ``signed_cookies``), its signature checked and its
text decoded once a minute in each server process rather than at every request. A phone sends the same cookie with
every poll, every three seconds, and checking and decoding it cost a poll that finds nothing new more than its
query. A cookie's text always says the same, and a changed session is a new text: what a text said is kept for
``KEPT_SECONDS`` under the whole text, and each request is given its own copy. A cookie past its age (two weeks)
may so be taken for up to a minute longer."""

import copy
import threading
import time
from collections import OrderedDict
from typing import Any

from django.contrib.sessions.backends import signed_cookies

KEPT_SECONDS = 60.0
KEPT_MOST = 2_000  # a convention's devices, twice over

_read: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


class SessionStore(signed_cookies.SessionStore):
    def load(self) -> dict[str, Any]:
        text, now = self.session_key, time.monotonic()
        found = _read.get(text) if text else None
        if found is not None and found[0] > now:
            return copy.deepcopy(found[1])
        data: dict[str, Any] = super().load()
        if data and text:  # signed right: a cookie that is not is read as no session
            with _lock:
                _read.pop(text, None)
                _read[text] = (now + KEPT_SECONDS, copy.deepcopy(data))
                while len(_read) > KEPT_MOST or next(iter(_read.values()))[0] <= now:
                    _read.popitem(last=False)
        return data
