"""Leaders' moves at the table: the rally step's 2" recorded against what is left of it (R:352-354), and the
maneuver step's 25" shown where the units are moved (R:616), both at the game's ground scale (1.2)."""

import pytest

from republic.games.models import Event, Game
from republic.games.steps import rally
from tests.devices import seated_device
from tests.games.conftest import (
    HTMX,
    at_step,
    brigade,
    fresh,
    leader,
    page,
    payload,
    set_state,
    state_matches_events,
    summary,
)
from tests.games.test_rally import at_rally, rally_post

PREFIX = "leader-move"


def move_post(client, game: Game, who, moved="2", htmx=True, version=None):
    data = {
        f"{PREFIX}-version": fresh(game).version if version is None else version,
        f"{PREFIX}-leader": str(who.pk),
        f"{PREFIX}-moved": moved,
    }
    return client.post(f"/games/{game.pk}/act/leader-move/game-{game.pk}/", data, **(HTMX if htmx else {}))


def move_part(client, game: Game) -> str:
    """The rally step's leader moves, folded on the page, as a tap on their summary fetches them."""
    return client.get(f"/games/{game.pk}/parts/leader-move/", **HTMX).content.decode()


def moves(game: Game) -> int:
    return Event.objects.filter(game=game, kind="LeaderMoved").count()


def test_the_rally_step_offers_the_attacking_leaders_with_their_two_inches(client, demo):
    """R:352-354: the attacking players may move leaders up to 2" in the rally step."""
    game = at_rally(demo)
    folded = page(client, game)
    assert "Move a leader (up to 2&quot;)" in folded and 'aria-label="Move a leader"' not in folded
    body = move_part(client, game)
    assert body.lstrip().startswith('<details class="leader-move mb-2" id="part-leader-move" data-part open>')
    assert "Move a leader (up to 2&quot;)" in body and 'aria-label="Move a leader"' in body
    # without scripts, the summary's link draws the page with the part open
    assert 'aria-label="Move a leader"' in client.get(f"/games/{game.pk}/?open=leader-move").content.decode()
    assert "Henry Heth (E1) · Heth&#x27;s Division · 2&quot; left" in body
    assert "A. P. Hill (P1) · Third Corps · 2&quot; left" in body
    assert "Wadsworth" not in body  # the defending side's leaders do not move in this step


def test_the_allowance_is_at_the_games_ground_scale(client, demo):
    """R:352-354 at the large scale (1.2, ratio 1.5): 3"."""
    set_state(demo, demo, ground_scale="large")
    game = at_rally(demo)
    assert "Move a leader (up to 3&quot;)" in page(client, game)


def test_a_move_is_recorded_worded_and_leaves_the_rest_of_the_allowance(client, demo):
    """R:352-354: the 2" are for the whole step, so a second move has what the first left."""
    game = at_rally(demo)
    heth = leader(game, "Henry Heth")
    response = move_post(client, game, heth, "1.5")
    assert response.status_code == 200
    event = Event.objects.get(game=game, kind="LeaderMoved")
    body = response.content.decode()
    assert 'Henry Heth moved 1.5" to support the rally' in summary(event)
    assert f"Last result · #{event.seq}" in body and "Leaders moved this step: Henry Heth 1.5&quot;" in body
    assert 'id="part-leader-move"' in body and 'aria-label="Move a leader"' not in body  # folded, its work done
    offered = move_part(client, game)
    assert "Henry Heth (E1) · Heth&#x27;s Division · 0.5&quot; left" in offered
    assert "A. P. Hill (P1) · Third Corps · 2&quot; left" in offered  # the others have their whole 2" still
    assert (event.changes, event.step, event.subject) == ([], "rally", f"leader-{heth.pk}")
    assert payload(event).result.left == 0.5
    assert move_post(client, game, heth, "0.5").status_code == 200
    assert moves(game) == 2 and payload(Event.objects.filter(game=game).latest("seq")).result.left == 0
    assert state_matches_events(game)


@pytest.mark.parametrize(
    ("moved", "problem"),
    [
        ("2.5", "2.5&quot; is too far: a leader moves at most 2&quot; in the rally step"),
        ("0", "A move of 0&quot; is no move"),
        ("-1", "Ensure this value is greater than or equal to 0"),
        ("far", "Enter a number"),
    ],
)
def test_a_move_beyond_the_allowance_or_of_nothing_is_refused_at_its_field(client, demo, moved, problem):
    """R:352-354: 'up to 2"'."""
    game = at_rally(demo)
    version = fresh(game).version
    response = move_post(client, game, leader(game, "Henry Heth"), moved)
    body = response.content.decode()
    assert response.status_code == 200 and problem in body
    assert '<details class="leader-move mb-2" id="part-leader-move" data-part open>' in body  # open, with its error
    assert fresh(game).version == version and moves(game) == 0


