"""A game saved as a file and loaded into a fresh game stands exactly where the first stood: every field of every
side, command, leader and unit, the game's own, the setup and every event (its payload, its changes, its words in
the log), with every reference carried to the fresh game's rows; the state is its setup plus its events; and the
fresh game plays on, its actions and undo working as in the first."""

import pytest

from republic.games.archive.export import dumps, export_game
from republic.games.archive.load import import_game
from republic.games.events.game import FirstAttackerAgreed
from republic.games.ledger import snapshot
from republic.games.models import Event, Game
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.archive_helpers import round_trip, spread_ids
from tests.games.conftest import HTMX, brigade, division, fresh, leader, payload, set_state, state_matches_events
from tests.games.playthrough_game_turn_1 import confederate_turn_1, union_turn_1
from tests.games.playthrough_game_turn_2 import confederate_turn_2, union_turn_2
from tests.games.playthrough_table import Table, assert_position


@pytest.fixture
def spread(db) -> None:
    spread_ids()


def demo_game(first_attacker: bool = True) -> Game:
    text = DEMO_SCENARIO.read_text(encoding="utf-8")
    return create_game(parse_scenario(text if first_attacker else text.replace("first_attacker: Confederate\n", "")))


def test_the_demo_played_through_two_game_turns_comes_back_whole_and_plays_on(client, spread):
    t = Table(client, demo_game())
    confederate_turn_1(t)
    union_turn_1(t)
    confederate_turn_2(t)
    union_turn_2(t)
    game = t.game
    # the kinds the playthrough leaves out: orders, a unit moved to another division, a correction, the end
    buford, cutler = division(game, "Buford's Cavalry Division"), brigade(game, "Cutler's Brigade")
    t.post(f"divisions/{buford.pk}/orders/", {"version": t.version, "orders": "hold"})
    t.post(f"reassign/{cutler.pk}/", {"version": t.version, "division": buford.pk})
    t.post(f"units/{cutler.pk}/m_plus/", {"version": t.version})
    union = game.sides.get(name="Union").pk
    t.post("end/", {"version": t.version, "winner": union, "note": "Union held the ridge"})
    kinds = set(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert {"OrdersChanged", "UnitReassigned", "CorrectionMade", "GameEnded", "DivisionPanicTested"} <= kinds

    copy = round_trip(game)

    assert fresh(copy).over and fresh(copy).winner.name == "Union"
    assert brigade(copy, "Cutler's Brigade").division == division(copy, "Buford's Cavalry Division")
    # it plays on: the end taken back, the next step, and that taken back too
    t2 = Table(client, copy)
    assert t2.undo(htmx=True).undoes.kind == "GameEnded"
    assert_position(fresh(copy), 3, 1, "Confederate", "messages")
    before = snapshot(fresh(copy))
    t2.next_step("rally")
    assert t2.undo().undoes.kind == "StepAdvanced"
    assert snapshot(fresh(copy)) == before
    assert state_matches_events(copy)
    assert client.get(f"/games/{copy.pk}/log/").status_code == 200
    # and the first game, undone alike, stands where its copy stands
    t.undo()
    assert (
        snapshot(fresh(game))["unit:" + str(cutler.pk)]["m_hits"]
        == before[f"unit:{brigade(copy, cutler.name).pk}"]["m_hits"]
    )


def test_a_game_that_rolled_for_its_first_attacker_and_moved_a_leader_comes_back_whole(client, spread):
    game = demo_game(first_attacker=False)
    p = "first-attacker"
    union = game.sides.get(name="Union").pk
    agreeing = {"version": fresh(game).version, "side": union, "how": "agreed"}
    seated_device(game, "Confederate").post(f"/games/{game.pk}/act/first-attacker/game-{game.pk}/", agreeing)
    client.post(
        f"/games/{game.pk}/act/first-attacker-roll/game-{game.pk}/",
        {f"{p}-version": fresh(game).version, f"{p}-die": 3, f"{p}-die2": 8, "roll": "typed"},
        **HTMX,
    )
    client.post(
        f"/games/{game.pk}/act/first-attacker/game-{game.pk}/",
        {"version": fresh(game).version, "side": union, "how": "die roll"},
    )
    t = Table(client, game)
    set_state(game, brigade(game, "Iron Brigade (Meredith)"), m_hits=1)  # a unit to rally: the step waits
    t.next_step("rally")
    reynolds = leader(game, "John F. Reynolds")
    t.post(
        f"act/leader-move/game-{game.pk}/",
        {"leader-move-version": t.version, "leader-move-leader": reynolds.pk, "leader-move-moved": "2"},
    )
    kinds = set(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert {"FirstAttackerAgreed", "FirstAttackerRolled", "FirstAttackerChosen", "LeaderMoved"} <= kinds

    copy = round_trip(game)
    agreed = payload(Event.objects.get(game=copy, kind="FirstAttackerAgreed"))
    assert isinstance(agreed, FirstAttackerAgreed)
    assert (agreed.side, agreed.by) == (copy.sides.get(name="Union").pk, copy.sides.get(name="Confederate").pk)

    assert fresh(copy).first_attacker.name == "Union"
    assert Table(client, copy).undo().undoes.kind == "LeaderMoved"
    assert state_matches_events(copy)


def test_a_saved_game_saved_again_from_its_copy_is_the_same_file_but_for_ids(client, spread):
    copy = import_game(dumps(export_game(demo_game().pk)))
    again = round_trip(copy)
    assert Game.objects.count() == 3
    # loaded again, a loaded game's name says when it was loaded this time only
    assert again.name.startswith("Gettysburg, the morning of July 1, 1863 (demo) (loaded ")
    assert again.name.count("(loaded") == 1
