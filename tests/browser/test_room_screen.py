"""The room's big screen in a real browser: the game master makes a read-only link on his dashboard, a TV in the
hall opens it with no sign-in, a player's action shows on it within a redraw, and once the link is taken back the
next redraw says so. axe on the dashboard's room part and on the screen at TV and at phone size."""

from playwright.sync_api import expect

from tests.browser.checks import axe_problems, roll_for_me
from tests.browser.test_club_day import seated_phone
from tests.chromium import PHONE
from tests.games.conftest import at_step

TV = {"width": 1920, "height": 1080}


def test_a_tv_follows_the_games_through_a_link_until_it_is_taken_back(browser, live_server, demo_game, phone):
    game = at_step(demo_game, "move")
    phone.goto(f"{live_server.url}/dashboard/")
    phone.get_by_role("button", name="Make a read-only link").click()
    url = phone.locator(".room-link-url").inner_text()
    expect(phone.locator(".room-link svg")).to_be_visible()  # its QR code
    assert not (problems := axe_problems(phone)), "\n".join(problems)

    tv = browser.new_context(viewport=TV).new_page()  # no sign-in: the link alone
    tv.goto(url)
    card = tv.locator(f"#room-game-{game.pk}")
    expect(card.locator(".room-step")).to_have_text("Attacker moves units")
    assert not (problems := axe_problems(tv)), "\n".join(problems)
    assert tv.locator(".room-step").evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 48

    ann = seated_phone(browser, live_server, game, "Confederate", "Ann")
    roll_for_me(ann, "Maneuver roll for Davis's Brigade", "Davis's Brigade")
    expect(card.locator(".room-results li").first).to_contain_text("Davis", timeout=7_000)
    expect(card.locator(".room-waiting")).to_contain_text("Confederate (Ann)")

    tv.set_viewport_size(PHONE)
    assert not (problems := axe_problems(tv)), "\n".join(problems)
    assert tv.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    phone.get_by_role("button", name="Take this link back").click()
    expect(tv.locator(".room-gone")).to_have_text(
        "This link was taken back by the game master. Ask him for the room screen's new link.", timeout=7_000
    )
    expect(tv.locator(".room-card")).to_have_count(0)
    tv.context.close()
