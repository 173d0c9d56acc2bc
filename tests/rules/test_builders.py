"""Mechanic inputs built from a unit's state: movement, rally, maneuver, skirmish attack and the assault's
units and sides. A builder reads what the state knows and takes the rest from the table; what the rules
forbid the unit in its condition is refused before anything is resolved."""

import pytest

from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_results import UnitTakingHits
from republic.rules.assault_sides import AssaultSide, AssaultUnit, Contact, skirmishers_in_assault
from republic.rules.assault_table import Struck
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.maneuver import ManeuverAction, ManeuverInput, charge_refusal, commander_class, resolve_maneuver
from republic.rules.morale import Condition
from republic.rules.movement import MovementInput, resolve_movement_allowance
from republic.rules.rally import RallyInput, resolve_rally
from republic.rules.skirmish import SkirmishAttackInput, resolve_skirmish_attack
from republic.rules.terrain import TerrainFeature
from republic.rules.troops import Cover, Formation, Grade, Leader, LeaderClass, UnitKind
from republic.rules.units import after_bases_lost, after_skirmishers
from tests.rules.unit_states import battery, brigade

# --- movement (3.1, 3.4) -------------------------------------------------------------------------------


def test_a_brigades_move_reads_its_kind_and_grade(chart):
    inputs = MovementInput.of(brigade(kind=UnitKind.CAVALRY_MOUNTED, grade=Grade.VETERAN), charge_bonus=True)
    assert (inputs.kind, inputs.grade, inputs.horse_artillery, inputs.battery_damage) == (
        UnitKind.CAVALRY_MOUNTED,
        Grade.VETERAN,
        False,
        0,
    )
    result = resolve_movement_allowance(chart, inputs)
    assert (result.normal, result.charge_bonus) == (18.0, 7.0)


def test_a_damaged_horse_battery_moves_at_horse_speed_less_a_quarter_per_damage(chart):
    """3.1, 3.4 (R:730-732): 18" less 25% of it for each of two damage."""
    inputs = MovementInput.of(battery(horse=True, damage=2))
    assert inputs.horse_artillery and inputs.battery_damage == 2
    assert resolve_movement_allowance(chart, inputs).allowance == 9.0


def test_a_foot_battery_is_not_horse_artillery(chart):
    assert resolve_movement_allowance(chart, MovementInput.of(battery())).normal == 10.0


def test_a_formed_brigade_pays_for_its_formation_changes(chart):
    inputs = MovementInput.of(
        brigade(), formation_changes=2, formation_changes_in_rough=1, terrain_within=(TerrainFeature.MEDIUM_FOREST,)
    )
    assert resolve_movement_allowance(chart, inputs).allowance == 10 - 2 - 2


@pytest.mark.parametrize("m_hits", [1, 2, 3, 4])
def test_a_brigade_with_m_hits_is_refused_formation_changes(m_hits):
    """2.3: from Unformed down, a unit may not change formation."""
    with pytest.raises(RulesInputError, match="may not change formation") as error:
        MovementInput.of(brigade(m_hits=m_hits), formation_changes=1)
    assert error.value.field == "formation_changes"


def test_a_brigade_with_m_hits_still_moves_without_changing_formation(chart):
    result = resolve_movement_allowance(chart, MovementInput.of(brigade(m_hits=2)))
    assert result.allowance == 10.0


# --- rally (2.3) -------------------------------------------------------------------------------------


def test_a_brigades_rally_reads_its_grade_condition_and_bases(chart):
    """T2 (R:540-545) from a unit's state: green, rattled, 8 bases down to 6, a P0 leader close by, a 6."""
    unit = brigade(grade=Grade.GREEN, bases=6, bases_start=8, m_hits=2)
    inputs = RallyInput.of(unit, d10(6), Leader.parse("P0"), 2.0)
    assert (inputs.bases_at_start, inputs.bases_now, inputs.battery_damage) == (8, 6, None)
    result = resolve_rally(chart, inputs)
    assert (result.lost_percent, result.modified_roll, result.condition_after) == (25, 4, Condition.UNFORMED)


