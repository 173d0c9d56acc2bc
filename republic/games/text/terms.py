"""Small words: a roll, a condition, hits, a chart cell, a modifier, a unit as a choice, a sentence of actions."""

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from republic.games.events.payload import LabelledRoll
from republic.games.models import BATTERY_LABELS, UnitChoice, battery_type_label
from republic.rules.catalog import TABLE_SPECS
from republic.rules.dice import Roll, RollSource
from republic.rules.forced_moves import ForcedMove
from republic.rules.hits import Hits
from republic.rules.maneuver import ManeuverAction
from republic.rules.morale import condition_for
from republic.rules.movement import MovementResult
from republic.rules.results import CellUse, Modifier, Provenance
from republic.rules.troops import BatteryType

_TITLES = {spec.name: spec.title for spec in TABLE_SPECS}


# --- small words ------------------------------------------------------------------------------------


def signed(value: float) -> str:
    return f"{value:+g}"


def inches(value: float) -> str:
    return f'{value:g}"'


def condition(m_hits: int) -> str:
    return condition_for(m_hits).value.capitalize()


def hits(m: int = 0, b: int = 0, p: int = 0) -> str:
    return str(Hits(m, b, p)) if m or b or p else "no hits"


def roll(rolled: Roll) -> str:
    """'6, typed' or '5-5, rolled by the app': one way everywhere."""
    faces = "-".join(str(f) for f in rolled.faces)
    return f"{faces}, {'typed' if rolled.source is RollSource.TYPED else 'rolled by the app'}"


def dice(rolls: Iterable[LabelledRoll]) -> str:
    return "; ".join(f"{r.label} {roll(r.roll)}" for r in rolls)


def modifier(m: Modifier) -> str:
    return f"{signed(m.value)} {m.label} ({m.section})"


_KEY_WORDS: dict[str, str] = {
    **{f"p{n}": f"Panic {n}" for n in range(1, 5)},
    **{f"r{n}": f"range column {n}" for n in range(1, 11)},
    **{f"left{n}": f"{n} column{'s' if n > 1 else ''} left of range" for n in range(1, 4)},
    **{b.value: BATTERY_LABELS[b] for b in BatteryType},
    **{m.value: m.title.capitalize() for m in ForcedMove},
}


def chart_key(key: str) -> str:
    """A row or column of the chart as the rules name it: 'veteran' is Veteran, 'p4' Panic 4."""
    words = _KEY_WORDS.get(key, key.replace("_", " "))
    return words[:1].upper() + words[1:]


def cell(use: CellUse) -> str:
    """'Rally Table: Veteran, Shaken = 7 (provisional)'."""
    mark = {Provenance.PROVISIONAL: " (provisional)", Provenance.PRINTED: " (printed chart)"}.get(use.provenance, "")
    key = ", ".join(chart_key(part) for part in use.key.split(", "))
    return f"{_TITLES.get(use.table, chart_key(use.table))}: {key} = {use.value}{mark}"


def provenance_warning(provisional: bool, printed_chart: bool) -> str:
    if printed_chart:
        return "Result read from the players' printed chart."
    if provisional:
        return "Used a provisional chart cell: check it against your printed chart."
    return ""


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


ACTION_ORDER = (
    ManeuverAction.ASSAULT,
    ManeuverAction.MANEUVER,
    ManeuverAction.ADVANCE,
    ManeuverAction.HOLD,
    ManeuverAction.PULL_BACK,
)


def actions_sentence(allowed: Iterable[ManeuverAction]) -> str:
    """'may advance, hold or pull back; may not maneuver or assault', the rules' own way of saying it."""
    allowed = {ManeuverAction(a) for a in allowed} | {ManeuverAction.HOLD}
    may = [a.title for a in ACTION_ORDER if a in allowed]
    may_not = [a.title for a in reversed(ACTION_ORDER) if a not in allowed]
    text = "may only hold" if may == ["hold"] else f"may {_join(may)}"
    return f"{text}; may not {_join(may_not)}" if may_not else text


