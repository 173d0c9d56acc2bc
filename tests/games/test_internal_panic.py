"""The panic phase at the table, internal panic (6.1, 6.2): the divisions with a Panic 4 event test, all at once."""

import pytest

from republic.games.events.panic import AppReading
from republic.games.events.payload import LabelledRoll
from republic.games.models import Command, Event, Game, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.walk import pending
from republic.rules.dice import Roll, RollSource
from republic.rules.forced_moves import ForcedMove
from republic.scenarios import DEMO_SCENARIO
from tests.games.conftest import (
    HTMX,
    battery,
    brigade,
    division,
    fresh,
    has_row,
    opened_row,
    payload,
    row_of,
    set_state,
    state_matches_events,
    summary,
)


def at_step(game: Game, step: str, **p4) -> Game:
    """Put the game in a panic step; p4 names divisions (by their first word) with a Panic 4 event, which one
    of their units had."""
    for word in p4:
        command = division(game, f"{word}'s Division" if word != "Buford" else "Buford's Cavalry Division")
        set_state(game, Unit.objects.filter(division=command).order_by("order", "pk").first(), p4_event=True)
    set_state(game, game, step=step)
    game.refresh_from_db()
    return game


def panic_post(client, game, command, die="5", roll="typed", htmx=True, version=None, **extra):
    prefix = f"panic-command-{command.pk}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-die": die, "roll": roll}
    data.update({f"{prefix}-{k}": v for k, v in extra.items()})
    return client.post(f"/games/{game.pk}/act/panic-test/command-{command.pk}/", data, **(HTMX if htmx else {}))


def declare_post(client, game, command, adjoining=(), htmx=True, version=None):
    prefix = f"adjoining-command-{command.pk}"
    data = {
        f"{prefix}-version": game.version if version is None else version,
        f"{prefix}-adjoining": [str(c.pk) for c in adjoining],
    }
    return client.post(f"/games/{game.pk}/act/adjoining/command-{command.pk}/", data, **(HTMX if htmx else {}))


def test_only_divisions_with_a_p4_event_test_and_next_step_waits_for_them(client, demo):
    game = at_step(demo, "internal_panic", Heth=True)
    assert pending(game) == ["roll the internal panic test of Heth's Division"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "internal panic test · average grade" in row_of(page, division(game, "Heth's Division"))
    assert not has_row(page, division(game, "Wadsworth's Division"))
    opened = opened_row(client, game, division(game, "Heth's Division"))
    assert "average grade Average · pass 6" in opened and "+2 rolling division is unshaken" in opened
    assert "Brockenbrough&#x27;s Brigade" in opened  # the units, from the state
    response = client.post(f"/games/{game.pk}/next/", {"version": game.version}, **HTMX)
    assert "Not yet: roll the internal panic test of Heth" in response.content.decode()
    assert fresh(game).step == "internal_panic"


def test_no_p4_event_means_no_test(client, demo):
    game = at_step(demo, "internal_panic")
    assert pending(game) == []
    assert "No division had a Panic 4 event this turn" in client.get(f"/games/{game.pk}/").content.decode()


def test_a_division_that_holds_changes_nothing_and_says_why(client, demo):
    heth = division(demo, "Heth's Division")
    game = at_step(demo, "internal_panic", Heth=True)
    response = panic_post(client, game, heth, die="7")
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="live"')
    event = Event.objects.get(game=game, kind="DivisionPanicTested")
    # average grade of Heth's bases is Average: pass 6; no unit shaken: +2
    assert summary(event) == "Heth's Division holds (7 + 2 unshaken = 9 against 6)"
    assert payload(event).rolls() == (LabelledRoll("internal panic", Roll((7,), RollSource.TYPED)),)
    assert payload(event).result.held is True and event.provisional is True  # the pass number is provisional
    assert "Heth&#x27;s Division holds (7 + 2 unshaken = 9 against 6)" in body
    heth.refresh_from_db()
    assert not heth.panicked and pending(fresh(game)) == []
    assert state_matches_events(game)


def test_a_panicked_division_routs_deserts_and_keeps_its_orders_until_the_phase_ends(client, demo):
    heth = division(demo, "Heth's Division")
    set_state(demo, heth, orders="attack")
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=3)  # shaken: no +2
    game = at_step(demo, "internal_panic", Heth=True)
    panic_post(client, game, heth, die="2", out_of_town="on")
    event = Event.objects.get(game=game, kind="DivisionPanicTested")
    # Average P4 is Rt 1; out of town +1: 2 bases desert from the lowest grade (Brockenbrough's, green)
    assert summary(event).startswith("Heth's Division panics (2 against 6): every unit routs 14\"")
    assert "2 bases desert from Brockenbrough's Brigade" in summary(event)
    assert payload(event).result.loss_number == 2
    assert summary(event).endswith("orders reset to Defend when the panic phase ends")
    heth.refresh_from_db()
    assert heth.panicked and heth.orders == "attack"  # back on Defend when the phase ends (6.1, R:1849-1852)
    brock = brigade(game, "Brockenbrough's Brigade")
    assert (brock.bases, brock.base_hits_turn, brock.forced_move, brock.m_hits) == (2, 2, "Rt", 1)
    assert brock.retreated
    davis.refresh_from_db()
    assert davis.m_hits == 4 and davis.forced_move == "Rt"  # 1M at the end of the division's rout
    garnett = battery(game, "Garnett's Battalion")
    assert garnett.abandoned  # batteries required to rout are abandoned (5.5)
    assert state_matches_events(game)


