"""A club's hall Wi-Fi drops: a die whose send was cut, whose answer was lost, or which waited too long is marked
"Not sent" with one tap to send it again, and applies once however often it went; a phone back on the network or
shown again asks for the game at once, and rests while hidden; what a player typed survives a reload. Real chromium:
requests aborted with page.route, the context taken offline, an answer held back past the page's timeout; and the
app served over plain HTTP at a club network's name, where the browser allows no worker and no wake lock."""

import re
import time
from contextlib import suppress

from playwright.sync_api import Error, expect

from republic.games.events.payload import payload_of
from republic.games.models import Event, Game
from republic.games.steps.walk import advance
from tests.browser.checks import open_row, tap_face
from tests.browser.test_club_day import seated_phone
from tests.chromium import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.devices import seated_device
from tests.games.conftest import at_step, brigade, fresh, set_state

UNIT = "Davis's Brigade"
ACT = re.compile(r".*/act/rally/.*")
POLL = re.compile(r".*/poll/.*")
NOT_SENT = "Not sent: the network dropped."


def rallying(game: Game) -> Game:
    set_state(game, brigade(game, UNIT), m_hits=1)
    advance(game, None, "test")  # messages -> rally
    return fresh(game)


def rallies(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game, kind="RallyResolved"))


def rally_form(page, live_server, game):
    page.goto(f"{live_server.url}/games/{game.pk}/")
    open_row(page, UNIT)
    return page.get_by_role("form", name=f"Rally {UNIT}")


def first_post_spoiled(page, spoil) -> list[str]:
    """The first action sent from the page meets ``spoil(route)``; the rest go through. Returns the keys sent."""
    keys: list[str] = []

    def handle(route):
        keys.append(re.search(r"(?:^|&)sent=([^&]*)", route.request.post_data or "").group(1))
        if len(keys) == 1:
            spoil(route)
        else:
            route.fallback()

    page.route(ACT, handle)
    return keys


def sent_again_applies_once(page, game, keys: list[str]) -> None:
    note = page.get_by_role("alert").filter(has_text=NOT_SENT)
    expect(note).to_be_visible()
    again = note.get_by_role("button", name="Send again")
    box = again.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44
    again.click()
    # the phone shows the result (in the row, or in the result card when a poll drew the game since)
    expect(page.locator("main")).to_contain_text(f"{UNIT} rallies")
    expect(note).to_have_count(0)
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    (event,) = rallies(game)
    assert event.sent == keys[0]
    assert payload_of(event).inputs.roll.faces == (8,)  # the face tapped before the network dropped


def test_a_die_cut_off_on_its_way_is_not_sent_and_sent_again_applies_once(phone, live_server, demo_game):
    game = rallying(demo_game)
    rally = rally_form(phone, live_server, game)
    keys = first_post_spoiled(phone, lambda route: route.abort("internetdisconnected"))
    tap_face(rally, 8)
    expect(phone.get_by_role("alert").filter(has_text=NOT_SENT)).to_be_visible()
    assert rallies(game) == []
    sent_again_applies_once(phone, game, keys)


def test_a_die_whose_answer_was_lost_applies_once_when_sent_again(phone, live_server, demo_game):
    game = rallying(demo_game)
    rally = rally_form(phone, live_server, game)

    def lost_on_the_way_back(route):
        route.fetch()  # the server takes the die and answers; the answer never reaches the phone
        route.abort("connectionreset")

    keys = first_post_spoiled(phone, lost_on_the_way_back)
    tap_face(rally, 8)
    expect(phone.get_by_role("alert").filter(has_text=NOT_SENT)).to_be_visible()
    assert len(rallies(game)) == 1  # applied, though the phone does not know it
    sent_again_applies_once(phone, game, keys)
    expect(phone.locator("#moved-on")).to_be_hidden()


def test_a_die_on_a_network_slower_than_the_timeout_is_not_sent_and_sent_again_applies_once(
    phone, live_server, demo_game
):
    game = rallying(demo_game)
    rally = rally_form(phone, live_server, game)
    # the page's timeout is 10 s (base.html); the test shortens it so as not to wait that long for it
    phone.evaluate("htmx.config.timeout = 1500")

    def slow(route):
        answer = route.fetch()  # the server takes the die at once; its answer crawls back
        time.sleep(3)  # longer than the page waits for it
        with suppress(Error):  # the browser gave the request up: the late answer goes nowhere
            route.fulfill(response=answer)

    keys = first_post_spoiled(phone, slow)
    # the network is as slow for the page's poll: none comes back to draw the applied die before the page gives up
    phone.route(POLL, lambda route: route.abort("timedout"))
    tap_face(rally, 8)
    expect(phone.get_by_role("alert").filter(has_text=NOT_SENT)).to_be_visible()
    phone.unroute(POLL)
    assert len(rallies(game)) == 1  # applied, though the phone gave up waiting for its answer
    sent_again_applies_once(phone, game, keys)


