"""Every control a thumb can hit on a 360px phone: each visible button, link, disclosure, field, and check box or
radio with its label is at least 44x44 px, with every disclosure on the page opened. The game page is measured at
the demo's first step, its move step and its artillery fire step, then the chart page, the games list and the
turn log."""

import pytest
from playwright.sync_api import expect

from tests.browser.checks import MIN_TARGET, roll_for_me, small_targets
from tests.games.conftest import at_step


def too_small(found: list[str]) -> str:
    return f"{len(found)} controls under {MIN_TARGET}x{MIN_TARGET} px:\n" + "\n".join(found)


@pytest.mark.parametrize("step", ["messages", "move", "artillery_fire"])
def test_every_control_of_the_game_page_fits_a_thumb(phone, live_server, demo_game, step):
    at_step(demo_game, step)
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/")
    expect(phone.locator("#step-title")).to_be_visible()
    assert not (found := small_targets(phone, open_details=False)), too_small(found)
    assert not (found := small_targets(phone)), too_small(found)
    rows = phone.locator(".work-row a.work-open")
    if rows.count():  # a row's form, opened
        rows.first.click()
        phone.locator(".work-form").first.wait_for()
        assert not (found := small_targets(phone)), too_small(found)


def test_every_control_of_a_result_fits_a_thumb(phone, live_server, demo_game):
    at_step(demo_game, "move")
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/")
    roll_for_me(phone, "Maneuver roll for Davis's Brigade", "Davis's Brigade")
    expect(phone.locator("#result")).to_contain_text("Davis's Brigade maneuver")
    assert not (found := small_targets(phone)), too_small(found)


@pytest.mark.parametrize(
    "path",
    [
        "/chart/",
        "/",
        "/games/{game}/log/",
        "/games/{game}/back/0/",
        "/games/{game}/units/",
        "/games/{game}/divisions/{division}/",
    ],
)
def test_every_control_of_the_other_pages_fits_a_thumb(phone, live_server, demo_game, path):
    division = demo_game.sides.first().commands.filter(level="division").first()
    phone.goto(live_server.url + path.format(game=demo_game.pk, division=division.pk))
    assert not (found := small_targets(phone, open_details=False)), too_small(found)
    assert not (found := small_targets(phone)), too_small(found)
