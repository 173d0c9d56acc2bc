"""On a 360x740 phone the step's work comes first: at every step of the turn, a player seated on the side that acts
sees the first row of the step's work (or, in a step without rows, its first control) on the first screen, above
the Next step bar, without scrolling; and as the page scrolls the phases and the step's name stay at the top."""

import pytest
from playwright.sync_api import expect

from republic.rules.sequence import STEPS, Actor
from tests.devices import seated_device
from tests.games.conftest import at_step, brigade, leader, set_state

# The step's work in the order a player meets it: a row of work, a control of the step's panel or of the messages
# form; a step with none of them (nothing to do for the app) shows what it says instead.
FIRST_WORK = """() => {
  const work = document.querySelector(
    '#live .step-panel :is(.work-row, form :is(input:not([type=hidden]), select, textarea, button), summary), '
    + '#dispatches form :is(input:not([type=hidden]), select, textarea, button)'
  ) || document.querySelector('#live .step-panel .card-body > :not(.watching)');
  const box = work.getBoundingClientRect();
  const bar = document.getElementById('step-bar').getBoundingClientRect();
  return {what: work.outerHTML.slice(0, 90), top: box.top, bottom: box.top + Math.min(box.height, 48),
          screen: Math.min(innerHeight, bar.top), scrolled: scrollY};
}"""


def with_work(game) -> None:
    """The demo with something to do at the steps that have rows: a brigade to rally, a leader to replace."""
    set_state(game, brigade(game, "Davis's Brigade"), m_hits=1)
    set_state(game, leader(game, "Henry Heth"), hors_de_combat=True)


def seat(page, live_server, game, side: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/join/{game.join_code}/")
    page.get_by_label("Your name").fill("Bob")
    page.get_by_label(f"{side}: the whole side").check()
    page.get_by_role("button", name="Take this seat").click()
    expect(page.locator("#actor-line")).to_contain_text(f"Playing as Bob · {side}")


@pytest.mark.parametrize("step", STEPS, ids=[s.key.value for s in STEPS])
def test_the_steps_first_work_is_on_the_first_screen_of_a_phone(phone, live_server, demo_game, step):
    with_work(demo_game)
    at_step(demo_game, step.key)
    side = "Union" if step.actor is Actor.DEFENDER else "Confederate"
    seated_device(demo_game, side, name="Carl")  # a friend to write to: the messages step draws its form
    seat(phone, live_server, demo_game, side)
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/")
    expect(phone.locator("#step-title")).to_contain_text(step.title)
    first = phone.evaluate(FIRST_WORK)
    assert first["scrolled"] == 0
    assert first["top"] >= 0 and first["bottom"] <= first["screen"], (
        f"at {step.title}, the first work ({first['what']}) runs to {first['bottom']:.0f} px, "
        f"under the first screen's {first['screen']:.0f} px"
    )


def test_the_phases_and_the_steps_name_stay_at_the_top_as_the_page_scrolls(phone, live_server, demo_game):
    game = at_step(demo_game, "move")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    title = phone.locator("#step-title")
    phone.evaluate("window.scrollTo({top: document.body.scrollHeight, behavior: 'instant'})")
    assert phone.evaluate("scrollY") > 400
    for shown in (title, phone.locator(".phase-track .current")):
        box = shown.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 120, box


def test_the_answer_to_a_tap_in_a_row_lands_where_the_thumb_was(phone, live_server, demo_game):
    game = at_step(demo_game, "move")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    row = page.locator(".work-row").nth(3)
    title = row.locator(".work-title").inner_text()
    # the row a little down the first screen, as a thumb finds it after a scroll
    page.evaluate(
        "top => window.scrollTo({top, behavior: 'instant'})", row.bounding_box()["y"] + page.evaluate("scrollY") - 400
    )
    tapped = row.locator("a.work-open").bounding_box()["y"]
    row.locator("a.work-open").click()
    form = page.get_by_role("form", name=f"Maneuver roll for {title}")
    expect(form).to_be_visible()
    # the row opened stays where it was tapped, or moves up as far as its form needs, never under the step's bar
    opened, bar = row.bounding_box(), phone.locator("#step-name").bounding_box()
    assert bar["y"] + bar["height"] <= opened["y"] <= tapped, (
        f"the row opened at {opened['y']:.0f} px, tapped at {tapped:.0f} px"
    )
    roll = form.locator("button[name=roll][value=app]")
    roll.scroll_into_view_if_needed()  # the player scrolls down his form to the die
    thumb = roll.bounding_box()["y"]
    roll.click()
    result = page.locator(".work-row .work-result", has_text=f"{title} maneuver")
    expect(result).to_be_focused()
    landed = result.bounding_box()["y"]
    assert abs(landed - thumb) < 2, f"the result landed at {landed:.0f} px, the thumb was at {thumb:.0f} px"
    assert page.problems == []


def test_on_a_tablet_the_rows_use_the_width(phone, live_server, demo_game):
    game = at_step(demo_game, "move")
    phone.set_viewport_size({"width": 768, "height": 1024})
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    first, second = (phone.locator(".work-row").nth(i).bounding_box() for i in (0, 1))
    assert first["y"] == second["y"] and second["x"] >= first["x"] + first["width"], (first, second)
    # a row opened takes the whole width for its form
    phone.locator(".work-row a.work-open").nth(1).click()
    opened = phone.locator(".work-row.is-open")
    expect(opened.locator(".work-form")).to_be_visible()
    assert opened.bounding_box()["width"] > 1.5 * first["width"]


def test_after_an_action_the_next_row_is_still_on_the_first_screen(phone, live_server, demo_game):
    game = at_step(demo_game, "move")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    row = page.locator(".work-row").first
    row.locator("a.work-open").click()
    row.locator(".work-form button[name=roll][value=app]").click()
    expect(page.locator("#result")).to_be_visible()
    page.goto(f"{live_server.url}/games/{game.pk}/")  # the page drawn again, its last result on it
    expect(page.locator("#result")).to_be_visible()
    first = page.evaluate(FIRST_WORK)
    assert first["scrolled"] == 0 and first["bottom"] <= first["screen"], first


@pytest.mark.parametrize("side", ["Confederate", "Union"])
def test_the_steps_passed_by_themselves_leave_the_next_steps_work_on_the_first_screen(
    phone, live_server, demo_game, side
):
    game = at_step(demo_game, "messages")
    seat(phone, live_server, game, side)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    # another phone's Next step: the rally and the leaders' replacement pass by themselves; the poll brings it
    seated_device(game, "Confederate", name="Carl").post(f"/games/{game.pk}/next/", {"version": game.version})
    expect(phone.locator("#step-title")).to_contain_text("Attacker moves units", timeout=10_000)
    expect(phone.locator("#result")).to_contain_text("Passed by themselves")
    first = phone.evaluate(FIRST_WORK)
    assert first["scrolled"] == 0 and first["bottom"] <= first["screen"], first