def test_a_batterys_rally_counts_its_damage_as_losses(chart):
    """2.3 (R:569-570): each damage counts as 20% lost."""
    inputs = RallyInput.of(battery(m_hits=1, damage=2), d10(5), Leader.parse("P0"), 0.0)
    assert (inputs.battery_damage, inputs.bases_at_start, inputs.bases_now) == (2, None, None)
    assert resolve_rally(chart, inputs).lost_percent == 40


def test_a_formed_unit_has_nothing_to_rally():
    with pytest.raises(RulesInputError) as error:
        RallyInput.of(brigade(), d10(5), Leader.parse("P0"), 0.0)
    assert error.value.field == "m_hits"


def test_the_rally_takes_the_leaders_and_the_printed_reading_from_the_table(chart):
    inputs = RallyInput.of(
        brigade(m_hits=3),
        d10(5),
        Leader.parse("E2"),
        9.0,
        division_leader_hors_de_combat=True,
        printed=Condition.RATTLED,
    )
    assert inputs.division_leader_hors_de_combat and inputs.printed is Condition.RATTLED
    assert resolve_rally(chart, inputs).m_hits == 2


# --- maneuver (3.2) ----------------------------------------------------------------------------------


def test_a_brigades_roll_counts_its_m_hits_its_commander_and_each_leader_within_two_inches(chart):
    """3.2 (R:667-677): +1 energetic commander, +1 each proficient and +2 each energetic leader within 2",
    -1 each morale hit; cautious leaders within 2" add nothing."""
    unit = brigade(grade=Grade.GREEN, m_hits=2)
    leaders = (Leader.parse("P1"), Leader.parse("P2"), Leader.parse("E3"), Leader.parse("C0"))
    inputs = ManeuverInput.of(unit, d10(5), division_leader=Leader.parse("E1"), leaders_within_2=leaders)
    assert (inputs.m_hits, inputs.division_commander) == (2, LeaderClass.ENERGETIC)
    assert (inputs.proficient_leaders_within_2, inputs.energetic_leaders_within_2) == (2, 1)
    assert resolve_maneuver(chart, inputs).modified_roll == 5 - 2 + 1 + 2 + 2


def test_a_cautious_commander_costs_one(chart):
    inputs = ManeuverInput.of(brigade(), d10(5), division_leader=Leader.parse("C2"))
    assert resolve_maneuver(chart, inputs).modified_roll == 4


def test_a_commander_hors_de_combat_adds_nothing_either_way(chart):
    """2.5, 4.7: out of action and unable to contribute."""
    for leader in ("E2", "C2"):
        inputs = ManeuverInput.of(
            brigade(), d10(5), division_leader=Leader.parse(leader), division_leader_hors_de_combat=True
        )
        assert inputs.division_commander is None
        assert resolve_maneuver(chart, inputs).modified_roll == 5


def test_a_replaced_leader_and_acting_together_come_from_the_table(chart):
    inputs = ManeuverInput.of(
        brigade(),
        d10(8),
        division_leader_replaced=True,
        acting_together=ManeuverAction.ADVANCE,
        printed=(ManeuverAction.ADVANCE,),
    )
    assert inputs.division_leader_replaced and inputs.acting_together is ManeuverAction.ADVANCE
    assert inputs.printed == (ManeuverAction.ADVANCE,)
    assert resolve_maneuver(chart, inputs).modified_roll == 8 - 3 + 1


@pytest.mark.parametrize(
    ("leader", "hors_de_combat", "expected"),
    [
        (None, False, None),
        (Leader.parse("E1"), False, LeaderClass.ENERGETIC),
        (Leader.parse("P0"), False, LeaderClass.PROFICIENT),
        (Leader.parse("C-1"), False, LeaderClass.CAUTIOUS),
        (Leader.parse("C-1"), True, None),
        (Leader.parse("E4"), True, None),
    ],
)
def test_the_commanders_class_as_the_roll_reads_it(leader, hors_de_combat, expected):
    assert commander_class(leader, hors_de_combat) is expected


