"""Everything the engine offers: the mechanics a script or the table can resolve, and the chart tables
they read (so a chart file is checked against exactly what the code will look up)."""

from republic.rules import (
    artillery,
    assault,
    assault_fixed_hits,
    assault_moves,
    assault_results,
    assault_sides,
    assault_table,
    battery_functions,
    division_panic,
    fire_results,
    forced_moves,
    leaders,
    maneuver,
    morale,
    movement,
    panic,
    panic_phase,
    rally,
    saved_fire,
    scale,
    sequence,
    skirmish,
    terrain,
)
from republic.rules.chart import Chart, TableSpec, parse_chart
from republic.rules.errors import RulesInputError
from republic.rules.results import Mechanic

_CHAPTERS = (
    scale,
    sequence,
    morale,
    rally,
    leaders,
    maneuver,
    movement,
    terrain,
    battery_functions,
    forced_moves,
    skirmish,
    artillery,
    saved_fire,
    fire_results,
    assault_table,
    assault_sides,
    assault,
    assault_results,
    assault_fixed_hits,
    assault_moves,
    panic,
    division_panic,
    panic_phase,
)

TABLE_SPECS: tuple[TableSpec, ...] = tuple(spec for chapter in _CHAPTERS for spec in chapter.TABLES)
MECHANICS: dict[str, Mechanic] = {m.name: m for chapter in _CHAPTERS for m in chapter.MECHANICS}


def load_chart(text: str) -> Chart:
    return parse_chart(text, TABLE_SPECS)


def mechanic(name: str) -> Mechanic:
    try:
        return MECHANICS[name]
    except KeyError:
        raise RulesInputError("mechanic", f"no mechanic '{name}'; see --list") from None
