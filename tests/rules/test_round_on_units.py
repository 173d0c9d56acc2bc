"""One assault round carried onto the units taking part (5.1-5.6): the round's column from the units, each
side's losses or its surrender, the attackers' break off (unless stalled) or breakthrough (unless forced
back), the saved fire the assault uses up, and each unit after the round and after fixed assault hits.

The rounds here read a printed outcome over the three column tables, so each test fixes the outcome it
needs and the rest follows from the stored chart."""

import pytest

from republic.rules.assault import AssaultRoundInput, resolve_assault_round, round_column
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
from republic.rules.assault_on_units import RoundUnit, after_round, resolve_round_on_units
from republic.rules.assault_results import AssaultLossesInput, UnitTakingHits, after_assault_loss, assault_losses
from republic.rules.assault_sides import AssaultSide, AssaultUnit, Contact
from republic.rules.assault_table import AssaultColumn, Struck
from republic.rules.dice import d10
from republic.rules.forced_moves import ForcedMove
from republic.rules.hits import Hits
from republic.rules.morale import Condition
from republic.rules.troops import Cover, Formation, Grade, UnitKind
from republic.rules.units import UnitState, disorder_input
from tests.rules.unit_states import battery, brigade

COLUMN_TABLES = [column.table for column in AssaultColumn]


def index(chart, grade: Grade, level: int):
    return chart.cell("panic_index", grade.value, f"p{level}")[0]


class Round:
    """A round read on a printed outcome, and what it did to the units."""

    def __init__(
        self,
        chart,
        outcome: str,
        attackers: tuple[RoundUnit, ...],
        defenders: tuple[RoundUnit, ...],
        *,
        attacker_roll: int = 5,
        defender_roll: int = 5,
        struck: Struck = Struck.FRONT,
        stalled: bool = False,
    ):
        self.chart = chart.overlay(dict.fromkeys(COLUMN_TABLES, outcome))
        side = AssaultSide.of
        self.round = resolve_assault_round(
            self.chart,
            AssaultRoundInput(
                side(d10(attacker_roll), tuple((m.unit, m.contact, Cover.NONE) for m in attackers)),
                side(
                    d10(defender_roll),
                    tuple((m.unit, m.contact, Cover.NONE) for m in defenders),
                    struck=None if struck is Struck.FRONT else struck,
                ),
            ),
        )
        self.result = resolve_round_on_units(
            self.chart, self.round, attackers, defenders, struck=struck, stalled=stalled
        )
        self.units = {m.unit.id: m.unit for m in (*attackers, *defenders)}

    def after(self, id: str) -> UnitState:
        return after_round(self.units[id], self.result)


def taking_part(unit: UnitState, contact: Contact = Contact.ALL_OUT, **flags) -> RoundUnit:
    return RoundUnit(unit, contact, **flags)


# --- the round's column from the units (5.2, 5.3) ------------------------------------------------------


@pytest.mark.parametrize(
    ("attackers", "defenders", "struck", "column"),
    [
        (
            (AssaultUnit(Grade.AVERAGE, 4),),
            (AssaultUnit(Grade.AVERAGE, 4),),
            Struck.FRONT,
            AssaultColumn.PITCHED_BATTLE,
        ),
        (
            (AssaultUnit(Grade.AVERAGE, 4),),
            (AssaultUnit(Grade.AVERAGE, 4, open_order=True),),
            Struck.FRONT,
            AssaultColumn.ATTACKER_ADVANTAGE,
        ),
        (
            (AssaultUnit(Grade.AVERAGE, 4),),
            (AssaultUnit(Grade.AVERAGE, 4, cover=Cover.LIGHT),),
            Struck.FRONT,
            AssaultColumn.DEFENDER_ADVANTAGE,
        ),
        (
            (AssaultUnit(Grade.AVERAGE, 4, kind=UnitKind.CAVALRY_MOUNTED),),
            (AssaultUnit(Grade.AVERAGE, 4),),
            Struck.FLANK,
            AssaultColumn.ATTACKER_ADVANTAGE,
        ),
        (
            (AssaultUnit(Grade.AVERAGE, 4, kind=UnitKind.CAVALRY_MOUNTED),),
            (AssaultUnit(Grade.AVERAGE, 4),),
            Struck.FRONT,
            AssaultColumn.DEFENDER_ADVANTAGE,
        ),
    ],
)
def test_the_column_follows_from_the_units_taking_part(attackers, defenders, struck, column):
    assert round_column(attackers, defenders, struck).column is column


