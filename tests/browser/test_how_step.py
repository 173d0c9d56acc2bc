"""On a phone the step's work comes first: how the step works folds behind its summary, and the fold stays as the
player leaves it on his device, through a reload and the answers that draw the page again."""

from playwright.sync_api import expect

from tests.games.conftest import at_step


def test_how_a_step_works_is_folded_and_kept_as_the_player_leaves_it(phone, live_server, demo_game):
    game = at_step(demo_game, "rally")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    how = page.locator("details.how-step")
    instructions = how.locator("p.now")
    expect(how.locator("summary")).to_have_text("How this step works")
    expect(instructions).to_be_hidden()
    how.locator("summary").click()
    expect(instructions).to_be_visible()
    kept_as(page, "open")
    page.reload()
    expect(page.locator("details.how-step p.now")).to_be_visible()
    # an answer that draws the live part again keeps it open; the poll may bring the next step before Next step's
    # own answer, and a reload then would cut that answer off
    with page.expect_response(lambda r: r.url.endswith("/next/")):
        page.get_by_role("button", name="Next step").click()
    expect(page.locator("#step-title")).not_to_contain_text("Rally")
    expect(page.locator("details.how-step p.now")).to_be_visible()
    page.locator("details.how-step summary").click()
    kept_as(page, "closed")
    page.reload()
    expect(page.locator("details.how-step p.now")).to_be_hidden()
    assert not page.problems, page.problems


def kept_as(page, fold):
    """A details element tells of its tap in a toggle event a moment after it: a reload in between would
    come before the device has kept the fold. (Asked from here: the page's policy runs no script a test writes.)"""
    for _ in range(100):
        if page.evaluate("() => localStorage.getItem('republic-how-step')") == fold:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the device did not keep the fold {fold}")


def test_a_tap_on_the_fold_is_kept_when_an_answer_draws_it_again_before_it_turns(phone, live_server, demo_game):
    """The toggle event comes a moment after the tap: an answer swapped in between (the poll's news, another part
    drawn again) draws the fold as the device kept it, so the tap must be kept before that moment."""
    game = at_step(demo_game, "rally")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("details.how-step summary").click()
    kept_as(page, "open")
    page.evaluate(
        """() => {
          const fold = document.querySelector("details.how-step");
          fold.querySelector("summary").click();
          const drawn = fold.cloneNode(true);
          drawn.removeAttribute("open");
          fold.replaceWith(drawn);
          document.dispatchEvent(new CustomEvent("htmx:afterSwap"));
        }"""
    )
    kept_as(page, "closed")
    expect(page.locator("details.how-step p.now")).to_be_hidden()
    page.wait_for_timeout(200)
    assert page.evaluate("() => localStorage.getItem('republic-how-step')") == "closed"
    expect(page.locator("details.how-step p.now")).to_be_hidden()
    assert not page.problems, page.problems
