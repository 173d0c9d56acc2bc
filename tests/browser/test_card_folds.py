"""A unit's card folds what a player opens now and then (its movement allowance, its formation, the printed chart):
on a phone a tap on the summary fetches the fold open, and its form works as if it had come with the card."""

from playwright.sync_api import expect

from tests.browser.checks import axe_problems, open_row, small_targets
from tests.games.conftest import at_step, brigade


def test_a_tap_on_a_fold_of_the_card_fetches_its_form_which_works(phone, live_server, demo_game):
    game = at_step(demo_game, "move")
    archer = brigade(game, "Archer's Brigade")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    open_row(page, archer.name)
    row = page.locator(f"#row-{archer.piece.name}")
    movement = page.get_by_role("form", name=f"Movement allowance of {archer.name}")
    expect(movement).to_have_count(0)
    row.get_by_text("Movement allowance", exact=True).click()
    expect(movement).to_be_visible()
    movement.get_by_role("button", name="Work out the allowance").click()
    expect(row.get_by_text("Allowance", exact=False).first).to_be_visible()
    expect(page.locator(f"#fold-{archer.piece.name}-movement")).to_have_attribute("open", "")
    # the card drawn again is taken in by htmx before the next tap, as it is long before a thumb comes back to it
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    row.get_by_text("Use our printed chart instead").click()
    expect(row.get_by_text("Or: the actions your printed chart allows")).to_be_visible()
    assert small_targets(page) == []
    assert axe_problems(page) == []
    assert page.problems == []
