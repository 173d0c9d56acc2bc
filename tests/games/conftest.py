import pytest

from republic.games.events import CorrectionMade, FieldValue, Payload, payload_of
from republic.games.ledger import act, replay, snapshot
from republic.games.models import Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.text.events import describe
from republic.scenarios import DEMO_SCENARIO


@pytest.fixture
def demo(db) -> Game:
    """The bundled demo battle, freshly imported: Confederates attack first."""
    return create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))


def brigade(game: Game, name: str) -> Unit:
    """A unit of the game by name (brigade or battery)."""
    return Unit.objects.get(game=game, name=name)


battery = brigade


def set_state(game: Game, obj, **fields) -> None:
    """Put a row into a state through an event, as a correction at the table would."""
    with act(game, None, "test") as action:
        for name, value in fields.items():
            action.set(obj, name, value)
        key = f"{obj._meta.model_name}:{obj.pk}"
        action.record(CorrectionMade(key, str(obj), None, tuple(FieldValue(f, v) for f, v in fields.items())))


def state_matches_events(game: Game) -> bool:
    """The rows equal the setup plus every event's changes."""
    game.refresh_from_db()
    current = snapshot(game)
    rebuilt = replay(game)
    return all(rebuilt[key] == {f: current[key][f] for f in rebuilt[key]} for key in current)


def summary(event: Event) -> str:
    """The event in words, as the log shows it."""
    return describe(event)


def payload(event: Event) -> Payload:
    return payload_of(event)