def test_a_brigade_that_has_not_rolled_may_not_charge():
    assert "No maneuver roll" in charge_refusal(None)


@pytest.mark.parametrize("allowed", [(), (ManeuverAction.HOLD,), (ManeuverAction.HOLD, ManeuverAction.PULL_BACK)])
def test_a_roll_allowing_only_hold_or_pull_back_allows_no_charge(allowed):
    """3.2: pulling back gives no assault move bonus."""
    assert "no assault move bonus" in charge_refusal(allowed)


@pytest.mark.parametrize("forward", [ManeuverAction.ASSAULT, ManeuverAction.MANEUVER, ManeuverAction.ADVANCE])
def test_a_roll_allowing_any_forward_action_allows_the_charge(forward):
    assert charge_refusal((ManeuverAction.HOLD, ManeuverAction.PULL_BACK, forward)) == ""


@pytest.mark.parametrize(
    ("action", "refused"),
    [
        (ManeuverAction.PULL_BACK, "pulling back may not use the assault move bonus"),
        (ManeuverAction.HOLD, "makes no assault move"),
        (ManeuverAction.ASSAULT, "does not allow it to assault"),
        (ManeuverAction.ADVANCE, ""),
    ],
)
def test_the_action_taken_with_the_bonus_decides_it_when_the_roll_allows_more(action, refused):
    """R:650-653: a brigade that pulls back gets no bonus even when its roll allowed it to advance."""
    allowed = (ManeuverAction.ADVANCE, ManeuverAction.PULL_BACK)
    found = charge_refusal(allowed, action)
    assert refused in found and bool(found) == bool(refused)


# --- skirmish attack (4.1, 4.5) ------------------------------------------------------------------------


def test_a_brigades_marker_attacks_with_its_lowered_skirmisher_type(chart):
    unit = brigade(grade=Grade.VETERAN, skirmisher_grade=Grade.GREEN, skirmishers_available=2, skirmishers_deployed=2)
    inputs = SkirmishAttackInput.of(unit, 1.5, d10(9))
    assert inputs.grade is Grade.GREEN
    result = resolve_skirmish_attack(chart, inputs)
    assert result.skirmisher_type is Grade.GREEN and result.needed == chart.cell("skirmish_attack", "green", "r1")[0]


def test_an_average_brigades_marker_reads_the_veteran_line(chart):
    result = resolve_skirmish_attack(chart, SkirmishAttackInput.of(brigade(), 4.0, d10(9)))
    assert result.skirmisher_type is Grade.VETERAN and result.band == "r2"


# --- the assault's units and sides (5.1, 5.2, 5.4) -----------------------------------------------------


def test_a_brigade_takes_part_with_its_bases_hits_formation_repeaters_and_markers():
    unit = brigade(
        bases=5,
        bases_start=6,
        m_hits=2,
        kind=UnitKind.CAVALRY_DISMOUNTED,
        formation=Formation.OPEN_ORDER,
        repeaters=True,
        skirmishers_available=4,
        skirmishers_deployed=3,
    )
    taking_part = AssaultUnit.of(unit, Contact.ALL_OUT, Cover.MEDIUM)
    assert taking_part == AssaultUnit(
        Grade.AVERAGE,
        5,
        2,
        UnitKind.CAVALRY_DISMOUNTED,
        Contact.ALL_OUT,
        Cover.MEDIUM,
        open_order=True,
        repeaters=True,
        skirmishers_deployed=3,
        skirmishers_available=5,  # open order: one per combat base, more than the troop list's 4 (R:269-270)
    )


