"""The attacker's move step at the table, cavalry mounting and dismounting (3.5, R:817-825) and the division orders
that bind movement (5.2 R:1441-1442, 6.1 R:1830-1832): a mount is an event that changes the brigade's kind and
counts as a formation change, and its movement and forced moves follow; a holding or panicked division's units
are shown half their movement; the morale limits refuse formation, skirmishers and unlimbering at their field."""

import re

import pytest

from republic.games.models import Command, Event
from republic.rules.troops import DivisionOrders
from tests.games.conftest import (
    HTMX,
    battery,
    brigade,
    division,
    fresh,
    payload,
    set_state,
    state_matches_events,
    summary,
)
from tests.games.move_helpers import (
    at_move,
    card_of,
    formation_post,
    from_row,
    functions_post,
    move_post,
    opened_page,
    skirmish_post,
    text,
)
from tests.games.test_internal_panic import panic_post


def mount_post(client, game, unit, mount, htmx=True, version=None):
    game.refresh_from_db()  # the state may have been set by another event
    prefix = f"mount-{unit.piece.name}"
    data = {f"{prefix}-version": game.version if version is None else version, f"{prefix}-mount": mount}
    return client.post(f"/games/{game.pk}/act/mount/unit-{unit.pk}/", data, **from_row(unit, htmx))


def mounted(game, name: str):
    """A brigade of the attacking side put on horse, as mounted cavalry."""
    unit = brigade(game, name)
    set_state(game, unit, kind="cavalry_mounted")
    return fresh(unit)


# --- mounting and dismounting -----------------------------------------------------------------------------------


def test_dismounting_is_an_event_that_puts_the_brigade_on_foot_and_undoes(client, demo):
    archer = mounted(demo, "Archer's Brigade")
    game = at_move(demo)
    card = card_of(opened_page(client, game, archer), archer)
    assert "Dismount (a formation change)" in card
    assert "Allowance 18&quot;" in card_of(text(move_post(client, game, archer)), archer)
    response = mount_post(client, game, archer, "0")
    assert "Archer&#x27;s Brigade dismounts: a formation change (3.5)" in text(response)
    archer.refresh_from_db()
    assert archer.kind == "cavalry_dismounted"
    event = Event.objects.filter(game=game, kind="MountChanged").get()
    assert summary(event) == "Archer's Brigade dismounts: a formation change (3.5)"
    assert [c["field"] for c in event.changes] == ["kind"]
    card = card_of(opened_page(client, game, archer), archer)
    assert "Mount (a formation change)" in card and "Dismount (a formation change)" not in card
    # the dismount counts as one of the turn's formation changes, taken from the foot allowance: 10" - 1"
    assert re.search(r'name="move-unit-\d+-formation_changes" value="1"', card)
    assert "Allowance 9&quot;" in card_of(text(move_post(client, game, archer, formation_changes="1")), archer)
    client.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version}, **HTMX)
    archer.refresh_from_db()
    assert archer.kind == "cavalry_mounted"
    assert state_matches_events(game)


def test_a_dismounted_brigade_remounts_by_plain_post(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, kind="mounted_infantry_dismounted")
    game = at_move(demo)
    assert mount_post(client, game, archer, "1", htmx=False).status_code == 302
    archer.refresh_from_db()
    assert archer.kind == "mounted_infantry_mounted"
    assert payload(Event.objects.get(game=game, kind="MountChanged")).result.kind.horse
    assert state_matches_events(game)


