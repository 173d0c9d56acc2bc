"""The benchmark's walk keeps up with the app: on the demo battle it visits every step of the turn sequence, makes
every step's typical actions with the app's forms, and every request answers 200 or 302."""

from republic.games.scenario import create_game, parse_scenario
from republic.rules.sequence import STEPS
from republic.scenarios import DEMO_SCENARIO
from tests.bench_probe import DICE, FRAGMENT, PAGE
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
