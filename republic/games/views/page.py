"""The game page: where the game stands, what to do now, the step's panel, the last result, every unit."""

from functools import cache
from typing import Any

from republic.charts import shipped_chart
from republic.games.models import Command, Event, Game, Unit
from republic.games.steps import step_of
from republic.games.steps.walk import not_in_play
from republic.games.text.events import describe, result_card
from republic.games.text.terms import condition
from republic.rules.results import Provenance
from republic.rules.sequence import STEPS, Phase, step_for
from republic.rules.units import BATTERY_CORRECTIONS, BRIGADE_CORRECTIONS, Correction

CORRECTION_LABELS = {
    Correction.M_PLUS: "+ M hit",
    Correction.M_MINUS: "− M hit",
    Correction.BASE_MINUS: "− base",
    Correction.BASE_PLUS: "+ base",
    Correction.DAMAGE_PLUS: "+ damage",
    Correction.DAMAGE_MINUS: "− damage",
    Correction.PACKED: "packed",
    Correction.UNPACKED: "normal frontage",
}


def unit_card(unit: Unit) -> dict[str, Any]:
    corrections: tuple[Correction, ...]
    if unit.battery:
        corrections = (*BATTERY_CORRECTIONS, Correction.UNPACKED if unit.packed else Correction.PACKED)
        kind = unit.get_battery_type_display() + (" horse battery" if unit.horse else " battery")
    else:
        corrections, kind = BRIGADE_CORRECTIONS, unit.get_kind_display()
    return {
        "unit": unit,
        "corrections": [(c.value, CORRECTION_LABELS[c]) for c in corrections],
        "battery": unit.battery,
        "condition": condition(unit.m_hits),
        "condition_class": unit.condition.value,
        "out": unit.out_of_play,
        "kind": kind,
    }


def order_of_battle(game: Game) -> list[dict[str, Any]]:
    divisions = (
        Command.objects.filter(game=game, level=Command.Level.DIVISION)
        .select_related("side", "parent")
        .prefetch_related("leaders")
    )
    units: dict[int, list[Unit]] = {}
    for unit in Unit.objects.filter(game=game).order_by("order"):
        units.setdefault(unit.division_id, []).append(unit)
    sides: dict[int, dict[str, Any]] = {}
    for division in divisions:
        side = sides.setdefault(division.side_id, {"side": division.side, "divisions": []})
        members = units.get(division.pk, [])
        side["divisions"].append(
            {
                "division": division,
                "leader": division.leader,
                "p4_event": any(u.p4_event for u in members),
                "cards": [unit_card(u) for u in sorted(members, key=lambda u: (u.battery, u.order))],
            }
        )
    return list(sides.values())


def page_context(
    game: Game, actor: str, event: Event | None = None, forms: dict[str, Any] | None = None, error: str = ""
) -> dict[str, Any]:
    forms = forms or {}
    step = step_for(game.step_key)
    in_progress = game.in_progress
    if in_progress:
        handler = step_of(game)
        state = handler.state(game)
        todo, template, panel = handler.pending(state), handler.template, handler.panel(state, forms)
    else:
        todo = not_in_play(game)
        template, panel = "games/steps/first_attacker.html", {"sides": list(game.sides.all())}
    log = list(game.events.select_related("undoes").order_by("-seq")[:8])
    return {
        "game": game,
        "step": step,
        "phases": [
            {"phase": p, "current": p == step.phase, "steps": [s for s in STEPS if s.phase == p]} for p in Phase
        ],
        "attacker": game.attacker,
        "defender": game.defender,
        "in_progress": in_progress,
        "pending": todo,
        "step_template": template,
        "panel": panel,
        "result": result_card(event),
        "chart_provisional": has_provisional_cells(game.chart_version),
        "order_of_battle": order_of_battle(game),
        "orders_choices": Command.Orders.choices,
        "log": [{"event": e, "summary": describe(e)} for e in log],
        "actor": actor,
        "error": error,
        "forms": forms,
    }


@cache
def has_provisional_cells(chart_version: str) -> bool:
    """Whether a chart still has cells to check against a printed one: the header says so once per game, so that
    each result needs only a quiet mark on the cell it used."""
    tables = shipped_chart(chart_version).tables.values()
    cells = [cell for table in tables for cell in (*table.cells.values(), *(band.cell for band in table.bands))]
    return any(cell.provenance is Provenance.PROVISIONAL for cell in cells)