def test_a_second_move_beyond_what_the_first_left_is_refused(client, demo):
    """R:352-354: up to 2" during the rally step, not 2" a move."""
    game = at_rally(demo)
    hill = leader(game, "A. P. Hill")
    move_post(client, game, hill, "1.25")
    body = move_post(client, game, hill, "1").content.decode()
    assert "and 0.75&quot; of it is left after the earlier moves" in body and moves(game) == 1


def test_a_defending_leader_is_not_among_those_that_move(client, demo):
    game = at_rally(demo)
    body = move_post(client, game, leader(game, "John Buford")).content.decode()
    assert "That is not one of the attacking side&#x27;s leaders in action" in body and moves(game) == 0


def test_a_hors_de_combat_leader_does_not_move(client, demo):
    """2.5: a fallen leader is at the rear until replaced."""
    set_state(demo, leader(demo, "Henry Heth"), hors_de_combat=True)
    game = at_rally(demo)
    offered = move_part(client, game)
    assert "A. P. Hill (P1) ·" in offered and "Henry Heth (E1) ·" not in offered
    assert "not one of the attacking side" in move_post(client, game, leader(game, "Henry Heth")).content.decode()


def test_a_move_outside_the_rally_step_is_refused_with_the_reason(client, demo):
    game = at_step(demo, "move")
    body = move_post(client, game, leader(game, "Henry Heth")).content.decode()
    assert "A leader&#x27;s rally-step move is made in the attacker&#x27;s rally step" in body and moves(game) == 0


def test_the_defenders_may_not_move_the_attackers_leaders(demo):
    game = at_rally(demo)
    response = move_post(seated_device(game, "Union"), game, leader(game, "Henry Heth"))
    assert response.status_code == 403 and moves(game) == 0
    assert move_post(seated_device(game, "Confederate"), game, leader(game, "Henry Heth")).status_code == 200
    assert Event.objects.get(game=game, kind="LeaderMoved").side.name == "Confederate"


def test_a_plain_post_records_the_move_and_goes_back_to_the_game(client, demo):
    game = at_rally(demo)
    response = move_post(client, game, leader(game, "Henry Heth"), htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/" and moves(game) == 1


def test_undo_gives_the_leader_his_inches_back(client, demo):
    game = at_rally(demo)
    heth = leader(game, "Henry Heth")
    move_post(client, game, heth, "2")
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    assert Event.objects.get(game=game, kind="EventUndone").undoes.kind == "LeaderMoved"
    assert rally.state(fresh(game)).moves == []
    assert "Henry Heth (E1) · Heth&#x27;s Division · 2&quot; left" in move_part(client, game)
    assert move_post(client, game, heth, "2").status_code == 200 and moves(game) == 2


def test_another_players_rally_meanwhile_does_not_make_the_move_stale(client, demo):
    """A move is about its leader alone: forty phones at one table must not send each other's forms back."""
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=2)
    game = at_rally(demo)
    drawn_at = fresh(game).version
    rally_post(client, fresh(game), davis, die="9", htmx=True)
    move_post(client, game, leader(game, "Henry Heth"), "1", version=drawn_at)
    assert moves(game) == 1
    # but a form drawn before the same leader's own move is stale
    body = move_post(client, game, leader(game, "Henry Heth"), "1", version=drawn_at).content.decode()
    assert "The game moved on since this page was drawn" in body and moves(game) == 1


@pytest.mark.parametrize(("scale", "shown"), [("medium", '25"'), ("large", '37.5"'), ("small", '18.75"')])
def test_the_maneuver_step_shows_how_far_a_leader_moves(client, demo, scale, shown):
    """R:616: 'Leader bases move at the speed of charging cavalry (25")', at the game's scale (1.2)."""
    set_state(demo, demo, ground_scale=scale)
    game = at_step(demo, "move")
    html = shown.replace('"', "&quot;")
    assert f"<strong>Leaders</strong> move up to {html} each, the speed of charging cavalry (3.1)" in page(client, game)
    davis = brigade(game, "Davis's Brigade")
    movement = client.get(f"/games/{game.pk}/rows/unit-{davis.pk}/?fold=movement", HTTP_HX_REQUEST="true")
    assert f"Its leader moves up to {html}" in movement.content.decode()
    assert not Event.objects.filter(game=game, kind="LeaderMoved").exists()
