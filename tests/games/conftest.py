import re
from typing import TypeVar

import pytest
from django.db.models import Model

from republic.games.events.game import CorrectionMade, FieldValue
from republic.games.events.payload import Payload, payload_of
from republic.games.ledger import act, replay, snapshot
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.text.describe import describe
from republic.games.text.terms import ACTION_ORDER
from republic.scenarios import DEMO_SCENARIO

# the helper modules beside the tests hold asserts too: pytest explains their failures as it does the tests'
pytest.register_assert_rewrite(
    "tests.games.assault_helpers",
    "tests.games.move_helpers",
    "tests.games.playthrough_table",
    "tests.games.query_helpers",
    "tests.games.playthrough_game_turn_1",
    "tests.games.playthrough_game_turn_2",
    "tests.games.scenario_files",
)

HTMX = {"HTTP_HX_REQUEST": "true"}  # the header htmx sends: the app answers with the live fragment

Row = TypeVar("Row", bound=Model)


@pytest.fixture
def demo(db) -> Game:
    """The bundled demo battle, freshly imported: Confederates attack first."""
    return create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))


@pytest.fixture
def game(demo) -> Game:
    """The demo battle at the assault step, each attacking brigade's maneuver roll of the turn allowing Assault."""
    return at_step(rolled_for_assault(demo), "assaults")


@pytest.fixture
def two(game):
    """Davis's Brigade (average, 8 bases) against Cutler's Brigade (veteran, 7 bases)."""
    return brigade(game, "Davis's Brigade"), brigade(game, "Cutler's Brigade")


def brigade(game: Game, name: str) -> Unit:
    """A unit of the game by name (brigade or battery)."""
    return Unit.objects.get(game=game, name=name)


battery = brigade


def leader(game: Game, name: str) -> Leader:
    return Leader.objects.get(game=game, name=name)


def division(game: Game, name: str) -> Command:
    return Command.objects.get(game=game, name=name)


def slot(unit: Unit) -> str:
    return unit.piece.name


def fresh(row: Row) -> Row:
    """The row (a game, a unit) as the database holds it now."""
    row.refresh_from_db()
    return row


def set_state(game: Game, obj, **fields) -> None:
    """Put a row into a state through an event, as a correction at the table would."""
    with act(game, None, "test") as action:
        for name, value in fields.items():
            action.set(obj, name, value)
        key = f"{obj._meta.model_name}:{obj.pk}"
        action.record(CorrectionMade(key, str(obj), None, tuple(FieldValue(f, v) for f, v in fields.items())))


def rolled_for_assault(game: Game, units: list[Unit] | None = None) -> Game:
    """This turn's maneuver rolls, read from the printed chart as allowing every action, for the attacking
    brigades among ``units`` (all of them by default) that have not rolled: a brigade declares an assault only
    when its roll allows one (R:631-635). Rolled at the move step, the game then put back where it was."""
    from republic.games.steps.move.brigades import roll_form_for, roll_maneuver
    from republic.games.steps.move.state import state as move_state

    game.refresh_from_db()
    step, rolls = game.step, move_state(game).rolls
    chosen = units if units is not None else list(Unit.objects.filter(game=game).of_side(game.attacker).in_play())
    waiting = [u for u in chosen if not u.battery and u.division.side_id == game.attacker.pk and u.key not in rolls]
    if not waiting:
        return game
    at_step(game, "move")
    for unit in waiting:
        prefix = f"roll-{unit.piece.name}"
        data = {f"{prefix}-version": game.version, f"{prefix}-die": "10", f"{prefix}-printed": ACTIONS, "roll": "typed"}
        form = roll_form_for(game, unit, data)
        assert form.is_valid(), form.errors
        roll_maneuver(game, unit, form, "test")
        game.refresh_from_db()
    return at_step(game, step)


ACTIONS = ["assault", "maneuver", "advance", "pull_back"]


def at_step(game: Game, step: str) -> Game:
    """Put the game at a step of the turn sequence."""
    set_state(game, game, step=step)
    game.refresh_from_db()
    assert game.step == step
    return game


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


def last(game: Game, kind: str) -> Event:
    """The game's latest event of a kind."""
    return Event.objects.filter(game=game, kind=kind).latest("seq")


def allowed(event: Event) -> list[str]:
    """The actions a maneuver roll allows, in the rules' order."""
    actions = payload(event).result.actions
    return [a.value for a in ACTION_ORDER if a in actions]


def page(client, game: Game) -> str:
    """The game page as the players see it."""
    return client.get(f"/games/{game.pk}/").content.decode()


def has_row(html: str, row: Model) -> bool:
    """The step lists work for the unit, leader or division as one of its rows."""
    return f'id="row-{row._meta.model_name}-{row.pk}"' in html


def row_of(html: str, row: Model) -> str:
    """The step's row for the unit, leader or division in a page or an answer ("" when there is none)."""
    found = re.search(
        rf'<li class="work-row[^"]*" id="row-{row._meta.model_name}-{row.pk}"[^>]*>(.*?)\n</li>', html, re.S
    )
    return found.group(1) if found else ""


def opened_row(client, game: Game, row: Model) -> str:
    """A row of the step opened as a tap opens it: its form, drawn on its own."""
    response = client.get(f"/games/{game.pk}/rows/{row._meta.model_name}-{row.pk}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def is_fragment(response) -> bool:
    """The answer is the live fragment of the game page, as htmx swaps it in, not a whole page."""
    body = response.content.decode()
    return response.status_code == 200 and body.lstrip().startswith('<div id="live"') and "<html" not in body
