"""The load benchmark's own reading and arithmetic: its phones read the die of a step row as the app draws it and
their form is accepted, and the delays of an action's news to the other phones of its game are counted from the
action's answer to the moment each of them first held that version or a later one."""

import re

from republic.games.models import Event
from republic.games.scenario import create_game, parse_scenario
from tests.club_battle import club_scenario
from tests.devices import seated_device
from tests.load_floor import own_work_line
from tests.load_forms import forms_of, refusal, version_in
from tests.load_news import News


def test_a_phone_of_the_load_benchmark_enters_a_die_with_the_form_a_step_row_draws(db):
    game = create_game(parse_scenario(club_scenario(20)))
    phone = seated_device(game, "Confederate")
    phone.post(f"/games/{game.pk}/next/", {"version": game.version})  # the messages step has no rows: to the move
    page = phone.get(f"/games/{game.pk}/").content.decode()
    row = re.findall(r'<li class="work-row[^"]*" id="row-([a-z]+-\d+)"', page)[0]
    htmx = {"HX-Request": "true", "HX-Target": f"row-{row}"}
    drawn = phone.get(f"/games/{game.pk}/rows/{row}/", headers=htmx).content.decode()

    form = next(f for f in forms_of(drawn) if f.dice)
    assert form.die_faces and form.dice == [f"roll-{row}-die"]
    fields = [*form.fields, (form.dice[0], "7")]
    answer = phone.post(form.action, dict(fields), headers=htmx).content.decode()

    assert refusal(answer) == ""
    assert Event.objects.filter(game=game).latest("seq").kind == "ManeuverRolled"
    game.refresh_from_db()
    assert version_in(answer) == game.version


def test_the_news_of_an_action_is_timed_from_its_answer_to_each_other_phone_holding_it():
    news = News()
    for phone in (1, 2, 3):
        news.hold(phone, 4, 0.0)
    news.acted(1, 5, 10.0)  # phone 1's action made version 5, answered at 10 s
    news.hold(2, 5, 12.5)  # phone 2's poll brought it 2.5 s later
    news.hold(3, 6, 14.0)  # phone 3 first held a later version, 4 s later
    news.hold(3, 5, 15.0)  # an older version held afterwards changes nothing

    delays, missing = news.delays(0.0, 60.0)

    assert sorted(delays) == [2.5, 4.0]
    assert missing == 0


def test_a_version_answered_twice_counts_from_its_first_answer_and_a_poll_before_it_is_no_delay():
    news = News()
    news.hold(3, 4, 0.0)
    news.acted(2, 7, 21.0)  # two actions in flight: both answers show version 7, phone 1's first
    news.acted(1, 7, 20.0)
    news.hold(3, 7, 19.5)  # phone 3's poll, drawn once the action was recorded, came back before its answer

    delays, missing = news.delays(0.0, 60.0)

    # from 20 s, to phone 2 (its own answer at 21 s) and to phone 3 (already holding it)
    assert sorted(delays) == [0.0, 1.0]
    assert missing == 0


def test_only_versions_answered_in_the_window_count_and_a_phone_that_never_held_one_is_counted_apart():
    news = News()
    news.acted(1, 5, 5.0)  # before the window
    news.acted(1, 6, 30.0)
    news.hold(2, 5, 7.0)  # phone 2 never held version 6

    delays, missing = news.delays(10.0, 60.0)

    assert delays == []
    assert missing == 1


def test_the_servers_own_work_is_its_processor_a_request_asked_and_the_rest_of_the_goal_runs_is_the_apps():
    # 0.45 cores for 30 s over 4,200 requests asked (4,190 answered, 10 failed): 3.2 ms a request
    line = own_work_line(4190, 10, 30.0, 402, 0.45, 11.8)

    assert "3.2 ms a request (0.45 cores)" in line
    assert "4200 asked at 140 a second by 402 devices" in line
    assert "10 failed" in line
    assert "of the goal run's 11.8 ms a request, 8.6 ms is the app's" in line


def test_the_servers_own_work_measured_alone_is_given_without_a_goal_run_beside_it():
    line = own_work_line(7980, 0, 60.0, 400, 0.46)

    assert "3.5 ms a request (0.46 cores)" in line
    assert line.endswith("7980 asked at 133 a second by 400 devices on kept-alive connections, 0 failed")