def test_an_unformed_brigade_is_shown_and_told_why_it_may_not_dismount(client, demo):
    archer = mounted(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(game, archer, m_hits=1)
    card = card_of(opened_page(client, game, archer), archer)
    reason = "Unformed: may not change formation (2.3), and to dismount is one (3.5)"
    assert f"Dismount: {reason}." in card and "/act/mount/" not in card
    version = fresh(game).version
    card = card_of(text(mount_post(client, game, archer, "0")), archer)
    assert reason in card
    archer.refresh_from_db()
    assert archer.kind == "cavalry_mounted" and fresh(game).version == version


@pytest.mark.parametrize(
    ("name", "mount", "message"),
    [
        ("Davis's Brigade", "0", "only cavalry and mounted infantry mount and dismount (3.5)"),
        ("Archer's Brigade", "1", "it is already mounted"),
        ("Archer's Brigade", "x", "Mount or dismount."),
        ("Archer's Brigade", "", "Say whether it mounts or dismounts."),
    ],
)
def test_a_mount_the_rules_or_the_form_refuse_changes_nothing(client, demo, name, mount, message):
    mounted(demo, "Archer's Brigade")
    unit = brigade(demo, name)
    game = at_move(demo)
    version, kind = fresh(game).version, unit.kind
    response = mount_post(client, game, unit, mount)
    assert message in text(response)
    assert fresh(unit).kind == kind and fresh(game).version == version


def test_infantry_has_no_mount_to_offer_and_a_stale_mount_changes_nothing(client, demo):
    davis = brigade(demo, "Davis's Brigade")
    archer = mounted(demo, "Archer's Brigade")
    game = at_move(demo)
    assert "/act/mount/" not in card_of(opened_page(client, game, davis), davis)
    response = mount_post(client, game, archer, "0", version=fresh(game).version - 1)
    assert "The game moved on" in text(response)
    assert fresh(archer).kind == "cavalry_mounted"


def test_a_dismounted_brigades_forced_move_is_the_foot_distance(client, demo):
    """5.5: horse moves double; once dismounted, the brigade routs with its division as foot troops."""
    archer, davis = mounted(demo, "Archer's Brigade"), mounted(demo, "Davis's Brigade")
    game = at_move(demo)
    mount_post(client, game, davis, "0")
    heth = division(game, "Heth's Division")
    set_state(game, archer, p4_event=True)
    set_state(game, game, step="internal_panic")
    panic_post(client, fresh(game), heth, die="1")
    result = payload(Event.objects.get(game=game, kind="DivisionPanicTested")).result
    distance = {outcome.id: outcome.distance for outcome in result.units}
    pettigrew = brigade(game, "Pettigrew's Brigade")
    assert distance[davis.key] == distance[pettigrew.key] == 14
    assert distance[archer.key] == 28


# --- division orders that bind movement --------------------------------------------------------------------------


def test_a_holding_divisions_brigade_is_shown_and_given_half_its_movement(client, demo):
    archer = brigade(demo, "Archer's Brigade")
    game = at_move(demo)
    set_state(game, division(game, "Heth's Division"), orders="hold")
    card = card_of(opened_page(client, game, archer), archer)
    assert "Half movement:</strong> its division holds: its units move no more than half (5.2)." in card
    set_state(game, archer, charge_bonus_used=True)  # as its card records it
    card = card_of(text(move_post(client, game, archer, formation_changes="1")), archer)
    assert "Allowance 4.5&quot; + charge bonus 2&quot; = 6.5&quot;" in card
    assert "Holding division: no more than half" in card


def test_a_panicked_divisions_battery_moves_half_and_other_orders_bind_nothing(client, demo):
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    heth = division(game, "Heth's Division")
    assert "Allowance 10&quot;" in card_of(text(move_post(client, game, garnett)), garnett)
    set_state(game, heth, panicked=True)
    card = card_of(text(move_post(client, game, garnett)), garnett)
    assert "Allowance 5&quot;" in card and "its division panicked: it counts as holding" in card
    set_state(game, heth, panicked=False, orders="maneuver")
    card = card_of(text(move_post(client, game, garnett)), garnett)
    assert "Allowance 10&quot;" in card and "Half movement" not in card


def test_the_tables_orders_are_the_engines():
    assert {o.value for o in Command.Orders} == {o.value for o in DivisionOrders}


# --- the morale limits, refused at their field -------------------------------------------------------------------


def field_error(body: str, prefix: str, field: str) -> str:
    """The error drawn under one field of a form."""
    found = re.search(rf'id="error_\d+_id_{re.escape(prefix)}-{field}"[^>]*>(.*?)</', body, re.S)
    assert found, f"no error at {prefix}-{field}"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_formation_skirmishers_and_unlimbering_are_refused_at_their_field_in_the_rules_words(client, demo):
    """2.3 (R:494-502): Unformed may not change formation, nor count a change in its movement; Rattled may not
    deploy skirmishers; Demoralized may not unlimber. Each refused, nothing recorded."""
    archer, davis = brigade(demo, "Archer's Brigade"), brigade(demo, "Davis's Brigade")
    garnett = battery(demo, "Garnett's Battalion")
    game = at_move(demo)
    set_state(game, archer, m_hits=1)
    set_state(game, davis, m_hits=2, skirmishers_deployed=1)
    set_state(game, garnett, m_hits=4, limbered=True)
    version = fresh(game).version
    # an unformed brigade's card has the reason where the formation form would be: a stale tap is answered so
    body = card_of(text(formation_post(client, game, archer, "single_line")), archer)
    assert "Formation: Unformed: may not change formation (2.3)." in body and "/act/formation/" not in body
    body = card_of(text(skirmish_post(client, game, davis, "2")), davis)
    refused = field_error(body, f"skirmishers-{davis.piece.name}", "deployed")
    assert refused == "Rattled: may not deploy skirmishers (2.3); it may recall them"
    body = card_of(text(functions_post(client, game, garnett, "unlimber")), garnett)
    assert (
        field_error(body, f"functions-{garnett.piece.name}", "function_1")
        == "a demoralized battery may not unlimber (2.3)"
    )
    body = card_of(text(move_post(client, game, archer, formation_changes="1")), archer)
    refused = field_error(body, f"move-{archer.piece.name}", "formation_changes")
    assert refused == "Unformed: may not change formation (2.3)"
    assert fresh(game).version == version


def test_the_defenders_cavalry_dismounts_in_reaction_to_the_enemys_move_and_never_mounts(client, demo):
    """R:804-808: "Cavalry brigades may react to enemy units which advance to within 6" of their front ... during
    an opposing player's Maneuver Phase. Reacting cavalry may dismount (if able) or begin moving"."""
    game = at_move(demo)
    gamble = brigade(game, "Gamble's Brigade")
    assert gamble.division.side == game.defender
    set_state(game, gamble, kind="cavalry_mounted")
    page = client.get(f"/games/{game.pk}/divisions/{gamble.division_id}/").content.decode()
    assert "Dismount in reaction to the enemy's move (3.5)" in page
    refused = text(mount_post(client, game, gamble, "1"))
    assert "cavalry reacting to the enemy&#x27;s move may dismount, not mount (3.5)" in refused
    assert not Event.objects.filter(game=game, kind="MountChanged").exists()
    mount_post(client, game, gamble, "0")
    event = Event.objects.filter(game=game, kind="MountChanged").get()
    assert summary(event) == "Gamble's Brigade dismounts in reaction to the enemy's move (3.5)"
    assert fresh(gamble).kind == "cavalry_dismounted"
    assert state_matches_events(game)
    # only in the enemy's move step
    set_state(game, game, step="rally")
    later = client.get(f"/games/{game.pk}/divisions/{gamble.division_id}/").content.decode()
    assert "in reaction to the enemy" not in later
