"""Assault inputs for the engine's tests: the kinds of troops and the assault columns by short name, a unit, a
side and a round fought from them, and one modifier read off a side's result."""

from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_sides import AssaultSide, AssaultUnit
from republic.rules.assault_table import AssaultColumn
from republic.rules.dice import d10
from republic.rules.troops import Grade, UnitKind

INF, CAV, DCAV = UnitKind.INFANTRY, UnitKind.CAVALRY_MOUNTED, UnitKind.CAVALRY_DISMOUNTED
MI, DMI, ART = UnitKind.MOUNTED_INFANTRY_MOUNTED, UnitKind.MOUNTED_INFANTRY_DISMOUNTED, UnitKind.ARTILLERY
AA, PB, DA = AssaultColumn.ATTACKER_ADVANTAGE, AssaultColumn.PITCHED_BATTLE, AssaultColumn.DEFENDER_ADVANTAGE


def unit(grade=Grade.AVERAGE, bases=6, **kw) -> AssaultUnit:
    return AssaultUnit(grade, bases, **kw)


def side(roll, *units, **facts) -> AssaultSide:
    return AssaultSide(d10(roll), units or (unit(),), **facts)


def fight(
    attacker_roll,
    defender_roll,
    attackers=(),
    defenders=(),
    column=None,
    attacker_facts=None,
    defender_facts=None,
    chart=None,
    **kw,
):
    return resolve_assault_round(
        chart,
        AssaultRoundInput(
            side(attacker_roll, *attackers, **(attacker_facts or {})),
            side(defender_roll, *defenders, **(defender_facts or {})),
            column=column,
            **kw,
        ),
    )


def modifier(result_side, words):
    found = [m for m in result_side.modifiers if words in m.label]
    assert len(found) <= 1, found
    return found[0].value if found else 0
