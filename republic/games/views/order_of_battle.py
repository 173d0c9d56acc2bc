"""What the order of battle pages draw: a unit's card with its corrections and the divisions it may move to, a
division with its units."""

from typing import Any

from republic.games.models import Command, Game, Unit
from republic.games.text.terms import condition
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


def division_context(game: Game, division: Command) -> dict[str, Any]:
    units = Unit.objects.filter(game=game, division=division)
    cards = [unit_card(u) for u in sorted(units, key=lambda u: (u.battery, u.order))]
    return {
        "game": game,
        "division": division,
        "leader": division.leader,
        "chain": " · ".join(c.name for c in reversed(division.chain()[1:])),
        "p4_event": any(card["unit"].p4_event for card in cards),
        "cards": cards,
        "orders_choices": Command.Orders.choices,
        "other_divisions": other_divisions(game, division),
    }


def other_divisions(game: Game, division: Command) -> list[tuple[int, str]]:
    """The divisions of the same side a unit of this one may move to, each with its corps, read once for every
    card of the page."""
    found = (
        Command.objects.filter(game=game, side_id=division.side_id, level=Command.Level.DIVISION)
        .exclude(pk=division.pk)
        .select_related("parent")
        .order_by("parent__order", "order")
    )
    return [(d.pk, f"{d.name} · {d.parent.name}" if d.parent else d.name) for d in found]
