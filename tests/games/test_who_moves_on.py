"""Only the attacking side's players and the game master may press Next step (``views/game.py`` ``next_step``):
the step bar draws the button for them alone, on a page and in the answer to a poll alike, and tells everyone
else who moves the game on; the defenders' message step says who writes and who presses; the dashboard waits
on the seats that hold the step."""

import pytest

from republic.games.models import Game
from tests.devices import seated_device
from tests.games.conftest import at_step, brigade, fresh, set_state
from tests.games.test_live import poll_from, rows_on
from tests.games.test_rally import rally_post


def next_step_button(body: str, game: Game) -> bool:
    return f'action="/games/{game.pk}/next/"' in body


@pytest.mark.parametrize("step", ["messages", "rally", "skirmish", "assaults"])
def test_the_next_step_button_is_drawn_only_for_the_attacking_side_and_the_game_master(client, demo, step):
    game = at_step(demo, step)
    attacker, defender = seated_device(game, "Confederate"), seated_device(game, "Union")
    assert next_step_button(attacker.get(f"/games/{game.pk}/").content.decode(), game)
    assert next_step_button(client.get(f"/games/{game.pk}/").content.decode(), game)
    body = defender.get(f"/games/{game.pk}/").content.decode()
    assert not next_step_button(body, game) and "The Confederate players press Next step" in body
    assert defender.post(f"/games/{game.pk}/next/", {"version": game.version}).status_code == 403


def test_a_steps_words_tell_the_defenders_who_presses_next_step(client, demo):
    game = at_step(demo, "move")
    said = "Move the units at the table, then {} <strong>Next step</strong>."
    attacker = seated_device(game, "Confederate").get(f"/games/{game.pk}/").content.decode()
    assert said.format("press") in attacker
    defender = seated_device(game, "Union").get(f"/games/{game.pk}/").content.decode()
    assert said.format("the Confederate players press") in defender


def test_a_poll_answered_piece_by_piece_draws_no_next_step_for_the_defender(client, demo):
    game = at_step(demo, "rally")
    archer, davis = brigade(game, "Archer's Brigade"), brigade(game, "Davis's Brigade")
    for unit in (archer, davis):
        set_state(game, unit, m_hits=2)
    union, confederate = seated_device(fresh(game), "Union"), seated_device(fresh(game), "Confederate")
    shown = rows_on(union.get(f"/games/{game.pk}/").content.decode())
    since = fresh(game).version
    rally_post(client, fresh(game), archer)
    body = poll_from(union, game, since, shown).content.decode()
    assert 'id="step-bar"' in body and 'id="live"' not in body, "the step bar comes as a piece of the news"
    assert not next_step_button(body, game) and "The Confederate players press Next step once this is done" in body
    assert next_step_button(poll_from(confederate, game, since, shown).content.decode(), game)


def test_the_message_step_tells_the_defenders_to_write_and_the_attackers_to_press_next_step(client, demo):
    game = at_step(demo, "messages")
    defender = seated_device(game, "Union").get(f"/games/{game.pk}/").content.decode()
    assert "Each Union player may write one message" in defender
    assert "Then the Confederate players press <strong>Next step</strong>" in defender
    assert 'id="watching"' not in defender
    attacker = seated_device(game, "Confederate").get(f"/games/{game.pk}/").content.decode()
    assert "The Union players act in this step; press Next step once they are done." in attacker
    assert "Once they have, press <strong>Next step</strong>." in attacker and "your phone follows" not in attacker
    master = client.get(f"/games/{game.pk}/").content.decode()
    assert "Once they have, press <strong>Next step</strong>." in master


@pytest.mark.parametrize(
    "step, waiting",
    [
        ("messages", "waiting on Union (Bob) to act, then Confederate (Ann) to press Next step"),
        ("rally", "waiting on Confederate (Ann)<"),
        ("skirmish", "waiting on Confederate (Ann) and Union (Bob)<"),
    ],
)
def test_the_dashboard_waits_on_the_seats_that_hold_the_step(client, demo, step, waiting):
    game = at_step(demo, step)
    seated_device(game, "Confederate", name="Ann")
    seated_device(game, "Union", name="Bob")
    assert waiting in client.get("/dashboard/").content.decode()