def test_units_that_already_moved_back_only_make_up_the_difference(client, demo):
    heth = division(demo, "Heth's Division")
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, forced_move="F")
    game = at_step(demo, "internal_panic", Heth=True)
    panic_post(client, game, heth, die="1")
    event = Event.objects.get(game=game, kind="DivisionPanicTested")
    units = {u.id: u for u in payload(event).result.units}
    assert units[archer.key].distance == 4 and units[brigade(game, "Davis's Brigade").key].distance == 14
    assert summary(event).startswith(
        "Heth's Division panics (1 + 2 unshaken = 3 against 6): every unit routs 14\" (Archer's Brigade 4\");"
    )
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "already made a fall back: only the difference (6.1)" in page


def test_destroyed_units_still_count_by_their_last_condition(client, demo):
    heth = division(demo, "Heth's Division")
    davis = brigade(demo, "Davis's Brigade")
    set_state(demo, davis, m_hits=4, bases=0, destroyed=True)
    game = at_step(demo, "internal_panic", Heth=True)
    panic_post(client, game, heth, die="9")
    event = Event.objects.get(game=game, kind="DivisionPanicTested")
    assert summary(event).startswith("Heth's Division holds (9 − 2 demoralized (1 × -2) = 7 against 6)")
    assert not any(u.id == davis.key for u in payload(event).result.units)


