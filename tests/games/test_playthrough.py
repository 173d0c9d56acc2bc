"""A whole game at the table: the demo battle (Gettysburg, the morning of July 1) played through two full game turns,
four player turns, by posting the game page's own forms with typed dice, as players would.

Each player turn walks every step with "Next step" and uses the phases' forms; the dice are chosen so that every
phase does something. After each player turn the position and the units are checked against what the dice and
the shipped chart (republic/charts/republic-1.0-provisional.yaml) give; the arithmetic is in the comments. At the
end the state must equal the setup plus the events, and undoing the last events must give back the state before
them.

The story: Confederate turn 1, Davis's skirmishers and Pegram's rifles hit the Union line, Wadsworth falls, Davis
assaults Cutler's Brigade and drives it back with a Panic 4 event; Wadsworth's Division holds. Union turn 1,
Cutler rallies no better, Wadsworth returns one rating lower, the Iron Brigade's assault on Archer is thrown back.
Confederate turn 2, Pegram's Napoleons fire into the demoralized Cutler's Brigade: its demoralized panic test is a
second Panic 4 event, Wadsworth's Division panics and Buford's, adjoining it, holds. Union turn 2, the Union
rallies and Calef's horse battery fires.
"""

from republic.games.ledger import snapshot
from tests.games.conftest import battery, brigade, payload, state_matches_events
from tests.games.playthrough_game_turn_1 import confederate_turn_1, union_turn_1
from tests.games.playthrough_game_turn_2 import confederate_turn_2, union_turn_2
from tests.games.playthrough_table import Table, assert_position, assert_state

# --- the playthrough ------------------------------------------------------------------------------------------


def test_two_game_turns_played_through_the_game_pages_forms(client, demo):
    t = Table(client, demo)
    confederate_turn_1(t)
    union_turn_1(t)
    confederate_turn_2(t)
    before_calef_fired = union_turn_2(t)

    game = t.game
    assert_position(game, 3, 1, "Confederate", "messages")
    events = list(game.events.all())
    assert {e.kind for e in events} == {
        "StepAdvanced",
        "RallyResolved",
        "LeaderReplaced",
        "ManeuverRolled",
        "ChargeBonusUsed",
        "ChargeBonusCleared",
        "SkirmishersDeployed",
        "FormationChanged",
        "BatteryFunctionsUsed",
        "SkirmishBlocksDeclared",
        "SkirmishBlocksRolled",
        "SkirmishAttacked",
        "ArtilleryFired",
        "FireSaved",
        "LeaderCheckedForCasualty",
        "HorsDeCombatSkipped",
        "DemoralizedPanicTested",
        "AssaultDeclared",
        "AssaultRoundResolved",
        "AssaultEnded",
        "ChargeDisorderApplied",
        "DivisionPanicTested",
        "AdjoiningDeclared",
    }
    assert sum(e.kind == "StepAdvanced" for e in events) == 4 * 13  # every step of four player turns
    # every die was typed at the table
    assert all(r.roll.source == "typed" for e in events for r in payload(e).rolls())
    assert [e.step for e in events if e.kind == "DivisionPanicTested"] == [
        "internal_panic",
        "internal_panic",
        "adjoining_panic",
    ]
    assert state_matches_events(game)
    assert client.get(f"/games/{game.pk}/log/").status_code == 200

    # undo, latest first: the last Next step comes back with the panic steps that passed by themselves after it, and
    # the end of the player turn with them (Calef had fired this turn) ...
    undone = t.undo(htmx=True, events=3)
    assert undone.undoes.kind == "StepAdvanced" and payload(undone).passed == 2
    assert_position(game, 2, 2, "Union", "charge_disorder")
    calef = battery(game, "2nd U.S., Battery A (Calef)")
    assert_state(calef, fired_this_turn=True)
    # ... then the Next steps back to the fire phase, each with the steps it passed, where Calef's hit is taken off
    # Davis again ...
    t.undo(events=2)
    assert_position(game, 2, 2, "Union", "assaults")
    t.undo(events=3)
    assert_position(game, 2, 2, "Union", "artillery_fire")
    assert_state(brigade(game, "Davis's Brigade"), m_hits=1)
    assert "Davis&#x27;s Brigade: <strong>1M</strong>" in t.page()  # the hit waits again
    # ... and Calef's fire itself: the state is exactly as it was before it fired
    assert t.undo().undoes.kind == "ArtilleryFired"
    assert snapshot(game) == before_calef_fired
    assert_state(calef, fired_this_turn=False)
    assert state_matches_events(game)
