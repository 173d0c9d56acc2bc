"""Actions the table may take at any step of the turn: a unit card's one-tap correction, a division's orders."""

from django import forms

from republic.games.events import CorrectionMade, FieldValue, OrdersChanged
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, act
from republic.games.models import Command, Event, Game, Unit
from republic.rules.errors import RulesInputError
from republic.rules.units import Correction, corrected

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


class OrdersForm(VersionForm):
    orders = forms.ChoiceField(choices=Command.Orders.choices)


def give_orders(game: Game, division: Command, orders: str, version: int, actor: str) -> Event:
    """A division's orders, as its player gives them (a panicked division is reset to Defend, 6.1)."""
    with act(game, version, actor) as action:
        fresh = Command.objects.get(pk=division.pk)
        if fresh.level != Command.Level.DIVISION:
            raise ActionRefused(f"{fresh.name} is not a division: orders go to divisions.")
        if fresh.orders == orders:
            raise ActionRefused(f"{fresh.name} already has orders to {fresh.orders}.")
        action.set(fresh, "orders", orders)
        return action.record(OrdersChanged(fresh.pk, fresh.name, orders))
