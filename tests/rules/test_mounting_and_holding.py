"""Cavalry mounting and dismounting (3.5, R:817-825) and what follows from the footing; a holding or panicked
division's half movement (5.2 R:1441-1442, 6.1 R:1830-1832); panicked divisions' orders back to Defend as the
panic phase ends (6.1, R:1849-1852)."""

import pytest

from republic.rules.assault_table import AssaultColumn, OutcomeAction, Struck, assault_column
from republic.rules.catalog import MECHANICS
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove, ForcedMoveInput, resolve_forced_move
from republic.rules.movement import (
    Ground,
    MountInput,
    MovementInput,
    after_mounting,
    holding,
    movement_allowance,
    resolve_mount,
    resolve_movement_allowance,
)
from republic.rules.panic_phase import orders_after_panic_phase
from republic.rules.troops import DivisionOrders, Grade, UnitKind
from tests.rules.assault_inputs import fight, unit
from tests.rules.unit_states import battery, brigade

K = UnitKind

# --- mounting and dismounting ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "mount", "after"),
    [
        (K.CAVALRY_MOUNTED, False, K.CAVALRY_DISMOUNTED),
        (K.CAVALRY_DISMOUNTED, True, K.CAVALRY_MOUNTED),
        (K.MOUNTED_INFANTRY_MOUNTED, False, K.MOUNTED_INFANTRY_DISMOUNTED),
        (K.MOUNTED_INFANTRY_DISMOUNTED, True, K.MOUNTED_INFANTRY_MOUNTED),
    ],
)
def test_cavalry_and_mounted_infantry_dismount_and_remount(chart, kind, mount, after):
    """R:817-822: mounted cavalry may dismount and operate as foot troops, dismounted cavalry may remount."""
    result = resolve_mount(chart, MountInput(kind, mount))
    assert result.allowed and result.kind is after
    assert any("formation change" in note for note in result.notes)
    assert after_mounting(brigade(kind=kind), result).kind is after


@pytest.mark.parametrize(
    ("kind", "mount", "refused"),
    [
        (K.INFANTRY, True, "only cavalry and mounted infantry mount and dismount (3.5)"),
        (K.ARTILLERY, False, "only cavalry and mounted infantry mount and dismount (3.5)"),
        (K.CAVALRY_MOUNTED, True, "it is already mounted"),
        (K.MOUNTED_INFANTRY_DISMOUNTED, False, "it is already dismounted"),
    ],
)
def test_only_a_horse_borne_brigade_changes_its_footing_and_only_to_the_other(chart, kind, mount, refused):
    result = resolve_mount(chart, MountInput(kind, mount))
    assert not result.allowed and result.refused == refused and result.kind is kind


@pytest.mark.parametrize(("m_hits", "condition"), [(1, "Unformed"), (2, "Rattled"), (3, "Shaken"), (4, "Demoralized")])
def test_mounting_is_a_formation_change_that_unformed_or_worse_may_not_make(chart, m_hits, condition):
    """R:819-820 mounting or dismounting "counts as a standard formation change"; R:494-502 from Unformed on a unit
    "may not change formation"."""
    unit = brigade(kind=K.CAVALRY_MOUNTED, m_hits=m_hits)
    result = resolve_mount(chart, MountInput.of(unit, mount=False))
    assert result.refused == f"{condition}: may not change formation (2.3), and to dismount is one (3.5)"
    with pytest.raises(RulesInputError, match="may not change formation") as error:
        after_mounting(unit, result)
    assert error.value.field == "mount"


def test_a_formed_brigade_may_dismount_and_the_mechanic_is_listed(chart):
    result = resolve_mount(chart, MountInput.of(brigade(kind=K.CAVALRY_MOUNTED), mount=False))
    assert result.allowed and not result.cells and not result.provisional
    assert MECHANICS["mount"].resolve is resolve_mount and MECHANICS["mount"].section == "3.5"


def test_a_dismounted_brigade_moves_on_foot_after_its_formation_change(chart):
    """3.1 (R:605-607) horse 18", foot 10"; the dismount is a formation change of 1" for a trained brigade, taken
    from the dismounted allowance (R:822-825)."""
    mounted = brigade(kind=K.CAVALRY_MOUNTED, grade=Grade.VETERAN)
    assert resolve_movement_allowance(chart, MovementInput.of(mounted, charge_bonus=True)).with_charge == 18 + 7
    dismounted = after_mounting(mounted, resolve_mount(chart, MountInput.of(mounted, mount=False)))
    result = resolve_movement_allowance(chart, MovementInput.of(dismounted, formation_changes=1, charge_bonus=True))
    assert (result.normal, result.allowance, result.charge_bonus) == (10, 9, 4)


def test_a_dismounted_brigade_makes_the_foot_forced_move_and_remounted_the_double(chart):
    """5.5: horse moves double: a rout of 14" on foot is 28" on horse."""
    mounted = brigade(kind=K.CAVALRY_MOUNTED)
    dismounted = after_mounting(mounted, resolve_mount(chart, MountInput.of(mounted, mount=False)))
    on_foot = resolve_forced_move(chart, ForcedMoveInput(ForcedMove.ROUT, horse=dismounted.kind.horse))
    on_horse = resolve_forced_move(chart, ForcedMoveInput(ForcedMove.ROUT, horse=mounted.kind.horse))
    assert (on_foot.distance, on_horse.distance) == (14, 28)


