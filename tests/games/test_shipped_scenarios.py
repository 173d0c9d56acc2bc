"""The battles shipped with the app: each imports whole, holds what its file says (units per side, brigades,
batteries, leaders, bases at 1.1's scale, the day's game turns), and plays a full game turn through every step."""

from pathlib import Path

import pytest
import yaml

from republic.games.models import Command, Game, Leader, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.rules.sequence import STEPS
from republic.scenarios import SCENARIO_DIR
from tests.bench_walk import prepare, walk

BATTLES = sorted(p for p in SCENARIO_DIR.glob("*.yaml") if "morning" not in p.stem)


def _commands(command: dict):
    yield command
    for child in command.get("commands", []):
        yield from _commands(child)


def _file_counts(path: Path) -> dict:
    """What the file itself lists, read as plain YAML without the app's reader."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    counts: dict = {"turns": data["turns"], "leaders": 0, "brigades": 0, "batteries": 0, "sides": {}, "men": []}
    for side in data["sides"]:
        units = 0
        for top in side["commands"]:
            for command in _commands(top):
                counts["leaders"] += 1
                brigades, batteries = command.get("brigades", []), command.get("batteries", [])
                counts["brigades"] += len(brigades)
                counts["batteries"] += len(batteries)
                units += len(brigades) + len(batteries)
                counts["men"] += [(b["name"], b["men"], b.get("kind", "infantry")) for b in brigades if "men" in b]
        counts["sides"][side["name"]] = units
    return counts


def test_three_battles_ship_beside_the_demo():
    assert [p.stem for p in BATTLES] == ["antietam-1862-09-17", "gettysburg-1863-07-01", "shiloh-1862-04-06"]


@pytest.mark.parametrize("path", BATTLES, ids=lambda p: p.stem)
def test_a_shipped_battle_imports_with_every_unit_leader_and_turn_of_its_file(db, path):
    expected = _file_counts(path)

    game = create_game(parse_scenario(path.read_text(encoding="utf-8")))

    units = Unit.objects.filter(game=game)
    for side in game.sides.all():
        assert units.filter(division__side=side).count() == expected["sides"][side.name]
    assert units.exclude(kind="artillery").count() == expected["brigades"]
    assert units.filter(kind="artillery").count() == expected["batteries"]
    assert 50 <= units.count() <= 200  # a club's battle
    assert Leader.objects.filter(game=game).count() == expected["leaders"]
    assert Command.objects.filter(game=game).count() == expected["leaders"]
    assert game.last_turn == expected["turns"]
    assert game.first_attacker is not None and game.in_progress
    for name, men, kind in expected["men"]:
        a_base = 150 if kind.startswith("cavalry") else 275
        assert units.get(name=name).bases_start == int(men / a_base + 0.5), name


@pytest.mark.parametrize("path", BATTLES, ids=lambda p: p.stem)
def test_a_full_game_turn_of_a_shipped_battle_walks_through_every_step(db, client, path):
    game = create_game(parse_scenario(path.read_text(encoding="utf-8")))
    for player_turn in (1, 2):
        prepare(game)
        walker = walk(game, client, repeat=1, say=lambda _: None, settle=False)
        assert walker.probe.failures == []
        assert walker.visited == [step.key for step in STEPS], player_turn
    game.refresh_from_db()
    assert (game.game_turn, game.player_turn, game.step) == (2, 1, "messages")
    assert Game.objects.count() == 1
