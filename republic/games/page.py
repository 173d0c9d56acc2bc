"""The game page: where the game stands, what to do now, the step's forms, the last result, every unit."""

from django.http import HttpRequest

from republic.games.answers import actor_of
from republic.games.models import Battery, Brigade, Command, Event, Game
from republic.games.phases import handler_for
from republic.games.text import cell_line, condition_label, dice_text, modifier_line, provenance_warning
from republic.games.walk import pending
from republic.rules.sequence import STEPS, Phase, StepKey, step_for

CONDITION_CLASSES = ("formed", "unformed", "rattled", "shaken", "demoralized")


def result_view(event: Event | None) -> dict | None:
    """An event as the result card shows it: summary, breakdown, chart cells, notes, provenance."""
    if event is None:
        return None
    result = event.result or {}
    return {
        "event": event,
        "summary": event.summary,
        "dice": dice_text(event.dice) if event.dice else "",
        "modifiers": [modifier_line(m) for m in _all(result, "modifiers")],
        "cells": [{"line": cell_line(c), "provisional": c["provenance"] == "provisional"}
                  for c in _all(result, "cells")],
        "notes": list(_all(result, "notes")),
        "warning": provenance_warning(event.provisional, event.printed_chart),
    }


def _all(result, key: str) -> list:
    """Every ``key`` list in a nested result (an assault round holds both sides' results); a level that has
    its own list already gathers what is below it, so its children are not read again."""
    found = []
    if isinstance(result, dict):
        if isinstance(result.get(key), list):
            return list(result[key])
        for value in result.values():
            if isinstance(value, dict | list):
                found.extend(_all(value, key))
    elif isinstance(result, list):
        for item in result:
            found.extend(_all(item, key))
    return found


def unit_card(unit: Brigade | Battery) -> dict:
    battery = isinstance(unit, Battery)
    if battery:
        frontage = ("unpacked", "normal frontage") if unit.packed else ("packed", "packed")
        losses = (("damage_plus", "+ damage"), ("damage_minus", "− damage"), frontage)
    else:
        losses = (("base_minus", "− base"), ("base_plus", "+ base"))
    return {
        "unit": unit,
        "model": unit._meta.model_name,
        "corrections": (("m_plus", "+ M hit"), ("m_minus", "− M hit"), *losses),
        "battery": battery,
        "condition": condition_label(unit.m_hits),
        "condition_class": CONDITION_CLASSES[unit.m_hits],
        "out": unit.out_of_play,
        "kind": unit.get_battery_type_display() + (" horse" if unit.horse else "") if battery
        else unit.get_kind_display(),
    }


def order_of_battle(game: Game) -> list[dict]:
    divisions = (Command.objects.filter(game=game, level=Command.Level.DIVISION)
                 .select_related("side", "parent").prefetch_related("leaders"))
    brigades = Brigade.objects.filter(game=game).order_by("order")
    batteries = Battery.objects.filter(game=game).order_by("order")
    units: dict[int, list] = {}
    for unit in [*brigades, *batteries]:
        units.setdefault(unit.division_id, []).append(unit)
    sides: dict[int, dict] = {}
    for division in divisions:
        side = sides.setdefault(division.side_id, {"side": division.side, "divisions": []})
        side["divisions"].append({
            "division": division,
            "leader": division.leader,
            "cards": [unit_card(u) for u in sorted(units.get(division.pk, []), key=lambda u: u.order)],
        })
    return list(sides.values())


def page_context(request: HttpRequest, game: Game, event: Event | None = None, forms: dict | None = None,
                 error: str = "") -> dict:
    forms = forms or {}
    if event is None:
        last = request.session.get("republic_last_event")
        event = Event.objects.filter(pk=last, game=game).first() if last else None
    step = step_for(StepKey(game.step))
    handler = handler_for(game.step)
    in_progress = game.status == Game.Status.IN_PROGRESS
    todo = pending(game)
    return {
        "game": game,
        "step": step,
        "phases": [{"phase": p, "current": p == step.phase,
                    "steps": [s for s in STEPS if s.phase == p]} for p in Phase],
        "attacker": game.attacker,
        "defender": game.defender,
        "in_progress": in_progress,
        "pending": todo,
        "step_template": handler.template if in_progress else "games/steps/first_attacker.html",
        "panel": handler.panel(request, game, forms) if in_progress else {"sides": list(game.sides.all())},
        "result": result_view(event),
        "order_of_battle": order_of_battle(game),
        "orders_choices": Command.Orders.choices,
        "log": list(game.events.order_by("-seq")[:8]),
        "actor": actor_of(request),
        "error": error,
        "forms": forms,
    }
