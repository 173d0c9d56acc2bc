"""Fire whose hits do not wait for the end of the artillery step: a defending battery's passing fire during the
attacker's move (R:1229-1237), and enemy artillery's hits on a battery that prolonged this turn, which it suffers
before it fires (3.5, R:839-841)."""

import pytest

from republic.rules.artillery import ArtilleryFireInput, resolve_artillery_fire
from republic.rules.battery_functions import fired_before_hit, prolonged
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.fire_results import (
    ArtilleryHitsInput,
    FireHits,
    FireTarget,
    TargetKind,
    TargetRole,
    fire_hits,
    resolve_artillery_hits,
)
from republic.rules.hits import Hits
from republic.rules.results import Modifier
from republic.rules.saved_fire import SavedFireInput, resolve_saved_fire
from republic.rules.troops import BatteryFunction
from tests.rules.unit_states import battery, brigade

PROLONGED = (BatteryFunction.PROLONG,)


# --- passing fire --------------------------------------------------------------------------------------------


def test_passing_fire_takes_two_off_the_die_and_its_hits_land_at_once(chart):
    """R:1161-1163: "Subtract two points (-2) from the die roll if the artillery is conducting passing fire
    during the enemy movement phase"; the reading of R:1229-1237: its hits do not wait for the artillery phase."""
    inputs = ArtilleryFireInput.of(battery(), (), brigade(), range=3, roll=d10(7), passing_fire=True)
    result = resolve_artillery_fire(chart, inputs)
    assert Modifier("Passing Fire", -2, "4.4") in result.modifiers and result.modified_roll == 5
    assert "its hits take effect at once" in result.notes[-1]
    assert not any("end of the artillery phase" in note for note in result.notes)


def test_a_battery_saving_fire_uses_it_in_passing_fire(chart):
    """R:1234-1235: "Batteries saving fire may use passing fire with their Saved Fire modifier applied"."""
    inputs = ArtilleryFireInput.of(battery(saved_fire=True), (), brigade(), range=3, roll=d10(6), passing_fire=True)
    result = resolve_artillery_fire(chart, inputs)
    assert Modifier("Saved Fire", -1, "4.3") in result.shifts
    assert Modifier("Passing Fire", -2, "4.4") in result.modifiers


def test_every_hit_of_passing_fire_lands_at_once_none_waits(chart):
    shared = resolve_artillery_hits(
        chart, ArtilleryHitsInput(Hits(m=2, b=3), FireTarget(bases=4), FireTarget(bases=4), passing_fire=True)
    )
    assert all(t.at_once for t in shared.targets)
    units = {TargetRole.MAIN: "unit:1", TargetRole.TANDEM: "unit:2"}
    assert fire_hits(shared, units) == ()
    assert fire_hits(shared, units, at_once=True) == (FireHits("unit:1", 2, 2), FireHits("unit:2", 1, 1))
    assert shared.notes[-1] == "passing fire: the hits take effect at once, during the move (R:1229-1237)"


def test_a_battery_that_made_passing_fire_gains_no_saved_fire_for_the_phase_it_missed(chart):
    """R:1235-1237: "they do not receive saved fire as a result of that missed phase". Its fire was passing fire,
    not a fire of this artillery phase, so that is the reason given."""
    fired = battery(fired_this_turn=True)
    inputs = SavedFireInput.of(fired, passing_fire_this_turn=True)
    assert not inputs.fired_this_phase
    result = resolve_saved_fire(chart, inputs)
    assert not result.allowed and "passing fire" in (result.reason or "")
    assert "fired in this artillery phase" in (resolve_saved_fire(chart, SavedFireInput.of(fired)).reason or "")


# --- a battery that prolonged -------------------------------------------------------------------------------


def test_only_a_battery_that_prolonged_this_turn_suffers_enemy_artillery_first():
    assert prolonged(battery(functions_used=(BatteryFunction.UNLIMBER, BatteryFunction.PROLONG)))
    assert not prolonged(battery(functions_used=(BatteryFunction.UNLIMBER,)))
    assert not prolonged(battery())
    assert FireTarget.of(battery(functions_used=PROLONGED)).prolonged
    assert not FireTarget.of(battery()).prolonged and not FireTarget.of(brigade()).prolonged


def test_enemy_artillery_hits_on_a_prolonged_battery_land_now_and_the_rest_wait(chart):
    """R:839-841: "they suffer enemy artillery effects before they fire"; the tandem, a brigade, still waits."""
    main = FireTarget.of(battery(functions_used=PROLONGED))
    shared = resolve_artillery_hits(chart, ArtilleryHitsInput(Hits(m=2, b=3), main, FireTarget(bases=4)))
    units = {TargetRole.MAIN: "bty", TargetRole.TANDEM: "1st"}
    assert fire_hits(shared, units, at_once=True) == (FireHits("bty", 2, 2),)
    assert fire_hits(shared, units) == (FireHits("1st", 1, 1),)
    assert "main target prolonged this turn: it suffers these hits now, before it fires (3.5)" in shared.notes
    assert shared.notes[-1] == "hits take effect at the end of the artillery phase (4.2)"


def test_only_a_battery_can_be_a_prolonged_target():
    with pytest.raises(RulesInputError) as err:
        FireTarget(TargetKind.UNIT, 4, prolonged=True)
    assert err.value.field == "prolonged"


def test_fire_at_a_prolonged_battery_that_has_fired_comes_too_late():
    assert "before it fires (3.5)" in fired_before_hit(battery(functions_used=PROLONGED, fired_this_turn=True))
    assert fired_before_hit(battery(functions_used=PROLONGED)) == ""
    assert fired_before_hit(battery(fired_this_turn=True)) == ""
