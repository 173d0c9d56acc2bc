"""The move step's forms as the table posts them: the maneuver roll, the movement allowance, the charge bonus,
formation, skirmishers and battery functions; and the move card of one unit in the page."""

import re

from republic.games.models import Game
from republic.games.steps.walk import advance
from tests.games.conftest import HTMX


def at_move(game: Game) -> Game:
    for _ in range(3):  # messages -> rally -> replace leaders -> move
        advance(game, None, "test")
    game.refresh_from_db()
    assert game.step == "move"
    return game


def roll_post(client, game, unit, die="5", roll="typed", htmx=True, version=None, **fields):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"roll-{unit.piece.name}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-die": die, "roll": roll}
    data.update({f"{prefix}-{k}": v for k, v in fields.items()})
    return client.post(f"/games/{game.pk}/act/maneuver-roll/unit-{unit.pk}/", data, **from_row(unit, htmx))


def move_post(client, game, unit, htmx=True, **fields):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"move-{unit.piece.name}"
    values = {"formation_changes": "0", "formation_changes_in_rough": "0", "passages_of_lines": "0", **fields}
    data = {f"{prefix}-{k}": v for k, v in values.items()}
    return client.post(f"/games/{game.pk}/maneuver/movement/{unit.pk}/", data, **from_row(unit, htmx))


def charge_post(client, game, unit, used="1", htmx=True, version=None, action="advance"):
    game.refresh_from_db()  # the state may have been set by another event
    data = {"version": game.version if version is None else version, "used": used, "action": action}
    return client.post(f"/games/{game.pk}/act/charge-bonus/unit-{unit.pk}/", data, **from_row(unit, htmx))


def formation_post(client, game, unit, formation, htmx=True, version=None):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"formation-{unit.piece.name}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-formation": formation}
    return client.post(f"/games/{game.pk}/act/formation/unit-{unit.pk}/", data, **from_row(unit, htmx))


def skirmish_post(client, game, unit, deployed, htmx=True, version=None):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"skirmishers-{unit.piece.name}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-deployed": deployed}
    return client.post(f"/games/{game.pk}/act/skirmishers/unit-{unit.pk}/", data, **from_row(unit, htmx))


def functions_post(client, game, unit, *functions, htmx=True, version=None, **flags):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"functions-{unit.piece.name}"
    data = {f"{prefix}-version": game.version if version is None else version}
    data.update({f"{prefix}-function_{i + 1}": f for i, f in enumerate(functions)})
    data.update({f"{prefix}-{k}": v for k, v in flags.items()})
    return client.post(f"/games/{game.pk}/act/battery-functions/unit-{unit.pk}/", data, **from_row(unit, htmx))


def text(response) -> str:
    return response.content.decode()


def card_of(page: str, unit) -> str:
    """The move row of one unit in a page or an answer, opened."""
    match = re.search(rf'<li class="work-row[^"]*" id="row-unit-{unit.pk}"[^>]*>(.*?)\n</li>', page, re.S)
    assert match, f"no move row for {unit}"
    assert 'class="work-form"' in match.group(1), f"the move row of {unit} is not open"
    return match.group(1)


CARD_FOLDS = ("functions", "printed", "formation", "movement")


def opened_page(client, game, unit, folds=CARD_FOLDS) -> str:
    """The game page with the unit's move row open, and the folds of its card, as a tap on it and on each fold's
    summary (or ?open= and ?fold= without scripts) draws it."""
    opened = "".join(f"&fold={fold}" for fold in folds)
    return client.get(f"/games/{game.pk}/?open=unit-{unit.pk}{opened}").content.decode()


def from_row(unit, htmx: bool) -> dict:
    """The headers of a form sent from the unit's row: htmx names the row it will swap."""
    return {**HTMX, "HTTP_HX_TARGET": f"row-unit-{unit.pk}"} if htmx else {}
