"""A phone names the step's rows it shows when it sends an action from one of them, so the answer redraws every
row the action changed, the battery that joined a fire as much as the one that fired."""

from playwright.sync_api import expect

from republic.games.models import Unit
from tests.browser.checks import pick, tap_face
from tests.games.conftest import at_step, battery, brigade, set_state


def test_a_joint_fire_takes_the_joined_battery_s_row_away_too(phone, live_server, demo_game):
    set_state(demo_game, brigade(demo_game, "Davis's Brigade"), skirmishers_deployed=0)
    game = at_step(demo_game, "artillery_fire")
    rifles = battery(game, "Pegram's Battalion (rifles)")
    napoleons = battery(game, "Pegram's Battalion (Napoleons)")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.__noReload = 'still here'")
    joined_row = page.locator(f"#row-unit-{napoleons.pk}")
    expect(joined_row).to_be_visible()

    page.locator(f"#row-unit-{rifles.pk} a.work-open").click()
    form = page.locator(f"#row-unit-{rifles.pk} form")
    pick(form, f"fire-unit-{rifles.pk}-target", "Iron Brigade (Meredith)")
    form.get_by_role("spinbutton", name="Range to the main target").fill("3")
    form.get_by_label("Pegram's Battalion (Napoleons)").check()
    tap_face(form, 5)

    expect(page.locator(f"#row-unit-{rifles.pk} .work-result")).to_be_visible()
    expect(joined_row).to_have_count(0)
    assert Unit.objects.get(pk=napoleons.pk).fired_this_turn
    assert page.evaluate("window.__noReload") == "still here", "the answer reloaded the whole page"
    assert page.problems == []
