"""Your turn, told: a seated phone says at once, by a banner, its page's title and a vibration, that a step began
with work for its seat, or that a friendly player wrote to him; a reload does not tell it again, and the player
may turn the vibration off. A headless browser's navigator.vibrate does nothing that can be seen, so each phone's
is replaced by one that records its calls (the only stand-in here: everything else is the real page)."""

from playwright.sync_api import expect

from tests.browser.checks import NEWS, axe_problems, roll_for_me
from tests.browser.test_club_day import seated_phone
from tests.games.conftest import at_step, brigade, set_state

RECORD_VIBRATIONS = (
    "window.vibrations = []; navigator.vibrate = (pattern) => { window.vibrations.push(pattern); return true; };"
)
TOLD_TITLE = "● Your turn · Attacker rallies units · Republic"


def phone_of(browser, live_server, game, side: str, name: str):
    page = seated_phone(browser, live_server, game, side, name)
    page.add_init_script(RECORD_VIBRATIONS)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return page


def vibrations(page) -> list:
    return page.evaluate("window.vibrations")


def test_a_friends_message_and_a_step_with_work_are_told_once_on_the_phone_it_concerns(
    browser, live_server, demo_game, tmp_path
):
    set_state(demo_game, brigade(demo_game, "Davis's Brigade"), m_hits=1)  # a Confederate brigade to rally
    game = at_step(demo_game, "messages")  # the Union defends: its players write to each other
    bob = phone_of(browser, live_server, game, "Union", "Bob")
    carl = phone_of(browser, live_server, game, "Union", "Carl")
    ann = phone_of(browser, live_server, game, "Confederate", "Ann")
    cat = phone_of(browser, live_server, game, "Confederate", "Cat")

    # Carl turned vibration off on his phone; Bob writes to him: his phone tells him within a poll, silently
    carl.locator("summary", has_text="night play").click()
    carl.get_by_label("Vibrate on my turn").uncheck()
    bob.reload()  # Carl took his seat after Bob's page was drawn
    form = bob.get_by_role("form", name="Send a message")
    form.get_by_label("To").select_option(label="Carl (Union)")
    form.get_by_label("Message").fill("Hold the ridge")
    form.get_by_role("button", name="Send").click()
    expect(carl.locator("#told")).to_contain_text("Message from Bob: Hold the ridge", timeout=NEWS)
    assert carl.locator("#told a").get_attribute("href") == "#dispatches-title"
    assert vibrations(carl) == []
    # the other side's phones are never told of it
    ann.wait_for_timeout(3_500)
    expect(ann.locator("#told")).to_have_count(0)
    expect(bob.locator("#told")).to_have_count(0)  # his own, sent

    # Ann moves the game on to the rally, the Confederates' step: Cat's phone tells her within a poll, no reload
    ann.get_by_role("button", name="Next step").click()
    expect(cat.locator("#told")).to_contain_text("Your turn: Attacker rallies units — 1 to do.", timeout=NEWS)
    expect(cat).to_have_title(TOLD_TITLE)
    assert vibrations(cat) == [[200, 100, 200]]
    expect(bob.locator("#told")).to_have_count(0)  # no work of his in it
    assert not (problems := axe_problems(cat)), "\n".join(problems)
    close = cat.locator("#told .btn-close")
    box = close.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44
    cat.screenshot(path=tmp_path / "told-light-360.png")

    # a reload does not tell it again, while the title still says whose turn it is
    cat.reload()
    expect(cat.locator("#step-title")).to_be_visible()
    expect(cat).to_have_title(TOLD_TITLE)
    expect(cat.locator("#told")).to_have_count(0)
    assert vibrations(cat) == []
    # once she acts, the title goes back; on Ann's phone, told of the step by her own Next step, the banner goes
    # within a poll: nothing waits on her any more
    expect(ann.locator("#told")).to_contain_text("Your turn: Attacker rallies units")
    roll_for_me(cat, "Rally Davis's Brigade", "Davis's Brigade")
    expect(cat).not_to_have_title(TOLD_TITLE)
    expect(ann.locator("#told")).to_have_count(0, timeout=NEWS)
    expect(ann).not_to_have_title(TOLD_TITLE)


def test_the_banner_is_dismissed_and_reads_at_night(browser, live_server, demo_game, tmp_path):
    set_state(demo_game, brigade(demo_game, "Davis's Brigade"), m_hits=1)
    game = at_step(demo_game, "rally")
    ann = seated_phone(browser, live_server, game, "Confederate", "Ann")  # told on the page's load too
    ann.emulate_media(color_scheme="dark")  # the phone turns dark: the page follows it
    expect(ann.locator("html")).to_have_attribute("data-bs-theme", "dark")
    expect(ann.locator("#told")).to_contain_text("Your turn: Attacker rallies units")
    assert not (problems := axe_problems(ann)), "\n".join(problems)
    ann.screenshot(path=tmp_path / "told-dark-360.png")
    # the banner lies over the site's bar: it pushes none of the step's work down, which its going leaves in place
    work = "document.getElementById('live').getBoundingClientRect().top"
    told = ann.locator("#told").bounding_box()
    assert told and told["y"] == 0 and told["height"] <= ann.locator("body > nav").bounding_box()["height"] + 1
    shown = ann.evaluate(work)
    ann.locator("#told").get_by_role("button", name="Dismiss").click()
    expect(ann.locator("#told")).to_have_count(0)
    assert ann.evaluate(work) == shown