def test_the_column_reads_the_greatest_share_of_each_sides_bases():
    """5.2, 5.3: four bases in the open outweigh three in cover, so no cover advantage."""
    defenders = (AssaultUnit(Grade.AVERAGE, 3, cover=Cover.HEAVY), AssaultUnit(Grade.AVERAGE, 4))
    assert round_column((AssaultUnit(Grade.AVERAGE, 6),), defenders, Struck.FRONT).column is (
        AssaultColumn.PITCHED_BATTLE
    )
    defenders = (AssaultUnit(Grade.AVERAGE, 5, cover=Cover.HEAVY), AssaultUnit(Grade.AVERAGE, 4))
    assert round_column((AssaultUnit(Grade.AVERAGE, 6),), defenders, Struck.FRONT).column is (
        AssaultColumn.DEFENDER_ADVANTAGE
    )


def test_the_table_may_name_another_column_and_the_rules_column_is_kept():
    chosen = round_column(
        (AssaultUnit(Grade.AVERAGE, 4),),
        (AssaultUnit(Grade.AVERAGE, 4),),
        Struck.FRONT,
        override=AssaultColumn.DEFENDER_ADVANTAGE,
    )
    assert (chosen.column, chosen.rules_column) == (AssaultColumn.DEFENDER_ADVANTAGE, AssaultColumn.PITCHED_BATTLE)


def test_a_brigade_in_open_order_against_close_order_infantry_is_disadvantaged(chart):
    """1.4 and 5.2: an open order defender gives the attacker the advantage, whatever its cover."""
    defender = AssaultUnit.of(brigade(formation=Formation.OPEN_ORDER), Contact.ALL_OUT, Cover.HEAVY)
    attacker = AssaultUnit.of(brigade("att"), Contact.ALL_OUT)
    assert round_column((attacker,), (defender,), Struck.FRONT).column is AssaultColumn.ATTACKER_ADVANTAGE


# --- losses ------------------------------------------------------------------------------------------


def test_defenders_losing_take_the_base_hit_in_closest_contact_and_each_its_panic_move(chart):
    """5.5: base hits go to the units in all-out contact first; every unit of the side takes the P."""
    r = Round(
        chart,
        "defender 1P 1B",
        (taking_part(brigade("att")),),
        (taking_part(brigade("near", bases=4)), taking_part(brigade("far", bases=4), Contact.GENERAL)),
    )
    move = index(chart, Grade.AVERAGE, 1).move
    near, far = r.after("near"), r.after("far")
    assert (near.bases, near.base_hits_turn, near.p_hits_turn, near.forced_move) == (3, 1, 1, move)
    assert (far.bases, far.base_hits_turn, far.p_hits_turn, far.forced_move) == (4, 0, 1, move)
    assert r.result.attacker is None and r.result.defender is not None
    assert r.after("att") == r.units["att"]


def test_the_units_p_hits_of_the_phase_add_up_over_rounds(chart):
    """5.4, 5.5: the P hits of earlier rounds are carried on the unit for the next round's modifier."""
    r = Round(chart, "defender 1P", (taking_part(brigade("att")),), (taking_part(brigade("def", p_hits_turn=2)),))
    after = r.after("def")
    assert after.p_hits_turn == 3
    assert r.result.loss("def").panic_level == 1  # the level is this round's P only


def test_each_unit_takes_the_natural_roll_m_of_its_own_grade(chart):
    """5.1 step 6 (R:1380-1390): losing by three is 1M for crack (4 points a hit) and 2M for green (2)."""
    r = Round(
        chart,
        "roll again",
        (taking_part(brigade("att", bases=8)),),
        (
            taking_part(brigade("crack", grade=Grade.CRACK, bases=4)),
            taking_part(brigade("green", grade=Grade.GREEN, bases=2)),
        ),
        attacker_roll=8,
        defender_roll=5,
    )
    assert r.round.defender.natural_m_by_unit == (1, 2)
    assert (r.after("crack").m_hits, r.after("green").m_hits) == (1, 2)
    assert r.result.loss("att") is None


def test_a_defender_routing_away_from_an_assault_in_its_rear_gives_up_one_more_prisoner(chart):
    """6.3 (R:1895-1899) read for prisoners (R:1702-1712): average Panic 4 is Rt 1, and the rear adds 1B."""
    rout = index(chart, Grade.AVERAGE, 4)
    assert rout.move is ForcedMove.ROUT
    front = Round(chart, "defender 4P", (taking_part(brigade("att")),), (taking_part(brigade("def")),))
    rear = Round(
        chart, "defender 4P", (taking_part(brigade("att")),), (taking_part(brigade("def")),), struck=Struck.REAR
    )
    assert front.result.loss("def").prisoners == rout.loss
    assert rear.result.loss("def").prisoners == rout.loss + 1
    after = rear.after("def")
    assert (after.bases, after.base_hits_turn) == (6 - rout.loss - 1, rout.loss + 1)
    assert after.p4_event and after.forced_move is ForcedMove.ROUT
    assert after.m_hits == 1  # the M at the end of the rout move (5.5)


