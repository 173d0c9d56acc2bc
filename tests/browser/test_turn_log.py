"""The turn log in a real browser: on a 360 px phone every control fits a thumb, nothing is wider than the screen
and the filter form works without a script; printed on A4 and Letter, no navigation, form or button, black on
white, each game turn on a page of its own and the provisional marks still there. Screenshots of each are left in
the test's temporary folder."""

import subprocess

from playwright.sync_api import expect

from tests.browser.checks import axe_problems, small_targets
from tests.browser.conftest import PHONE
from tests.games.log_helpers import SECRET, play

WHITE, BLACK = "rgb(255, 255, 255)", "rgb(0, 0, 0)"


def test_the_turn_log_on_a_phone_and_its_filters(phone, live_server, demo_game, client, tmp_path):
    played = play(client, demo_game)
    phone.goto(f"{live_server.url}/games/{played.game.pk}/log/")
    expect(phone.locator("h1")).to_contain_text("turn log")
    expect(phone.locator(".log-letters")).to_contain_text(SECRET)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not (found := small_targets(phone)), found
    assert not (problems := axe_problems(phone)), "\n".join(problems)
    phone.screenshot(path=tmp_path / "log-360.png", full_page=True)
    phone.reload()  # the disclosures the measure opened closed again, as a phone opens the page
    phone.get_by_text("Filter by side, division or phase").click()
    assert not (found := small_targets(phone, open_details=False)), found
    phone.select_option("#id_phase", "fire")
    phone.get_by_role("button", name="Show").click()
    expect(phone.locator("h4")).to_have_text(["Fire phase"])
    assert "phase=fire" in phone.url and not phone.problems
    assert not (found := small_targets(phone)), found
    phone.screenshot(path=tmp_path / "log-360-fire.png", full_page=True)


def test_the_turn_log_printed(phone, live_server, demo_game, client, tmp_path):
    played = play(client, demo_game)
    phone.goto(f"{live_server.url}/games/{played.game.pk}/log/")
    phone.emulate_media(media="print")
    for hidden in ("nav", "form.log-filters", "form button", "a[href$='/pdf/']"):
        expect(phone.locator(hidden).first).to_be_hidden()
    assert phone.evaluate("getComputedStyle(document.body).backgroundColor") == WHITE
    for text in ("body", ".text-muted", ".provisional-note"):
        assert phone.evaluate(f"getComputedStyle(document.querySelector('{text}')).color") == BLACK, text
    expect(phone.locator(".provisional-mark").first).to_be_visible()
    phone.screenshot(path=tmp_path / "log-print.png", full_page=True)
    for paper, size in (("A4", "pts (A4)"), ("Letter", "pts (letter)")):
        path = tmp_path / f"log-{paper}.pdf"
        phone.pdf(path=path, format=paper, prefer_css_page_size=False)
        info = subprocess.run(["pdfinfo", path], capture_output=True, check=True, text=True).stdout
        assert size in info, info
        pages = subprocess.run(["pdftotext", path, "-"], capture_output=True, check=True, text=True).stdout.split("\f")
        assert "Game turn 1" in pages[0]  # right under the title
        assert any(p.lstrip().startswith("Game turn 2") for p in pages)
        assert not any("Game turn 1" in p and "Game turn 2" in p for p in pages)
        assert "Go back to here" not in "".join(pages) and "†" in "".join(pages)
