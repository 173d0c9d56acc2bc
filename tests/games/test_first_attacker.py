"""Who attacks first (1.6): each side rolls one die, typed or rolled by the app, and the high roller's players
choose the first attacker; a tie rolls again and records nothing; or all agree on the obvious attacker without a
roll (R:341-344). Every bad input is named and changes nothing."""

import random

import pytest
from django.utils.html import escape

from republic.games.events.game import FirstAttackerChosen, FirstAttackerRolled
from republic.games.forms import ROLL_FOR_ME
from republic.games.models import Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps import first_attacker
from republic.games.text.describe import describe, result_card
from republic.rules.dice import RollSource
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import HTMX, fresh, payload, state_matches_events
from tests.games.drawn_dice import dice_line

P = first_attacker.PREFIX


@pytest.fixture
def setting_up(db) -> Game:
    """The demo battle without a first attacker: it waits in set-up. Confederate is its first side, Union second."""
    game = create_game(parse_scenario(DEMO_SCENARIO.read_text().replace("first_attacker: Confederate\n", "")))
    assert game.status == Game.Status.SETTING_UP and [s.name for s in game.sides.all()] == ["Confederate", "Union"]
    return game


def dice(game: Game, confederate: object = "", union: object = "", roll: str = "typed") -> dict[str, object]:
    return {f"{P}-version": fresh(game).version, f"{P}-die": confederate, f"{P}-die2": union, "roll": roll}


def choice(game: Game, side: str, how: str = FirstAttackerChosen.BY_ROLL) -> dict[str, object]:
    return {"version": fresh(game).version, "side": game.sides.get(name=side).pk, "how": how}


def roll_path(game: Game) -> str:
    return f"/games/{game.pk}/act/first-attacker-roll/game-{game.pk}/"


def choose_path(game: Game) -> str:
    return f"/games/{game.pk}/act/first-attacker/game-{game.pk}/"


def test_each_side_rolls_and_the_high_roller_chooses_the_first_attacker_R341_344(client, setting_up):
    page = client.get(f"/games/{setting_up.pk}/").content.decode()
    assert "Who attacks first?" in page and "Confederate&#x27;s die (1-10)" in page and "Union&#x27;s die" in page
    assert "Enter the dice" in page and "Roll for me" in page
    assert "Agree: Union attack first" in page
    client.post(roll_path(setting_up), dice(setting_up, 3, 8), **HTMX)
    rolled = Event.objects.get(game=setting_up)
    assert rolled.kind == "FirstAttackerRolled" and fresh(setting_up).status == Game.Status.SETTING_UP
    said = "The roll for the first attacker: Confederate rolled 3, Union 8; Union rolled high and choose"
    assert describe(rolled).startswith(said)
    page = client.get(f"/games/{setting_up.pk}/").content.decode()
    assert said in page and "The Union players choose" in page and "Agree:" not in page
    # the high roller may make the other side the first attacker
    union_phone = seated_device(setting_up, "Union")
    union_phone.post(choose_path(setting_up), choice(setting_up, "Confederate"), **HTMX)
    game = fresh(setting_up)
    assert game.status == Game.Status.IN_PROGRESS and game.attacker.name == "Confederate"
    chosen = Event.objects.get(game=game, kind="FirstAttackerChosen")
    found = payload(chosen)
    assert isinstance(found, FirstAttackerChosen) and found.result is not None
    assert (found.result.high_roller, found.result.first_attacker, found.inputs.choice) == (
        "Union",
        "Confederate",
        "Confederate",
    )
    assert describe(chosen) == "Confederate attack first, the choice of Union, who rolled high (8 to 3)"
    card = result_card(chosen)
    assert card["dice"] == "Confederate 3, typed; Union 8, typed" and card["step"] == "Setting up"
    log = client.get(f"/games/{game.pk}/log/").content.decode()
    assert "Confederate attack first, the choice of Union, who rolled high (8 to 3)" in log
    assert dice_line(("Confederate", 3, "typed"), ("Union", 8, "typed")) in log
    assert state_matches_events(game)