def test_a_unit_whose_retreat_is_blocked_by_the_enemy_surrenders(chart):
    """5.5 Group Surrender."""
    r = Round(
        chart,
        "defender 2P",
        (taking_part(brigade("att")),),
        (taking_part(brigade("def", bases=4, base_hits_turn=1), retreat_blocked=True),),
    )
    after = r.after("def")
    assert after.surrendered and not after.destroyed and after.bases == 0 and after.base_hits_turn == 5


def test_a_defending_battery_required_to_rout_is_abandoned(chart):
    """5.5 (R:1657-1658): whatever else happened."""
    assert index(chart, Grade.AVERAGE, 4).move is ForcedMove.ROUT
    r = Round(
        chart,
        "defender 4P",
        (taking_part(brigade("att")),),
        (taking_part(brigade("def")), taking_part(battery("guns", saved_fire=True))),
    )
    guns = r.after("guns")
    assert guns.abandoned and guns.out_of_play and not guns.saved_fire
    assert r.result.defender.abandoned == ("guns",)


def test_a_defending_battery_that_retreats_limbers_at_a_damage(chart):
    """5.5 (R:1655-1656)."""
    assert index(chart, Grade.AVERAGE, 3).move is ForcedMove.RETREAT
    r = Round(chart, "defender 3P", (taking_part(brigade("att")),), (taking_part(battery("guns", limbered=False)),))
    guns = r.after("guns")
    assert (guns.damage, guns.limbered, guns.forced_move, guns.in_play) == (1, True, ForcedMove.RETREAT, True)


# --- surrender ---------------------------------------------------------------------------------------


def test_a_surrendering_side_gives_up_every_unit_and_takes_no_other_loss(chart):
    r = Round(
        chart,
        "defender surrender",
        (taking_part(brigade("att")),),
        (taking_part(brigade("def", bases=4, base_hits_turn=1)), taking_part(battery("guns"))),
        attacker_roll=9,
        defender_roll=2,
    )
    assert r.result.surrendered == ("def", "guns") and r.result.defender is None
    brigade_after, guns = r.after("def"), r.after("guns")
    assert brigade_after.surrendered and brigade_after.bases == 0 and brigade_after.base_hits_turn == 5
    assert guns.abandoned and not guns.surrendered
    assert r.after("att") == r.units["att"]


# --- break off ---------------------------------------------------------------------------------------


def test_attacking_brigades_that_break_off_take_one_m(chart):
    """5.5 (R:1771-1773)."""
    r = Round(
        chart,
        "attacker break off",
        (taking_part(brigade("a")), taking_part(brigade("b", m_hits=2))),
        (taking_part(brigade("def")),),
    )
    assert [b.unit for b in r.result.broke_off] == ["a", "b"]
    assert (r.after("a").m_hits, r.after("b").m_hits) == (1, 3)
    assert r.after("def") == r.units["def"]


def test_a_demoralized_brigade_breaking_off_takes_the_m_as_a_p_and_makes_its_panic_move(chart):
    r = Round(chart, "attacker break off", (taking_part(brigade("a", m_hits=4)),), (taking_part(brigade("def")),))
    after = r.after("a")
    assert (after.m_hits, after.p_hits_turn, after.forced_move) == (4, 1, index(chart, Grade.AVERAGE, 1).move)


def test_stalled_attackers_do_not_break_off_and_take_no_m(chart):
    """5.5 Stalled Assaults: no movement left to break off."""
    r = Round(chart, "attacker break off", (taking_part(brigade("a")),), (taking_part(brigade("def")),), stalled=True)
    assert r.result.broke_off == ()
    assert r.after("a") == r.units["a"]


def test_a_battery_among_the_attackers_does_not_break_off(chart):
    r = Round(
        chart,
        "attacker break off",
        (taking_part(brigade("a")), taking_part(battery("guns"))),
        (taking_part(brigade("def")),),
    )
    assert [b.unit for b in r.result.broke_off] == ["a"]
    assert r.after("guns").m_hits == 0


def test_an_attacker_destroyed_by_the_round_does_not_break_off(chart):
    r = Round(
        chart,
        "attacker 2B break off",
        (taking_part(brigade("a", bases=2, bases_start=6)),),
        (taking_part(brigade("def")),),
    )
    assert r.result.broke_off == ()
    after = r.after("a")
    assert after.destroyed and after.m_hits == 0


