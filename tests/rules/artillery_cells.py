"""The Artillery table's cells for the engine's tests: one cell read from the chart, and whether one result
is at least as strong as another."""

from republic.rules.hits import Hits


def cell(chart, battery, column):
    return chart.cell("artillery", battery, column)[0]


def at_least(stronger: Hits | None, weaker: Hits | None) -> bool:
    """Componentwise: never fewer M and never fewer B; a null cell (out of reach) is weaker than any."""
    if weaker is None:
        return True
    if stronger is None:
        return False
    return stronger.m >= weaker.m and stronger.b >= weaker.b
