"""The attacker replaces hors de combat leaders (2.5): a division leader returns one rating lower; a corps or
army leader gives way to the best-rated leader next in his chain of command. htmx and plain POST, refusals,
undo."""

import pytest

from republic.games.models import Event, Game, Leader
from republic.games.steps.walk import StepBlocked, advance, pending
from tests.games.conftest import HTMX, leader, payload, set_state, state_matches_events, summary


def at_replace(game: Game) -> Game:
    advance(game, None, "test")  # messages -> rally
    advance(game, None, "test")  # rally -> replace leaders
    game.refresh_from_db()
    assert game.step == "replace_leaders"
    return game


def replace(client, game: Game, fallen: Leader, htmx: bool = True, version: int | None = None):
    game.refresh_from_db()
    data = {"version": game.version if version is None else version}
    return client.post(f"/games/{game.pk}/replace/{fallen.pk}/", data, **(HTMX if htmx else {}))


def test_a_fallen_division_leader_blocks_the_step_until_he_returns_one_rating_lower(client, demo):
    heth = leader(demo, "Henry Heth")
    set_state(demo, heth, hors_de_combat=True)
    game = at_replace(demo)
    assert pending(game) == ["replace Henry Heth, hors de combat"]
    with pytest.raises(StepBlocked):
        advance(game, None, "test")
    assert "Replace Henry Heth" in client.get(f"/games/{game.pk}/").content.decode()
    response = replace(client, game, heth)
    assert response.status_code == 200 and response.content.decode().lstrip().startswith('<div id="live"')
    heth.refresh_from_db()
    assert (heth.hors_de_combat, heth.rating, heth.replaced_this_turn) == (False, 0, True)
    event = Event.objects.get(game=game, kind="LeaderReplaced")
    assert summary(event) == "Henry Heth returns to Heth's Division as E0"
    assert payload(event).result.division_leader_replaced
    assert pending(game) == []
    assert state_matches_events(game)


def test_a_fallen_corps_leader_gives_way_to_the_best_division_leader_below_him(client, demo):
    hill = leader(demo, "A. P. Hill")
    set_state(demo, hill, hors_de_combat=True)
    game = at_replace(demo)
    response = replace(client, game, hill, htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    hill.refresh_from_db()
    heth = leader(game, "Henry Heth")
    assert hill.removed and heth.command.name == "Third Corps" and heth.replaced_this_turn
    assert summary(Event.objects.get(game=game, kind="LeaderReplaced")) == (
        "Henry Heth takes over Third Corps from A. P. Hill"
    )
    assert state_matches_events(game)


def test_a_leader_not_hors_de_combat_or_of_the_defender_is_refused(client, demo):
    set_state(demo, leader(demo, "James S. Wadsworth"), hors_de_combat=True)  # the defender's
    game = at_replace(demo)
    version = game.version
    for name in ("Henry Heth", "James S. Wadsworth"):
        response = replace(client, game, leader(game, name))
        assert f"{name} has nothing to be replaced for now." in response.content.decode()
    game.refresh_from_db()
    assert game.version == version


def test_a_stale_or_incomplete_replacement_changes_nothing_and_undo_brings_him_back(client, demo):
    heth = leader(demo, "Henry Heth")
    set_state(demo, heth, hors_de_combat=True)
    game = at_replace(demo)
    assert "The game moved on" in replace(client, game, heth, version=game.version - 1).content.decode()
    response = client.post(f"/games/{game.pk}/replace/{heth.pk}/", {}, **HTMX)
    assert "The form was incomplete" in response.content.decode()
    replace(client, game, heth)
    client.post(f"/games/{game.pk}/undo/", {"version": Game.objects.get(pk=game.pk).version}, **HTMX)
    heth.refresh_from_db()
    assert (heth.hors_de_combat, heth.rating) == (True, 1)
    assert state_matches_events(game)
