"""The attacker replaces hors de combat leaders (2.5): a division leader returns one rating lower; a corps or
army leader gives way to the best-rated leader next in his chain of command. htmx and plain POST, refusals,
undo."""

import re

import pytest

from republic.games.models import Command, Event, Game, Leader
from republic.games.steps.walk import StepBlocked, advance, pending
from tests.games.conftest import HTMX, at_step, brigade, leader, payload, set_state, state_matches_events, summary
from tests.games.conftest import fresh as fresh_game
from tests.games.test_rally import rally_post


def at_replace(game: Game) -> Game:
    advance(game, None, "test")  # messages -> rally
    advance(game, None, "test")  # rally -> replace leaders
    game.refresh_from_db()
    assert game.step == "replace_leaders"
    return game


def replace(client, game: Game, fallen: Leader, htmx: bool = True, version: int | None = None):
    game.refresh_from_db()
    data = {"version": game.version if version is None else version}
    return client.post(f"/games/{game.pk}/act/replace-leader/leader-{fallen.pk}/", data, **(HTMX if htmx else {}))


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
        "Henry Heth takes over Third Corps from A. P. Hill; Fresh leader of Heth's Division (C0) takes the division "
        "he left"
    )
    assert state_matches_events(game)


def test_the_division_a_successor_leaves_gets_a_fresh_leader_and_rallies(client, demo):
    """R:583-587: the highest rated leader next in the chain takes over; "a fresh divisional command figure may
    need to be supplied from off-board to fill the gap". Without one, the division's next rally had no leader."""
    hill, davis = leader(demo, "A. P. Hill"), brigade(demo, "Davis's Brigade")
    set_state(demo, hill, hors_de_combat=True)
    game = at_replace(demo)
    replace(client, game, hill)
    division = Command.objects.get(game=game, name="Heth's Division")
    fresh = division.leader
    assert fresh is not None and (fresh.name, str(fresh.value), fresh.removed) == (
        "Fresh leader of Heth's Division",
        "C0",
        False,
    )
    assert state_matches_events(game)  # he stood by in the setup: the state is still the setup plus the events
    set_state(game, davis, m_hits=2)
    game = at_step(fresh_game(game), "rally")
    response = rally_post(client, game, davis, htmx=True)
    assert response.status_code == 200 and "has no leader" not in response.content.decode()
    assert payload(Event.objects.filter(game=game, kind="RallyResolved").get()).inputs.division_leader == fresh.value
    # undone, the succession takes him out of play again and Heth back to his division
    for _ in range(4):  # the rally, the two corrections, the succession
        client.post(f"/games/{game.pk}/undo/", {"version": fresh_game(game).version}, **HTMX)
    fresh.refresh_from_db()
    assert fresh.removed and leader(game, "Henry Heth").command == division and state_matches_events(game)


def test_a_division_leader_who_fell_with_his_corps_leader_returns_first_then_may_take_over(client, demo):
    """R:578-587: the corps leader's place goes to "the highest rated leader available who is ranked next in
    chain of command"; Heth, fallen with Hill, is available once he returns. The step offers Heth first and
    Hill only then; Hill first is refused with words the table can act on, changing nothing."""
    hill, heth = leader(demo, "A. P. Hill"), leader(demo, "Henry Heth")
    set_state(demo, hill, hors_de_combat=True)
    set_state(fresh_game(demo), heth, hors_de_combat=True)
    game = at_replace(fresh_game(demo))
    assert pending(game) == ["replace Henry Heth, hors de combat", "replace A. P. Hill, hors de combat"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Replace Henry Heth" in page and "Replace A. P. Hill" not in page
    assert "A. P. Hill (P1), Third Corps: replaced once Henry Heth is replaced" in page
    version = fresh_game(game).version
    body = replace(client, game, hill).content.decode()
    assert "Replace Henry Heth first: A. P. Hill&#x27;s place goes to the best-rated leader" in body
    assert "list the leaders" not in body and fresh_game(game).version == version
    replace(client, game, heth)
    assert "Replace A. P. Hill" in client.get(f"/games/{game.pk}/").content.decode()
    replace(client, game, hill)
    heth.refresh_from_db()
    assert (heth.command.name, str(heth.value)) == ("Third Corps", "E0")
    assert [summary(e) for e in Event.objects.filter(game=game, kind="LeaderReplaced")] == [
        "Henry Heth returns to Heth's Division as E0",
        "Henry Heth takes over Third Corps from A. P. Hill; Fresh leader of Heth's Division (C0) takes the division "
        "he left",
    ]
    assert pending(game) == [] and state_matches_events(game)


def test_a_corps_leader_with_no_leader_below_him_in_play_is_refused_in_the_tables_words(client, demo):
    """R:583-585: the successor comes from the chain of command below. With none in play, the refusal says so in
    the table's words, not the engine's, and changes nothing."""
    hill = leader(demo, "A. P. Hill")
    set_state(demo, leader(demo, "Henry Heth"), removed=True)
    set_state(fresh_game(demo), hill, hors_de_combat=True)
    game = at_replace(fresh_game(demo))
    version = game.version
    body = replace(client, game, hill).content.decode()
    assert "No command under Third Corps has a leader in play to take over from A. P. Hill" in body
    assert "list the leaders" not in body and fresh_game(game).version == version


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
    response = client.post(f"/games/{game.pk}/act/replace-leader/leader-{heth.pk}/", {}, **HTMX)
    assert "The form was incomplete" in response.content.decode()
    replace(client, game, heth)
    client.post(f"/games/{game.pk}/undo/", {"version": Game.objects.get(pk=game.pk).version}, **HTMX)
    heth.refresh_from_db()
    assert (heth.hors_de_combat, heth.rating) == (True, 1)
    assert state_matches_events(game)


def card_of(page: str) -> str:
    """The result card of a page or an answer, without the token its Undo form carries."""
    card = page[page.index('id="result"') : page.index("</section>", page.index('id="result"'))]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", card)


def test_the_last_leader_replaced_moves_the_game_on_and_undo_takes_both_back(client, demo):
    """Nobody has anything left to do in the step once its last fallen leader is replaced: it passes by itself, as
    it would have on arrival, and the result card says what was done, then that the step passed."""
    hill, heth = leader(demo, "A. P. Hill"), leader(demo, "Henry Heth")
    set_state(demo, hill, hors_de_combat=True)
    set_state(fresh_game(demo), heth, hors_de_combat=True)
    game = at_replace(fresh_game(demo))
    replace(client, game, heth)
    assert fresh_game(game).step == "replace_leaders"  # Hill still to replace: the step waits
    assert "the game goes on to the moves by itself" in client.get(f"/games/{game.pk}/").content.decode()
    body = replace(client, game, hill).content.decode()
    game = fresh_game(game)
    assert game.step == "move"
    assert [e.kind for e in Event.objects.filter(game=game).order_by("-seq")[:2]] == ["StepAdvanced", "LeaderReplaced"]
    card = card_of(body)
    assert "Henry Heth takes over Third Corps from A. P. Hill" in card
    assert "Passed by itself, nobody having anything to do: 1 step" in card
    assert "no attacking leader is hors de combat" in card
    assert card == card_of(client.get(f"/games/{game.pk}/").content.decode())  # a reload shows the same card
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    game = fresh_game(game)
    hill.refresh_from_db()
    assert game.step == "replace_leaders" and hill.hors_de_combat and not hill.removed
    assert pending(game) == ["replace A. P. Hill, hors de combat"] and state_matches_events(game)
