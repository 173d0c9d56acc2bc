"""One assault round carried onto the units taking part (5.2, 5.3, 5.5): the round's column from the units,
each side's losses in bases, morale, panic and prisoners, a battery abandoned or limbering, and a side's
surrender. Each round reads a printed outcome set over the three column tables, so a test fixes the
outcome it needs and the rest follows from the stored chart."""

import pytest

from republic.rules.assault import round_column
from republic.rules.assault_sides import AssaultUnit, Contact
from republic.rules.assault_table import AssaultColumn, Struck
from republic.rules.forced_moves import ForcedMove
from republic.rules.troops import Cover, Formation, Grade, UnitKind
from tests.rules.printed_rounds import Round, index, taking_part
from tests.rules.unit_states import battery, brigade

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
