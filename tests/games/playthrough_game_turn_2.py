"""Game turn 2 of the playthrough of the demo battle, both player turns, each checked against what the dice and the
shipped chart give (the arithmetic is in the comments). Confederate turn 2: Pegram's Napoleons fire into the
demoralized Cutler's Brigade; its demoralized panic test is a second Panic 4 event, Wadsworth's Division panics
and Buford's, adjoining it, holds. Union turn 2: the Union rallies and Calef's horse battery fires."""

from republic.games.ledger import snapshot
from republic.rules.fire_results import FireHits
from tests.games.conftest import allowed, battery, brigade, division, leader, payload, summary
from tests.games.playthrough_table import Table, assert_position, assert_state, pending_text


def confederate_turn_2(t: Table) -> None:
    game = t.game
    archer, davis, pettigrew = (
        brigade(game, n) for n in ("Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade")
    )
    iron, cutler = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Cutler's Brigade")
    napoleons = battery(game, "Pegram's Battalion (Napoleons)")
    hall = battery(game, "2nd Maine Light, Battery B (Hall)")
    wadsworth, reynolds = leader(game, "James S. Wadsworth"), leader(game, "John F. Reynolds")
    wadsworths, bufords = division(game, "Wadsworth's Division"), division(game, "Buford's Cavalry Division")

    t.next_step("rally", htmx=True)
    assert pending_text(t) == (
        "rally Archer&#x27;s Brigade (Unformed); rally Davis&#x27;s Brigade (Rattled); "
        "rally Pettigrew&#x27;s Brigade (Rattled)"
    )
    # Heth (E1) adds 1 at any distance; 3" to him is no whole 4" step.
    # Davis (Average, Rattled 10): 10 + 5 + 1 = 16, Unformed (13; Formed needs 17)
    assert "Rattled → Unformed" in summary(t.rally(davis, die=5, distance="3"))
    # Archer (Veteran, Unformed 13): 13 + 4 + 1 = 18, Formed (16)
    assert "Unformed → Formed" in summary(t.rally(archer, die=4, distance="3", htmx=True))
    # Pettigrew (Average, Rattled 10): 10 + 2 + 1 = 13, Unformed
    assert "Rattled → Unformed" in summary(t.rally(pettigrew, die=2, distance="3"))
    t.next_step("move", passing=("replace_leaders",))  # no Confederate leader has fallen

    # maneuver: Archer (Veteran) 7 + 1 = 8; it deploys its one marker; the Napoleons prolong and keep a fire
    assert payload(t.roll_maneuver(archer, die=7)).result.modified_roll == 8
    t.set_skirmishers(archer, 1)
    t.use_battery_functions(napoleons, "prolong", htmx=True)
    t.next_step("skirmish")

    # skirmish: the Union declares no block; Davis's marker misses Iron at 2" (a 3 against 8)
    blocks = t.declare_blocks({})
    assert summary(blocks) == "Union declare skirmish blocks: no blocks"
    attack = t.skirmish_attack(davis, iron, "2", die=3, htmx=True)
    assert payload(attack).hits == () and "no effect" in summary(attack)
    t.next_step("artillery_fire")

    # artillery: the Napoleons at 2" (M Sb 3M 1B), a 10 drifts two cells left: 4M 2B on the demoralized
    # Cutler's Brigade, whose every M beyond Demoralized becomes a P hit (4.6)
    fire = t.fire_battery(napoleons, cutler, "2", die=10)
    assert payload(fire).hits == (FireHits(cutler.key, m=4, b=2),)
    assert_state(cutler, m_hits=4, bases=5, p_hits_turn=0)
    t.next_step("fire_hors_de_combat", htmx=True)
    assert_state(cutler, m_hits=4, bases=3, p_hits_turn=4, base_hits_turn=2)

    # hors de combat: a double 4-4 with 2 base hits reads 6-6, under 9: unhurt
    check = t.check_leader(wadsworth, 4, 4, base_hits=2, htmx=True)
    assert payload(check).casualty is False and payload(check).result.double is True
    t.pass_leader_over(reynolds)
    t.next_step("demoralized_panic")

    # demoralized panic: Cutler's 4P read Panic 4: Veteran Retreat 12", and a P4 event for its division
    assert pending_text(t) == "demoralized panic test for Cutler&#x27;s Brigade (4P)"
    assert t.next_step_refused() == "Not yet: demoralized panic test for Cutler&#x27;s Brigade (4P)"
    tested = t.demoralized_panic_test(cutler)
    result = payload(tested).result
    assert (result.move, result.distance, result.deserters, result.p4_event) == ("Re", 12.0, 0, True)
    assert_state(cutler, p4_event=True, forced_move="Re", retreated=True, bases=3)
    assert_state(wadsworths, p4_event=True)
    t.next_step("assaults")
    t.next_step("charge_disorder", passing=("assault_hors_de_combat",))  # no assault this turn, no base lost in one

    # charge disorder: Cutler retreated (it stays Demoralized)
    assert [u.unit for u in payload(t.apply_charge_disorder()).units] == [cutler.key]
    t.next_step("internal_panic", htmx=True)

    # internal panic: Crack pass 4 again (Iron 6 bases against Cutler 3 and Hall 1); 1 - 2 x 2 demoralized
    # (Iron and Cutler) = -3: it panics, Crack Panic 4 is Fall back 10"; Cutler has already retreated further
    test = t.division_panic_test(wadsworths, die=1)
    assert summary(test).startswith(
        "Wadsworth's Division panics (1 − 4 demoralized (2 × -2) = -3 against 4): every unit "
        "falls back 10\" (Cutler's Brigade already moved as far)"
    )
    assert_state(wadsworths, panicked=True, orders="defend")
    assert_state(iron, forced_move="F", m_hits=4, bases=6)
    assert_state(hall, forced_move="F", abandoned=False)
    assert_state(cutler, forced_move="Re")
    t.next_step("adjoining_panic")

    # adjoining panic: the table names Buford's division as adjoining; it tests (Veteran pass 5): 10 + 2 unshaken
    assert pending_text(t) == "say which divisions adjoin Wadsworth&#x27;s Division, which panicked"
    t.declare_adjoining(wadsworths, [bufords], htmx=True)
    assert pending_text(t) == "roll the adjoining panic test of Buford&#x27;s Cavalry Division (round 2)"
    test = t.division_panic_test(bufords, die=10)
    assert summary(test) == "Buford's Cavalry Division holds (10 + 2 unshaken = 12 against 5)"
    assert pending_text(t) == ""
    assert "end of player turn 1 of game turn 2" in summary(t.next_step("messages"))

    assert_position(game, 2, 2, "Union")
    assert_state(davis, m_hits=1, bases=8, skirmishers_deployed=2)
    assert_state(archer, m_hits=0, bases=4, skirmishers_deployed=1)
    assert_state(pettigrew, m_hits=1, bases=9, formation="brigade_column")
    assert_state(cutler, m_hits=4, bases=3, p4_event=False, p_hits_turn=0, forced_move="", retreated=False)
    assert_state(iron, m_hits=4, bases=6, forced_move="")
    assert_state(wadsworths, panicked=False, p4_event=False)
    assert_state(bufords, panicked=False)


