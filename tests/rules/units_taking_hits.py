"""Units taking an assault's hits for the engine's tests: infantry and artillery by short name, a unit as the
assault results take it, and the Panic Index cell its panic move is read from."""

from republic.rules.assault_results import UnitTakingHits
from republic.rules.troops import Grade, UnitKind

INF = UnitKind.INFANTRY
ART = UnitKind.ARTILLERY


def unit(id="1st", kind=INF, grade=Grade.AVERAGE, bases=6, **kw):
    return UnitTakingHits(id, kind, grade, bases, **kw)


def panic_cell(chart, grade, level):
    return chart.cell("panic_index", grade.value, f"p{level}")[0]
