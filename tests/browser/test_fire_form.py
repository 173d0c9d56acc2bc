"""A battery's fire form on a phone asks its follow-up questions only under the answer that raises them (4.3): the
range to the third base once the target is deep, the bases out of cover once it is in cover."""

from playwright.sync_api import expect

from tests.games.conftest import at_step, battery


def test_the_fire_forms_follow_up_questions_stand_only_under_the_answer_that_asks_them(phone, live_server, demo_game):
    game = at_step(demo_game, "artillery_fire")
    garnett = battery(game, "Garnett's Battalion")
    page = phone
    page.goto(f"{live_server.url}/games/{game.pk}/?open={garnett.piece.name}")
    form = page.get_by_role("form", name=f"Fire {garnett.name}")
    third_base = form.get_by_label("At point blank: range to where the fire enters the third base")
    out_of_cover = form.get_by_label("Fire at its uncovered bases only: how many are out of cover")
    expect(third_base).to_be_hidden()
    expect(out_of_cover).to_be_hidden()
    form.get_by_label("Deep target", exact=False).check()
    expect(third_base).to_be_visible()
    form.get_by_label("Half or more of the target in cover").select_option("light")
    expect(out_of_cover).to_be_visible()
    form.get_by_label("Deep target", exact=False).uncheck()
    form.get_by_label("Half or more of the target in cover").select_option("none")
    expect(third_base).to_be_hidden()
    expect(out_of_cover).to_be_hidden()
    assert page.problems == []
