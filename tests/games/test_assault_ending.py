"""The end of an assault at the table (5.5): rounds follow until the table ends contact, ending by htmx or plain
POST, several assaults in one step and one of every unit on the table; undo of a round, a declaration and an
end."""

from republic.games.events.assault import AssaultDeclared, AssaultEnded
from republic.games.models import Command, Event
from republic.games.steps.walk import advance
from tests.games.assault_helpers import assault_page, declared, end, last_payload, post_round, units
from tests.games.conftest import HTMX, battery, fresh, payload, set_state, state_matches_events, summary

# --- follow-up rounds and the end of an assault ---------------------------------------------------------


def test_rounds_follow_until_the_table_ends_contact(client, game, two):
    """5 to 5 on Pitched Battle: both 1M and roll again; then contact ends and Next step is free."""
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    response = post_round(client, game, seq, die="5", die2="4")
    assert last_payload(game).result.outcome.action == "roll_again"
    body = response.content.decode()
    assert "Roll again: resolve the next round." in body and "Assault 1 · round 2" in body
    assert "finish assault 1" in body
    post_round(client, game, seq, die="6", die2="6")
    assert last_payload(game).round == 2
    response = end(client, game, seq)
    ended = Event.objects.get(game=game, kind="AssaultEnded")
    over: AssaultEnded = payload(ended)
    assert (over.assault, over.rounds) == (seq, 2)
    assert "contact ended after 2 rounds" in summary(ended)
    body = response.content.decode()
    assert "Assaults over this turn" in body and "finish assault" not in body
    response = end(client, game, seq)
    assert "Assault 1 has already ended." in response.content.decode()
    response = post_round(client, game, seq)
    assert "Assault 1 has ended." in response.content.decode()
    advance(game, game.version, "test")
    game.refresh_from_db()
    assert game.step == "assault_hors_de_combat"
    assert state_matches_events(game)


