"""A player's phone joins a game by its link and plays his side: the join page, the game page on his command,
the other side's rows with who acts on them and no form; the game master's seats page with the QR code and
his dashboard. axe on each, and screenshots at phone size for a person to look at (left in the test's temporary
folder), the game master's pages at 1024 px too."""

from playwright.sync_api import expect

from republic.games.models import Seat
from tests.browser.checks import NEWS, axe_problems, open_row, roll_for_me, small_targets, take_seat, tap_face
from tests.browser.conftest import PHONE
from tests.games.conftest import at_step

TABLET = {"width": 1024, "height": 768}  # the game master's screen


def test_a_phone_joins_and_sees_the_other_sides_rows_without_their_forms(browser, live_server, demo_game, tmp_path):
    game = at_step(demo_game, "move")
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    context.set_default_timeout(5_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/join/{game.join_code}/")
    assert not (problems := axe_problems(page)), "\n".join(problems)
    assert not (small := small_targets(page)), small
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Union: the whole side").check()
    page.screenshot(path=tmp_path / "join-360.png", full_page=True)
    page.get_by_role("button", name="Take this seat").click()
    expect(page.locator("#actor-line")).to_contain_text("Playing as Ann · Union")
    assert Seat.objects.get(game=game).side.name == "Union"
    # the move step is the attacker's: a Union phone sees a Confederate row and who acts on it, with nothing to open
    archer = page.locator(".work-row", has_text="Archer's Brigade")
    expect(archer).to_contain_text("For the Confederate players")
    expect(archer.locator("a.work-open")).to_have_count(0)
    expect(page.locator(".work-form")).to_have_count(0)
    page.screenshot(path=tmp_path / "others-360.png", full_page=True)
    context.close()


def test_the_seats_page_shows_the_code_and_passes_axe(phone, live_server, demo_game, tmp_path):
    phone.goto(f"{live_server.url}/join/{demo_game.join_code}/")  # the game master's phone takes no seat here
    phone.goto(f"{live_server.url}/games/{demo_game.pk}/seats/")
    expect(phone.locator(".join-qr svg")).to_be_visible()
    assert not (problems := axe_problems(phone)), "\n".join(problems)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the long link wraps
    phone.screenshot(path=tmp_path / "seats-360.png", full_page=True)
    phone.set_viewport_size(TABLET)
    phone.screenshot(path=tmp_path / "seats-1024.png", full_page=True)


def test_the_dashboard_fits_a_phone_and_passes_axe(phone, live_server, demo_game, tmp_path):
    at_step(demo_game, "rally")
    phone.goto(f"{live_server.url}/dashboard/")
    expect(phone.locator(".dashboard .card").first).to_contain_text("Attacker rallies units")
    # the join link and its QR code open on a card, load then, and stay open while the list redraws
    join = phone.locator(".dashboard-join").first
    join.locator("summary").click()
    expect(join.locator("img")).to_be_visible()
    # the image loads once shown (lazily): wait for it, failing if it never comes
    phone.wait_for_function("() => document.querySelector('.dashboard-join img').naturalWidth > 0")
    with phone.expect_response(lambda r: r.url.endswith("/dashboard/"), timeout=7_000):
        pass
    phone.wait_for_timeout(300)
    assert join.evaluate("details => details.open")
    assert not (problems := axe_problems(phone)), "\n".join(problems)
    assert not (small := small_targets(phone)), small
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=tmp_path / "dashboard-360.png", full_page=True)
    phone.set_viewport_size(TABLET)
    assert not (problems := axe_problems(phone)), "\n".join(problems)
    phone.screenshot(path=tmp_path / "dashboard-1024.png", full_page=True)


