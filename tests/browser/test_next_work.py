"""A player's next work, in a real browser: his first row of the step is open with its die pad when the page is
drawn, and the tap of a face opens the next row down his list by itself (the answer brings its head, the phone
fetches it open), while the result of his tap keeps the focus where his thumb was."""

from playwright.sync_api import expect

from tests.browser.test_club_day import seated_phone
from tests.games.conftest import at_step, brigade, set_state

RALLYING = ("Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade")


def test_a_die_tapped_opens_the_next_row_by_itself(browser, live_server, demo_game):
    for name in RALLYING:
        set_state(demo_game, brigade(demo_game, name), m_hits=1)
    game = at_step(demo_game, "rally")
    ann = seated_phone(browser, live_server, game, "Confederate", "Ann")
    ann.goto(f"{live_server.url}/games/{game.pk}/")
    rows = {name: ann.locator(".work-row", has=ann.locator(".work-title", has_text=name)) for name in RALLYING}
    expect(ann.locator(".work-row.is-open")).to_have_count(1)
    expect(rows["Archer's Brigade"]).to_have_class("work-row condition-unformed is-open")
    # one tap: the face on the pad of the row already open
    rows["Archer's Brigade"].locator(".die-face").get_by_text("6", exact=True).click()
    result = ann.locator(".work-result", has_text="Archer's Brigade rallies")
    expect(result).to_be_focused()
    expect(rows["Davis's Brigade"].locator(".die-pad")).to_be_visible()  # fetched open by itself
    expect(result).to_be_focused()  # the row opened by itself took no focus
    expect(ann.locator("#step-title")).to_be_visible()  # in its row, not in place of the page
    # and the next face is one tap too
    rows["Davis's Brigade"].locator(".die-face").get_by_text("6", exact=True).click()
    expect(ann.locator(".work-result", has_text="Davis's Brigade rallies")).to_be_focused()
    expect(rows["Pettigrew's Brigade"].locator(".die-pad")).to_be_visible()
