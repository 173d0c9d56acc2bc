import pytest

from republic.games.ledger import act_on, replay, snapshot
from republic.games.models import Brigade, Game
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO


@pytest.fixture
def demo(db) -> Game:
    """The bundled demo battle, freshly imported: Confederates attack first."""
    return create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))


def brigade(game: Game, name: str) -> Brigade:
    return Brigade.objects.get(game=game, name=name)


def set_state(game: Game, obj, **fields) -> None:
    """Put a unit into a state through an event, as a correction at the table would."""
    with act_on(game, None, "test") as action:
        for name, value in fields.items():
            action.set(obj, name, value)
        action.record("CorrectionMade", f"test set {fields}")


def state_matches_events(game: Game) -> bool:
    """The rows equal the setup plus every event's changes."""
    game.refresh_from_db()
    current = snapshot(game)
    rebuilt = replay(game)
    return all(rebuilt[key] == {f: current[key][f] for f in rebuilt[key]} for key in current)
