"""Attacker moves units (1.7, 3.1-3.6): maneuver rolls, movement allowances, the charge bonus, formation
changes and skirmishers, and the batteries' functions; and the defender's passing fire at them, the one thing a
defending player does in this step (4.5, R:1229-1237), each defending battery that may fire a row after the
attacker's units. Nothing is required work: a brigade that does not roll holds (3.2), and passing fire is the
defender's choice, so the step has nothing pending.

Leaders move here too, "at the speed of charging cavalry (25\")" (R:616): the step shows that allowance, at the
game's scale, where the units are moved, and records no leader move. Unlike the rally step's 2" (``rally``), a
maneuver-step move has nothing in the app that depends on it, and an event for every leader's every move would
bury the turn log's results; the table measures it, as it measures the units' moves."""

from typing import Any

from republic.games.models import Unit
from republic.games.pieces import Piece
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, current, shows_unit
from republic.games.steps.move import batteries, brigades, passing_fire
from republic.games.steps.move.state import ELSEWHERE, ROW_FIELDS, MoveState, state
from republic.games.text.terms import ACTION_ORDER, actions_sentence, allowance, commander, condition, inches
from republic.play import move as play
from republic.rules.maneuver import ManeuverAction
from republic.rules.movement import LeaderMoveInput, holding, resolve_leader_move
from republic.rules.troops import DivisionOrders
from republic.rules.units import UnitState


def pending(s: MoveState) -> list[str]:
    return []


def _brigade_card(s: MoveState, unit: Any, bound: Bound) -> dict[str, Any]:
    game, key, here = s.game, unit.key, unit.to_rules()
    rolled = s.rolls.get(key)
    leader = unit.division.leader
    piece = unit.piece
    roll, move, formation = piece.prefix("roll"), piece.prefix("move"), piece.prefix("formation")
    skirmishers, mount = piece.prefix("skirmishers"), piece.prefix("mount")
    may = play.offered(game.chart, here, s.allowed(unit))
    card = {
        "unit": unit,
        "battery": False,
        "condition": condition(unit.m_hits),
        "commander": commander(
            leader.name if leader else "",
            leader.value if leader else "",
            bool(leader and leader.hors_de_combat),
            bool(leader and leader.replaced_this_turn),
        ),
        "rolled": rolled,
        "sentence": actions_sentence(rolled.result.actions) if rolled else "",
        "rolled_mark": (
            "printed chart" if rolled.result.printed else "provisional" if rolled.result.provisional else ""
        )
        if rolled
        else "",
        "roll_url": address(game, "maneuver-roll", piece),
        "charge_url": address(game, "charge-bonus", piece),
        "formation_url": address(game, "formation", piece),
        "skirmishers_url": address(game, "skirmishers", piece),
        "leader_allowance": leader_allowance(s),
        "charge_refused": may.charge,
        "charge_actions": [
            (a.value, a.title.capitalize())
            for a in ACTION_ORDER
            if a in (*(s.allowed(unit) or ()), ManeuverAction.HOLD)
        ],
        "formation_refused": may.formation,
        **_mounting(s, unit, here, may, bound),
        "skirmishers_refused": may.skirmishers,
        "skirmisher_limit": may.skirmisher_limit,
        "skirmisher_counts": sorted({*range(may.may_set + 1), unit.skirmishers_deployed}),
        "move_form": bound.get(move) or brigades.movement_form(game, unit, changes=s.formation_changes[key]),
        "move_result": _allowance(s, bound, move),
        "move_open": move in bound,
        "formation_form": bound.get(formation) or brigades.formation_form(game, unit),
        "skirmisher_form": bound.get(skirmishers) or brigades.skirmisher_form(game, unit, may.may_set),
        "show_skirmishers": may.shows_skirmishers,
        # a sent skirmisher count the card offers no form for is answered inside the fold, which says why
        "formation_open": formation in bound or mount in bound or (skirmishers in bound and not may.shows_skirmishers),
        "holding": _holding(unit),
    }
    if rolled is None:
        card["roll_form"] = bound.get(roll) or brigades.roll_form(game, unit, s.helpful_leaders)
    return card


def _mounting(s: MoveState, unit: Any, here: UnitState, may: play.Offered, bound: Bound) -> dict[str, Any]:
    """What the card offers a cavalry or mounted infantry brigade: the other footing, or why it may not (3.5). Any
    other brigade has nothing to offer, but is told why when a mount was asked of it all the same."""
    sent = bound.get(unit.piece.prefix("mount"))
    if not here.kind.mounts and sent is None:
        return {"mounts": False}
    mount = not here.kind.horse
    return {
        "mounts": True,
        "mount_verb": "mount" if mount else "dismount",
        "mount_refused": may.mount,
        "mount_url": address(s.game, "mount", unit.piece),
        "mount_form": sent or brigades.mount_form(s.game, unit),
    }