def test_a_brigade_in_open_order_takes_part_with_a_marker_out_per_combat_base():
    """R:269-270: "While in open order, a brigade may deploy one skirmish marker per combat base." Its markers
    beyond the troop list's are available markers for the 1/4 skirmishers out modifier (5.3, R:1595-1599)."""
    unit = brigade(bases=6, bases_start=6, formation=Formation.OPEN_ORDER, skirmishers_available=2)
    unit = after_skirmishers(unit, 6)
    taking_part = AssaultUnit.of(unit, Contact.GENERAL)
    assert (taking_part.skirmishers_deployed, taking_part.skirmishers_available) == (6, 6)
    closed = AssaultUnit.of(
        brigade(bases=6, bases_start=6, skirmishers_available=2, skirmishers_deployed=2), Contact.GENERAL
    )
    assert closed.skirmishers_available == 2


def test_a_brigade_in_open_order_that_lost_a_base_keeps_its_markers_out_and_counts_them_all():
    """R:269-270 limits the markers a brigade in open order deploys, one per combat base; no rule takes a marker
    away with a base. Four out and a base lost to fire: its four markers are all it has, four quarters out
    (5.3, R:1595-1599), never more."""
    unit = after_skirmishers(
        brigade(bases=4, bases_start=4, formation=Formation.OPEN_ORDER, skirmishers_available=2), 4
    )
    unit = after_bases_lost(unit, 1)  # to fire
    assert (unit.bases, unit.skirmishers_deployed) == (3, 4)
    taking_part = AssaultUnit.of(unit, Contact.GENERAL)
    assert (taking_part.skirmishers_deployed, taking_part.skirmishers_available) == (4, 4)
    assert skirmishers_in_assault(after_skirmishers(unit, 2)) == 3  # fewer out: one a base


def test_a_supporting_unit_counts_only_the_bases_in_the_window():
    """R:1431-1435: a supporting defender applies "only those Supporting Bases toward the overall strength"."""
    unit = brigade("sup", bases=6, bases_start=6)
    assert AssaultUnit.of(unit, Contact.GENERAL, bases=2).bases == 2
    for wrong in (0, 7):
        with pytest.raises(RulesInputError) as error:
            AssaultUnit.of(unit, Contact.GENERAL, bases=wrong)
        assert error.value.field == "bases"
    members = ((brigade("def"), Contact.ALL_OUT, Cover.NONE), (unit, Contact.GENERAL, Cover.NONE))
    assert AssaultSide.of(d10(5), members, counted={"sup": 2}).bases == brigade("def").bases + 2


def test_a_battery_takes_part_as_artillery_with_one_base():
    taking_part = AssaultUnit.of(battery(m_hits=1), Contact.GENERAL)
    assert taking_part == AssaultUnit(Grade.AVERAGE, 1, 1, UnitKind.ARTILLERY, Contact.GENERAL)


def test_a_unit_with_no_bases_left_takes_no_part():
    with pytest.raises(RulesInputError) as error:
        AssaultUnit.of(brigade(bases=0, bases_start=6, destroyed=True), Contact.ALL_OUT)
    assert error.value.field == "bases"


def test_a_side_counts_its_saved_fire_batteries_its_bases_lost_this_turn_and_its_worst_p_hits():
    """R:1591-1593: the worst P hits are those "suffered so far during the current assault phase": "a" took 3 P
    from fire and 1 in the assault, "b" 2 in the assault."""
    members = (
        (
            brigade("a", bases=4, bases_start=6, base_hits_turn=2, p_hits_turn=4, p_hits_assault=1),
            Contact.ALL_OUT,
            Cover.NONE,
        ),
        (brigade("b", base_hits_turn=1, p_hits_turn=2, p_hits_assault=2), Contact.GENERAL, Cover.NONE),
        (battery("c", saved_fire=True), Contact.GENERAL, Cover.NONE),
        (battery("d"), Contact.GENERAL, Cover.NONE),
    )
    side = AssaultSide.of(d10(5), members, leaders_within_2=1, fresh_batteries=2)
    assert (side.saved_fire_batteries, side.bases_lost, side.worst_panic) == (1, 3, 2)
    assert (side.leaders_within_2, side.fresh_batteries, side.bases) == (1, 2, 12)
    assert side.struck is Struck.FRONT


