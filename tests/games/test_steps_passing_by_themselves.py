"""A step in which the app knows nobody has anything to do passes by itself (``steps/walk.py`` ``move_on``): one tap
of Next step records the step left and every idle step after it, one StepAdvanced event a step, in one transaction;
the result card the phones show names each step that passed and why. Undo takes the Next step back with the passes;
going back to an event undoes event by event. A step with work, or in which the table may still act, waits."""

import re

from republic.games.events.game import EventUndone, PassedStep, StepAdvanced
from republic.games.events.payload import payload_of
from republic.games.models import Event, Game
from republic.rules.sequence import StepKey
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, fresh, payload, set_state, state_matches_events
from tests.games.test_live import poll_from


def press_next(client, game: Game) -> str:
    response = client.post(f"/games/{game.pk}/next/", {"version": fresh(game).version}, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def events_since(game: Game, seq: int) -> list[Event]:
    return list(game.events.filter(seq__gt=seq).order_by("seq"))


def card(body: str) -> str:
    """The result card's words, tags dropped."""
    found = re.search(r'<section class="card result-card.*?</section>', body, re.S)
    assert found, "no result card"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def test_the_command_phase_with_nothing_to_rally_or_replace_passes_to_the_moves_in_one_tap(demo):
    attacker = seated_device(demo, "Confederate")
    before = demo.version
    body = press_next(attacker, demo)
    game = fresh(demo)
    assert (game.step, game.version) == ("move", before + 3)
    left, rally, replace = (payload(e) for e in events_since(game, before))
    assert (left.left, left.to, left.by_itself) == (StepKey.MESSAGES, StepKey.RALLY, ())
    assert (rally.left, rally.to) == (StepKey.RALLY, StepKey.REPLACE_LEADERS)
    assert rally.by_itself == (PassedStep(StepKey.RALLY, "no attacking unit has morale hits to rally"),)
    assert (replace.left, replace.to) == (StepKey.REPLACE_LEADERS, StepKey.MOVE)
    assert replace.by_itself[-1] == PassedStep(StepKey.REPLACE_LEADERS, "no attacking leader is hors de combat")
    # each event is stamped with the step it left, as any Next step's
    assert [e.step for e in events_since(game, before)] == ["messages", "rally", "replace_leaders"]
    said = card(body)
    assert "Passed by themselves, nobody having anything to do: 2 steps" in said
    assert "Attacker rallies units: no attacking unit has morale hits to rally" in said
    assert "Attacker replaces hors de combat leaders: no attacking leader is hors de combat" in said
    # another phone, drawn before the tap, meets the same card at its next poll
    polled = poll_from(seated_device(game, "Union"), game, before, []).content.decode()
    assert "Attacker rallies units: no attacking unit has morale hits to rally" in card(polled)
    log = attacker.get(f"/games/{game.pk}/log/").content.decode()
    assert "passed by itself, Attacker rallies units: no attacking unit has morale hits to rally" in log
    assert state_matches_events(game)


def test_a_step_with_work_does_not_pass(demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=1)
    before = fresh(demo).version
    press_next(seated_device(demo, "Confederate"), demo)
    game = fresh(demo)
    assert (game.step, game.version) == ("rally", before + 1)
    assert payload(game.events.get(seq=before + 1)).by_itself == ()


def test_a_skirmish_step_without_an_attacking_marker_passes_by_itself(demo):
    game = at_step(demo, "move")
    before = game.version
    body = press_next(seated_device(game, "Confederate"), game)
    game = fresh(game)
    assert (game.step, game.version) == ("artillery_fire", before + 2)
    assert payload(game.events.get(seq=before + 2)).by_itself[-1] == PassedStep(
        StepKey.SKIRMISH, "no attacking skirmish marker is out"
    )
    assert "Skirmish fire: no attacking skirmish marker is out" in card(body)


def test_a_skirmish_step_with_an_attacking_marker_out_waits(demo):
    game = at_step(demo, "move")
    set_state(game, brigade(game, "Davis's Brigade"), skirmishers_deployed=1)
    before = fresh(game).version
    press_next(seated_device(game, "Confederate"), game)
    game = fresh(game)
    assert (game.step, game.version) == ("skirmish", before + 1)


def test_the_fire_phase_s_checks_pass_and_the_assaults_wait(client, demo):
    game = at_step(demo, "artillery_fire")
    before = game.version
    body = press_next(client, game)
    game = fresh(game)
    assert game.step == "assaults" and game.version == before + 3
    steps = [(payload(e).left, payload(e).to) for e in events_since(game, before)]
    assert steps == [
        (StepKey.ARTILLERY_FIRE, StepKey.FIRE_HORS_DE_COMBAT),
        (StepKey.FIRE_HORS_DE_COMBAT, StepKey.DEMORALIZED_PANIC),
        (StepKey.DEMORALIZED_PANIC, StepKey.ASSAULTS),
    ]
    said = card(body)
    assert "Hors de combat checks: no unit lost a base this phase" in said
    assert "Demoralized panic test: no demoralized unit has panic hits from fire" in said


def test_charge_disorder_waits_for_the_table_though_nobody_is_due(client, demo):
    """The table may still name units that used charge movement: the step stays, even with nothing due."""
    game = at_step(demo, "assaults")
    before = game.version
    press_next(client, game)
    game = fresh(game)
    assert game.step == "charge_disorder" and game.version == before + 2
    assert payload(events_since(game, before)[-1]).by_itself == (
        PassedStep(StepKey.ASSAULT_HORS_DE_COMBAT, "no unit lost a base this phase"),
    )


def test_the_panic_phase_with_nothing_to_test_ends_the_player_turn_and_the_defenders_messages_wait(client, demo):
    game = at_step(demo, "charge_disorder")
    before = game.version
    press_next(client, game)
    game = fresh(game)
    assert (game.game_turn, game.player_turn, game.step) == (1, 2, "messages") and game.version == before + 3
    internal, adjoining = (payload(e) for e in events_since(game, before)[1:])
    assert internal.by_itself[-1] == PassedStep(StepKey.INTERNAL_PANIC, "no division had a Panic 4 event")
    assert adjoining.by_itself[-1] == PassedStep(StepKey.ADJOINING_PANIC, "no division panicked")
    assert adjoining.turn_ended and game.attacker.name == "Union"


def test_undo_takes_the_next_step_back_with_the_steps_that_passed_by_themselves(demo):
    attacker = seated_device(demo, "Confederate")
    before = demo.version
    press_next(attacker, demo)
    body = attacker.post(f"/games/{demo.pk}/undo/", {"version": fresh(demo).version}, **HTMX).content.decode()
    game = fresh(demo)
    assert game.step == "messages" and game.version == before + 6
    undone = events_since(game, before + 3)
    assert [payload(e).seq for e in undone] == [before + 3, before + 2, before + 1]
    assert [payload(e).passed for e in undone] == [0, 0, 2]
    assert "Undone: On to command: Attacker rallies units, with the 2 steps that passed by themselves after it" in card(
        body
    )
    assert state_matches_events(game)


def test_going_back_stops_where_the_game_master_says_even_at_a_step_that_passed_by_itself(client, demo):
    before = demo.version
    press_next(client, demo)
    response = client.post(f"/games/{demo.pk}/back/{before + 1}/", {"version": fresh(demo).version})
    assert response.status_code == 302
    game = fresh(demo)
    assert game.step == "rally" and game.version == before + 5
    # the rally step waits for Next step there, and passing it again is the table's tap
    press_next(client, game)
    game = fresh(game)
    assert game.step == "move" and state_matches_events(game)


def test_a_refused_or_stale_next_step_records_nothing(client, demo):
    set_state(demo, brigade(demo, "Davis's Brigade"), m_hits=1)
    before = fresh(demo).version
    stale = client.post(f"/games/{demo.pk}/next/", {"version": before - 1}, **HTMX).content.decode()
    assert "The game moved on" in stale and fresh(demo).version == before
    press_next(client, demo)
    refused = press_next(client, demo)
    assert "Not yet: rally Davis" in refused and fresh(demo).version == before + 1


def test_events_of_earlier_versions_read_back_with_no_step_passed_by_itself():
    old = Event(kind="StepAdvanced", payload={"left": "rally", "to": "replace_leaders"})
    assert payload_of(old) == StepAdvanced(StepKey.RALLY, StepKey.REPLACE_LEADERS)
    undone = Event(kind="EventUndone", payload={"seq": 4})
    assert payload_of(undone) == EventUndone(4)