def test_ending_by_plain_post_and_a_stale_end(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    old = game.version
    response = end(client, game, seq, htmx=False)
    assert response.status_code == 302
    assert "called off before any round" in summary(Event.objects.get(game=game, kind="AssaultEnded"))
    response = end(client, game, seq, version=old)
    assert "The game moved on since this page was drawn" in response.content.decode()
    response = client.post(f"/games/{game.pk}/act/end-assault/assault-{seq}/", {}, **HTMX)
    assert "The form was incomplete" in response.content.decode()
    assert Event.objects.filter(game=game, kind="AssaultEnded").count() == 1


def test_several_assaults_are_declared_and_resolved_one_after_another(client, game):
    davis, cutler, archer, iron = units(
        game, "Davis's Brigade", "Cutler's Brigade", "Archer's Brigade", "Iron Brigade (Meredith)"
    )
    first = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    second = declared(client, game, [(archer, "general")], [(iron, "all_out")])
    post_round(client, game, second, die="4", die2="4")
    assert last_payload(game).assault == second and last_payload(game).result.outcome.action == "break_off"
    post_round(client, game, first, die="4", die2="4")
    assert last_payload(game).assault == first
    end(client, game, first)
    page = assault_page(client, game)
    # Archer broke off from the Iron Brigade: what is left of assault 2 is closing it
    assert "close assault 2" in page and "assault 1" not in page.split('id="step-bar"')[1]


def test_no_assault_fights_a_second_round_before_every_other_has_fought_its_first(client, game):
    """R:1376-1377: "All initial assault rounds must be resolved before re-rolls and breakthrough overruns are
    carried out." The first assault's second round waits, refused in words naming the assault to fight first
    and changing nothing, until the second assault has fought its first round."""
    davis, cutler, archer, iron = units(
        game, "Davis's Brigade", "Cutler's Brigade", "Archer's Brigade", "Iron Brigade (Meredith)"
    )
    first = declared(client, game, [(davis, "general")], [(cutler, "general")])
    second = declared(client, game, [(archer, "general")], [(iron, "general")])
    post_round(client, game, first, die="5", die2="5")
    waits = "Round 2 waits: resolve the first round of assault 2 first."
    page = assault_page(client, game)
    assert waits in page and 'aria-label="Round 2 of assault 1"' not in page
    assert "Assault 1 · round 2 · waits for the first rounds" in page
    version = game.version
    body = post_round(client, game, first, die="5", die2="5").content.decode()
    assert waits in body and game.version == version
    assert Event.objects.filter(game=game, kind="AssaultRoundResolved").count() == 1
    post_round(client, game, second, die="5", die2="5")
    assert waits not in assault_page(client, game)
    post_round(client, game, first, die="5", die2="5")
    assert (last_payload(game).assault, last_payload(game).round) == (first, 2)


def test_a_large_assault_of_every_unit_on_the_table_is_declared_and_fought(client, game):
    """Nine units in one general assault: each of them is locked and written in one step, on either database."""
    attackers = units(game, "Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade", "Brockenbrough's Brigade")
    defenders = [
        *units(game, "Iron Brigade (Meredith)", "Cutler's Brigade", "Gamble's Brigade", "Devin's Brigade"),
        battery(game, "2nd Maine Light, Battery B (Hall)"),
    ]
    seq = declared(
        client, game, [(unit, "general") for unit in attackers], [(unit, "all_out") for unit in defenders], defenders[1]
    )
    declaration: AssaultDeclared = payload(Event.objects.get(game=game, seq=seq))
    assert len(declaration.attackers) == 4 and len(declaration.defenders) == 5
    assert declaration.defenders[0].unit == defenders[1].key
    response = post_round(client, game, seq, die="9", die2="2")
    assert response.status_code == 200
    fought = last_payload(game)
    assert fought.assault == seq and fought.on_units.defender is not None
    assert {loss.id for loss in fought.on_units.defender.units} <= {unit.key for unit in defenders}
    assert state_matches_events(game)


# --- undo -----------------------------------------------------------------------------------------------


def test_undo_takes_back_a_round_then_the_declaration(client, game, two):
    davis, cutler = two
    set_state(game, cutler, m_hits=4)
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    post_round(client, game, seq, die="10", die2="1")
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    cutler, davis = fresh(cutler), fresh(davis)
    assert (cutler.bases, cutler.p_hits_turn, cutler.p4_event, cutler.forced_move, cutler.retreated) == (
        7,
        0,
        False,
        "",
        False,
    )
    assert not Command.objects.get(pk=cutler.division_id).p4_event and not davis.charge_bonus_used
    assert Event.objects.filter(game=game, kind="EventUndone").last().undoes.kind == "AssaultRoundResolved"
    page = assault_page(client, game)
    assert "Assault 1 · round 1" in page
    game.refresh_from_db()
    client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    page = assault_page(client, game)
    assert "No assault declared yet" in page
    assert state_matches_events(game)


def test_undo_of_an_end_reopens_the_assault(client, game, two):
    davis, cutler = two
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    end(client, game, seq)
    game.refresh_from_db()
    response = client.post(f"/games/{game.pk}/undo/", {"version": game.version}, **HTMX)
    assert "finish assault 1" in response.content.decode()


def test_a_breakthrough_before_every_first_round_is_marked_now_and_moved_once_they_are_fought(client, game):
    """R:1376-1378: "All initial assault rounds must be resolved before re-rolls and breakthrough overruns are
    carried out. Mark breakthrough locations before moving on to resolve other assaults." The card of an assault
    whose round broke through tells the table to mark the place now and move once the others fought."""
    davis, cutler, archer, iron = units(
        game, "Davis's Brigade", "Cutler's Brigade", "Archer's Brigade", "Iron Brigade (Meredith)"
    )
    set_state(game, cutler, grade="green", m_hits=2)
    first = declared(client, game, [(davis, "all_out")], [(cutler, "general")])
    second = declared(client, game, [(archer, "general")], [(iron, "general")])
    post_round(client, game, first, die="10", die2="1")
    assert last_payload(game).result.outcome.action.value.endswith("breakthrough"), last_payload(game).result
    marked = "Mark where the attackers break through now, and move them once assault 2 has fought a first round"
    assert marked in assault_page(client, game)
    post_round(client, game, second, die="5", die2="5")
    assert marked not in assault_page(client, game)
