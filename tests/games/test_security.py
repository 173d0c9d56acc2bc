"""What guards a club's server: a Content Security Policy that lets nothing but the app's own files run or style
a page, the framing and referrer headers, CSRF on every form, the game master's sign-in rate-limited."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from republic.games.models import Event
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, fresh
from tests.games.test_access import GAME_ADDRESSES, OTHER_ADDRESSES, address

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_page_carries_a_policy_that_allows_no_inline_script_or_style(client, demo):
    for url in ("/", f"/games/{demo.pk}/", f"/games/{demo.pk}/log/", "/chart/", "/accounts/login/", "/dashboard/"):
        response = client.get(url)
        assert response.status_code == 200, url
        policy = dict(d.strip().split(" ", 1) for d in response["Content-Security-Policy"].split(";"))
        assert policy["default-src"] == policy["script-src"] == policy["style-src"] == "'self'", url
        assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'", url
        assert "unsafe" not in response["Content-Security-Policy"], url
        assert response["X-Frame-Options"] == "DENY" and response["Referrer-Policy"] == "same-origin", url
        assert response["X-Content-Type-Options"] == "nosniff", url


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "a script without src"),
    (re.compile(r"<style\b", re.I), "a style element"),
    (re.compile(r"\sstyle=", re.I), "a style attribute"),
    (re.compile(r"\son[a-z]+=", re.I), "an event handler attribute"),
    (re.compile(r"\shx-on[:-]", re.I), "an htmx inline handler"),
    (re.compile(r"javascript:", re.I), "a javascript: address"),
]


def test_no_template_holds_inline_script_or_style():
    found = [
        f"{path.relative_to(TEMPLATES)}: {what}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for pattern, what in INLINE
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_htmx_is_told_to_add_no_style_and_run_no_script():
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    config = re.search(r'name="htmx-config" content=\'([^\']+)\'', base).group(1)
    assert '"includeIndicatorStyles": false' in config
    assert '"allowEval": false' in config and '"allowScriptTags": false' in config


def _post_addresses(game) -> list[str]:
    return [address(name, game) for name in sorted([*GAME_ADDRESSES, *OTHER_ADDRESSES])]


def test_every_post_without_the_csrf_token_is_refused_and_changes_nothing(client, demo):
    game = at_step(demo, "assaults")
    seated_device(game, "Union")  # the seats page's addresses name a seat
    master = client
    guarded = Client(enforce_csrf_checks=True)
    guarded.cookies = master.cookies
    before = Event.objects.filter(game=game).count()
    for url in [*_post_addresses(game), "/accounts/login/", "/accounts/logout/"]:
        response = guarded.post(url, {"version": fresh(game).version}, **HTMX)
        assert response.status_code == 403, url
        assert b"security token (CSRF) is missing or out of date" in response.content, url
    assert Event.objects.filter(game=game).count() == before


def test_a_seated_phone_sending_its_token_in_the_htmx_header_is_let_through(demo):
    phone = seated_device(demo, "Confederate")
    phone.handler.enforce_csrf_checks = True
    page = phone.get(f"/games/{demo.pk}/").content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    version = fresh(demo).version
    response = phone.post(f"/games/{demo.pk}/next/", {"version": version}, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert (
        response.status_code == 200 and fresh(demo).version == version + 3
    )  # the empty command steps pass by themselves


@pytest.fixture
def game_master(db):
    return get_user_model().objects.create_user("gm", password="the right one", is_staff=True)


def _sign_in(device: Client, password: str, username: str = "gm", address: str = "10.1.1.1"):
    return device.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_the_name_out_from_that_address_even_with_the_right_one(game_master):
    device = Client()
    for _ in range(4):
        assert _sign_in(device, "wrong").status_code == 200
    locked = _sign_in(device, "wrong")
    assert locked.status_code == 429 and b"Sign-in locked for a while" in locked.content
    assert b"15 minutes" in locked.content
    assert _sign_in(device, "the right one").status_code == 429
    assert "_auth_user_id" not in device.session
    # another address, or another name, is not locked out
    assert _sign_in(Client(), "the right one", address="10.1.1.2").status_code == 302


def _behind_proxy(device: Client, password: str, forwarded: str, proxy: str = "10.0.0.9"):
    return device.post(
        "/accounts/login/", {"username": "gm", "password": password}, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=forwarded
    )


def test_behind_the_named_proxy_each_phone_is_locked_out_by_its_own_address(game_master, settings):
    """Every phone reaches the server from the proxy's address: five wrong passwords from one lock out that phone
    alone, and what a phone writes in the header itself, before the proxy's own word, changes nothing."""
    settings.TRUSTED_PROXIES = ["10.0.0.9"]
    guesser, game_master_phone = Client(), Client()
    for forged in ("192.168.1.31", "192.168.1.32", "1.2.3.4", "192.168.1.31", "junk"):
        # the proxy adds the address it saw after whatever the phone sent
        _behind_proxy(guesser, "wrong", f"{forged}, 192.168.1.30")
    assert _behind_proxy(guesser, "the right one", "192.168.1.30").status_code == 429
    assert _behind_proxy(game_master_phone, "the right one", "192.168.1.31").status_code == 302


