"""A rally on a phone: the leaders who may help the unit are a tap each, those out of reach one tap away with why."""

from playwright.sync_api import expect

from tests.browser.checks import axe_problems, open_row, pick, small_targets, tap_face
from tests.games.test_rally_leaders import with_army


def test_a_phone_ticks_the_leaders_who_reach_the_unit_and_sees_why_the_others_are_not_offered(
    phone, live_server, transactional_db
):
    game = with_army()
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    form = page.get_by_role("form", name="Rally Davis's Brigade")
    open_row(page, "Davis's Brigade")
    form.get_by_text("Not offered (3)").click()
    expect(form.get_by_text("W. Dorsey Pender (P1), Richard S. Ewell (C1)")).to_be_visible()
    davis = game.units.get(name="Davis's Brigade")
    pick(form, f"rally-{davis.piece.name}-leaders_within_4", "Jubal A. Early (E3)")
    assert small_targets(page) == []
    assert axe_problems(page) == []
    tap_face(form, 1)
    expect(form).to_have_count(0)
    expect(page.locator("#live")).to_contain_text('rating 3+ leader of the same side within 4" (E3)')
    assert page.problems == []
