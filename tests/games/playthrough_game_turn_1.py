"""Game turn 1 of the playthrough of the demo battle, both player turns, each checked against what the dice and the
shipped chart give (the arithmetic is in the comments). Confederate turn 1: Davis's skirmishers and Pegram's rifles
hit the Union line, Wadsworth falls, Davis assaults Cutler's Brigade and drives it back with a Panic 4 event;
Wadsworth's Division holds. Union turn 1: Cutler rallies no better, Wadsworth returns one rating lower, the Iron
Brigade's assault on Archer is thrown back."""

from republic.games.events.payload import LabelledRoll
from republic.rules.artillery import ArtilleryFireInput, resolve_artillery_fire
from republic.rules.dice import Roll
from republic.rules.fire_results import FireHits
from republic.rules.hits import Hits
from republic.rules.rally import RallyInput, resolve_rally
from republic.rules.troops import BatteryType, Grade
from republic.rules.troops import Leader as LeaderValue
from tests.games.conftest import allowed, battery, brigade, division, leader, payload, row_of, summary
from tests.games.playthrough_table import Table, assert_position, assert_state, pending_text

# --- the four player turns ---------------------------------------------------------------------------------


def confederate_turn_1(t: Table) -> None:
    game = t.game
    davis, pettigrew, cutler = (
        brigade(game, n) for n in ("Davis's Brigade", "Pettigrew's Brigade", "Cutler's Brigade")
    )
    iron = brigade(game, "Iron Brigade (Meredith)")
    rifles, calef = battery(game, "Pegram's Battalion (rifles)"), battery(game, "2nd U.S., Battery A (Calef)")
    heth, hill = leader(game, "Henry Heth"), leader(game, "A. P. Hill")
    wadsworth, reynolds = leader(game, "James S. Wadsworth"), leader(game, "John F. Reynolds")
    wadsworths = division(game, "Wadsworth's Division")
    assert_position(game, 1, 1, "Confederate")

    # command: nobody has M hits and no leader has fallen yet, so both steps pass by themselves on one Next step
    passed = t.next_step("move", htmx=True, passing=("rally", "replace_leaders"))
    assert summary(passed) == (
        "On to maneuver: Attacker moves units (passed by itself, Attacker replaces hors de combat leaders: no "
        "attacking leader is hors de combat)"
    )

    # maneuver: Davis (Average) rolls 4, +1 for Heth, an Energetic division commander: 5 reaches Average assault 5
    roll = t.roll_maneuver(davis, die=4)
    assert roll.kind == "ManeuverRolled" and payload(roll).rolls() == (LabelledRoll("maneuver", Roll((4,))),)
    assert payload(roll).result.modified_roll == 5
    assert allowed(roll) == ["assault", "maneuver", "advance", "hold", "pull_back"]
    # the charge bonus toggle: used, taken back, used again
    assert t.mark_charge_bonus(davis, used=True, htmx=True).kind == "ChargeBonusUsed"
    assert t.mark_charge_bonus(davis, used=False).kind == "ChargeBonusCleared"
    assert_state(davis, charge_bonus_used=False)
    t.mark_charge_bonus(davis, used=True, htmx=True)
    t.set_skirmishers(davis, 2)
    t.change_formation(pettigrew, "brigade_column", htmx=True)
    functions = t.use_battery_functions(rifles, "prolong")
    assert functions.kind == "BatteryFunctionsUsed" and "1 of 2 functions, one kept to fire" in summary(functions)
    assert_state(davis, charge_bonus_used=True, skirmishers_deployed=2, formation="two_line")
    assert_state(pettigrew, formation="brigade_column")
    assert_state(rifles, functions_used=["prolong"], limbered=False)
    t.next_step("skirmish")

    # skirmish: the Union has no markers out, so no blocks; Davis's markers (Average reads Veteran) need 8 at 2"
    assert " bases · 2 markers to fire · " in row_of(t.page(), davis)
    attack = t.skirmish_attack(davis, iron, "1", die=8, htmx=True)
    assert payload(attack).hits == (FireHits(iron.key, m=1),)
    t.next_step("artillery_fire")

    # artillery: Pegram's rifles at 3" is the 4" bracket, M rifle 2M; the 10 drifts two cells left: 2M 1B
    expected = resolve_artillery_fire(game.chart, ArtilleryFireInput(BatteryType.M_RIFLE, 3.0, Roll((10,))))
    assert expected.result == Hits(m=2, b=1)
    fire = t.fire_battery(rifles, cutler, "3", die=10)
    assert fire.kind == "ArtilleryFired"
    assert payload(fire).hits == (FireHits(cutler.key, m=2, b=1),)
    # Calef answers at 12" (M rifle 1M, a 5 does not drift): 1M on Davis
    fire = t.fire_battery(calef, davis, "12", die=5, htmx=True)
    assert payload(fire).hits == (FireHits(davis.key, m=1),)
    # fire is simultaneous: the hits wait for the end of the step
    assert "Cutler&#x27;s Brigade: <strong>2M 1B</strong>" in t.page()
    assert_state(cutler, m_hits=0, bases=7, base_hits_turn=0)
    assert_state(davis, m_hits=0)
    assert_state(iron, m_hits=0)
    leaving = t.next_step("fire_hors_de_combat")
    assert "Cutler's Brigade: 2M 1B, now Rattled, 6 bases left" in summary(leaving)
    assert_state(cutler, m_hits=2, bases=6, base_hits_turn=1, condition="rattled")
    assert_state(davis, m_hits=1, condition="unformed")
    assert_state(iron, m_hits=1, condition="unformed")

    # hors de combat: Cutler lost a base, so Wadsworth (its division) and Reynolds (its corps) must roll or pass
    assert t.next_step_refused(htmx=False).startswith("Not yet: hors de combat check for John F. Reynolds")
    # a double 9-9, +1 for the base hit within 4", reads 10-10: 9 or more and he is hors de combat
    check = t.check_leader(wadsworth, 9, 9, base_hits=1)
    assert payload(check).casualty is True and payload(check).inputs.roll.faces == (9, 9)
    assert_state(wadsworth, hors_de_combat=True)
    t.pass_leader_over(reynolds, htmx=True)
    t.next_step("assaults", passing=("demoralized_panic",))  # nobody is demoralized yet

    # assault: Davis (Average, 8 bases, Unformed) against Cutler (Veteran, 6 bases, Rattled), Heth and Hill near
    seq = t.declare_assault({davis: "all_out"}, {cutler: "all_out"}, htmx=True)
    assert t.next_step_refused() == (
        "Not yet: finish assault 1 (Davis&#x27;s Brigade against Cutler&#x27;s Brigade): resolve round 1 or end it"
    )
    # attacker 10 - 1 Unformed + 2 leaders within 2" - 4 (all its skirmishers out, -1 a quarter) = 7;
    # defender 1 + 1 Veteran - 2 Rattled - 1 base lost this turn = -1; +8 on Pitched Battle: defender 3P 1B carry.
    # Cutler lost the natural roll by 9 (3 points a hit): 3M, and 1M more for the All-Out Win/Win; 2 + 4 M is
    # Demoralized with 2 M over, which become P: 5P reads Panic 4, Veteran Retreat, and a P4 event.
    fought = t.resolve_round(seq, 10, 1, attacker_leaders=(heth, hill))
    assert payload(fought).rolls() == (LabelledRoll("attacker", Roll((10,))), LabelledRoll("defender", Roll((1,))))
    assert summary(fought).startswith("Assault 1, round 1: 7 to -1 (+8 on Pitched Battle) → defender 1B 3P carry")
    assert str(payload(fought).result.defender.hits) == "4M 1B 3P"
    assert_state(
        cutler,
        m_hits=4,
        bases=5,
        base_hits_turn=2,
        p_hits_turn=5,
        p4_event=True,
        forced_move="Re",
        retreated=True,
        condition="demoralized",
    )
    assert_state(wadsworths, p4_event=True)
    assert_state(davis, m_hits=1, bases=8)
    assert t.end_assault(seq).kind == "AssaultEnded"
    t.next_step("assault_hors_de_combat", htmx=True)

    # Wadsworth is hors de combat already: only Reynolds is asked; 3-7 is not a double
    assert pending_text(t).startswith("hors de combat check for John F. Reynolds (I Corps lost 1 base)")
    assert "James S. Wadsworth" not in pending_text(t)
    check = t.check_leader(reynolds, 3, 7, base_hits=1, htmx=True)
    assert payload(check).casualty is False and "not a double" in summary(check)
    t.next_step("charge_disorder")

    # charge disorder: Davis used its charge bonus, Cutler retreated: 1M each (Cutler stays Demoralized)
    assert pending_text(t) == "apply charge disorder: 1M to Davis&#x27;s Brigade, Cutler&#x27;s Brigade"
    disorder = t.apply_charge_disorder()
    assert [u.unit for u in payload(disorder).units] == [davis.key, cutler.key]
    assert_state(davis, m_hits=2, condition="rattled")
    assert_state(cutler, m_hits=4)
    t.next_step("internal_panic")

    # panic: Cutler's P4 event makes Wadsworth's Division test. Its greatest share of bases is Crack (Iron 7,
    # Cutler 5, Hall 1): pass 4; 10 - 2 for Cutler demoralized = 8: it holds
    assert pending_text(t) == "roll the internal panic test of Wadsworth&#x27;s Division"
    test = t.division_panic_test(wadsworths, die=10, htmx=True)
    assert summary(test) == "Wadsworth's Division holds (10 − 2 demoralized (1 × -2) = 8 against 4)"
    assert payload(test).result.held is True
    assert_state(wadsworths, panicked=False, p4_event=True)
    ending = t.next_step("messages", passing=("adjoining_panic",))  # nobody panicked: no adjoining tests
    assert "end of player turn 1 of game turn 1" in summary(ending)

    assert_position(game, 1, 2, "Union")
    assert_state(davis, m_hits=2, bases=8, charge_bonus_used=False, skirmishers_deployed=2)
    assert_state(
        cutler, m_hits=4, bases=5, p_hits_turn=0, base_hits_turn=0, p4_event=False, forced_move="", retreated=False
    )
    assert_state(iron, m_hits=1, bases=7)
    assert_state(rifles, fired_this_turn=False, functions_used=[])
    assert_state(wadsworths, p4_event=False)
    assert_state(wadsworth, hors_de_combat=True, rating=1)


