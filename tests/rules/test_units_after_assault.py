"""A unit after an assault (5.1, 5.5): after its side's losses in a round, carried into a later round, and
after the fixed assault hits of break off, a supporting brigade and passage of lines."""

from republic.rules.assault_fixed_hits import (
    BreakOffInput,
    PassageInput,
    PassingUnit,
    SupportingBrigadeInput,
    after_hits,
    resolve_break_off,
    resolve_passage_of_lines,
    resolve_supporting_brigade,
)
from republic.rules.assault_on_units import after_assault_loss
from republic.rules.assault_results import AssaultLossesInput, UnitTakingHits, assault_losses
from republic.rules.assault_sides import AssaultSide, Contact
from republic.rules.dice import d10
from republic.rules.forced_moves import ForcedMove
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.troops import Cover, Grade
from republic.rules.units import new_player_turn
from tests.rules.printed_rounds import index
from tests.rules.unit_states import battery, brigade

# --- a unit after its side's losses ------------------------------------------------------------------


def test_after_its_losses_a_brigade_keeps_its_bases_morale_move_and_p4_event(chart):
    unit = brigade("def", m_hits=4, p_hits_turn=1, base_hits_turn=1)
    losses = assault_losses(chart, (UnitTakingHits.of(unit, Contact.ALL_OUT),), Hits(p=3, b=1), natural_m=1)
    loss = losses.units[0]
    after = after_assault_loss(unit, loss)
    assert (after.bases, after.base_hits_turn) == (loss.bases_after, 1 + (6 - loss.bases_after))
    assert (after.m_hits, after.p_hits_turn, after.p4_event) == (loss.m_after, 1 + 4, True)
    assert after.forced_move is loss.move


def test_after_its_losses_a_brigade_keeps_the_longest_move_of_the_turn(chart):
    unit = brigade("def", forced_move=ForcedMove.ROUT)
    loss = assault_losses(chart, (UnitTakingHits.of(unit, Contact.ALL_OUT),), Hits(p=1)).units[0]
    assert after_assault_loss(unit, loss).forced_move is ForcedMove.ROUT


def test_a_brigade_destroyed_by_base_hits_is_destroyed(chart):
    unit = brigade("def", bases=2, bases_start=6)
    loss = assault_losses(chart, (UnitTakingHits.of(unit, Contact.ALL_OUT),), Hits(b=3)).units[0]
    after = after_assault_loss(unit, loss)
    assert after.destroyed and not after.surrendered and after.bases == 0 and after.base_hits_turn == 2


def test_a_battery_whose_retreat_is_blocked_is_taken(chart):
    unit = battery("guns")
    loss = assault_losses(chart, (UnitTakingHits.of(unit, Contact.ALL_OUT, retreat_blocked=True),), Hits(p=1)).units[0]
    after = after_assault_loss(unit, loss)
    assert after.abandoned and after.bases == 0 and not after.in_play


def test_a_battery_taking_base_hits_is_damaged_not_removed(chart):
    unit = battery("guns", damage=1)
    result = assault_losses(
        chart, (UnitTakingHits.of(brigade("inf"), Contact.ALL_OUT), UnitTakingHits.of(unit, Contact.ALL_OUT)), Hits(b=1)
    )
    after = after_assault_loss(unit, result.units[1])
    assert (after.damage, after.bases, after.in_play) == (2, 1, True)


def test_assault_losses_in_a_later_round_read_the_unit_after_the_first(chart):
    """5.1: a roll again reads the new conditions; the P hits of the phase carry over (5.4)."""
    unit = brigade("def")
    first = after_assault_loss(
        unit, assault_losses(chart, (UnitTakingHits.of(unit, Contact.ALL_OUT),), Hits(m=1, p=1)).units[0]
    )
    inputs = AssaultLossesInput((UnitTakingHits.of(first, Contact.ALL_OUT),), Hits(p=1))
    second = assault_losses(chart, inputs.units, inputs.hits).units[0]
    assert (second.m_before, second.phase_panic_hits) == (1, 2)


def test_the_p_hits_of_the_assault_phase_are_kept_apart_from_those_of_fire(chart):
    """R:1591-1593: the worst-P modifier counts "panic hits suffered so far during the current assault phase";
    the turn's P hits, fire's included, still add up for the panic tests that read them."""
    unit = brigade("def", p_hits_turn=3)  # three P from the fire phase
    assert AssaultSide.of(d10(5), ((unit, Contact.ALL_OUT, Cover.NONE),)).worst_panic == 0
    taking = UnitTakingHits.of(unit, Contact.ALL_OUT)
    assert taking.earlier_panic_hits == 0
    first = after_assault_loss(unit, assault_losses(chart, (taking,), Hits(p=1)).units[0])
    assert (first.p_hits_turn, first.p_hits_assault) == (4, 1)
    assert AssaultSide.of(d10(5), ((first, Contact.ALL_OUT, Cover.NONE),)).worst_panic == 1
    second = after_assault_loss(
        first, assault_losses(chart, (UnitTakingHits.of(first, Contact.ALL_OUT),), Hits(p=2)).units[0]
    )
    assert (second.p_hits_turn, second.p_hits_assault) == (6, 3)
    assert new_player_turn(second).p_hits_assault == 0


