"""Going back to an entry of the turn log takes every phone with it, so the game master is asked first: the
question names how many actions it undoes, and only its confirmation, sent with the version it was drawn at,
goes back. A bad entry number is named, never a server error."""

import re

from django.utils.html import escape

from republic.games.models import Event, Game
from tests.devices import seated_device
from tests.games.conftest import brigade, fresh, set_state, state_matches_events


def three_actions(game: Game) -> Game:
    archer = brigade(game, "Archer's Brigade")
    for hits in (1, 2, 3):
        set_state(game, archer, m_hits=hits)
    return fresh(game)


def test_the_log_links_to_the_question_and_going_back_asks_first_naming_what_it_undoes(client, demo):
    game = three_actions(demo)
    first = Event.objects.filter(game=game).order_by("seq").first()  # m hits 1
    log = client.get(f"/games/{game.pk}/log/").content.decode()
    assert f'href="/games/{game.pk}/back/{first.seq}/"' in log
    assert f'action="/games/{game.pk}/back/' not in log  # no form per entry: one tap only asks
    response = client.get(f"/games/{game.pk}/back/{first.seq}/")
    page = response.content.decode()
    assert response.status_code == 200 and fresh(game).version == game.version
    said = f"Go back to event #{first.seq}: this undoes 2 actions, and every phone goes back with it."
    assert said in page and "Undo 2 actions" in page
    assert f'<input type="hidden" name="version" value="{game.version}">' in page
    assert re.search(rf'<a class="btn[^"]*" href="/games/{game.pk}/log/">Cancel', page)
    client.post(f"/games/{game.pk}/back/{first.seq}/", {"version": game.version})
    assert brigade(game, "Archer's Brigade").m_hits == 1 and state_matches_events(game)
    assert "1 action" in client.get(f"/games/{game.pk}/back/0/").content.decode()  # the first correction left


def test_a_confirmation_drawn_before_the_game_moved_on_asks_again_with_the_new_count(client, demo):
    game = three_actions(demo)
    version = game.version
    set_state(game, brigade(game, "Archer's Brigade"), m_hits=4)
    response = client.post(f"/games/{game.pk}/back/0/", {"version": version})
    page = response.content.decode()
    assert response.status_code == 200 and "The game moved on since" in page
    assert "this undoes 4 actions" in page and brigade(game, "Archer's Brigade").m_hits == 4
    response = client.post(f"/games/{game.pk}/back/0/", {})
    assert "The form was incomplete" in response.content.decode() and brigade(game, "Archer's Brigade").m_hits == 4


def test_nothing_to_undo_and_a_bad_entry_are_said_without_a_server_error(client, demo):
    game = three_actions(demo)
    last = Event.objects.filter(game=game).order_by("-seq").first()
    page = client.get(f"/games/{game.pk}/back/{last.seq}/").content.decode()
    assert "going back would undo nothing" in page and "Undo " not in page
    for seq in (last.seq + 1, 10**12):
        for method in ("get", "post"):
            response = getattr(client, method)(f"/games/{game.pk}/back/{seq}/", {"version": game.version})
            assert response.status_code == 404 and f"There is no event #{seq}" in response.content.decode()
    assert fresh(game).version == game.version


def test_a_player_is_neither_asked_nor_let_go_back(demo):
    game = three_actions(demo)
    player = seated_device(game, "Confederate")
    assert "Go back to here" not in player.get(f"/games/{game.pk}/log/").content.decode()
    for method in ("get", "post"):
        response = getattr(player, method)(f"/games/{game.pk}/back/0/", {"version": game.version})
        assert response.status_code == 403 and escape("Not for this device") in response.content.decode()
    assert fresh(game).version == game.version
