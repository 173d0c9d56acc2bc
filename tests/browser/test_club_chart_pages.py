"""The club's chart on a phone: an upload refused with its problem in view, and a game's chart page with the
club's changed cells marked, both drawn with nothing refused by the Content Security Policy, nothing serious
for axe-core and nothing wider than the phone. Each page is kept as a screenshot in the test's folder."""

from playwright.sync_api import expect

from republic.charts import checksum_of
from republic.games.models import ClubChart, Game
from republic.games.models.charts import club_identity
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.browser.checks import axe_problems
from tests.browser.test_content_policy import WATCH, refused
from tests.chart_files import BREAKS, cell, chart_text


def wider_than_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def test_a_refused_upload_shows_the_example_and_cell_at_fault(phone, live_server, transactional_db, tmp_path):
    phone.add_init_script(WATCH)
    phone.goto(f"{live_server.url}/charts/")
    chart = tmp_path / "club.yaml"
    chart.write_text(chart_text(BREAKS["T18"][0]), encoding="utf-8")
    phone.get_by_label("Chart file").set_input_files(chart)
    phone.get_by_role("button", name="Check and keep the chart").click()
    problem = phone.locator("#chart-problems")
    expect(problem).to_contain_text("Worked example T18")
    expect(problem).to_contain_text("Panic Index: Veteran, Panic 2 = F")
    phone.screenshot(path=tmp_path / "upload-refused.png", full_page=True)
    assert not ClubChart.objects.exists()
    assert refused(phone) == [] and phone.problems == []
    assert axe_problems(phone) == [] and not wider_than_the_phone(phone)


def test_a_games_chart_page_marks_the_clubs_changes(phone, live_server, transactional_db, tmp_path):
    text = chart_text(cell("rally", "average", "rattled", 12), cell("panic_index", "green", "p1", "F"))
    club = ClubChart.objects.create(name="Our club's chart", version="2025", checksum=checksum_of(text), text=text)
    game: Game = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")), chart=club_identity(club))
    phone.add_init_script(WATCH)
    phone.goto(f"{live_server.url}/games/{game.pk}/chart/")
    expect(phone.locator(".chart-differences")).to_contain_text("2 cells differ from the app's chart")
    changed = phone.locator("#rally td.is-changed")
    expect(changed).to_contain_text("app's chart: 10")
    phone.screenshot(path=tmp_path / "chart-differences-top.png")
    changed.scroll_into_view_if_needed()
    phone.screenshot(path=tmp_path / "chart-differences-cell.png")
    assert refused(phone) == [] and phone.problems == []
    assert axe_problems(phone) == [] and not wider_than_the_phone(phone)
