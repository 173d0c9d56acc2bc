"""The panic phase at the table, adjoining panic (6.2): naming the divisions adjoining one that panicked, and their
tests, round after round."""

import re

import pytest

from republic.games.models import Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.division_panic import state as panic_state
from republic.games.steps.walk import advance, pending
from republic.rules.division_panic import PanicTrigger
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import (
    HTMX,
    brigade,
    division,
    fresh,
    payload,
    row_of,
    set_state,
    state_matches_events,
    summary,
)
from tests.games.test_internal_panic import at_step, declare_post, panic_post

PENDER = """          - level: division
            name: Pender's Division
            orders: attack
            leader: {name: William D. Pender, value: P1}
            brigades:
              - {name: Lane's Brigade, grade: veteran, bases: 6, formation: two_line}
"""
DOUBLEDAY = """          - level: division
            name: Doubleday's Division
            orders: defend
            leader: {name: Abner Doubleday, value: C1}
            brigades:
              - {name: Biddle's Brigade, grade: veteran, bases: 6, formation: two_line}
"""


@pytest.fixture
def larger(db) -> Game:
    """The demo battle with a second division on each side: Pender's beside Heth's, Doubleday's in I Corps."""
    text = DEMO_SCENARIO.read_text(encoding="utf-8")
    text = text.replace("  - name: Union\n", PENDER + "  - name: Union\n", 1)
    text = text.replace(
        "      - level: division\n        name: Buford's",
        DOUBLEDAY + "      - level: division\n        name: Buford's",
        1,
    )
    return create_game(parse_scenario(text))


def panicked_heth(client, demo, **p4) -> Game:
    """Heth's Division panics on its internal test; the game moves on to the adjoining step."""
    game = at_step(demo, "internal_panic", Heth=True, **p4)
    panic_post(client, game, division(game, "Heth's Division"), die="1")
    advance(fresh(game), None, "test")
    game = fresh(game)
    assert game.step == "adjoining_panic"
    return game


def panicked_wadsworth(client, demo, **p4) -> Game:
    """Wadsworth's Division (crack and veteran: average grade veteran, pass 5) panics on a 1 + 2 = 3 on its
    internal test; the game moves on to the adjoining step."""
    game = at_step(demo, "internal_panic", Wadsworth=True, **p4)
    panic_post(client, game, division(game, "Wadsworth's Division"), die="1")
    advance(fresh(game), None, "test")
    game = fresh(game)
    assert game.step == "adjoining_panic"
    return game


def offered(page: str, panicked, other) -> bool:
    return bool(re.search(rf'name="adjoining-command-{panicked.pk}-adjoining" value="{other.pk}"', page))