# --- a unit after fixed assault hits (5.5) -------------------------------------------------------------


def test_a_brigade_that_breaks_off_takes_one_m_and_no_move(chart):
    unit = brigade("a", m_hits=1)
    after = after_hits(unit, resolve_break_off(chart, BreakOffInput(unit.grade, unit.m_hits)))
    assert (after.m_hits, after.p_hits_turn, after.forced_move, after.p4_event) == (2, 0, None, False)


def test_a_supporting_brigade_of_a_routed_defender_takes_one_m_and_its_chosen_move(chart):
    """5.5 (R:1789-1792)."""
    unit = brigade("support")
    result = resolve_supporting_brigade(
        chart, SupportingBrigadeInput(unit.grade, 6, 2, ForcedMove.ROUT, move=ForcedMove.FALL_BACK)
    )
    after = after_hits(unit, result)
    assert (after.m_hits, after.forced_move) == (1, ForcedMove.FALL_BACK)


def test_a_demoralized_unit_passed_through_goes_straight_to_panic_4_and_marks_the_event(chart):
    """5.5: a unit suffering pass through hits that was already demoralized goes to Panic 4."""
    unit = brigade("behind", m_hits=4, forced_move=ForcedMove.WITHDRAW)
    result = resolve_passage_of_lines(
        chart, PassageInput((PassingUnit(3, ForcedMove.RETREAT, 2.0),), unit.grade, unit.m_hits)
    )
    after = after_hits(unit, result)
    rout = index(chart, Grade.AVERAGE, 4).move
    assert after.p4_event and after.p_hits_turn == 4
    assert after.forced_move is max(ForcedMove.WITHDRAW, rout, key=lambda m: m.severity)
    assert after.condition is Condition.DEMORALIZED


def test_a_brigade_destroyed_in_the_assault_phase_makes_its_division_test_without_a_panic_4(chart):
    """R:1710-1713: "If a unit is completely destroyed during the course of the assault phase, the parent
    division must still check for panic" (``gone_in_assault`` gives the reading)."""
    unit = brigade("def", bases=2, bases_start=6)
    loss = assault_losses(chart, (UnitTakingHits.of(unit, Contact.ALL_OUT),), Hits(b=3)).units[0]
    assert loss.destroyed and not loss.p4_event
    after = after_assault_loss(unit, loss)
    assert after.destroyed and after.p4_event
    survivor = brigade("def", bases=6, bases_start=6)
    kept = after_assault_loss(
        survivor, assault_losses(chart, (UnitTakingHits.of(survivor, Contact.ALL_OUT),), Hits(b=3)).units[0]
    )
    assert kept.bases == 3 and not kept.p4_event
    guns = battery("guns", damage=3)
    struck = after_assault_loss(
        guns, assault_losses(chart, (UnitTakingHits.of(guns, Contact.ALL_OUT),), Hits(b=2)).units[0]
    )
    assert not struck.p4_event  # a battery is abandoned or damaged, never destroyed


def test_a_brigade_that_surrenders_in_the_assault_phase_makes_its_division_test(chart):
    """R:1710-1713, read with R:1866-1868 ("entirely destroyed, deserted or captured"): taken whole, it is gone."""
    unit = brigade("def")
    taking = UnitTakingHits.of(unit, Contact.ALL_OUT, retreat_blocked=True)
    loss = assault_losses(chart, (taking,), Hits(b=1, p=1)).units[0]
    assert loss.surrendered and not loss.p4_event
    after = after_assault_loss(unit, loss)
    assert after.surrendered and after.p4_event


def test_a_bridging_formation_takes_the_worst_of_each_type_of_its_two_assaults(chart):
    """R:1465-1471: "if one assault inflicts 2M and 2P on the attacking force and another assault inflicts 3M and
    2P on the other attacking force, a bridging formation split between the two assaults will receive 3M and 2P"."""
    unit = brigade("bridge", grade=Grade.VETERAN)
    first = assault_losses(chart, (UnitTakingHits.of(unit, Contact.ALL_OUT),), Hits(m=2, p=2)).units[0]
    unit = after_assault_loss(unit, first)
    assert (unit.m_hits, unit.p_hits_assault) == (2, 2)
    elsewhere = Hits(m=first.m_taken, b=first.base_hits, p=first.panic_hits)
    taking = UnitTakingHits.of(unit, Contact.ALL_OUT, taken_elsewhere=elsewhere)
    second = assault_losses(chart, (taking,), Hits(m=3, p=2)).units[0]
    assert (second.m_taken, second.panic_hits) == (1, 0)
    assert "2M 2P in its other assault, 3M 2P here; it takes the worst of each type, 3M 2P, so 1M more" in " ".join(
        second.notes
    )
    unit = after_assault_loss(unit, second)
    assert (unit.m_hits, unit.p_hits_assault) == (3, 2)
    # a lighter second assault adds nothing
    lighter = assault_losses(chart, (taking,), Hits(m=1, p=1)).units[0]
    assert (lighter.m_taken, lighter.panic_hits, lighter.base_hits) == (0, 0, 0)
