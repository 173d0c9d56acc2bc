"""A device's signed cookie is checked and decoded once a minute in each server process
(``republic/cookie_session.py``): a phone sends the same one every three seconds. Each request gets its own copy, a
changed or forged cookie is read as what it says, and after a minute the cookie is checked again."""

from importlib import import_module

import pytest
from django.conf import settings
from django.core import signing

from republic import cookie_session, remembered
from republic.cookie_session import KEPT_SECONDS, SessionStore


@pytest.fixture(autouse=True)
def nothing_read_yet():
    cookie_session._read.kept.clear()


def written(data) -> str:
    session = SessionStore()
    session.update(data)
    session.save()
    return session.session_key


def test_the_app_keeps_its_sessions_so():
    assert import_module(settings.SESSION_ENGINE).SessionStore is SessionStore


def test_a_cookie_is_checked_once_and_each_request_gets_its_own_copy(monkeypatch):
    checks = []
    loads = signing.loads
    monkeypatch.setattr(signing, "loads", lambda *a, **k: checks.append(1) or loads(*a, **k))
    cookie = written({"republic_seats": {"7": 12}})
    first = SessionStore(cookie)
    assert first["republic_seats"] == {"7": 12}
    first["republic_seats"]["7"] = 99  # a request's own changes stay its own
    again = SessionStore(cookie)
    assert again["republic_seats"] == {"7": 12}
    assert len(checks) == 1


def test_a_changed_or_forged_cookie_is_read_as_what_it_says():
    cookie = written({"republic_seats": {"7": 12}})
    assert SessionStore(cookie)["republic_seats"] == {"7": 12}
    changed = written({"republic_seats": {"7": 12, "8": 3}})
    assert SessionStore(changed)["republic_seats"] == {"7": 12, "8": 3}
    forged = cookie[:-3] + ("abc" if not cookie.endswith("abc") else "xyz")
    session = SessionStore(forged)
    assert session.get("republic_seats") is None and session.modified  # read as no session, and set anew


def test_after_a_minute_the_cookie_is_checked_again(monkeypatch):
    checks = []
    loads = signing.loads
    monkeypatch.setattr(signing, "loads", lambda *a, **k: checks.append(1) or loads(*a, **k))
    now = [500.0]
    monkeypatch.setattr(remembered.time, "monotonic", lambda: now[0])
    cookie = written({"republic_seats": {"7": 12}})
    assert SessionStore(cookie)["republic_seats"] == {"7": 12}
    now[0] += KEPT_SECONDS
    assert SessionStore(cookie)["republic_seats"] == {"7": 12}
    assert len(checks) == 2