def test_the_table_names_the_divisions_of_its_side_adjoining_one_that_panicked(client, demo):
    game = panicked_wadsworth(client, demo)
    wads, buford, heth = (
        division(game, n) for n in ("Wadsworth's Division", "Buford's Cavalry Division", "Heth's Division")
    )
    assert pending(game) == ["say which divisions adjoin Wadsworth's Division, which panicked"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Wadsworth&#x27;s Division panicked: which divisions adjoin it?" in page
    assert offered(page, wads, buford) and not offered(page, wads, heth)
    response = declare_post(client, game, wads, [buford])
    assert "Adjoining Wadsworth&#x27;s Division: Buford&#x27;s Cavalry Division" in response.content.decode()
    game = fresh(game)
    assert pending(game) == ["roll the adjoining panic test of Buford's Cavalry Division (round 2)"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "adjoining panic test · average grade" in row_of(page, buford)
    assert state_matches_events(game)


def test_panic_spreads_only_among_a_sides_own_divisions(client, demo):
    """R:1870-1874, read as contagion among a side's own divisions: Heth's, the only Confederate division,
    panics; no Union division is offered as adjoining it, naming one is refused at the field and changes
    nothing, and saving none ends the phase."""
    game = panicked_heth(client, demo)
    heth, wads = division(game, "Heth's Division"), division(game, "Wadsworth's Division")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert not offered(page, heth, wads) and not offered(page, heth, division(game, "Buford's Cavalry Division"))
    assert "No other division of its side is left to adjoin it" in page
    version = game.version
    response = declare_post(client, game, heth, [wads])
    assert "That division of its side is not one to choose here" in response.content.decode()
    assert fresh(game).version == version
    declare_post(client, game, heth, [])
    assert pending(fresh(game)) == [] and state_matches_events(game)


def test_no_adjoining_division_ends_the_phase(client, demo):
    game = panicked_heth(client, demo)
    response = declare_post(client, game, division(game, "Heth's Division"), [], htmx=False)
    assert response.status_code == 302
    event = Event.objects.get(game=game, kind="AdjoiningDeclared")
    assert summary(event) == "No division adjoins Heth's Division"
    assert pending(fresh(game)) == []
    assert "the panic phase is over" in client.get(f"/games/{game.pk}/").content.decode()


def test_the_end_of_the_phase_puts_the_divisions_that_panicked_back_on_defend_and_undoes(client, demo):
    """R:1849-1852: once all panic test rounds are resolved, "panicked division orders are reset to Defend"; the
    divisions that held keep theirs."""
    set_state(demo, division(demo, "Heth's Division"), orders="maneuver")
    set_state(demo, division(demo, "Buford's Cavalry Division"), orders="hold")
    game = panicked_heth(client, demo)
    heth = division(game, "Heth's Division")
    assert heth.orders == "maneuver" and heth.panicked
    declare_post(client, game, heth, [])
    event = advance(fresh(game), None, "test")
    assert "divisions that panicked back on Defend orders: Heth's Division" in summary(event)
    assert payload(event).orders_reset == ("Heth's Division",)
    heth.refresh_from_db()
    assert heth.orders == "defend" and not heth.panicked
    assert division(game, "Buford's Cavalry Division").orders == "hold"
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    heth.refresh_from_db()
    assert (heth.orders, heth.panicked, fresh(game).step) == ("maneuver", True, "adjoining_panic")
    assert state_matches_events(game)


def test_panic_spreads_round_by_round_and_each_condition_is_tested_once(client, larger):
    game = panicked_wadsworth(client, larger)
    wads, doubleday = division(game, "Wadsworth's Division"), division(game, "Doubleday's Division")
    buford = division(game, "Buford's Cavalry Division")
    declare_post(client, game, wads, [doubleday])
    # round 2: Doubleday (veteran, pass 5) fails on a 1 + 2 = 3
    response = panic_post(client, fresh(game), doubleday, die="1")
    assert "Doubleday&#x27;s Division panics (1 + 2 unshaken = 3 against 5)" in response.content.decode()
    doubleday.refresh_from_db()
    assert doubleday.panicked and doubleday.orders == "defend"
    game = fresh(game)
    assert pending(game) == ["say which divisions adjoin Doubleday's Division, which panicked"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    # Wadsworth is offered ticked already (adjoining works both ways); Buford is offered unticked
    assert re.search(rf'name="adjoining-command-{doubleday.pk}-adjoining" value="{wads.pk}"[^>]*checked>', page)
    assert re.search(rf'name="adjoining-command-{doubleday.pk}-adjoining" value="{buford.pk}">', page)
    declare_post(client, game, doubleday, [wads, buford])
    game = fresh(game)
    # Wadsworth panicked already: it tests no more; Buford tests in round 3
    assert pending(game) == ["roll the adjoining panic test of Buford's Cavalry Division (round 3)"]
    panic_post(client, game, buford, die="10")
    game = fresh(game)
    assert pending(game) == []
    state = panic_state(game)
    assert [len(r.tests) for r in state.rounds] == [1, 1, 1]
    assert [p.round for _, p in state.tests] == [1, 2, 3]
    response = client.post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX)
    assert response.status_code == 200
    assert fresh(game).step != "adjoining_panic"
    assert state_matches_events(game)


def test_a_division_that_held_its_internal_test_tests_again_for_adjoining_panic(client, demo):
    game = at_step(demo, "internal_panic", Wadsworth=True, Buford=True)
    wads, buford = division(game, "Wadsworth's Division"), division(game, "Buford's Cavalry Division")
    panic_post(client, game, wads, die="1")  # panics
    panic_post(client, fresh(game), buford, die="10")  # holds
    advance(fresh(game), None, "test")
    declare_post(client, fresh(game), wads, [buford])
    assert pending(fresh(game)) == ["roll the adjoining panic test of Buford's Cavalry Division (round 2)"]
    response = panic_post(client, fresh(game), buford, die="3")
    event = Event.objects.filter(game=game, kind="DivisionPanicTested").last()
    assert payload(event).triggers == (PanicTrigger.ADJOINING,) and payload(event).rolls()[0].label == "adjoining panic"
    assert "Buford&#x27;s Cavalry Division holds (3 + 2 unshaken = 5 against 5)" in response.content.decode()
    assert pending(fresh(game)) == []


def test_bad_adjoining_input_is_refused(client, demo):
    other_game_division = 999999
    game = panicked_heth(client, demo)
    heth = division(game, "Heth's Division")
    prefix = f"adjoining-command-{heth.pk}"
    response = client.post(
        f"/games/{game.pk}/act/adjoining/command-{heth.pk}/",
        {f"{prefix}-version": game.version, f"{prefix}-adjoining": [str(other_game_division)]},
        **HTMX,
    )
    assert "That division of its side is not one to choose here" in response.content.decode()
    response = client.post(
        f"/games/{game.pk}/act/adjoining/command-{heth.pk}/",
        {f"{prefix}-version": game.version, f"{prefix}-adjoining": [str(heth.pk)]},
    )
    assert response.status_code == 200
    assert "That division of its side is not one to choose here" in response.content.decode()
    old = game.version
    declare_post(client, game, heth, [])
    response = declare_post(client, fresh(game), heth, [], version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = client.post(f"/games/{game.pk}/act/adjoining/command-{heth.pk}/", {}, **HTMX)
    assert "The form was incomplete" in response.content.decode()
    wads = division(game, "Wadsworth's Division")
    response = declare_post(client, fresh(game), wads, [])
    assert "has no adjoining divisions to name now" in response.content.decode()
    assert Event.objects.filter(game=game, kind="AdjoiningDeclared").count() == 1


def test_undo_of_a_declaration_asks_for_it_again(client, demo):
    game = panicked_heth(client, demo)
    heth = division(game, "Heth's Division")
    declare_post(client, game, heth, [])
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    assert pending(fresh(game)) == ["say which divisions adjoin Heth's Division, which panicked"]
    assert state_matches_events(game)


def test_a_division_emptied_by_desertion_still_spreads_panic(client, larger):
    """A division that panicked keeps its place in the phase as it stood when it tested."""
    demo = larger
    heth = division(demo, "Heth's Division")
    for name in ("Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade"):
        set_state(demo, brigade(demo, name), bases=0, destroyed=True)
    for battery in Unit.objects.filter(game=demo, division=heth).batteries():
        set_state(demo, battery, abandoned=True)
    game = at_step(demo, "internal_panic", Heth=True)
    panic_post(
        client, game, heth, die="1", out_of_town="on", across_bridge_or_ford="on", away_from_rear_assault="on"
    )  # Brockenbrough (green, 4 bases): Rt 1 + 3 = 4 desert
    brock = brigade(game, "Brockenbrough's Brigade")
    assert brock.bases == 0 and brock.destroyed
    advance(fresh(game), None, "test")
    declare_post(client, fresh(game), heth, [division(game, "Pender's Division")])
    assert pending(fresh(game)) == ["roll the adjoining panic test of Pender's Division (round 2)"]