def union_turn_1(t: Table) -> None:
    game = t.game
    archer, pettigrew, davis = (
        brigade(game, n) for n in ("Archer's Brigade", "Pettigrew's Brigade", "Davis's Brigade")
    )
    iron, cutler, devin = (brigade(game, n) for n in ("Iron Brigade (Meredith)", "Cutler's Brigade", "Devin's Brigade"))
    hall, garnett = battery(game, "2nd Maine Light, Battery B (Hall)"), battery(game, "Garnett's Battalion")
    wadsworth, reynolds = leader(game, "James S. Wadsworth"), leader(game, "John F. Reynolds")

    t.next_step("rally")
    refused = t.next_step_refused()
    assert refused == ("Not yet: rally Iron Brigade (Meredith) (Unformed); rally Cutler&#x27;s Brigade (Demoralized)")
    # rally: Wadsworth is hors de combat and not yet replaced, so his rating (1) is subtracted.
    # Iron (Crack, Unformed 13): 13 + 3 - 1 = 15, Crack Formed
    rallied = t.rally(iron, die=3, htmx=True)
    assert summary(rallied).startswith("Iron Brigade (Meredith) rallies: Unformed → Formed")
    # Cutler (Veteran, Demoralized 4, 2 of 7 bases lost is 28%: -2): 4 + 1 - 1 - 2 = 2, below the line
    rallied = t.rally(cutler, die=1)
    expected = resolve_rally(
        game.chart,
        RallyInput(
            grade=Grade.VETERAN,
            m_hits=4,
            roll=Roll((1,)),
            division_leader=LeaderValue.parse("E1"),
            division_leader_distance=0,
            division_leader_hors_de_combat=True,
            bases_at_start=7,
            bases_now=5,
        ),
    )
    assert payload(rallied).result.new_number == expected.new_number == 2
    assert_state(iron, m_hits=0, condition="formed")
    assert_state(cutler, m_hits=4, condition="demoralized")
    t.next_step("replace_leaders")

    # Wadsworth comes back one rating lower
    assert pending_text(t) == "replace James S. Wadsworth, hors de combat"
    # the only one: nobody has anything left to do in the step, which passes by itself
    replaced = t.replace_leader(wadsworth, passes=1)
    assert summary(replaced) == "James S. Wadsworth returns to Wadsworth's Division as E0"
    assert_state(wadsworth, hors_de_combat=False, rating=0, replaced_this_turn=True)
    assert t.game.step == "move"

    # maneuver: Iron (Crack) rolls 5, +1 Energetic commander, -3 for its leader just replaced: 3, Crack assault
    roll = t.roll_maneuver(iron, die=5, htmx=True)
    assert payload(roll).result.modified_roll == 3 and "assault" in allowed(roll)
    t.mark_charge_bonus(iron, used=True)
    t.set_skirmishers(iron, 2, htmx=True)
    t.change_formation(devin, "two_line")
    t.use_battery_functions(hall, "prolong")
    assert_state(iron, charge_bonus_used=True, skirmishers_deployed=2)
    assert_state(devin, formation="two_line")
    t.next_step("skirmish")

    # skirmish: Davis's markers still out may block the Iron Brigade's; blocks are all declared first
    assert "Confederate: declare every block first" in t.page()
    t.declare_blocks({davis: iron}, htmx=True)
    assert pending_text(t) == "roll the 1 declared skirmish block"
    blocks = t.roll_blocks(6)  # Davis's Average markers block on the Veteran line: 6
    assert payload(blocks).blocked == (f"{iron.key}#1",)
    # the unblocked marker (Crack) fires at Archer from 4": 8 or more hits
    assert " bases · 1 marker to fire · " in row_of(t.page(), iron)
    attack = t.skirmish_attack(iron, archer, "4", die=9)
    assert payload(attack).hits == (FireHits(archer.key, m=1),)
    t.next_step("artillery_fire")

    # artillery: Hall at 5" (6" bracket) M rifle 2M on Pettigrew; Garnett saves its fire
    fire = t.fire_battery(hall, pettigrew, "5", die=5)
    assert payload(fire).hits == (FireHits(pettigrew.key, m=2),)
    assert t.save_fire(garnett, htmx=True).kind == "FireSaved"
    assert_state(pettigrew, m_hits=0)
    # no base was lost to fire: no leader rolls, no unit is demoralized with P hits: both steps pass by themselves
    t.next_step("assaults", htmx=True, passing=("fire_hors_de_combat", "demoralized_panic"))
    assert_state(pettigrew, m_hits=2, condition="rattled", bases=9)
    assert_state(archer, m_hits=1, condition="unformed")

    # assault: Iron (Crack, 7 bases) on Archer (Veteran, 4 bases, Unformed)
    seq = t.declare_assault({iron: "all_out"}, {archer: "all_out"})
    # attacker 1 + 2 Crack - 4 (both skirmish markers out) = -1; defender 10 + 1 Veteran - 1 Unformed - 1 (4
    # bases against 7, 3:2) = 9; -10 on Pitched Battle: attacker 3P 1B. Iron lost the natural roll by 9 (Crack,
    # 4 points a hit): 3M, Shaken; Panic 3, Crack: Withdraw.
    fought = t.resolve_round(seq, 1, 10, htmx=True)
    assert summary(fought) == (
        "Assault 1, round 1: -1 to 9 (-10 on Pitched Battle) → attacker 1B 3P; natural roll lost by the attacker: 3M"
    )
    assert_state(
        iron, m_hits=3, bases=6, base_hits_turn=1, p_hits_turn=3, forced_move="W", p4_event=False, condition="shaken"
    )
    assert_state(archer, m_hits=1, bases=4)
    t.end_assault(seq, htmx=True)
    t.next_step("assault_hors_de_combat")

    # Iron lost a base: Wadsworth rolls (2-5, no double), Reynolds is passed over
    assert t.next_step_refused().startswith("Not yet: hors de combat check for John F. Reynolds")
    t.check_leader(wadsworth, 2, 5, base_hits=1)
    t.pass_leader_over(reynolds, htmx=True)
    assert pending_text(t) == ""
    t.next_step("charge_disorder")

    # the Iron Brigade used its charge bonus: 1M, Demoralized
    disorder = t.apply_charge_disorder(htmx=True)
    assert [u.unit for u in payload(disorder).units] == [iron.key]
    assert_state(iron, m_hits=4, condition="demoralized")
    # Iron's Panic 3 is no Panic 4 event, and nothing else took P hits: no division tests, the panic phase passes
    ending = t.next_step("messages", passing=("internal_panic", "adjoining_panic"))
    assert "no division panicked; end of player turn 2 of game turn 1" in summary(ending)

    assert_position(game, 2, 1, "Confederate")
    assert_state(iron, m_hits=4, bases=6, charge_bonus_used=False, forced_move="", p_hits_turn=0)
    assert_state(cutler, m_hits=4, bases=5)
    assert_state(archer, m_hits=1, bases=4)
    assert_state(pettigrew, m_hits=2, bases=9)
    assert_state(wadsworth, rating=0, hors_de_combat=False, replaced_this_turn=False)
    assert_state(garnett, saved_fire=True)
    assert_state(hall, fired_this_turn=False, functions_used=[])