def test_break_off_finds_the_attacker_in_the_condition_its_losses_left_it(chart):
    """The losses come first: 1M from the natural roll, then the break off's 1M."""
    r = Round(
        chart,
        "attacker break off",
        (taking_part(brigade("a", m_hits=2)),),
        (taking_part(brigade("def")),),
        attacker_roll=3,
        defender_roll=5,
    )
    assert r.round.attacker.natural_m == 1
    broke = r.result.broke_off[0].result
    assert broke.m_before == 3
    assert r.after("a").m_hits == 4


# --- breakthrough ------------------------------------------------------------------------------------


def test_attackers_that_must_break_through_use_their_charge_bonus_unless_forced_back(chart):
    """5.5: must breakthrough moves the attackers on with their assault movement; one that the round forced
    back (a demoralized brigade taking the natural roll's M as a P) does not."""
    r = Round(
        chart,
        "defender 2P must breakthrough",
        (taking_part(brigade("a")), taking_part(brigade("b", m_hits=4))),
        (taking_part(brigade("def")),),
        attacker_roll=3,
        defender_roll=5,
    )
    assert r.result.break_through == ("a",)
    a, b = r.after("a"), r.after("b")
    assert a.charge_bonus_used and a.m_hits == 1 and a.forced_move is None
    assert not b.charge_bonus_used and b.forced_move is index(chart, Grade.AVERAGE, 1).move


def test_breaking_through_costs_charge_disorder_at_the_end_of_the_turn(chart):
    """5.5 then 5.6: units which use their assault movement bonus suffer one morale hit at the turn's end."""
    r = Round(chart, "defender 2P must breakthrough", (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    assert disorder_input(r.after("a"), attacker=True).used_charge_bonus


@pytest.mark.parametrize("outcome", ["defender 2P may breakthrough", "defender 2P carry", "defender 2P drive away"])
def test_only_a_must_breakthrough_moves_the_attackers_on(chart, outcome):
    r = Round(chart, outcome, (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    assert r.result.break_through == () and not r.after("a").charge_bonus_used


def test_an_infantry_overrun_is_a_must_breakthrough_on_the_units(chart):
    r = Round(chart, "defender 3P 1B overrun", (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    assert r.result.break_through == ("a",)


# --- saved fire --------------------------------------------------------------------------------------


def test_an_assault_uses_up_the_saved_fire_of_every_battery_in_it(chart):
    """4.2 (R:1078-1080): involvement in an assault causes all participating batteries to lose saved fire."""
    r = Round(
        chart,
        "roll again",
        (taking_part(brigade("a")), taking_part(battery("own", saved_fire=True))),
        (taking_part(brigade("def")), taking_part(battery("theirs", saved_fire=True))),
    )
    assert set(r.result.saved_fire_used) == {"own", "theirs"}
    assert not r.after("own").saved_fire and not r.after("theirs").saved_fire
    assert r.round.defender.modifiers and any("saved fire" in m.label for m in r.round.defender.modifiers)


def test_a_unit_not_in_the_round_is_left_as_it_was(chart):
    r = Round(chart, "defender 1P", (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    bystander = brigade("elsewhere", m_hits=1, saved_fire=False)
    assert after_round(bystander, r.result) == bystander
    assert r.result.loss("elsewhere") is None


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


def test_infantry_attacking_beside_overrunning_cavalry_must_break_through(chart):
    from republic.rules.assault import AssaultRoundInput, resolve_assault_round
    from republic.rules.assault_on_units import RoundUnit, after_round, resolve_round_on_units
    from republic.rules.assault_sides import AssaultSide, Contact
    from republic.rules.assault_table import AssaultColumn, OutcomeAction
    from republic.rules.dice import d10
    from republic.rules.troops import Cover, UnitKind
    from tests.rules.unit_states import brigade

    printed = chart.overlay({c.table: "defender 3P 1B overrun" for c in AssaultColumn})
    cav, inf, d = brigade("cav", kind=UnitKind.CAVALRY_MOUNTED), brigade("inf"), brigade("def")
    round_ = resolve_assault_round(
        printed,
        AssaultRoundInput(
            AssaultSide.of(d10(5), ((cav, Contact.ALL_OUT, Cover.NONE), (inf, Contact.ALL_OUT, Cover.NONE))),
            AssaultSide.of(d10(5), ((d, Contact.ALL_OUT, Cover.NONE),)),
        ),
    )
    assert round_.outcome.action is OutcomeAction.OVERRUN
    result = resolve_round_on_units(
        printed,
        round_,
        (RoundUnit(cav, Contact.ALL_OUT), RoundUnit(inf, Contact.ALL_OUT)),
        (RoundUnit(d, Contact.ALL_OUT),),
    )
    assert result.break_through == ("inf",) and after_round(inf, result).charge_bonus_used