@pytest.mark.parametrize(
    ("struck", "outflanked", "rear"),
    [(None, False, False), (Struck.FRONT, False, False), (Struck.FLANK, True, False), (Struck.REAR, False, True)],
)
def test_where_the_defender_is_struck_is_the_tables_word(struck, outflanked, rear):
    side = AssaultSide.of(d10(5), ((brigade(), Contact.ALL_OUT, Cover.NONE),), struck=struck)
    assert (side.outflanked, side.rear) == (outflanked, rear)
    assert side.struck is (struck or Struck.FRONT)


def test_more_fresh_batteries_than_the_side_has_are_refused():
    with pytest.raises(RulesInputError) as error:
        AssaultSide.of(d10(5), ((brigade(), Contact.ALL_OUT, Cover.NONE),), fresh_batteries=1)
    assert error.value.field == "fresh_batteries"


def test_a_sides_losses_and_saved_fire_come_through_as_its_die_modifiers(chart):
    """5.4 (R:1587-1594) and the saved fire tactical bonus (4.2): two bases lost this turn, -2; the worst
    unit's one P hit of the assault phase, -1 (its two from fire do not count); one battery with saved fire,
    +1."""
    attackers = ((brigade("att"), Contact.ALL_OUT, Cover.NONE),)
    defenders = (
        (
            brigade("def", bases=4, bases_start=6, base_hits_turn=2, p_hits_turn=3, p_hits_assault=1),
            Contact.ALL_OUT,
            Cover.NONE,
        ),
        (battery("guns", saved_fire=True), Contact.ALL_OUT, Cover.NONE),
    )
    result = resolve_assault_round(
        chart, AssaultRoundInput(AssaultSide.of(d10(5), attackers), AssaultSide.of(d10(5), defenders))
    )
    labels = {m.label: m.value for m in result.defender.modifiers}
    assert labels["each own base lost this player turn"] == -2
    assert labels["each P hit on the worst single unit this phase"] == -1
    assert labels["tactical bonus: each battery with saved fire"] == 1


def test_a_unit_takes_the_rounds_hits_with_its_p_hits_so_far_and_a_batterys_damage_and_limber():
    unit = brigade(bases=4, bases_start=6, m_hits=1, p_hits_turn=5, p_hits_assault=2)  # 3 P from fire
    taking = UnitTakingHits.of(unit, Contact.GENERAL, natural_m=2, retreat_blocked=True, out_of_town=True)
    assert (taking.id, taking.kind, taking.bases, taking.m_hits, taking.earlier_panic_hits) == (
        "1st",
        UnitKind.INFANTRY,
        4,
        1,
        2,
    )
    assert (taking.contact, taking.natural_m, taking.retreat_blocked, taking.out_of_town) == (
        Contact.GENERAL,
        2,
        True,
        True,
    )
    assert (taking.damage, taking.limbered) == (0, False)
    guns = UnitTakingHits.of(battery(damage=2, limbered=True), Contact.ALL_OUT)
    assert (guns.kind, guns.damage, guns.limbered) == (UnitKind.ARTILLERY, 2, True)


def test_a_battery_that_fired_or_moved_this_turn_may_not_save_fire(chart):
    from republic.rules.saved_fire import SavedFireInput, resolve_saved_fire
    from republic.rules.troops import BatteryFunction
    from tests.rules.unit_states import battery

    fired = battery(fired_this_turn=True, functions_used=(BatteryFunction.FIRE,))
    assert not resolve_saved_fire(chart, SavedFireInput.of(fired)).allowed
    moved = battery(limbered=True, functions_used=(BatteryFunction.MOVE, BatteryFunction.UNLIMBER))
    assert not resolve_saved_fire(chart, SavedFireInput.of(moved)).allowed
    assert resolve_saved_fire(chart, SavedFireInput.of(battery())).allowed