def allowance(result: MovementResult, scale: str) -> dict[str, Any]:
    """A movement allowance as the unit's card shows it; a calculation, not an event."""
    return {
        "allowance": inches(result.allowance),
        "normal": inches(result.normal),
        "scale": scale,
        "charge_bonus": inches(result.charge_bonus) if result.charge_bonus else "",
        "with_charge": inches(result.with_charge),
        "charge_refused": result.charge_bonus_refused,
        "ground": [
            f'{g.ground.value.replace("_", " ").capitalize()}: each inch costs {g.cost}" of allowance; '
            f"{inches(g.reach)} on that ground alone"
            for g in result.ground
        ],
        "modifiers": [modifier(m) for m in result.modifiers],
        "cells": [{"line": cell(c), "provisional": c.provenance is Provenance.PROVISIONAL} for c in result.cells],
        "notes": list(result.notes),
        "provisional": result.provisional,
    }


def unit_options(units: Iterable[UnitChoice]) -> list[tuple[str, str, str, str]]:
    """Units as choices: (key, the name as the app shows it, its division, how it stands now). A name two units
    share is told apart by its division."""
    units = list(units)
    shared = {name for name, count in Counter(u.name for u in units).items() if count > 1}
    return [_option(u, u.name in shared) for u in units]


@lru_cache(maxsize=16_384)
def _option(unit: UnitChoice, shared: bool) -> tuple[str, str, str, str]:
    """Made once for each way a unit stands in a server process: at every version a club battle's 1,000 choices
    are the same but for the few units that changed."""
    return unit.key, f"{unit.name} ({unit.division_name})" if shared else unit.name, unit.division_name, standing(unit)


def standing(unit: UnitChoice) -> str:
    """How a unit to choose stands: 'Formed, 6 bases', 'Shaken, Light Smoothbore battery, packed'."""
    if unit.battery:
        return _standing(unit.m_hits, True, unit.battery_type, unit.packed)
    return _standing(unit.m_hits, False, "", False, unit.bases, unit.formation == "open_order")


@lru_cache(maxsize=1024)
def _standing(
    m_hits: int, battery: bool, battery_type: str, packed: bool, bases: int = 0, open_order: bool = False
) -> str:
    """Made once for each way a unit may stand: a club battle's assault lists 1,000 units, in a few dozen ways."""
    if battery:
        extra = f"{battery_type_label(battery_type)} battery" + (", packed" if packed else "")
    else:
        extra = f"{bases} bases" + (", open order" if open_order else "")
    return f"{condition(m_hits)}, {extra}"


def commander(name: str, value: Any, hors_de_combat: bool, replaced: bool) -> str:
    """The division commander as the maneuver roll reads him."""
    if not name:
        return "no division leader"
    if hors_de_combat:
        return f"{name} {value}, hors de combat: his class adds nothing (2.5)"
    return f"{name} {value}" + (", replaced at the start of the turn (-3)" if replaced else "")


def side_facts(units: list[Any], bonus: bool = False) -> str:
    """What the state says of one side of an assault: bases, losses, worst P, skirmishers, saved fire."""
    if not units:
        return "no unit in play"
    facts = [
        f"{sum(u.bases for u in units)} bases",
        f"{sum(u.base_hits_turn for u in units)} lost this turn",
        f"worst P {max(u.p_hits_assault for u in units)}",
    ]
    deployed = sum(u.skirmishers_deployed for u in units)
    available = sum(u.skirmishers_available for u in units)
    saved = sum(1 for u in units if u.battery and u.saved_fire)
    if available:
        facts.append(f"skirmishers out {deployed}/{available}")
    if saved:
        facts.append(f"{saved} with saved fire")
    if bonus:
        facts.append('"C" bonus from the last round\'s All Out Win/Win')
    return ", ".join(facts)
