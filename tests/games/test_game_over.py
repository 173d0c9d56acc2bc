"""The end of a game: the game master ends a game in progress with its result (a winning side or a draw, and what
decided it), recorded as an event that undo takes back; the game page, the turn log, the dashboard and the game
list say it is over, and every play action is refused after it. The rules set no victory conditions, so the
result is the game master's word."""

import pytest
from django.utils.html import escape

from republic.games.events.game import GameEnded
from republic.games.ledger import GAME_OVER
from republic.games.models import Command, Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.games.text.describe import describe, result_card
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, fresh, payload, set_state, state_matches_events

NOTE = "Union held McPherson's Ridge at noon"


def end(client, game: Game, winner: object, note: str = NOTE, **headers: str):
    data = {"version": fresh(game).version, "winner": winner, "note": note}
    return client.post(f"/games/{game.pk}/end/", data, **headers)


def union(game: Game) -> int:
    return game.sides.get(name="Union").pk


def test_the_game_master_ends_the_game_and_every_screen_says_who_won(client, demo):
    game = at_step(demo, "move")
    form = client.get(f"/games/{game.pk}/end/").content.decode()
    assert "Confederate won" in form and "Union won" in form and "A draw" in form
    assert "Now at game turn 1, player turn 1: Attacker moves units." in form
    assert f'href="/games/{game.pk}/end/"' in client.get(f"/games/{game.pk}/").content.decode()
    response = end(client, game, union(game), f"  {NOTE}  ")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    game = fresh(game)
    assert (game.status, game.winner.name, game.result_note) == (Game.Status.FINISHED, "Union", NOTE)
    event = Event.objects.filter(game=game).latest("seq")
    assert payload(event) == GameEnded(union(game), "Union", NOTE)
    said = f"Game over: Union won ({NOTE})"
    assert describe(event) == said and result_card(event)["step"] == "Game over"
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "<strong>Game over:</strong> Union won (" + escape(NOTE) + ")" in page
    # no step to play and no way to move on: the steps are named only in the pace of the day, after the play
    played = page.split('aria-label="Pace of the day"')[0]
    assert "Next step" not in page and "Attacker moves units" not in played and "/end/" not in page
    assert "Pace of the day" in page
    assert escape(said) in client.get(f"/games/{game.pk}/log/").content.decode()
    dashboard = client.get("/dashboard/").content.decode()
    assert "<strong>Game over:</strong> Union won (" + escape(NOTE) + ") · after game turn 1" in dashboard
    assert "game over: Union won (" + escape(NOTE) + ")" in client.get("/").content.decode()
    player = seated_device(game, "Confederate").get(f"/games/{game.pk}/").content.decode()
    assert "<strong>Game over:</strong> Union won" in player
    assert state_matches_events(game)


def test_a_draw_has_no_winner_and_needs_no_note(client, demo):
    end(client, demo, "draw", "")
    game = fresh(demo)
    assert game.over and game.winner is None and game.result_note == ""
    assert describe(Event.objects.filter(game=game).latest("seq")) == "Game over: A draw"
    assert "<strong>Game over:</strong> A draw" in client.get(f"/games/{game.pk}/").content.decode()


def test_a_finished_game_refuses_every_play_action_with_the_reason(client, demo):
    game = at_step(demo, "rally")
    davis = brigade(game, "Davis's Brigade")
    set_state(game, davis, m_hits=1)
    end(client, game, union(game))
    version = fresh(game).version
    division = Command.objects.get(game=game, name="Heth's Division")
    rally = {f"rally-{davis.piece.name}-version": version, f"rally-{davis.piece.name}-die": 6, "roll": "typed"}
    tries = [
        (f"/games/{game.pk}/next/", {"version": version}),
        (f"/games/{game.pk}/next/anyway/", {"version": version}),
        (f"/games/{game.pk}/units/{davis.pk}/m_plus/", {"version": version}),
        (f"/games/{game.pk}/divisions/{division.pk}/orders/", {"version": version, "orders": "hold"}),
        (
            f"/games/{game.pk}/act/rally/unit-{davis.pk}/",
            {**rally, f"rally-{davis.piece.name}-division_leader_distance": 3},
        ),
        (f"/games/{game.pk}/act/rally/unit-{davis.pk}/", rally),  # incomplete as well
        (
            f"/games/{game.pk}/act/first-attacker/game-{game.pk}/",
            {"version": version, "side": union(game), "how": "agreed"},
        ),
        (f"/games/{game.pk}/end/", {"version": version, "winner": "draw"}),
    ]
    for path, data in tries:
        response = client.post(path, data, **HTMX)
        assert response.status_code == 200, path
        assert escape(GAME_OVER) in response.content.decode() or "already chosen" in response.content.decode(), path
    assert fresh(game).version == version and brigade(game, "Davis's Brigade").m_hits == 1


def test_undo_takes_the_end_back_and_play_goes_on(client, demo):
    game = at_step(demo, "move")
    end(client, game, union(game))
    player = seated_device(game, "Union")
    response = player.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    assert "not your side" in response.content.decode() and fresh(game).over
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version})
    game = fresh(game)
    assert game.in_progress and game.winner is None and game.result_note == "" and game.step == "move"
    client.post(f"/games/{game.pk}/next/", {"version": game.version})
    # no attacking skirmish marker is out: the skirmish step passes by itself
    assert fresh(game).step == "artillery_fire" and state_matches_events(game)


@pytest.mark.parametrize(
    ("winner", "note", "problem"),
    [
        ("", "", "Choose the side that won, or a draw."),
        ("999999", "", "Choose the side that won, or a draw."),
        ("the Union", "", "Choose the side that won, or a draw."),
        ("draw", "x" * 201, "Keep it to 200 characters or fewer."),
    ],
)
def test_a_bad_result_is_named_and_changes_nothing(client, demo, winner, note, problem):
    version = demo.version
    response = end(client, demo, winner, note)
    assert response.status_code == 200 and problem in response.content.decode()
    assert fresh(demo).version == version and fresh(demo).in_progress


def test_another_games_side_cannot_win_this_one(client, demo):
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    response = end(client, demo, union(other))
    assert "Choose the side that won, or a draw." in response.content.decode() and fresh(demo).in_progress


def test_a_game_still_setting_up_cannot_be_ended(client, db):
    game = create_game(parse_scenario(DEMO_SCENARIO.read_text().replace("first_attacker: Confederate\n", "")))
    assert "This game has not begun" in client.get(f"/games/{game.pk}/end/").content.decode()
    response = end(client, game, "draw")
    assert "Only a game in progress can be ended" in response.content.decode()
    assert fresh(game).status == Game.Status.SETTING_UP and not Event.objects.filter(game=game).exists()


def test_a_form_drawn_before_the_game_moved_on_is_drawn_again_as_sent(client, demo):
    drawn_at = demo.version
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=1)
    data = {"version": drawn_at, "winner": union(demo), "note": NOTE}
    response = client.post(f"/games/{demo.pk}/end/", data)
    body = response.content.decode()
    assert response.status_code == 200 and "The game moved on since this page was drawn" in body
    assert f'value="{fresh(demo).version}"' in body and escape(NOTE) in body and fresh(demo).in_progress
    client.post(f"/games/{demo.pk}/end/", {**data, "version": fresh(demo).version})
    assert fresh(demo).over


def test_only_the_game_master_may_end_a_game(demo):
    player = seated_device(demo, "Union")
    assert player.get(f"/games/{demo.pk}/end/").status_code == 403
    assert end(player, demo, union(demo)).status_code == 403 and fresh(demo).in_progress
