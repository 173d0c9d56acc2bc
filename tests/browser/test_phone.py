"""The game page on a 360px phone in a real browser: correct a unit, move to the rally step, roll, see the result
swapped in by htmx without a page load, undo, and never scroll sideways."""

import re

from playwright.sync_api import expect

from republic.games.events.payload import payload_of
from republic.games.models import Event, Unit
from tests.browser.checks import tap_face

UNIT = "Davis's Brigade"


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width}px wide on a 360px phone"


def test_a_rally_on_a_phone_swaps_in_the_result_and_undo_brings_the_row_back(phone, live_server, demo_game, tmp_path):
    page = phone
    page.goto(f"{live_server.url}/games/{demo_game.pk}/")

    # where the game stands
    header = page.locator("header.turn-bar")
    expect(header).to_contain_text("Game turn 1")
    expect(header).to_contain_text("Player turn 1")
    expect(header).to_contain_text("Attacker: Confederate")
    expect(page.locator("#step-title")).to_contain_text("Defenders exchange messages")
    no_sideways_scroll(page)

    # one M hit through the unit's card, on its division's page in the order of battle
    page.get_by_role("link", name="Order of battle").click()
    page.get_by_role("link", name=re.compile(r"^Heth's Division")).click()
    card = page.get_by_role("article", name=UNIT, exact=True)
    badge = card.locator(".condition-badge")
    expect(badge).to_have_text("Formed")
    expect(card).to_have_class(re.compile(r"\bcondition-"))
    page.evaluate("window.__noReload = 'still here'")
    card.locator("summary", has_text="Correct").click()
    card.get_by_role("button", name="+ M hit").click()
    expect(page.get_by_role("article", name=UNIT, exact=True).locator(".condition-badge")).to_have_text("Unformed")
    assert page.evaluate("window.__noReload") == "still here", "the correction reloaded the whole page"
    no_sideways_scroll(page)

    # back to the game; from here on, every answer must be an htmx swap: a full page load would drop this marker
    page.get_by_role("link", name="← The game").click()
    page.evaluate("window.__noReload = 'still here'")

    # Next step: the rally step, with a row for the unit; its form opens on tap
    page.get_by_role("button", name="Next step").click()
    expect(page.locator("#step-title")).to_contain_text("Attacker rallies units")
    row = page.locator(f"#row-unit-{Unit.objects.get(game=demo_game, name=UNIT).pk}")
    expect(row.locator(".condition-badge")).to_have_text("Unformed")
    expect(page.get_by_role("form", name=f"Rally {UNIT}")).to_have_count(0)
    row.locator("a.work-open").click()
    rally = page.get_by_role("form", name=f"Rally {UNIT}")
    expect(rally).to_be_visible()

    # tap the die's face, which resolves: the row says what happened, the result card has the reasons
    tap_face(rally, 10)
    expect(row.locator(".work-result")).to_contain_text(f"{UNIT} rallies")
    result = page.locator("#result")
    expect(result).to_contain_text("Attacker rallies units")
    expect(result).to_contain_text(UNIT)
    assert page.evaluate("window.__noReload") == "still here", "the rally answer reloaded the whole page"
    event = Event.objects.get(game=demo_game, kind="RallyResolved")
    roll = payload_of(event).inputs.roll
    assert roll.faces == (10,) and roll.source == "typed"
    rallied = Unit.objects.get(game=demo_game, name=UNIT)
    assert rallied.m_hits == 0  # a 10 with Heth (E1) rallies the unit
    expect(page.locator("#step-bar")).not_to_contain_text("left before moving on")
    no_sideways_scroll(page)

    # undo: the unit's row comes back with its badge
    result.get_by_role("button", name="Undo last action").click()
    expect(row.locator(".condition-badge")).to_have_text("Unformed")
    expect(page.locator("#step-bar")).to_contain_text("1 left before moving on")
    assert page.evaluate("window.__noReload") == "still here", "undo reloaded the whole page"
    assert Unit.objects.get(pk=rallied.pk).m_hits == 1
    no_sideways_scroll(page)

    shot = tmp_path / "rally-on-a-phone.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0
    assert page.problems == []


def test_the_games_list_and_the_upload_form_fit_a_phone(phone, live_server, demo_game, tmp_path):
    page = phone
    page.goto(f"{live_server.url}/")
    expect(page.get_by_role("link", name=re.compile(r"Gettysburg"))).to_be_visible()
    expect(page.get_by_role("button", name="Create game")).to_be_visible()
    page.locator("summary", has_text="What goes in the file").click()
    expect(page.get_by_text("division_leader_value", exact=True)).to_be_visible()
    no_sideways_scroll(page)
    shot = tmp_path / "games-on-a-phone.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0
    assert page.problems == []
