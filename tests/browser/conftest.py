"""A real browser for the phone tests: Debian's chromium driven by Playwright, against pytest-django's live server.

Playwright never downloads a browser here (no `playwright install`): it drives /usr/bin/chromium, which the
Makefile's system-packages target installs where it is missing.
"""

import os

import pytest
from django.conf import settings
from playwright.sync_api import sync_playwright

from republic.games.models import Game
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE


@pytest.fixture(scope="module")
def browser():
    # Playwright's sync API runs an event loop in this thread; Django's ORM, used by the test between browser
    # steps, refuses to run while one is running unless told it is safe (it is: the test waits on each step).
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    assert CHROMIUM.exists(), "Debian's chromium is missing: run `make system-packages`"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


def signed_in(context, live_server, client) -> None:
    """The browser holds the session of a test client (the game master's, or a player's with a seat)."""
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}])


@pytest.fixture
def phone(browser, live_server, client):
    """A fresh page on a 360x740 phone screen, the game master's; script errors and failed requests (but the
    favicon) are collected in ``page.problems`` for the test to check."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    signed_in(context, live_server, client)
    context.set_default_timeout(5_000)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda msg: (
            msg.type == "error"
            and not msg.text.startswith("Failed to load resource")
            and page.problems.append(f"console: {msg.text}")
        ),
    )
    page.on("requestfailed", lambda request: page.problems.append(f"request failed: {request.url}"))
    page.on(
        "response",
        lambda response: (
            response.status >= 400
            and not response.url.endswith("/favicon.ico")
            and page.problems.append(f"{response.status}: {response.url}")
        ),
    )
    yield page
    context.close()


@pytest.fixture
def demo_game(transactional_db) -> Game:
    """The demo battle, freshly imported, in a database the live server shares."""
    return create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