def test_a_plain_post_redirects_and_roll_for_me_rolls(client, demo):
    heth = division(demo, "Heth's Division")
    game = at_step(demo, "internal_panic", Heth=True)
    response = panic_post(client, game, heth, die="", roll="app", htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    event = Event.objects.get(game=game, kind="DivisionPanicTested")
    roll = payload(event).rolls()[0].roll
    assert roll.source == "app" and 1 <= roll.faces[0] <= 10


def test_the_printed_chart_can_stand_in_for_the_app_chart(client, demo):
    heth = division(demo, "Heth's Division")
    game = at_step(demo, "internal_panic", Heth=True)
    panic_post(client, game, heth, die="5", printed_pass="8", printed_result="Re 1")
    event = Event.objects.get(game=game, kind="DivisionPanicTested")
    assert event.printed_chart and not event.provisional
    result = payload(event).result
    assert result.held is False and result.move == ForcedMove.RETREAT  # 5 + 2 = 7 against 8
    assert payload(event).app == AppReading(pass_number=6, held=True, move=None, loss_number=0)
    assert 'every unit retreats 12"' in summary(event)
    assert "1 base deserts from Brockenbrough's Brigade" in summary(event)
    assert "Result read from the players&#x27; printed chart." in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"die": "0"}, "A d10 shows 1 to 10."),
        ({"die": "11"}, "A d10 shows 1 to 10."),
        ({"die": ""}, "Tap the die you rolled (1-10), or press Roll for me."),
        ({"die": "six"}, "A d10 shows a whole number, 1 to 10."),
        ({"printed_pass": "13"}, "A pass number is 1 to 12."),
        ({"printed_result": "Rt 9"}, "Select a valid choice"),
    ],
)
def test_bad_input_is_refused_at_the_field_and_changes_nothing(client, demo, extra, message):
    heth = division(demo, "Heth's Division")
    game = at_step(demo, "internal_panic", Heth=True)
    version = game.version
    response = panic_post(client, game, heth, **{"die": "5", **extra})
    assert response.status_code == 200 and message in response.content.decode()
    assert fresh(game).version == version
    response = panic_post(client, game, heth, htmx=False, **{"die": "5", **extra})  # the plain page, too
    assert response.status_code == 200 and message in response.content.decode()
    assert "<html" in response.content.decode() and fresh(game).version == version


def test_a_stale_or_incomplete_form_changes_nothing(client, demo):
    heth = division(demo, "Heth's Division")
    wads = division(demo, "Wadsworth's Division")
    game = at_step(demo, "internal_panic", Heth=True, Wadsworth=True)
    old = game.version
    panic_post(client, game, heth, die="9")
    response = panic_post(client, fresh(game), heth, die="9", version=old)  # a double tap
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = client.post(
        f"/games/{game.pk}/act/panic-test/command-{wads.pk}/", {f"panic-command-{wads.pk}-die": "9"}, **HTMX
    )
    assert "The form was incomplete" in response.content.decode()
    assert Event.objects.filter(game=game, kind="DivisionPanicTested").count() == 1
    # a form about another division, drawn before Heth's test, is not stale: Heth's test was not about it
    panic_post(client, fresh(game), wads, die="9", version=old)
    assert Event.objects.filter(game=game, kind="DivisionPanicTested").count() == 2


def test_a_division_tests_once_and_one_without_a_test_is_refused(client, demo):
    heth = division(demo, "Heth's Division")
    wads = division(demo, "Wadsworth's Division")
    game = at_step(demo, "internal_panic", Heth=True)
    panic_post(client, game, heth, die="9")
    again = panic_post(client, fresh(game), heth, die="9")
    assert "Heth&#x27;s Division has no panic test to roll now." in again.content.decode()
    response = panic_post(client, fresh(game), wads, die="9", htmx=False)
    assert response.status_code == 302
    assert Event.objects.filter(game=game, kind="DivisionPanicTested").count() == 1
    corps = Command.objects.get(game=game, name="Third Corps")
    assert "is not a division" in panic_post(client, fresh(game), corps).content.decode()


def test_a_division_of_another_game_is_not_found(client, demo):
    other = create_game(parse_scenario(DEMO_SCENARIO.read_text()))
    game = at_step(demo, "internal_panic", Heth=True)
    theirs = division(other, "Heth's Division")
    assert panic_post(client, game, theirs).status_code == 404
    assert declare_post(client, game, theirs).status_code == 404


def test_undo_takes_back_a_panic_and_the_test_is_asked_again(client, demo):
    heth = division(demo, "Heth's Division")
    game = at_step(demo, "internal_panic", Heth=True)
    panic_post(client, game, heth, die="1")
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    heth.refresh_from_db()
    assert not heth.panicked and heth.orders == "attack"  # as before the test
    brock = brigade(game, "Brockenbrough's Brigade")
    assert (brock.bases, brock.forced_move, brock.m_hits) == (4, "", 0)
    assert Event.objects.get(game=game, kind="EventUndone").undoes.kind == "DivisionPanicTested"
    assert pending(fresh(game)) == ["roll the internal panic test of Heth's Division"]
    assert state_matches_events(game)