def test_the_app_rolls_both_dice_and_the_log_says_so(client, setting_up, monkeypatch):
    faces = iter([9, 2])
    monkeypatch.setattr(random.SystemRandom, "randint", lambda self, a, b: next(faces))
    client.post(roll_path(setting_up), dice(setting_up, roll=ROLL_FOR_ME), **HTMX)
    rolled = payload(Event.objects.get(game=setting_up))
    assert isinstance(rolled, FirstAttackerRolled)
    assert (rolled.inputs.first_roll.faces, rolled.inputs.second_roll.faces) == ((9,), (2,))
    assert rolled.inputs.first_roll.source is RollSource.APP and rolled.result.high_roller == "Confederate"
    client.post(choose_path(setting_up), choice(setting_up, "Confederate"))
    chosen = Event.objects.get(game=setting_up, kind="FirstAttackerChosen")
    assert result_card(chosen)["dice"] == "Confederate 9, rolled by the app; Union 2, rolled by the app"
    assert describe(chosen) == "Confederate attack first, their own choice after rolling high (9 to 2)"


def test_a_tie_says_roll_again_and_records_nothing(client, setting_up):
    """The engine's rule for a tie: both sides roll again (R:341-344 give the high roller the choice)."""
    response = client.post(roll_path(setting_up), dice(setting_up, 6, 6), **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Confederate and Union both rolled 6: a tie, roll again. Nothing was recorded." in body
    assert "Confederate&#x27;s die (1-10)" in body  # the dice form, to roll again
    assert not Event.objects.filter(game=setting_up).exists()
    # a choice sent after the tie finds no roll to choose by
    response = client.post(choose_path(setting_up), choice(setting_up, "Union"), **HTMX)
    assert "No roll stands (a tie rolls again)" in response.content.decode()
    assert not Event.objects.filter(game=setting_up).exists() and fresh(setting_up).status == "setting_up"


@pytest.mark.parametrize(
    ("confederate", "union", "problem"),
    [
        (0, 5, "A d10 shows 1 to 10."),
        (5, 11, "A d10 shows 1 to 10."),
        ("six", 5, "A d10 shows a whole number, 1 to 10."),
        ("", 5, "Tap the die you rolled (1-10), or press Roll for me."),
    ],
)
def test_a_die_that_no_d10_shows_is_named_and_changes_nothing(client, setting_up, confederate, union, problem):
    response = client.post(roll_path(setting_up), dice(setting_up, confederate, union), **HTMX)
    assert response.status_code == 200 and problem in response.content.decode()
    assert not Event.objects.filter(game=setting_up).exists()


def test_the_low_roller_may_not_choose_and_the_dice_are_rolled_once(client, setting_up):
    """The high roller decides (R:343-344): the other side's phone is refused, as is a second roll."""
    client.post(roll_path(setting_up), dice(setting_up, 3, 8))
    confederate_phone = seated_device(setting_up, "Confederate")
    response = confederate_phone.post(choose_path(setting_up), choice(setting_up, "Confederate"), **HTMX)
    assert "Union rolled high: the choice of who attacks first is theirs." in response.content.decode()
    response = client.post(roll_path(setting_up), dice(setting_up, 9, 1), **HTMX)
    assert "The dice are rolled already: Union rolled high" in response.content.decode()
    response = client.post(choose_path(setting_up), choice(setting_up, "Union", FirstAttackerChosen.AGREED), **HTMX)
    assert "Undo the roll to agree on the first attacker instead" in response.content.decode()
    assert Event.objects.filter(game=setting_up).count() == 1 and fresh(setting_up).status == "setting_up"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"side": 999999, "how": "die roll"}, "Choose one of this game&#x27;s sides: nothing was changed."),
        ({"side": "Union", "how": "die roll"}, "Choose one of this game&#x27;s sides: nothing was changed."),
        ({"how": "agreed"}, "Choose one of this game&#x27;s sides: nothing was changed."),
        ({"side": "SIDE", "how": "coin toss"}, "Say how the first attacker is chosen"),
    ],
)
def test_a_choice_that_is_not_a_side_is_named_and_changes_nothing(client, setting_up, data, problem):
    client.post(roll_path(setting_up), dice(setting_up, 3, 8))
    sent = {"version": fresh(setting_up).version, **data}
    if sent.get("side") == "SIDE":
        sent["side"] = setting_up.sides.first().pk
    response = client.post(choose_path(setting_up), sent, **HTMX)
    assert response.status_code == 200 and problem in response.content.decode()
    assert fresh(setting_up).status == Game.Status.SETTING_UP and Event.objects.filter(game=setting_up).count() == 1


