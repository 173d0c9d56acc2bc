"""The screen follows the game on a phone: after every answer the new step's title, the result or the refusal is on
screen and holds the keyboard focus, however far down the page the tapped button was, and whether the answer
redraws the whole live part or only some pieces of it out of band (static/js/republic.js)."""

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from republic.games.models import Game
from tests.browser.checks import on_screen, roll_for_me
from tests.games.conftest import at_step, brigade, set_state

UNIT = "Davis's Brigade"


def wait_for_focus(page, *ids: str) -> None:
    try:
        page.wait_for_function("ids => ids.includes(document.activeElement?.id)", arg=list(ids), timeout=3_000)
    except PlaywrightTimeoutError:
        holder = page.evaluate("document.activeElement?.outerHTML.slice(0, 120)")
        raise AssertionError(f"the focus is on {holder}, not on #{' or #'.join(ids)}") from None


def next_step(page) -> str:
    """Tap Next step (wherever it is on the page) and check the new step's title is on screen and focused."""
    title = page.locator("#step-title")
    before = title.inner_text()
    page.get_by_role("button", name="Next step").click()
    expect(title).not_to_have_text(before)
    wait_for_focus(page, "step-title", "result")
    assert on_screen(page, "#step-title"), f"after Next step, '{title.inner_text()}' is off screen"
    return title.inner_text()


def test_the_screen_follows_a_whole_player_turn(phone, live_server, demo_game: Game):
    page = phone
    set_state(demo_game, brigade(demo_game, UNIT), m_hits=1)  # the rally step has work to do
    page.goto(f"{live_server.url}/games/{demo_game.pk}/")
    assert next_step(page).startswith("Attacker rallies units")

    # a refused Next step (the button says it is not ready, yet a tap still asks): the refusal is what to see
    page.get_by_role("button", name="Next step").click(force=True)
    expect(page.locator("#error")).to_contain_text("Not yet")
    wait_for_focus(page, "error")
    assert on_screen(page, "#error")

    # the rally is answered in its row, where the player tapped: the row's result is what to see
    davis = brigade(demo_game, UNIT)
    roll_for_me(page, f"Rally {UNIT}", UNIT)
    expect(page.locator("#result")).to_contain_text(UNIT)
    wait_for_focus(page, f"result-unit-{davis.pk}")
    assert on_screen(page, f"#result-unit-{davis.pk}")

    titles = [next_step(page)]  # the replacement of leaders, with no leader lost, passes by itself
    assert titles[-1].startswith("Attacker moves units")

    # the move step is the longest page: the maneuver's roll and result come into view, focused
    roll_for_me(page, f"Maneuver roll for {UNIT}", UNIT)
    result = page.locator("#result")
    expect(result).to_contain_text(f"{UNIT} maneuver")
    expect(result).to_contain_text("Dice: maneuver")
    wait_for_focus(page, f"result-unit-{davis.pk}")
    assert on_screen(page, f"#result-unit-{davis.pk}"), "the maneuver's result is off screen"
    expect(page.locator(f"#result-unit-{davis.pk}")).to_contain_text(f"{UNIT} maneuver")

    while not titles[-1].startswith("Defenders exchange messages"):
        titles.append(next_step(page))
        assert len(titles) < 20, f"the turn never ended: {titles}"
    expect(page.locator("header.turn-bar")).to_contain_text("Player turn 2")
    # from the moves to the next player turn's messages: the steps with nobody to act (the skirmish fire with no
    # attacking marker out, the hors de combat checks with no base lost, the demoralized panic test and the panic
    # tests) pass by themselves
    assert len(titles) == 5
    assert page.problems == []


def test_out_of_band_answers_are_followed_too(phone, live_server, demo_game: Game):
    page = phone
    at_step(demo_game, "move")
    page.goto(f"{live_server.url}/games/{demo_game.pk}/")
    davis = brigade(demo_game, UNIT)
    roll_for_me(page, f"Maneuver roll for {UNIT}", UNIT)
    wait_for_focus(page, f"result-unit-{davis.pk}")

    def answer(main: str, *out_of_band: str, focus: str = "a[href$='/log/']") -> None:
        """An answer swapped into the device's player line, with pieces elsewhere by id, as htmx swaps a server's
        answer (beforeSwap, then the pieces); read from the bottom of the page, the focus on an element."""
        page.evaluate(
            """([main, oob, focus]) => {
              window.scrollTo({top: document.body.scrollHeight, behavior: "instant"});
              document.querySelector(focus).focus();
              document.body.dispatchEvent(new CustomEvent("htmx:beforeSwap", {bubbles: true}));
              htmx.swap("#actor-line", main + oob.join(""), {swapStyle: "innerHTML", swapDelay: 0, settleDelay: 20});
            }""",
            [main, list(out_of_band), focus],
        )

    # a result drawn out of band
    answer("Playing", '<section id="result" hx-swap-oob="true"><h2 id="result-title">Last result: test</h2></section>')
    expect(page.locator("#result")).to_have_text("Last result: test")
    wait_for_focus(page, "result")
    assert on_screen(page, "#result")

    # an element the answer marks, anywhere: followed once, then the mark is spent
    card_id = f"row-unit-{davis.pk}"
    answer("Playing", f'<p id="{card_id}" hx-swap-oob="true"><span id="marked" data-focus>Davis reformed</span></p>')
    wait_for_focus(page, "marked")
    assert on_screen(page, "#marked") and page.locator("[data-focus]").count() == 0

    # a piece with no result and no mark leaves the player where they are
    answer("Playing (3)")
    expect(page.locator("#actor-line")).to_have_text("Playing (3)")
    page.wait_for_timeout(100)
    assert page.evaluate("document.activeElement.matches(\"a[href$='/log/']\")")
    assert not on_screen(page, "header.turn-bar")  # the step title stays at the top: the header does not

    # a piece that takes the place of the focused element takes the focus, where it stands
    other = page.locator("li[id^='row-unit-']").nth(1).get_attribute("id")
    answer("Playing", f'<li id="{other}" hx-swap-oob="true">Formed</li>', focus=f"#{other} a")
    wait_for_focus(page, other)
    assert on_screen(page, f"#{other}")
