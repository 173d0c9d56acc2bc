"""The benchmark's walk keeps up with the app: on the demo battle it visits every step of the turn sequence, makes
every step's typical actions with the app's forms, and every request answers 200 or 302; and its walks' figures
are kept at their fastest."""

from dataclasses import replace

from django.db import connection

from republic.games.models import Game
from republic.games.scenario import create_game, parse_scenario
from republic.rules.sequence import STEPS
from republic.scenarios import DEMO_SCENARIO
from tests.bench_probe import DICE, FRAGMENT, PAGE, Probe, Row
from tests.bench_report import Measured, against_goals, dashboard, dashboard_lines, fastest, summary
from tests.bench_walk import prepare, walk


def test_the_bench_walks_a_player_turn_of_the_demo_battle(db, client):
    game = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    prepare(game)

    walker = walk(game, client, repeat=1, say=lambda _: None, settle=False)

    assert walker.probe.failures == []
    assert walker.visited == [step.key for step in STEPS]
    assert walker.probe.notes == []  # no action was refused or found nothing to do
    kinds = {row.kind for row in walker.probe.rows}
    assert {PAGE, FRAGMENT, DICE} <= kinds
    game.refresh_from_db()
    assert (game.game_turn, game.player_turn, game.step) == (1, 2, "messages")


def test_each_row_keeps_its_fastest_walk():
    def walked(ms_page: float, ms_roll: float, import_s: float) -> Measured:
        rows = [
            Row("move", "page", PAGE, 7, 25_000, 3_000, ms_page),
            Row("move", "roll", DICE, 20, 2_000, 900, ms_roll),
        ]
        return Measured(400, 400, "a club battle", import_s, rows, [])

    best = fastest([walked(40.0, 90.0, 0.3), walked(55.0, 70.0, 0.2)])
    assert [(r.request, r.ms, r.raw) for r in best.rows] == [("page", 40.0, 25_000), ("roll", 70.0, 2_000)]
    assert best.import_s == 0.2


def test_a_probe_counts_a_request_s_queries_however_many_came_before(db, client):
    game = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    connection.queries_log.extend({"sql": "SELECT 1", "time": "0.000"} for _ in range(connection.queries_limit))
    probe = Probe(client, repeat=1, say=lambda _: None, settle=False)
    probe.get("messages", "page", f"/games/{game.pk}/")
    assert probe.rows[0].queries > 0


def test_a_probe_counts_the_queries_whose_sql_was_written_not_those_whose_sql_was_kept(db, client):
    game = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    probe = Probe(client, repeat=1, say=lambda _: None, settle=False)
    for _ in range(2):
        probe.get("messages", "page", f"/games/{game.pk}/")
    # the second time, the game and the player turn's dispatches are read by SQL kept from the first
    page = probe.rows[-1]
    assert 0 < page.written <= page.queries - 2
    measured = Measured(13, 13, "the demo battle", 0.01, probe.rows, [])
    assert f"SQL written for {sum(r.written for r in probe.rows)} of the {page.queries * 2} queries" in summary(
        measured
    )


def test_the_dashboard_is_measured_with_five_games_and_fifty_and_held_to_its_goals(db, monkeypatch):
    monkeypatch.setattr("tests.bench_report.DASHBOARD_GAMES", (1, 3))
    rows, failures = dashboard()
    assert failures == [] and [r.request for r in rows] == ["1 games of 80 units", "3 games of 80 units"]
    assert Game.objects.count() == 3 and rows[0].queries == rows[1].queries
    lines, missed = dashboard_lines(rows)
    assert lines[-1] == "dashboard: 3 games against 1: ok" and missed == []
    slow = [rows[0], replace(rows[1], queries=rows[1].queries + 1, ms=301.0)]
    assert dashboard_lines(slow)[1] == [
        f"dashboard: 3 games against 1: over, {rows[0].queries + 1} queries against {rows[0].queries}, 301 ms"
    ]


def test_each_size_s_figures_are_printed_against_the_goals():
    demo = Measured(13, 13, "the demo battle", 0.02, [Row("move", "page", PAGE, 7, 20_000, 3_000, 10.0)], [])
    rows = [Row("move", "page", PAGE, 8, 210_000, 9_000, 25.0), Row("move", "roll", DICE, 20, 21_500, 900, 9.0)]
    club = Measured(1000, 1000, "a club battle", 3.5, rows, [])
    baseline = {(r.step, r.request): r for r in demo.rows}
    assert against_goals(club, baseline) == (
        "1000 units against the goals: queries +1 (goal +0), largest page 210.0 KB (goal 200), largest dice answer "
        "21.5 KB (goal 20), slowest against 13 units x2.5 (goal x2), import 3.50 s (goal under 3)"
    )
    assert against_goals(demo, baseline).startswith("13 units against the goals: queries: the baseline, largest")
