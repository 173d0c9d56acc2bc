"""Division units for the panic tests: a unit as the division panic test counts it, and the two triggers of
a test by short name."""

from republic.rules.division_panic import DivisionUnit, PanicTrigger
from republic.rules.troops import Grade

INTERNAL, ADJOINING = PanicTrigger.INTERNAL, PanicTrigger.ADJOINING


def unit(uid="a", grade=Grade.AVERAGE, bases=4, **kw):
    return DivisionUnit(uid, grade, bases, **kw)