def test_a_phone_back_on_the_network_shows_the_game_at_once(browser, live_server, demo_game, phone):
    game = rallying(demo_game)
    # read before the die: the test's in-memory database refuses a read while the live server writes
    result = f"#result-{brigade(game, UNIT).piece.name}"
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    expect(phone.locator("#poll")).to_be_attached()
    phone.context.set_offline(True)
    ann = seated_phone(browser, live_server, game, "Confederate", "Ann")
    open_row(ann, UNIT)
    tap_face(ann.get_by_role("form", name=f"Rally {UNIT}"), 7)
    expect(ann.locator(result)).to_contain_text(f"{UNIT} rallies")
    # just after a poll failed offline, the next is 3 s away: back on the network, the phone does not wait for it
    with phone.expect_event("requestfailed", lambda request: "/poll/" in request.url, timeout=4_000):
        pass
    phone.context.set_offline(False)
    expect(phone.locator("#result-slot")).to_contain_text(UNIT, timeout=1_500)
    ann.context.close()


def hide(page, hidden: bool) -> None:
    """The page hidden or shown as the browser says it (a phone put to sleep): headless chromium keeps every page
    visible, so the page's own view of it is set and the browser's event sent."""
    page.evaluate(
        """hidden => {
          Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
          const state = hidden ? "hidden" : "visible";
          Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_a_hidden_page_does_not_poll_and_asks_at_once_when_shown(phone, live_server, demo_game):
    game = rallying(demo_game)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    polls: list[float] = []
    phone.on("request", lambda request: "/poll/" in request.url and polls.append(time.monotonic()))
    hide(phone, True)
    phone.wait_for_timeout(4_000)
    assert polls == []
    shown = time.monotonic()
    hide(phone, False)
    phone.wait_for_timeout(500)
    assert polls and polls[0] - shown < 0.5


def test_a_typed_value_survives_a_reload_until_it_is_sent(phone, live_server, demo_game):
    game = at_step(demo_game, "move")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    open_row(phone, UNIT)
    form = phone.get_by_role("form", name=f"Maneuver roll for {UNIT}")
    together = form.get_by_label('Other friendly brigades within 2" doing the same action')
    together.select_option(index=1)
    chosen = together.input_value()
    assert chosen != ""
    phone.reload()
    open_row(phone, UNIT)
    expect(together).to_have_value(chosen)
    form.get_by_role("button", name="Roll for me").click()
    expect(phone.locator("#result-slot")).to_contain_text(UNIT)
    kept = phone.evaluate("Object.keys(sessionStorage).filter(k => k.startsWith('republic typed'))")
    assert kept == []


def test_the_app_installs_from_a_manifest_and_its_worker_keeps_no_game_page(phone, live_server, demo_game):
    game = rallying(demo_game)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    devtools = phone.context.new_cdp_session(phone)
    found = devtools.send("Page.getAppManifest")
    assert found["url"].endswith("/manifest.webmanifest") and found["errors"] == [], found
    for size in (192, 512):
        icon = re.search(rf'"src": "([^"]+{size}[^"]+)"', found["data"]).group(1)
        assert phone.request.get(f"{live_server.url}{icon}").headers["content-type"] == "image/png"
    # localhost is a secure context in chromium: the worker is registered there, for the whole site
    assert phone.evaluate("window.isSecureContext")
    scope = phone.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{live_server.url}/"
    phone.reload()
    assert phone.evaluate("!!navigator.serviceWorker.controller")
    kept = "caches.keys().then(n => Promise.all(n.map(k => caches.open(k).then(c => c.keys()))))"
    urls = phone.evaluate(f"{kept}.then(found => found.flat().map(request => request.url))")
    assert not [url for url in urls if "/static/" not in url], urls


def test_over_plain_http_on_the_club_network_the_page_plays_without_a_worker(browser, live_server, demo_game, settings):
    """chromium counts localhost as secure; a phone on the hall's Wi-Fi reaches the laptop at a name or address that
    is not, over plain HTTP: a chromium that resolves such a name to this machine sees the page as that phone does."""
    game = rallying(demo_game)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "laptop.club"]
    port = live_server.url.rsplit(":", 1)[1]
    device = seated_device(game, "Confederate", name="Ann")
    session = device.cookies[settings.SESSION_COOKIE_NAME].value
    rules = "--host-resolver-rules=MAP laptop.club 127.0.0.1"
    chromium = browser.browser_type.launch(executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, rules])
    try:
        context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        url = f"http://laptop.club:{port}"
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": url}])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/games/{game.pk}/")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'serviceWorker' in navigator || 'wakeLock' in navigator") is False
        form = page.get_by_role("form", name=f"Rally {UNIT}")
        if not form.count():
            open_row(page, UNIT)
        tap_face(form, 7)
        expect(page.locator("main")).to_contain_text(f"{UNIT} rallies")
        assert [payload_of(e).inputs.roll.faces for e in rallies(game)] == [(7,)] and errors == []
    finally:
        chromium.close()