def test_all_agree_on_the_obvious_attacker_without_a_roll_R342_343(client, setting_up):
    client.post(choose_path(setting_up), choice(setting_up, "Union", FirstAttackerChosen.AGREED))
    game = fresh(setting_up)
    assert game.status == Game.Status.IN_PROGRESS and game.attacker.name == "Union"
    chosen = Event.objects.get(game=game)
    assert describe(chosen) == "Union attack first, as agreed by all" and result_card(chosen)["dice"] == ""
    response = client.post(choose_path(game), choice(game, "Confederate", FirstAttackerChosen.AGREED), **HTMX)
    assert escape(first_attacker.CHOSEN) in response.content.decode() and fresh(game).attacker.name == "Union"


def test_one_side_agreeing_waits_on_the_other_and_both_agreeing_choose_the_attacker_R342_343(client, setting_up):
    """'All agree' needs a player of each side: one side's phone cannot agree for the other."""
    union_phone, confederate_phone = seated_device(setting_up, "Union"), seated_device(setting_up, "Confederate")
    union_phone.post(choose_path(setting_up), choice(setting_up, "Union", FirstAttackerChosen.AGREED), **HTMX)
    game = fresh(setting_up)
    assert game.status == Game.Status.SETTING_UP and game.first_attacker is None
    agreed = Event.objects.get(game=game)
    assert describe(agreed) == "Union agree that Union attack first, waiting on Confederate to agree"
    page = confederate_phone.get(f"/games/{game.pk}/").content.decode()
    assert "Union agree that Union attack first, waiting on Confederate to agree." in page
    # the same side agreeing again is told it waits, and nothing is recorded
    response = union_phone.post(choose_path(game), choice(game, "Union", FirstAttackerChosen.AGREED), **HTMX)
    said = "Union have agreed already that Union attack first: waiting on Confederate to agree. Nothing was changed."
    assert said in response.content.decode() and Event.objects.filter(game=game).count() == 1
    # the other side agreeing to another attacker is its own agreement: still no first attacker
    confederate_phone.post(choose_path(game), choice(game, "Confederate", FirstAttackerChosen.AGREED), **HTMX)
    assert fresh(game).status == Game.Status.SETTING_UP and Event.objects.filter(game=game).count() == 2
    # once the other side agrees to the same attacker, play starts
    confederate_phone.post(choose_path(game), choice(game, "Union", FirstAttackerChosen.AGREED), **HTMX)
    game = fresh(game)
    assert game.status == Game.Status.IN_PROGRESS and game.attacker.name == "Union"
    chosen = Event.objects.filter(game=game).latest("seq")
    assert describe(chosen) == "Union attack first, as agreed by all"
    log = union_phone.get(f"/games/{game.pk}/log/").content.decode()
    assert "Union agree that Union attack first, waiting on Confederate to agree" in log
    assert state_matches_events(game)
    # undoing the choice leaves each side's earlier agreement standing
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version})
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert fresh(game).status == Game.Status.SETTING_UP
    assert "Union agree that Union attack first" in page and "Confederate agree that Confederate attack first" in page


def test_undoing_the_choice_leaves_the_roll_and_undoing_the_roll_rolls_again(client, setting_up):
    client.post(roll_path(setting_up), dice(setting_up, 8, 3))
    client.post(choose_path(setting_up), choice(setting_up, "Confederate"))
    client.post(f"/games/{setting_up.pk}/undo/", {"version": fresh(setting_up).version})
    page = client.get(f"/games/{setting_up.pk}/").content.decode()
    assert fresh(setting_up).status == Game.Status.SETTING_UP and "The Confederate players choose" in page
    client.post(f"/games/{setting_up.pk}/undo/", {"version": fresh(setting_up).version})
    page = client.get(f"/games/{setting_up.pk}/").content.decode()
    assert "Confederate&#x27;s die (1-10)" in page and "players choose" not in page
    assert state_matches_events(setting_up)


def test_a_choice_recorded_before_the_dice_were_kept_still_reads(setting_up):
    """An event stored with only its side and how: the fields added since have defaults."""
    event = Event(game=setting_up, seq=1, kind="FirstAttackerChosen", step="messages")
    event.payload = {"side": setting_up.sides.first().pk, "side_name": "Confederate", "how": "die roll"}
    assert describe(event) == "Confederate attack first, the high roller's choice"
    event.payload = {**event.payload, "how": "agreed"}
    assert describe(event) == "Confederate attack first, as agreed by all"
