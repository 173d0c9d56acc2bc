"""A die is one tap: on a 360x740 phone a row opened and one face tapped resolve it, with or without scripts; where
two dice are taken the tap completing the second pad resolves; a face refused comes back chosen."""

import re

import pytest
from playwright.sync_api import expect

from republic.games.events.payload import payload_of
from republic.games.models import Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.browser.checks import MIN_TARGET, open_row, small_targets, tap_face
from tests.browser.conftest import PHONE, signed_in
from tests.games.conftest import at_step, brigade, set_state

UNIT = "Davis's Brigade"
# every tap and click the player makes on the page, counted by the page itself
COUNT_TAPS = "window.__taps = 0; document.addEventListener('click', () => { window.__taps += 1; }, true);"


def rally_step(game: Game) -> Game:
    set_state(game, brigade(game, UNIT), m_hits=1)
    return at_step(game, "rally")


def face_sizes(form) -> list[dict[str, float]]:
    return form.locator(".die-pad .die-face").evaluate_all(
        "faces => faces.map(f => f.getBoundingClientRect()).map(b => ({w: b.width, h: b.height, r: b.right}))"
    )


def test_a_rally_is_one_tap_on_a_face_once_its_row_is_open(phone, live_server, demo_game):
    game = rally_step(demo_game)
    phone.add_init_script(COUNT_TAPS)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    open_row(phone, UNIT)
    rally = phone.get_by_role("form", name=f"Rally {UNIT}")
    pad = rally.get_by_role("group", name="Die (1-10)")
    expect(pad.locator(".die-face")).to_have_text([str(n) for n in range(1, 11)])
    # ten faces, each a thumb's target, five a row inside the phone's width
    sizes = face_sizes(rally)
    assert all(s["w"] >= MIN_TARGET and s["h"] >= MIN_TARGET and s["r"] <= PHONE["width"] for s in sizes), sizes
    assert len({round(s["r"]) for s in sizes}) == 5
    assert not small_targets(phone)

    tap_face(rally, 8)
    said = phone.locator(f"#result-{brigade(game, UNIT).piece.name}")  # the row's result, where the thumb was
    expect(said).to_contain_text(f"{UNIT} rallies")
    expect(said.locator(".die")).to_have_text("8")
    roll = payload_of(Event.objects.get(game=game, kind="RallyResolved")).inputs.roll
    assert roll.faces == (8,) and roll.source == "typed"
    assert phone.evaluate("window.__taps") == 2  # the row opened, the face tapped
    # the result card draws the die as a die, and undo is one tap away
    result = phone.locator("#result")
    expect(result.locator(".dice-line .die")).to_have_text("die 8")
    expect(result.get_by_role("button", name="Undo last action")).to_be_visible()
    assert phone.problems == []


def test_without_scripts_a_face_is_still_one_tap(browser, live_server, demo_game, client):
    game = rally_step(demo_game)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False)
    signed_in(context, live_server, client)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator(".work-row", has=page.locator(".work-title", has_text=UNIT)).locator("a.work-open").click()
    tap_face(page.get_by_role("form", name=f"Rally {UNIT}"), 9)
    expect(page.locator("#result")).to_contain_text(f"{UNIT} rallies")
    assert payload_of(Event.objects.get(game=game, kind="RallyResolved")).inputs.roll.faces == (9,)
    context.close()


def test_a_face_refused_for_another_field_comes_back_chosen_and_one_tap_sends_it(phone, live_server, demo_game):
    game = rally_step(demo_game)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    open_row(phone, UNIT)
    rally = phone.get_by_role("form", name=f"Rally {UNIT}")
    distance = rally.get_by_label("Distance to the division leader (inches)")
    distance.fill("")
    distance.evaluate("field => field.removeAttribute('required')")  # as a phone that does not check it sends it
    tap_face(rally, 6)
    rally = phone.get_by_role("form", name=f"Rally {UNIT}")
    expect(rally).to_contain_text("This field is required")
    chosen = rally.locator(".die-face[aria-pressed=true]")
    expect(chosen).to_have_text("6")
    assert not Event.objects.filter(game=game, kind="RallyResolved").exists()
    # Roll for me now would throw the table's die away: refused, naming it
    rally.get_by_label("Distance to the division leader (inches)").fill("3")
    rally.get_by_role("button", name="Roll for me").click()
    rally = phone.get_by_role("form", name=f"Rally {UNIT}")
    expect(rally).to_contain_text("You chose 6 on this die, so the app did not roll")
    assert not Event.objects.filter(game=game, kind="RallyResolved").exists()
    rally.get_by_label("Distance to the division leader (inches)").fill("3")
    tap_face(rally, 6)
    expect(phone.locator("#result")).to_contain_text(f"{UNIT} rallies")
    assert payload_of(Event.objects.get(game=game, kind="RallyResolved")).inputs.roll.faces == (6,)


@pytest.fixture
def setting_up(transactional_db) -> Game:
    """The demo battle waiting for its first attacker: each side's die, two pads."""
    return create_game(
        parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8").replace("first_attacker: Confederate\n", ""))
    )


def test_two_dice_resolve_on_the_tap_that_completes_the_second_pad(phone, live_server, setting_up):
    phone.add_init_script(COUNT_TAPS)
    phone.goto(f"{live_server.url}/games/{setting_up.pk}/")
    form = phone.get_by_role("form", name="Each side's die for the first attacker")
    assert not (found := small_targets(phone)), found
    tap_face(form, 8, "Union's die (1-10)")  # the second pad first: nothing is sent yet
    expect(form.get_by_role("group", name="Union's die (1-10)").get_by_role("radio", name="8")).to_be_checked()
    assert not Event.objects.filter(game=setting_up, kind="FirstAttackerRolled").exists()
    tap_face(form, 3, "Confederate's die (1-10)")
    expect(phone.locator("#first-attacker-roll")).to_contain_text(re.compile(r"Confederate rolled 3, Union 8"))
    inputs = payload_of(Event.objects.get(game=setting_up, kind="FirstAttackerRolled")).inputs
    assert (inputs.first_roll.faces, inputs.second_roll.faces) == ((3,), (8,))
    assert phone.evaluate("window.__taps") == 2
    expect(phone.locator("#result .dice-line .die")).to_have_text(["die 3", "die 8"])


def test_two_dice_without_scripts_resolve_with_the_resolve_button(browser, live_server, setting_up, client):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False)
    signed_in(context, live_server, client)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{setting_up.pk}/")
    form = page.get_by_role("form", name="Each side's die for the first attacker")
    tap_face(form, 2, "Confederate's die (1-10)")
    tap_face(form, 7, "Union's die (1-10)")
    assert not Event.objects.filter(game=setting_up, kind="FirstAttackerRolled").exists()
    form.get_by_role("button", name="Enter the dice").click()
    expect(page.locator("#first-attacker-roll")).to_contain_text("Confederate rolled 2, Union 7")
    context.close()
