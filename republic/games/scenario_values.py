"""What a scenario's numbers may be: each number of a unit held to what the rules allow. A scenario is read once,
as the game starts, and every game afterwards stands on what it gave."""

from republic.rules.morale import MAX_M_HITS
from republic.rules.units import MOST_DAMAGE

MOST_BASES = 30
"""A brigade's combat bases. The rules set no number, but a base is 275 infantry or 150 cavalry (1.1): thirty are
8,250 foot or 4,500 horse, past any brigade of the war, so more is a slip of the keyboard, not an order of battle."""


MOST_UNITS = 2_000
"""Brigades and batteries in one battle: a club's largest is 400, and five times that is no battle a table plays."""


MEN_A_BASE = 275
MEN_A_HORSE_BASE = 150
"""The men a combat base stands for (1.1): a foot base 275, a horse base 150; dismounted cavalry keeps its horse
bases, as the rules' dismounted base is the mounted one on foot."""


def bases_of_men(men: int, horse: bool) -> int:
    """The bases of a brigade of ``men``, at the rules' scale, rounded to the nearest base (a half base up)."""
    a_base = MEN_A_HORSE_BASE if horse else MEN_A_BASE
    return (2 * men + a_base) // (2 * a_base)


def bases_problem(bases: int) -> str:
    if bases > MOST_BASES:
        return f"a brigade has at most {MOST_BASES} bases (8,250 infantry or 4,500 cavalry, 1.1), got {bases}"
    return ""


def skirmishers_problem(skirmishers: int, bases: int, trained: bool) -> str:
    """The rules let a brigade in open order deploy one skirmish marker per combat base (1.4, R:269-270), and no
    troop list more than open order gives: so a brigade has at most as many markers as bases."""
    if skirmishers and not trained:
        return "untrained brigades cannot deploy skirmishers (3.5)"
    if skirmishers > bases:
        return (
            f"at most one skirmish marker per base, as open order deploys them (1.4): {bases} for this brigade, "
            f"got {skirmishers}"
        )
    return ""


def m_hits_problem(m_hits: int) -> str:
    return f"a unit carries 0 to {MAX_M_HITS} M hits, got {m_hits}" if m_hits > MAX_M_HITS else ""


def damage_problem(damage: int) -> str:
    """Each damage takes a quarter of a battery's move (R:730-732) and a fifth of its strength for a rally
    (R:569-570); the table corrects damage up to ``MOST_DAMAGE``, and a scenario starts no battery past it."""
    return f"a battery carries 0 to {MOST_DAMAGE} damage, got {damage}" if damage > MOST_DAMAGE else ""