def _holding(unit: Any) -> str:
    """Why the unit's division holds it to half its movement this turn, or "" (5.2, 6.1)."""
    return holding(DivisionOrders(unit.division.orders), unit.division.panicked)


def _allowance(s: MoveState, bound: Bound, prefix: str) -> dict[str, Any] | None:
    result = bound.get(f"{prefix}-result")
    return allowance(result, s.game.get_ground_scale_display()) if result is not None else None


def _battery_card(s: MoveState, unit: Any, bound: Bound) -> dict[str, Any]:
    game = s.game
    move, functions = unit.piece.prefix("move"), unit.piece.prefix("functions")
    return {
        "unit": unit,
        "battery": True,
        "condition": condition(unit.m_hits),
        "available": batteries.available(game, unit),
        "slots": batteries.slots(game, unit),
        "functions_url": address(game, "battery-functions", unit.piece),
        "move_form": bound.get(move) or brigades.movement_form(game, unit),
        "move_result": _allowance(s, bound, move),
        "move_open": move in bound,
        "functions_form": bound.get(functions) or batteries.functions_form(game, unit),
        "functions_open": functions in bound,
        "holding": _holding(unit),
    }


def rows(s: MoveState) -> list[Row]:
    divisions = {**s.units, **s.passing}
    found = play.MoveStep(tuple(map(_key, s.units)), passing=tuple(map(_key, s.passing)))
    return [
        Row(piece.name, "", command=divisions[piece.pk], due=piece.pk in s.brigades and piece.key not in s.rolls)
        for piece in map(Piece.at, play.rows(found))
    ]


def _key(pk: int) -> str:
    return Piece("unit", pk).key


def fill(s: MoveState, rows: list[Row]) -> None:
    units = Unit.objects.only(*ROW_FIELDS).in_bulk([Piece.at(row.subject).pk for row in rows])
    for row in rows:
        unit = units[Piece.at(row.subject).pk]
        if unit.pk in s.passing:
            facts = f"Defending {unit.battery_label} battery" + (" · saved fire" * unit.saved_fire)
            row.facts, row.verb = facts, "Passing fire"
            shows_unit(row, unit)
            continue
        if unit.battery:
            used = len(unit.functions_used)
            facts = f"{unit.battery_label} battery · {'limbered' if unit.limbered else 'unlimbered'}"
            facts += f" · {used} function{'s' if used != 1 else ''} used"
        else:
            rolled = s.rolls.get(unit.key)
            facts = unit.formation_label
            facts += f" · {actions_sentence(rolled.result.actions)}" if rolled else " · no roll yet"
        row.facts, row.verb = facts, "Move"
        shows_unit(row, unit)


def opened(s: MoveState, row: Row, bound: Bound) -> dict[str, Any]:
    unit = current(Piece.at(row.subject).pk)  # a row of the step's: an attacking unit in play or a defending battery
    if unit.pk in s.passing:
        return passing_fire.card(s, unit, bound)
    return _battery_card(s, unit, bound) if unit.battery else _brigade_card(s, unit, bound)


def leader_allowance(s: MoveState) -> str:
    """How far a leader base moves in the maneuver phase, at the game's scale (R:616, 1.2)."""
    return inches(resolve_leader_move(s.game.chart, LeaderMoveInput(scale=s.game.scale)).distance)


def panel(s: MoveState, bound: Bound) -> dict[str, Any]:
    return {
        "scale": s.game.get_ground_scale_display(),
        "nothing": "The attacker has no unit in play.",
        "leader_allowance": leader_allowance(s),
        "passing": len(s.passing),
    }


STEP = Step(
    "games/steps/move.html",
    state,
    pending,
    panel,
    rows=rows,
    form="games/rows/move.html",
    folds=("secondary-targets", "functions", "printed", "formation", "movement"),
    opened=opened,
    fill=fill,
    actions=(
        Act("maneuver-roll", "unit", Who.OWNER, brigades.take_maneuver_roll, ELSEWHERE),
        Act("charge-bonus", "unit", Who.OWNER, brigades.take_charge_bonus, ELSEWHERE),
        Act("formation", "unit", Who.OWNER, brigades.take_formation, ELSEWHERE),
        # an attacking brigade's, or a defending one's in reaction to the enemy's move (3.5)
        Act("mount", "unit", Who.OWNER, brigades.take_mount, ELSEWHERE),
        Act("skirmishers", "unit", Who.OWNER, brigades.take_skirmishers, ELSEWHERE),
        Act("battery-functions", "unit", Who.OWNER, batteries.take_functions, ELSEWHERE),
        # a defending battery's passing fire at an attacking unit about to leave its arc of fire (4.5)
        Act("passing-fire", "unit", Who.DEFENDING, passing_fire.take_passing_fire, passing_fire.ELSEWHERE),
    ),
)
