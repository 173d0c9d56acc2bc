"""On a phone, with htmx itself: after closing an assault from its card, the next assault declared from the step's
panel is accepted (its form came again at the game's new version), and the phone shows what a reload shows."""

from playwright.sync_api import expect

from republic.games.models import Event
from tests.browser.checks import pick
from tests.games.conftest import at_step, rolled_for_assault

SCREEN = """() => {
  const live = document.getElementById("live");
  const words = (el) => (el ? el.innerText.replace(/\\s+/g, " ").trim() : "");
  const head = document.getElementById("step-head").cloneNode(true);
  head.querySelectorAll("#work-list").forEach((list) => list.remove());
  // whether a folded part of the panel is open is the player's, not the game's: its summary alone is compared
  head.querySelectorAll("details[data-part] > :not(summary)").forEach((inside) => inside.remove());
  return {
    head: words(head),
    rows: [...live.querySelectorAll("#work-list > li.work-row:not(.is-done) .work-title")].map(words),
    bar: words(document.getElementById("step-bar")),
    versions: [...new Set([...live.querySelectorAll("input[name$=version]")].map((i) => i.value))].sort(),
  };
}"""


def declare(page, attacker: str, defender: str) -> None:
    details = page.locator("details.declare")
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    form = page.get_by_role("form", name="Declare an assault")
    pick(form, "declare-attackers", attacker)
    pick(form, "declare-defenders", defender)
    form.get_by_role("button", name="Declare the assault").click()


def test_a_second_assault_after_closing_the_first_from_its_card(phone, live_server, demo_game):
    game = at_step(rolled_for_assault(demo_game), "assaults")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.__noReload = 'still here'")
    declare(page, "Davis's Brigade", "Cutler's Brigade")
    card = page.locator(".work-row", has_text="Assault 1")
    expect(card.get_by_role("form", name="Round 1 of assault 1")).to_be_visible()  # the new card opens at its round
    card.get_by_role("button", name="Call off assault 1").click()
    expect(page.locator("#step-head")).to_contain_text("Assaults over this turn")
    declare(page, "Archer's Brigade", "Iron Brigade (Meredith)")
    expect(page.locator(".work-row", has_text="Assault 2")).to_be_visible()
    expect(page.locator("#error")).to_have_count(0)
    assert Event.objects.filter(game=game, kind="AssaultDeclared").count() == 2
    assert page.evaluate("window.__noReload") == "still here", "an answer reloaded the whole page"
    shown = page.evaluate(SCREEN)
    page.reload()
    assert shown == page.evaluate(SCREEN)
