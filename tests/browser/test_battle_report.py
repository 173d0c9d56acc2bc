"""The battle report in a real browser on a 360 px phone, after the demo's two game turns: the page fits the
phone's width (wide tables scroll in their own box), axe finds nothing serious, and the Content Security Policy
refuses nothing, the charts' SVG included."""

from tests.browser.checks import axe_problems
from tests.browser.test_content_policy import WATCH, refused
from tests.games.playthrough_game_turn_1 import confederate_turn_1, union_turn_1
from tests.games.playthrough_game_turn_2 import confederate_turn_2, union_turn_2
from tests.games.playthrough_table import Table


def test_the_report_fits_a_phone_passes_axe_and_is_refused_nothing(phone, live_server, demo_game, client):
    t = Table(client, demo_game)
    for player_turn in (confederate_turn_1, union_turn_1, confederate_turn_2, union_turn_2):
        player_turn(t)
    phone.add_init_script(WATCH)
    response = phone.goto(f"{live_server.url}/games/{demo_game.pk}/report/")
    assert response.status == 200
    assert phone.locator("svg.report-chart").count() == 4
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    # every chart is drawn at the width of the page, not at its viewBox's
    widths = phone.locator("svg.report-chart").evaluate_all(
        "charts => charts.map(c => c.getBoundingClientRect().width)"
    )
    assert all(300 <= w <= 340 for w in widths), widths
    assert refused(phone) == []
    assert not (problems := axe_problems(phone)), "\n".join(problems)
    assert phone.problems == []
