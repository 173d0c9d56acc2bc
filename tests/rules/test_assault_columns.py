"""Assault columns (5.2, 5.3): the column the units and the ground give, advantages cancelling, open order,
and the column the table names in place of the rules' one."""

import pytest

from republic.rules.assault_table import (
    AssaultColumn,
    AssaultColumnInput,
    Struck,
    assault_column,
    resolve_assault_column,
)
from republic.rules.troops import Cover, UnitKind
from tests.rules.assault_inputs import AA, ART, CAV, DA, DCAV, DMI, INF, MI, PB, fight, unit

# --- worked example -------------------------------------------------------------------------------


def test_infantry_in_the_open_against_dismounted_cavalry_in_cover_cancels_to_pitched_battle():
    """The rules' cancellation example (R:1548-1552)."""
    result = assault_column(UnitKind.INFANTRY, UnitKind.CAVALRY_DISMOUNTED, defender_in_cover=True)
    assert result.column is AssaultColumn.PITCHED_BATTLE
    assert result.for_attacker == ("infantry assaulting dismounted cavalry",)
    assert result.for_defender == ("troops in the open assaulting troops in cover",)
    assert any("cancel" in note for note in result.notes)


# --- column ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender", "struck", "expected"),
    [
        (CAV, INF, Struck.FLANK, AA),  # 5.3 AA 1
        (CAV, INF, Struck.REAR, AA),
        (CAV, DCAV, Struck.FLANK, AA),  # other foot troops like dismounted cavalry
        (CAV, MI, Struck.FRONT, AA),  # AA 2
        (CAV, ART, Struck.FRONT, AA),  # AA 3
        (INF, DCAV, Struck.FRONT, AA),  # AA 4
        (DMI, DCAV, Struck.FRONT, AA),
        (INF, INF, Struck.FRONT, PB),  # same vs same
        (CAV, CAV, Struck.FRONT, PB),
        (INF, INF, Struck.FLANK, PB),  # only cavalry gains from a flank in the column
        (INF, ART, Struck.FRONT, PB),  # other
        (CAV, INF, Struck.FRONT, DA),  # DA 2
        (CAV, DMI, Struck.FRONT, DA),
        (MI, INF, Struck.FRONT, DA),  # DA 3, any direction
        (MI, INF, Struck.REAR, DA),
        (MI, CAV, Struck.FLANK, DA),
    ],
)
def test_column_follows_the_combinations_listed_in_5_3(attacker, defender, struck, expected):
    assert assault_column(attacker, defender, struck).column is expected


def test_troops_in_the_open_assaulting_troops_in_cover_use_defender_advantage():
    assert assault_column(INF, INF, defender_in_cover=True).column is DA
    assert assault_column(INF, INF, attacker_in_cover=True, defender_in_cover=True).column is PB


def test_two_advantages_outweigh_one():
    """Cavalry charging the front of infantry in cover: two defender advantages."""
    result = assault_column(CAV, INF, defender_in_cover=True)
    assert result.column is DA and len(result.for_defender) == 2


def test_open_order_defender_against_close_order_gives_attacker_advantage_regardless_of_cover():
    """5.2 (R:1490-1496)."""
    result = assault_column(INF, INF, defender_in_cover=True, defender_open_order=True)
    assert result.column is AA
    assert result.rules_column is AA


def test_open_order_attacker_against_close_order_gives_defender_advantage_even_for_cavalry_on_a_flank():
    assert assault_column(CAV, INF, Struck.FLANK, attacker_open_order=True).column is DA


def test_open_order_is_not_disadvantaged_against_artillery():
    """5.2 (R:1496-1499)."""
    assert assault_column(INF, ART, defender_open_order=False, attacker_open_order=True).column is PB
    assert assault_column(CAV, ART, attacker_open_order=True).column is AA


def test_both_sides_in_open_order_leave_the_usual_column():
    assert assault_column(INF, INF, attacker_open_order=True, defender_open_order=True).column is PB


def test_the_table_may_override_the_column_and_the_result_says_so(chart):
    result = resolve_assault_column(chart, AssaultColumnInput(INF, INF, override=DA))
    assert result.column is DA and result.rules_column is PB
    assert any("the table chose Defender Advantage over Pitched Battle" in note for note in result.notes)


def test_round_derives_its_column_from_the_units_and_facts(chart):
    flank = fight(5, 5, [unit(kind=CAV)], [unit()], defender_facts={"outflanked": True}, chart=chart)
    assert flank.column is AA
    cover = fight(5, 5, [unit()], [unit(cover=Cover.MEDIUM)], chart=chart)
    assert cover.column is DA
    named = fight(5, 5, [unit()], [unit(cover=Cover.MEDIUM)], column=PB, chart=chart)
    assert named.column is PB and any("named by the table" in note for note in named.notes)
