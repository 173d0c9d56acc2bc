"""A unit's card in the move step opens with its maneuver roll, and folds the rest (its battery functions, the
printed chart, its formation, its movement allowance): each fold is fetched when a tap opens it, drawn open when a
form of it was sent, and opened with ``?fold=`` on a phone without scripts. An open row of a club battle then costs
the forms a player sees, not every form the card holds."""

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from republic.games.models import Unit
from republic.games.scenario import create_game, parse_scenario
from tests.club_battle import club_scenario
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, battery, brigade, fresh
from tests.games.move_helpers import CARD_FOLDS, at_move, formation_post, move_post, opened_page, text

FIELDS = {
    "printed": 'name="roll-{}-printed"',
    "formation": 'name="formation-{}-formation"',
    "movement": 'name="move-{}-formation_changes"',
    "functions": 'name="functions-{}-',
}


def fold_address(game, unit, fold: str) -> str:
    return f"/games/{game.pk}/rows/unit-{unit.pk}/?fold={fold}"


def test_an_opened_brigade_draws_its_roll_and_fetches_each_fold_when_tapped(client, demo):
    game = at_move(demo)
    archer = brigade(game, "Archer's Brigade")
    name = archer.piece.name
    opened = client.get(f"/games/{game.pk}/rows/{name}/", **HTMX).content.decode()
    assert f"roll-{name}-die" in opened and f'name="roll-{name}-acting_together"' in opened
    for fold in ("printed", "formation", "movement"):
        assert FIELDS[fold].format(name) not in opened, fold
        closed = re.search(rf'<details[^>]*id="fold-{name}-{fold}"[^>]*>', opened)
        assert closed and f'hx-get="{fold_address(game, archer, fold)}"' in closed.group(0)
        assert "open" not in closed.group(0).split("hx-get")[0]
        fetched = client.get(fold_address(game, archer, fold), **HTMX, HTTP_HX_TARGET=f"fold-{name}-{fold}")
        drawn = fetched.content.decode()
        assert fetched.status_code == 200 and FIELDS[fold].format(name) in drawn, fold
        assert re.match(rf'\s*<details[^>]*id="fold-{name}-{fold}" open>', drawn), drawn[:200]


def test_an_opened_battery_folds_its_functions_and_its_movement(client, demo):
    game = at_move(demo)
    garnett = battery(game, "Garnett's Battalion")
    name = garnett.piece.name
    opened = client.get(f"/games/{game.pk}/rows/{name}/", **HTMX).content.decode()
    for fold in ("functions", "movement"):
        assert FIELDS[fold].format(name) not in opened and f'id="fold-{name}-{fold}"' in opened
        assert FIELDS[fold].format(name) in client.get(fold_address(game, garnett, fold), **HTMX).content.decode()


def test_a_phone_without_scripts_opens_a_fold_with_its_link(client, demo):
    game = at_move(demo)
    archer = brigade(game, "Archer's Brigade")
    name = archer.piece.name
    closed = opened_page(client, game, archer, folds=())
    assert f'href="?open={name}&amp;fold=movement#row-{name}"' in closed
    assert FIELDS["movement"].format(name) not in closed
    page = opened_page(client, game, archer, folds=("movement",))
    assert FIELDS["movement"].format(name) in page and FIELDS["formation"].format(name) not in page


def test_a_sent_form_is_answered_with_its_fold_open(client, demo):
    game = at_move(demo)
    archer = brigade(game, "Archer's Brigade")
    name = archer.piece.name
    worked = text(move_post(client, game, archer))
    assert re.search(rf'id="fold-{name}-movement" open>', worked) and "Allowance" in worked
    refused = text(formation_post(client, fresh(game), archer, "no_such_formation"))
    assert re.search(rf'id="fold-{name}-formation" open>', refused)


def test_a_fold_of_a_unit_the_device_may_not_move_is_not_drawn(demo):
    game = at_move(demo)
    archer = brigade(game, "Archer's Brigade")
    union = seated_device(game, "Union")
    answer = union.get(fold_address(game, archer, "movement"), **HTMX).content.decode()
    assert FIELDS["movement"].format(archer.piece.name) not in answer
    assert "That has been done already or is not part of this step" in answer


def test_a_fold_is_drawn_for_the_same_queries_at_every_size(client):
    counts = []
    for units in (20, 400):
        game = at_step(create_game(parse_scenario(club_scenario(units))), "move")
        unit = Unit.objects.filter(game=game, division__side=game.attacker).exclude(kind="artillery").first()
        for fold in CARD_FOLDS[1:]:
            client.get(fold_address(game, unit, fold), **HTMX)  # each process reads the chart once
        with CaptureQueriesContext(connection) as queries:
            for fold in CARD_FOLDS[1:]:
                answer = client.get(fold_address(game, unit, fold), **HTMX)
                assert FIELDS[fold].format(unit.piece.name) in answer.content.decode()
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
