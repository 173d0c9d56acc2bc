"""axe-core on every kind of page at phone size: the games list, the chart, the game page at steps of the demo with
and without a result on it, and the turn log; each in the day theme and at night (the phone's dark setting, which
the app follows by default). A serious or critical finding fails, with its rule, the element and what is wrong."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.checks import axe_problems, roll_for_me
from tests.devices import seated_device
from tests.games.conftest import at_step, brigade, set_state


def by_day_and_night(page) -> list[str]:
    """axe's findings on the page as it stands, with the phone set light and set dark (the app follows the phone's
    setting by default): the colours are read once the switch's transitions have ended, as a player sees them."""
    now = page.locator("html").get_attribute("data-bs-theme")
    found = []
    for scheme in sorted(("light", "dark"), key=lambda scheme: scheme != now):
        if scheme != now:
            page.emulate_media(color_scheme=scheme)
            expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
            page.wait_for_timeout(400)
        found += [f"{scheme}: {problem}" for problem in axe_problems(page)]
    return found


def test_the_games_list_passes_axe(phone, live_server, demo_game):
    phone.goto(f"{live_server.url}/")
    phone.locator("summary", has_text="What goes in the file").click()
    assert not (problems := by_day_and_night(phone)), "\n".join(problems)


def test_the_chart_page_passes_axe_and_its_wide_tables_scroll_by_keyboard(phone, live_server):
    phone.goto(f"{live_server.url}/chart/")
    assert not (problems := by_day_and_night(phone)), "\n".join(problems)
    # a table wider than the phone takes the focus from the keyboard and scrolls with the arrow keys
    wide = next(
        region
        for region in phone.locator(".chart-scroll").all()
        if region.evaluate("el => el.scrollWidth > el.clientWidth")
    )
    assert wide.get_attribute("role") == "region" and wide.get_attribute("aria-label")
    wide.focus()
    expect(wide).to_be_focused()
    phone.keyboard.press("ArrowRight")
    phone.wait_for_function("el => el.scrollLeft > 0", arg=wide.element_handle())


@pytest.mark.parametrize("who", ["master", "player"])
@pytest.mark.parametrize(
    "step", ["messages", "rally", "move", "artillery_fire", "fire_hors_de_combat", "assaults", "internal_panic"]
)
def test_the_game_page_passes_axe_at_each_step(phone, live_server, demo_game, step, who):
    # an M hit on an attacking brigade gives the rally step a row to draw
    set_state(demo_game, brigade(demo_game, "Davis's Brigade"), m_hits=1)
    set_state(demo_game, brigade(demo_game, "Archer's Brigade"), destroyed=True)
    at_step(demo_game, step)
    if who == "player":
        # a defending player with a friend to write to: the messages step draws its form
        seated_device(demo_game, "Union", name="Carl")
        phone.context.clear_cookies()
        phone.goto(f"{live_server.url}/join/{demo_game.join_code}/")
        phone.get_by_label("Your name").fill("Bob")
        phone.get_by_label("Union: the whole side").check()
        phone.get_by_role("button", name="Take this seat").click()
        expect(phone.locator("#actor-line")).to_contain_text("Playing as Bob")
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/")
    expect(phone.locator("#step-title")).to_be_visible()
    assert not (problems := by_day_and_night(phone)), "\n".join(problems)
    # and with the first row of the step's work opened, its form drawn
    rows = phone.locator(".work-row a.work-open")
    phone.wait_for_function("() => !document.querySelector('[data-next]')")  # a player's next work fetched open
    if rows.count():
        if not phone.locator(".work-form").count():
            rows.first.click()
        phone.locator(".work-form").first.wait_for()
        # the pointer stays where the row was tapped, over whatever the opened form draws there (a die's face,
        # Roll for me): axe would read that control halfway through its hover transition, not as a player sees it
        phone.mouse.move(0, 0)
        phone.wait_for_timeout(400)
        assert not (problems := by_day_and_night(phone)), "\n".join(problems)


def test_the_order_of_battle_and_a_division_pass_axe(phone, live_server, demo_game):
    # a destroyed unit is drawn greyed on its division's page
    set_state(demo_game, brigade(demo_game, "Archer's Brigade"), destroyed=True)
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/units/")
    assert not (problems := by_day_and_night(phone)), "\n".join(problems)
    phone.get_by_role("link", name=re.compile(r"^Heth's Division")).click()
    expect(phone.locator(".unit-card.is-out")).to_have_count(1)
    assert not (problems := by_day_and_night(phone)), "\n".join(problems)


def test_a_provisional_result_an_undo_and_the_turn_log_pass_axe(phone, live_server, demo_game):
    at_step(demo_game, "move")
    page = phone
    page.goto(f"{live_server.url}/games/{demo_game.pk}/")
    roll_for_me(page, "Maneuver roll for Davis's Brigade", "Davis's Brigade")
    result = page.locator("#result")
    expect(result).to_contain_text("Davis's Brigade maneuver")
    result.locator("summary").click()
    expect(result.locator(".provisional-mark").first).to_be_visible()
    assert not (problems := by_day_and_night(page)), "\n".join(problems)

    # undone, the roll stays in the turn log, greyed
    result.get_by_role("button", name="Undo last action").click()
    expect(result).to_contain_text("Undone:")
    assert not (problems := by_day_and_night(page)), "\n".join(problems)

    page.goto(f"{live_server.url}/games/{demo_game.pk}/log/")
    expect(page.locator(".turn-log")).to_contain_text("Davis's Brigade maneuver")
    expect(page.locator(".turn-log .is-undo")).to_have_count(1)
    assert not (problems := by_day_and_night(page)), "\n".join(problems)


def test_the_question_before_going_back_passes_axe(phone, live_server, demo_game):
    game = at_step(demo_game, "move")
    for hits in (1, 2):
        set_state(game, brigade(game, "Davis's Brigade"), m_hits=hits)
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/log/")
    phone.locator(f'a[href="/games/{game.pk}/back/1/"]').click()
    expect(phone.locator("#go-back-warning")).to_contain_text("and every phone goes back with it")
    assert not (problems := by_day_and_night(phone)), "\n".join(problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_theme_follows_the_phone_and_the_players_choice_and_passes_axe(phone, live_server, demo_game, scheme):
    phone.emulate_media(color_scheme=scheme)
    at_step(demo_game, "rally")
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/")
    html = phone.locator("html")
    expect(html).to_have_attribute("data-bs-theme", scheme)  # Auto: the phone's setting
    phone.locator("summary", has_text="night play").click()
    other = "light" if scheme == "dark" else "dark"
    phone.get_by_text(other.title(), exact=True).click()
    expect(html).to_have_attribute("data-bs-theme", other)
    # the choice tapped eases into its checked colours in the new theme: axe reads them as a player sees them, once
    # the pointer has left it and the transition ended, not halfway through
    phone.mouse.move(0, 0)
    phone.wait_for_timeout(400)
    assert not (problems := axe_problems(phone)), "\n".join(problems)
    # kept on this phone: the next page is drawn in it from its first paint
    phone.goto(f"{live_server.url}/")
    expect(html).to_have_attribute("data-bs-theme", other)
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/")
    phone.locator("summary", has_text="night play").click()
    phone.get_by_text("Auto", exact=True).click()
    expect(html).to_have_attribute("data-bs-theme", scheme)
