"""The rally step's leader moves fold behind their summary on a phone: a tap fetches the form, which lists every
attacking leader with what is left of his 2", and records a move as if it had come with the page."""

import re

from playwright.sync_api import expect

from tests.browser.checks import axe_problems, small_targets
from tests.games.conftest import at_step

POLL = re.compile(r".*/poll/.*")


def test_a_tap_on_move_a_leader_fetches_its_form_which_records_the_move(phone, live_server, demo_game):
    game = at_step(demo_game, "rally")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    form = page.get_by_role("form", name="Move a leader")
    expect(form).to_have_count(0)
    page.locator("#part-leader-move summary").click()
    expect(form).to_be_visible()
    form.get_by_label("Leader").select_option(label="Henry Heth (E1) · Heth's Division · 2\" left")
    form.get_by_label("Distance moved (inches)").fill("1.5")
    assert small_targets(page) == []
    assert axe_problems(page) == []
    form.get_by_role("button", name="Record the move").click()
    expect(page.get_by_text('Leaders moved this step: Henry Heth 1.5"')).to_be_visible()
    # its work done, the part folds again; opened, it offers what is left
    expect(form).to_have_count(0)
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.locator("#part-leader-move summary").click()
    expect(form.get_by_label("Leader")).to_contain_text("Henry Heth (E1) · Heth's Division · 0.5\" left")
    assert page.problems == []


def test_a_poll_on_its_way_when_the_move_is_recorded_does_not_open_the_form_again(phone, live_server, demo_game):
    """The poll that left while the form was open is answered after the move, for the screen before it: dropped."""
    game = at_step(demo_game, "rally")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("#part-leader-move summary").click()
    form = page.get_by_role("form", name="Move a leader")
    expect(form).to_be_visible()
    held = []
    page.route(POLL, lambda route: held.append(route) if not held else route.fallback())
    for _ in range(60):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "no poll left within 6 s"
    assert "leader-move" in held[0].request.headers["parts-open"]
    form.get_by_label("Leader").select_option(label="Henry Heth (E1) · Heth's Division · 2\" left")
    form.get_by_label("Distance moved (inches)").fill("1.5")
    form.get_by_role("button", name="Record the move").click()
    expect(form).to_have_count(0)
    with page.expect_response(POLL) as answer:
        held[0].fallback()
    # answered after the move, for a screen with the form open: it draws the form open again
    assert 'id="part-leader-move"' in answer.value.text() and "Record the move" in answer.value.text()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    expect(form).to_have_count(0)
    expect(page.get_by_text('Leaders moved this step: Henry Heth 1.5"')).to_be_visible()
    assert page.problems == []