def test_the_assault_column_and_the_overrun_follow_the_footing(chart):
    """5.3 (R:1522-1527): mounted cavalry on the flank of foot troops, or assaulting artillery, has the Attacker
    Advantage; dismounted it fights as foot, and only mounted cavalry overruns (5.5)."""
    mounted = brigade(kind=K.CAVALRY_MOUNTED)
    dismounted = after_mounting(mounted, resolve_mount(chart, MountInput.of(mounted, mount=False)))
    assert assault_column(mounted.kind, K.INFANTRY, Struck.FLANK).column is AssaultColumn.ATTACKER_ADVANTAGE
    assert assault_column(dismounted.kind, K.INFANTRY, Struck.FLANK).column is AssaultColumn.PITCHED_BATTLE
    on_horse = fight(10, 1, [unit(kind=mounted.kind)], [unit(kind=K.ARTILLERY, bases=1)], chart=chart)
    on_foot = fight(10, 1, [unit(kind=dismounted.kind)], [unit(kind=K.ARTILLERY, bases=1)], chart=chart)
    assert on_horse.outcome.action is OutcomeAction.OVERRUN
    assert on_foot.column is not AssaultColumn.ATTACKER_ADVANTAGE
    assert on_foot.outcome.action is not OutcomeAction.OVERRUN


# --- a holding division's half movement ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("orders", "panicked", "why"),
    [
        (DivisionOrders.HOLD, False, "its division holds: its units move no more than half (5.2)"),
        (DivisionOrders.ATTACK, True, "its division panicked: it counts as holding, so its units move no more"),
        (DivisionOrders.DEFEND, False, ""),
        (DivisionOrders.ATTACK, False, ""),
        (DivisionOrders.MANEUVER, False, ""),
        (None, False, ""),
    ],
)
def test_only_holding_and_panicked_divisions_hold_their_units_to_half(chart, orders, panicked, why):
    assert holding(orders, panicked).startswith(why) and bool(holding(orders, panicked)) == bool(why)
    result = movement_allowance(
        chart,
        K.INFANTRY,
        Grade.VETERAN,
        formation_changes=1,
        charge_bonus=True,
        terrain_within=(),
        division_orders=orders,
        division_panicked=panicked,
    )
    # 10" less 1" for the formation change, then half of what is left; the charge bonus halves too
    expected = (4.5, 2.0) if why else (9.0, 4.0)
    assert (result.allowance, result.charge_bonus) == expected
    assert next(g for g in result.ground if g.ground is Ground.ROUGH).reach == expected[0] / 2
    assert (why in result.notes[0]) if why else not any("half" in note for note in result.notes)


def test_the_half_is_a_deduction_with_its_reason(chart):
    result = movement_allowance(chart, K.INFANTRY, Grade.VETERAN, formation_changes=1, division_panicked=True)
    labels = {m.label: (m.value, m.section) for m in result.modifiers}
    assert labels["Holding division: no more than half"] == (-4.5, "5.2, 6.1")
    held = movement_allowance(chart, K.CAVALRY_MOUNTED, Grade.GREEN, division_orders=DivisionOrders.HOLD)
    assert held.allowance == 9 and {m.label: m.section for m in held.modifiers} == {
        "Holding division: no more than half": "5.2"
    }


def test_a_holding_divisions_battery_moves_half_and_nothing_is_halved_below_nothing(chart):
    halved = resolve_movement_allowance(
        chart, MovementInput.of(battery(horse=True), division_orders=DivisionOrders.HOLD)
    )
    assert halved.allowance == 9
    spent = movement_allowance(
        chart, K.INFANTRY, Grade.UNTRAINED, formation_changes=3, division_orders=DivisionOrders.HOLD
    )
    assert spent.allowance == 0 and all("half" not in m.label for m in spent.modifiers)


# --- orders after the panic phase -----------------------------------------------------------------------------


@pytest.mark.parametrize("orders", list(DivisionOrders))
def test_a_panicked_division_goes_back_on_defend_and_the_others_keep_their_orders(orders):
    """R:1849-1852: "panicked division orders are reset to Defend status"."""
    assert orders_after_panic_phase(orders, panicked=True) is DivisionOrders.DEFEND
    assert orders_after_panic_phase(orders, panicked=False) is orders


def test_cavalry_reacting_to_the_enemys_move_dismounts_but_never_mounts(chart):
    """R:804-808: "Reacting cavalry may dismount (if able) or begin moving"; a mount is not among its reactions."""
    reacting = resolve_mount(chart, MountInput(UnitKind.CAVALRY_MOUNTED, mount=False, reacting=True))
    assert reacting.kind is UnitKind.CAVALRY_DISMOUNTED
    refused = resolve_mount(chart, MountInput(UnitKind.CAVALRY_DISMOUNTED, mount=True, reacting=True))
    assert refused.refused == "cavalry reacting to the enemy's move may dismount, not mount (3.5)"
    shaken = resolve_mount(chart, MountInput(UnitKind.CAVALRY_MOUNTED, mount=False, m_hits=2, reacting=True))
    assert shaken.refused  # "if able": its morale must allow a formation change