def seated_phone(browser, live_server, game, side: str, name: str):
    """A phone of its own (its own cookies) that took a seat on this side with the join link."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    context.set_default_timeout(5_000)
    page = context.new_page()
    take_seat(page, f"{live_server.url}/join/{game.join_code}/", side, name)
    return page


def test_phones_see_each_others_actions_and_a_typed_form_is_kept(browser, live_server, demo_game, phone):
    game = at_step(demo_game, "move")
    phone.goto(f"{live_server.url}/dashboard/")  # the game master's screen
    expect(phone.locator(".dashboard")).to_contain_text("no seat taken")
    ann = seated_phone(browser, live_server, game, "Confederate", "Ann")
    bob = seated_phone(browser, live_server, game, "Union", "Bob")
    # Ann rolls for Davis; Bob's phone shows the result by its next poll, without a reload
    roll_for_me(ann, "Maneuver roll for Davis's Brigade", "Davis's Brigade")
    expect(ann.locator("#result-slot")).to_contain_text("Davis")
    expect(bob.locator("#result-slot")).to_contain_text("Davis", timeout=NEWS)
    # the game master's dashboard has seen both phones take their seats, without a reload
    expect(phone.locator(".dashboard")).to_contain_text("Confederate (Ann)", timeout=6_000)
    # Cat, Ann's friend, is filling in Archer's roll while Ann rolls for Pettigrew: on Cat's phone Pettigrew's row
    # and the result redraw, Archer's form stays open with what she chose, and it is not stale when she taps the die
    cat = seated_phone(browser, live_server, game, "Confederate", "Cat")
    open_row(cat, "Archer's Brigade")
    archer = cat.get_by_role("form", name="Maneuver roll for Archer's Brigade")
    together = archer.get_by_label('Other friendly brigades within 2" doing the same action')
    together.focus()
    together.select_option(index=1)
    chosen = together.input_value()
    roll_for_me(ann, "Maneuver roll for Pettigrew's Brigade", "Pettigrew's Brigade")
    expect(cat.locator("#result-slot")).to_contain_text("Pettigrew", timeout=NEWS)
    pettigrew = cat.locator(".work-row", has=cat.locator(".work-title", has_text="Pettigrew's Brigade"))
    expect(pettigrew).to_contain_text("may ")
    expect(together).to_have_value(chosen)
    expect(together).to_be_focused()  # another phone's news leaves her where she was
    expect(cat.locator("#moved-on")).to_be_hidden()
    tap_face(archer, 7)
    expect(cat.locator("#result-slot")).to_contain_text("Archer")
    # Cat fills in Brockenbrough's roll while Ann rolls for him: Cat's form and choice stay, a note says the game
    # moved on, and her die tapped is refused as drawn before Ann's roll
    open_row(cat, "Brockenbrough's Brigade")
    brockenbrough = cat.get_by_role("form", name="Maneuver roll for Brockenbrough's Brigade")
    together = brockenbrough.get_by_label('Other friendly brigades within 2" doing the same action')
    together.select_option(index=1)
    roll_for_me(ann, "Maneuver roll for Brockenbrough's Brigade", "Brockenbrough's Brigade")
    expect(cat.locator("#moved-on")).to_be_visible(timeout=NEWS)
    expect(together).to_have_value(chosen)
    tap_face(brockenbrough, 4)
    expect(cat.locator("#error")).to_contain_text("The game moved on")


def test_a_defenders_message_reaches_his_friend_and_not_the_enemy(browser, live_server, demo_game, tmp_path):
    game = at_step(demo_game, "messages")
    bob = seated_phone(browser, live_server, game, "Union", "Bob")
    carl = seated_phone(browser, live_server, game, "Union", "Carl")
    ann = seated_phone(browser, live_server, game, "Confederate", "Ann")
    bob.reload()  # Carl took his seat after Bob's page was drawn
    form = bob.get_by_role("form", name="Send a message")
    form.get_by_label("To").select_option(label="Carl (Union)")
    form.get_by_label("Message").fill("Hold the ridge")
    assert not (problems := axe_problems(bob)), "\n".join(problems)
    bob.screenshot(path=tmp_path / "message-360.png", full_page=True)
    form.get_by_role("button", name="Send").click()
    expect(bob.locator(".dispatch")).to_contain_text("Bob to Carl")
    expect(carl.locator(".dispatch")).to_contain_text("Hold the ridge", timeout=NEWS)
    ann.wait_for_timeout(3_500)  # a poll or more later
    assert "Hold the ridge" not in ann.content()