def test_without_a_named_proxy_the_forwarded_header_is_ignored(game_master):
    guesser = Client()
    for forged in ("192.168.1.31", "192.168.1.32", "192.168.1.33", "192.168.1.34", "192.168.1.35"):
        _behind_proxy(guesser, "wrong", forged, proxy="10.1.1.1")
    assert _behind_proxy(Client(), "the right one", "192.168.1.36", proxy="10.1.1.1").status_code == 429
    # nor does a request from another address that names the proxy's address in the header pass for it
    assert _behind_proxy(Client(), "the right one", "10.1.1.1", proxy="10.1.1.2").status_code == 302


def test_a_right_password_before_the_limit_clears_the_count(game_master):
    device = Client()
    for _ in range(4):
        _sign_in(device, "wrong")
    assert _sign_in(device, "the right one").status_code == 302
    for _ in range(4):
        assert _sign_in(Client(), "wrong").status_code == 200


def _copy_of(device: Client) -> Client:
    """Another browser holding the same session cookie, as one copied from the game master's device."""
    copy = Client()
    copy.cookies[settings.SESSION_COOKIE_NAME] = device.cookies[settings.SESSION_COOKIE_NAME].value
    return copy


def _reaches_the_master_pages(device: Client, game) -> bool:
    """The dashboard, and a new join link for the game: True when both are the game master's, False when both are
    refused and the join link is unchanged."""
    code = fresh(game).join_code
    dashboard = device.get("/dashboard/").status_code
    device.post(f"/games/{game.pk}/seats/new-code/")
    changed = fresh(game).join_code != code
    assert (dashboard == 200) == changed, (dashboard, changed)
    return changed


def test_signing_out_ends_every_copy_of_the_game_masters_session(game_master, demo):
    device = Client()
    assert _sign_in(device, "the right one").status_code == 302
    copy, union_phone = _copy_of(device), seated_device(demo, "Union")
    assert _reaches_the_master_pages(copy, demo)
    device.post("/accounts/logout/")
    assert not _reaches_the_master_pages(copy, demo)
    assert not _reaches_the_master_pages(device, demo)
    # the players' seats are theirs still
    assert union_phone.get(f"/games/{demo.pk}/").status_code == 200
    assert "A Union player" in union_phone.get(f"/games/{demo.pk}/").content.decode()
    # signing in again is a session of its own; the copy of the old one stays out
    assert _sign_in(device, "the right one").status_code == 302
    assert _reaches_the_master_pages(device, demo)
    assert not _reaches_the_master_pages(copy, demo)


def test_a_password_change_ends_every_other_copy_of_the_session(game_master, demo):
    device = Client()
    _sign_in(device, "the right one")
    copy = _copy_of(device)
    assert _reaches_the_master_pages(copy, demo)
    change = {"old_password": "the right one", "new_password1": "a new one, long enough", "new_password2": ""}
    change["new_password2"] = change["new_password1"]
    assert device.post("/admin/password_change/", change).status_code == 302
    assert _reaches_the_master_pages(device, demo)  # the device that changed it stays signed in
    assert not _reaches_the_master_pages(copy, demo)
