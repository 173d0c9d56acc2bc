"""What the order of battle pages draw: a unit's card with its corrections, its forced move of the turn and what it
becomes if blocked, and the divisions it may move to; a division with its units."""

from typing import Any

from republic.games.models import Command, Game, Unit
from republic.games.steps.anytime import blocked_input
from republic.games.steps.base import address
from republic.games.text.maneuver import blocked_offer, last_move
from republic.games.text.terms import condition
from republic.rules.forced_moves import ForcedMove, resolve_blocked_move
from republic.rules.sequence import StepKey
from republic.rules.troops import UnitKind
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


def blocked(game: Game, unit: Unit) -> dict[str, str] | None:
    """What the card offers for a unit in play whose forced move of the turn is blocked by another unit (3.3): the
    move it makes instead, or why a rout stays a rout; None for a unit with no move to block."""
    inputs = None if unit.out_of_play else blocked_input(unit.to_rules(), game.scale)
    if inputs is None:
        return None
    result = resolve_blocked_move(game.chart, inputs)
    if result.last:
        return {"offer": "", "last": last_move(unit.name)}
    return {"offer": blocked_offer(result), "last": ""}


def unit_card(game: Game, unit: Unit) -> dict[str, Any]:
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
        "forced_move": ForcedMove(unit.forced_move).title if unit.forced_move else "",
        "blocked": blocked(game, unit),
        "reacts": reacts(game, unit),
        "mount_url": address(game, "mount", unit.piece),
    }


def reacts(game: Game, unit: Unit) -> bool:
    """Whether the card offers the defender's cavalry its dismount in reaction to the enemy's move (3.5)."""
    defender = game.defender
    on_horse = UnitKind(unit.kind).horse and not unit.out_of_play
    return on_horse and game.step == StepKey.MOVE and defender is not None and unit.division.side_id == defender.pk


def division_context(game: Game, division: Command) -> dict[str, Any]:
    units = Unit.objects.filter(game=game, division=division)
    cards = [unit_card(game, u) for u in sorted(units, key=lambda u: (u.battery, u.order))]
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