def union_turn_2(t: Table) -> dict:
    """Plays the Union's second turn; returns the state just before Calef fires, for the undo at the end."""
    game = t.game
    iron, cutler = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Cutler's Brigade")
    gamble, davis = brigade(game, "Gamble's Brigade"), brigade(game, "Davis's Brigade")
    calef = battery(game, "2nd U.S., Battery A (Calef)")
    buford = leader(game, "John Buford")

    t.next_step("rally")
    # Wadsworth is now E0: no rating to add. Iron (Crack, Demoralized 5, 1 of 7 lost is 14%: -1): 5 + 10 - 1
    # = 14, Unformed (13; Formed 15). Cutler (Veteran, Demoralized 4, 4 of 7 lost is 57%: -4): 4 + 10 - 4 = 10,
    # Rattled
    assert "Demoralized → Unformed" in summary(t.rally(iron, die=10, htmx=True))
    assert "Demoralized → Rattled" in summary(t.rally(cutler, die=10))
    assert_state(iron, m_hits=1)
    assert_state(cutler, m_hits=2)
    t.next_step("move", passing=("replace_leaders",))  # no Union leader is hors de combat

    # maneuver: Gamble (Veteran) 2 + 1 for Buford, its Energetic commander, + 2 for Buford within 2" = 5
    roll = t.roll_maneuver(gamble, die=2, leaders_within_2=[str(buford.pk)])
    assert payload(roll).result.modified_roll == 5 and allowed(roll)[0] == "assault"
    t.next_step("skirmish")
    # blocks and skirmish attacks are optional: nothing to do
    assert "Confederate: declare every block first" in t.page()
    t.next_step("artillery_fire")

    before_fire = snapshot(game)
    t.fire_battery(calef, davis, "12", die=5, htmx=True)
    # the rest of the turn has nothing to do: no base lost (no hors de combat check), no demoralized unit under
    # fire, no assault, no charge bonus used nor retreat, so no Panic 4 event and no panic test. The steps in which
    # the table may still act (the assaults it declares, the units it names for charge disorder) wait for Next
    # step; every other passes by itself.
    t.next_step("assaults", passing=("fire_hors_de_combat", "demoralized_panic"))
    assert_state(davis, m_hits=2)
    assert pending_text(t) == ""
    t.next_step("charge_disorder", passing=("assault_hors_de_combat",))
    ending = t.next_step("messages", passing=("internal_panic", "adjoining_panic"))
    assert "end of player turn 2 of game turn 2" in summary(ending)

    assert_position(game, 3, 1, "Confederate")
    assert_state(davis, m_hits=2, bases=8, condition="rattled")
    assert_state(iron, m_hits=1, bases=6, condition="unformed")
    assert_state(cutler, m_hits=2, bases=3, condition="rattled")
    assert_state(gamble, m_hits=0, bases=10)
    assert_state(calef, fired_this_turn=False)
    return before_fire
