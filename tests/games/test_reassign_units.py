"""A unit put under another division of its side from its card (R:405-415): recorded through the ledger, so undo
and the log know it; refused with the reason for a division of the other side or of another game, a unit out of
play or of another game; open to the unit's own side and the game master, at any step."""

import pytest

from republic.games.models import Command, Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, division, fresh, set_state, state_matches_events, summary


def reassign(client, game: Game, unit: Unit, to: Command | int | str, htmx=True, version=None):
    """The move sent from the unit's division page, as its card's form sends it."""
    data = {"version": fresh(game).version if version is None else version, "division": getattr(to, "pk", to)}
    headers = {**HTMX, "HTTP_HX_TARGET": f"division-{unit.division_id}"} if htmx else {}
    return client.post(f"/games/{game.pk}/reassign/{unit.pk}/", data, **headers)


def moved(game: Game) -> int:
    return Event.objects.filter(game=game, kind="UnitReassigned").count()


def test_a_units_card_offers_the_other_divisions_of_its_side(client, demo):
    wadsworth = division(demo, "Wadsworth's Division")
    body = client.get(f"/games/{demo.pk}/divisions/{wadsworth.pk}/").content.decode()
    assert "Move to another division</summary>" in body and "Move Cutler&#x27;s Brigade</button>" in body
    assert "Buford&#x27;s Cavalry Division</option>" in body
    assert "Wadsworth&#x27;s Division · I Corps</option>" not in body  # not the one it is in
    assert "Heth&#x27;s Division" not in body  # nor one of the other side


def test_a_unit_moves_to_another_division_and_the_log_names_both(client, demo):
    """R:411-413: a corps commander 'may reassign corps assets as they see fit'."""
    cutler, wadsworth, buford = (
        brigade(demo, "Cutler's Brigade"),
        division(demo, "Wadsworth's Division"),
        division(demo, "Buford's Cavalry Division"),
    )
    response = reassign(client, demo, cutler, buford)
    answer = response.content.decode()
    # the answer is the division it left, without it, saying where it went
    assert answer.lstrip().startswith(f'<div id="division-{wadsworth.pk}"') and "<html" not in answer
    assert "Cutler&#x27;s Brigade leaves Wadsworth&#x27;s Division for Buford&#x27;s Cavalry Division" in answer
    assert 'aria-label="Cutler&#x27;s Brigade"' not in answer
    assert fresh(cutler).division_id == buford.pk
    event = Event.objects.get(game=demo, kind="UnitReassigned")
    assert summary(event) == "Cutler's Brigade leaves Wadsworth's Division for Buford's Cavalry Division"
    assert event.changes == [
        {"model": "unit", "id": cutler.pk, "field": "division_id", "before": wadsworth.pk, "after": buford.pk}
    ]
    assert event.step == fresh(demo).step  # done at any step, the step kept
    body = client.get(f"/games/{demo.pk}/divisions/{buford.pk}/").content.decode()
    assert 'aria-label="Cutler&#x27;s Brigade"' in body
    assert state_matches_events(demo)


def test_undo_puts_the_unit_back_in_its_division(client, demo):
    cutler, wadsworth = brigade(demo, "Cutler's Brigade"), division(demo, "Wadsworth's Division")
    reassign(client, demo, cutler, division(demo, "Buford's Cavalry Division"))
    client.post(f"/games/{demo.pk}/undo/", {"version": fresh(demo).version}, **HTMX)
    assert fresh(cutler).division_id == wadsworth.pk
    assert Event.objects.get(game=demo, kind="EventUndone").undoes.kind == "UnitReassigned"
    assert state_matches_events(demo)


def test_a_unit_moves_at_any_step_and_the_event_keeps_which(client, demo):
    """The rules set no time for it (R:405-415)."""
    game = at_step(demo, "move")
    reassign(client, game, brigade(game, "Cutler's Brigade"), division(game, "Buford's Cavalry Division"))
    assert Event.objects.get(game=game, kind="UnitReassigned").step == "move"


def test_a_plain_post_moves_the_unit_and_goes_back_to_the_game(client, demo):
    buford = division(demo, "Buford's Cavalry Division")
    response = reassign(client, demo, brigade(demo, "Cutler's Brigade"), buford, htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{demo.pk}/"
    assert fresh(brigade(demo, "Cutler's Brigade")).division_id == buford.pk


@pytest.fixture
def other(db) -> Game:
    return create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("unit", "to", "problem"),
    [
        (
            "Cutler's Brigade",
            "Heth's Division",
            "Heth&#x27;s Division is a division of the other side: Cutler&#x27;s Brigade moves only to one of its "
            "own side&#x27;s",
        ),
        ("Cutler's Brigade", "Wadsworth's Division", "Cutler&#x27;s Brigade is in Wadsworth&#x27;s Division already"),
        ("Cutler's Brigade", "I Corps", "There is no such division in this game"),
        ("Cutler's Brigade", "another game's", "There is no such division in this game"),
        ("Cutler's Brigade", "", "Choose the division it joins."),
        ("Cutler's Brigade", "Buford", "Choose the division it joins."),
        ("Devin's Brigade", "Wadsworth's Division", "Devin&#x27;s Brigade is out of play (destroyed): it joins no"),
    ],
)
def test_a_move_that_cannot_be_is_refused_with_the_reason_and_changes_nothing(client, demo, other, unit, to, problem):
    set_state(demo, brigade(demo, "Devin's Brigade"), destroyed=True)
    found = brigade(demo, unit)
    typed = {
        "another game's": Command.objects.get(game=other, name="Buford's Cavalry Division"),
        "": "",
        "Buford": "Buford",
    }
    target = typed[to] if to in typed else division(demo, to)
    before, version = found.division_id, fresh(demo).version
    response = reassign(client, demo, found, target)
    assert response.status_code == 200 and problem in response.content.decode()
    assert fresh(found).division_id == before and fresh(demo).version == version and moved(demo) == 0


def test_a_unit_out_of_play_has_no_form_to_move_it(client, demo):
    set_state(demo, brigade(demo, "Devin's Brigade"), destroyed=True)
    buford = division(demo, "Buford's Cavalry Division")
    body = client.get(f"/games/{demo.pk}/divisions/{buford.pk}/").content.decode()
    assert "Move Devin&#x27;s Brigade" not in body and "Move Gamble&#x27;s Brigade" in body


def test_a_unit_of_another_game_is_not_found(client, demo, other):
    theirs = brigade(other, "Cutler's Brigade")
    response = reassign(client, demo, theirs, division(demo, "Buford's Cavalry Division"), htmx=False)
    assert response.status_code == 404 and fresh(theirs).division.name == "Wadsworth's Division"
    assert moved(demo) == moved(other) == 0


def test_the_units_own_side_moves_it_and_the_other_side_may_not(demo):
    cutler, buford = brigade(demo, "Cutler's Brigade"), division(demo, "Buford's Cavalry Division")
    refused = reassign(seated_device(demo, "Confederate"), demo, cutler, buford)
    assert refused.status_code == 403 and "other side" in refused.content.decode() and moved(demo) == 0
    assert reassign(seated_device(demo, "Union"), demo, cutler, buford).status_code == 200
    event = Event.objects.get(game=demo, kind="UnitReassigned")
    assert event.side.name == "Union" and fresh(cutler).division_id == buford.pk
