"""Assault rounds read on a printed outcome for the engine's tests: the round over the three column tables
and what it did to the units taking part, a unit taking part, and the Panic Index cell a panic move is read
from."""

from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_on_units import RoundUnit, after_round, resolve_round_on_units
from republic.rules.assault_sides import AssaultSide, Contact
from republic.rules.assault_table import AssaultColumn, Struck
from republic.rules.dice import d10
from republic.rules.troops import Cover, Grade
from republic.rules.units import UnitState

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
