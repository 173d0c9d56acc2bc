"""The Content Security Policy in a real browser: every page of a club day, with the htmx answers a phone gets
while playing, runs and draws without the browser refusing a single script, style or image."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from republic.games.models import Unit
from tests.browser.checks import tap_face
from tests.devices import seated_device

UNIT = "Davis's Brigade"
WATCH = """
window.__refused = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__refused.push(`${event.violatedDirective}: ${event.blockedURI || "inline"} at ${where}`);
});
"""


@pytest.fixture
def watched(phone):
    phone.add_init_script(WATCH)
    return phone


def refused(page) -> list[str]:
    return page.evaluate("window.__refused")


def test_no_page_of_the_game_master_is_refused_anything(watched, live_server, demo_game):
    page = watched
    seated_device(demo_game, "Union")  # the seats page shows a seat and its QR code
    get_user_model().objects.filter(username="master").update(is_superuser=True)  # as load_demo's gm, for the admin
    davis = Unit.objects.get(game=demo_game, name=UNIT)
    for path in (
        "/",
        "/chart/",
        "/dashboard/",
        f"/games/{demo_game.pk}/",
        f"/games/{demo_game.pk}/log/",
        f"/games/{demo_game.pk}/units/",
        f"/games/{demo_game.pk}/seats/",
        f"/games/{demo_game.pk}/end/",
        "/admin/",
        "/admin/games/unit/",
        f"/admin/games/unit/{davis.pk}/change/",
        f"/games/{demo_game.pk}/divisions/{davis.division_id}/",
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200, path
        if not path.startswith("/admin/"):
            assert page.evaluate("typeof htmx") == "object", f"htmx did not load on {path}"
        assert refused(page) == [], path

    # the answers htmx swaps in while playing: a correction, a step, a row opened, a die, a result, an undo
    card = page.get_by_role("article", name=UNIT, exact=True)
    card.locator("summary", has_text="Correct").click()
    card.get_by_role("button", name="+ M hit").click()
    expect(page.get_by_role("article", name=UNIT, exact=True).locator(".condition-badge")).to_have_text("Unformed")
    page.get_by_role("link", name="← The game").click()
    page.get_by_role("button", name="Next step").click()
    expect(page.locator("#step-title")).to_contain_text("Attacker rallies units")
    page.locator(f"#row-unit-{davis.pk} a.work-open").click()
    rally = page.get_by_role("form", name=f"Rally {UNIT}")
    tap_face(rally, 10)
    expect(page.locator("#result")).to_contain_text(UNIT)
    page.locator("#result").get_by_role("button", name="Undo last action").click()
    expect(page.locator("#step-bar")).to_contain_text("1 left before moving on")
    assert refused(page) == []
    assert page.problems == []


def test_the_sign_in_and_join_pages_are_refused_nothing(browser, live_server, demo_game):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.add_init_script(WATCH)
    for path in ("/accounts/login/", f"/join/{demo_game.join_code}/"):
        assert page.goto(f"{live_server.url}{path}").status == 200, path
        expect(page.locator("main form").first).to_be_visible()
        assert refused(page) == [], path
    context.close()
