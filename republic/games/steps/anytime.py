"""Actions the table may take at any step of the turn: a unit card's one-tap correction, a unit's forced move blocked
by another unit, a division's orders, a unit put under another division, an objective changing hands."""

from django import forms

from republic.games.events.command import UnitReassigned
from republic.games.events.game import CorrectionMade, FieldValue, ObjectiveTaken, OrdersChanged
from republic.games.events.maneuver import ForcedMoveBlocked
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, act
from republic.games.models import Command, Event, Game, Objective, Side, Unit
from republic.games.text.maneuver import last_move
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import BlockedMoveInput, resolve_blocked_move
from republic.rules.scale import GroundScale
from republic.rules.units import Correction, UnitState, after_blocked_move, corrected

_FIELDS = {
    Correction.M_PLUS: "m_hits",
    Correction.M_MINUS: "m_hits",
    Correction.BASE_MINUS: "bases",
    Correction.BASE_PLUS: "bases",
    Correction.DAMAGE_PLUS: "damage",
    Correction.DAMAGE_MINUS: "damage",
    Correction.PACKED: "packed",
    Correction.UNPACKED: "packed",
}


def correct(game: Game, unit: Unit, correction: Correction, version: int, actor: str) -> Event:
    """One-tap corrections on a unit card; each is an event like any other."""
    with act(game, version, actor) as action:
        fresh = Unit.objects.get(pk=unit.pk)
        try:
            after = corrected(fresh.to_rules(), correction)
        except RulesInputError as exc:
            raise ActionRefused(f"{fresh.name} {exc.problem}: nothing was changed.") from None
        action.apply(fresh, after)
        field = _FIELDS[correction]
        return action.record(
            CorrectionMade(fresh.key, fresh.name, correction, (FieldValue(field, getattr(after, field)),))
        )


def blocked_input(unit: UnitState, scale: GroundScale) -> BlockedMoveInput | None:
    """What the engine needs of a unit whose forced move of the turn is blocked; None for one with no move to block."""
    if unit.forced_move is None:
        return None
    return BlockedMoveInput(
        unit.forced_move, horse=unit.kind.horse, scale=scale, battery=unit.battery, m_hits=unit.m_hits
    )


def blocked_move(game: Game, unit: Unit, version: int, actor: str) -> Event:
    """The unit's forced move of the turn (its longest, the one the table is making) would end on another unit: it
    makes the next move down the list instead (3.3, R:695-701), as many times as the table finds it blocked."""
    with act(game, version, actor) as action:
        fresh = Unit.objects.get(pk=unit.pk)
        state = fresh.to_rules()
        if fresh.out_of_play:
            raise ActionRefused(f"{fresh.name} is out of play ({_gone(fresh)}): it makes no move. Nothing was changed.")
        inputs = blocked_input(state, action.game.scale)
        if inputs is None:
            raise ActionRefused(
                f"{fresh.name} has made no forced move this player turn: there is no move to block. "
                "Nothing was changed."
            )
        result = resolve_blocked_move(action.game.chart, inputs)
        if result.last:
            raise ActionRefused(f"{last_move(fresh.name)} Nothing was changed.")
        action.apply(fresh, after_blocked_move(state, result))
        return action.record(ForcedMoveBlocked(fresh.key, fresh.name, inputs, result))


class OrdersForm(VersionForm):
    orders = forms.ChoiceField(choices=Command.Orders.choices)


def give_orders(game: Game, division: Command, orders: str, version: int, actor: str) -> Event:
    """A division's orders, as its player gives them (a division that panicked goes back on Defend as the panic
    phase ends, 6.1)."""
    with act(game, version, actor) as action:
        fresh = Command.objects.get(pk=division.pk)
        if fresh.level != Command.Level.DIVISION:
            raise ActionRefused(f"{fresh.name} is not a division: orders go to divisions.")
        if fresh.orders == orders:
            raise ActionRefused(f"{fresh.name} already has orders to {fresh.orders}.")
        action.set(fresh, "orders", orders)
        return action.record(OrdersChanged(fresh.pk, fresh.name, orders))


class ReassignForm(VersionForm):
    division = forms.IntegerField(
        error_messages={"required": "Choose the division it joins.", "invalid": "Choose the division it joins."}
    )


def reassign(game: Game, unit: Unit, division: int, version: int, actor: str) -> Event:
    """A unit put under another division of its own side. A corps commander "may reassign corps assets as they
    see fit", and a unit without a divisional commander is "re-assigned to a division" (R:405-415). The text
    sets no time for it, so it may be done at any step (the event keeps the step it was done at), and no bound
    beyond the side: whether a unit may change corps is the players' to agree, as the text leaves the scheme of
    command to them (R:416-417). A unit out of play is in no division's fight and stays where it fell."""
    with act(game, version, actor) as action:
        fresh = Unit.objects.select_related("division").get(pk=unit.pk)
        left = fresh.division
        if fresh.out_of_play:
            raise ActionRefused(
                f"{fresh.name} is out of play ({_gone(fresh)}): it joins no division. Nothing was changed."
            )
        joined = Command.objects.filter(pk=division, game=action.game, level=Command.Level.DIVISION).first()
        if joined is None:
            raise ActionRefused("There is no such division in this game: nothing was changed.")
        if joined.side_id != left.side_id:
            raise ActionRefused(
                f"{joined.name} is a division of the other side: {fresh.name} moves only to one of its own side's. "
                "Nothing was changed."
            )
        if joined.pk == left.pk:
            raise ActionRefused(f"{fresh.name} is in {left.name} already: nothing was changed.")
        action.set(fresh, "division", joined.pk)
        return action.record(UnitReassigned(fresh.key, fresh.name, left.pk, left.name, joined.pk, joined.name))


class ObjectiveForm(VersionForm):
    holder = forms.CharField(
        required=False, max_length=20, error_messages={"max_length": "Choose the side that holds it, or no one."}
    )


def take_objective(game: Game, objective: Objective, holder: str, side: int | None, version: int, actor: str) -> Event:
    """An objective changes hands: ``holder`` is a side's id, or empty for no one. A player records what his own
    side did, taking it or giving it up; the game master records anything."""
    with act(game, version, actor) as action:
        fresh = Objective.objects.select_related("holder").get(pk=objective.pk)
        sides = {str(s.pk): s for s in Side.objects.filter(game=action.game)}
        if holder and holder not in sides:
            raise ActionRefused("There is no such side in this game: nothing was changed.")
        taken = sides.get(holder)
        if fresh.holder_id == (taken.pk if taken else None):
            held = f"held by {taken.name}" if taken else "held by no one"
            raise ActionRefused(f"{fresh.name} is {held} already: nothing was changed.")
        own = taken.pk == side if taken else fresh.holder_id == side
        if side is not None and not own:
            raise ActionRefused(
                f"A player records what his own side does with {fresh.name}: taking it, or giving it up. "
                "Nothing was changed."
            )
        before = fresh.holder.name if fresh.holder else ""
        action.set(fresh, "holder", taken.pk if taken else None)
        return action.record(ObjectiveTaken(fresh.key, fresh.name, before, taken.name if taken else ""))


def _gone(unit: Unit) -> str:
    return "destroyed" if unit.destroyed else "surrendered" if unit.surrendered else "abandoned"
