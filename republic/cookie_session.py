"""A device's session, kept in its own signed cookie (Django's ``signed_cookies``), its signature checked and its
text decoded once a minute in each server process rather than at every request. A phone sends the same cookie with
every poll, every three seconds, and checking and decoding it cost a poll that finds nothing new more than its
query. A cookie's text always says the same, and a changed session is a new text: what a text said is kept for
``KEPT_SECONDS`` under the whole text, and each request is given its own copy. A cookie past its age (two weeks)
may so be taken for up to a minute longer."""

import copy
from typing import Any

from django.contrib.sessions.backends import signed_cookies

from republic.remembered import MISSING, Remembered

KEPT_SECONDS = 60.0
KEPT_MOST = 2_000  # a convention's devices, twice over

_read = Remembered(KEPT_SECONDS, KEPT_MOST)


class SessionStore(signed_cookies.SessionStore):
    def load(self) -> dict[str, Any]:
        text = self.session_key
        found: Any = _read.get(text) if text else MISSING
        if found is not MISSING:
            return copy.deepcopy(found)
        data: dict[str, Any] = super().load()
        if data and text:  # signed right: a cookie that is not is read as no session
            _read.put(text, copy.deepcopy(data))
        return data
