"""Inter-divisional panic tests, adjoining panic (1.7, 6.2): the table names the divisions adjoining each one
that panicked, then those divisions test, round after round, until no more must. Leaving the step ends the panic
phase: the divisions that panicked go back on Defend orders (6.1).

Reading chosen for the table: adjoining panic spreads among a side's own divisions (R:1870-1874; the reading
is set out in republic.rules.panic_phase), so only the panicked division's own side is offered."""

from collections.abc import Sequence
from typing import Any

from republic.games.events.panic import AdjoiningDeclared
from republic.games.forms import Pick, PicksField, VersionForm, filled, offer_picks
from republic.games.ledger import Action, ActionRefused, act
from republic.games.models import Command, Event, Game
from republic.games.pieces import Piece
from republic.games.steps.base import Act, Bound, Who, address
from republic.games.steps.division_panic import (
    PanicState,
    division_test_step,
    not_a_division,
    pending_words,
    played,
    state,
)
from republic.play.panic import declare, may_adjoin
from republic.play.refusal import Refused
from republic.rules.panic_phase import orders_after_panic_phase
from republic.rules.sequence import StepKey
from republic.rules.troops import DivisionOrders

ELSEWHERE = "Adjoining divisions are named in the adjoining panic step."


def pending(s: PanicState) -> list[str]:
    return [f"say which divisions adjoin {s.name(d)}, which panicked" for d in s.undeclared] + [
        pending_words(s, t) + f" (round {s.round_number})" for t in s.lacking
    ]


class AdjoiningForm(VersionForm):
    adjoining = PicksField(
        label="Divisions adjoining it",
        required=False,
        what="division of its side",
        help_text="Its own side's divisions whose closest units are within 3\" of its closest units, or within "
        "line of sight if that is less (6.2): panic spreads to its own side. Leave all unchosen if none adjoins it.",
    )

    def __init__(self, *args: Any, choices: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_picks(self, ["adjoining"], [Pick(key, name) for key, name in choices])


def _choices(s: PanicState, division_id: str) -> list[tuple[str, str]]:
    return [(key, s.divisions[key].name) for key in may_adjoin(s.phase, division_id)]


def prefix(division_id: str) -> str:
    return Piece("command", int(division_id)).prefix("adjoining")


def adjoining_form(s: PanicState, division_id: str, data: Any = None) -> AdjoiningForm:
    already = [first for first, others in s.declared.items() if division_id in others]
    return AdjoiningForm(
        data,
        prefix=prefix(division_id),
        choices=_choices(s, division_id),
        initial={"version": s.game.version, "adjoining": already},
    )


def sent_form(s: PanicState, division: Command, data: Any) -> AdjoiningForm:
    """The divisions adjoining one as sent: one with none to name now is refused, unless its form is whole (then
    the declaration itself says why, or that the page was stale)."""
    not_a_division(division)
    key = str(division.pk)
    form = adjoining_form(s, key, data)
    if key not in s.undeclared and not form.is_valid() and "version" not in form.errors:
        raise ActionRefused(f"{division.name} has no adjoining divisions to name now.")
    return form


def take_adjoining(game: Game, division: Command, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(sent_form(s, division, data)) as sent:
        return declare_adjoining(game, division, sent, actor)


def declare_adjoining(game: Game, division: Command, form: AdjoiningForm, actor: str) -> Event:
    data = form.cleaned_data
    key = str(division.pk)
    with act(game, data["version"], actor, step=StepKey.ADJOINING_PANIC, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        try:
            chosen = declare(s.now, s.phase, key, division.name, data["adjoining"])
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        return action.record(AdjoiningDeclared(key, division.name, chosen, tuple(s.name(k) for k in chosen)))


def panel(s: PanicState, bound: Bound) -> dict[str, Any]:
    declare = [
        {
            "division": s.divisions[key],
            "form": bound.get(prefix(key)) or adjoining_form(s, key),
            "action": address(s.game, "adjoining", Piece("command", int(key))),
        }
        for key in s.undeclared
    ]
    panicked = [t.division for r in s.rounds for t in r.tests if t.panicked]
    declared = [
        {"division": s.divisions[k], "names": [s.name(o) for o in others if o in s.divisions]}
        for k, others in s.declared.items()
        if k in s.divisions
    ]
    return {
        "declare": declare,
        "tests": len(s.lacking),
        "played": played(s),
        "declared": declared,
        "round": s.round_number,
        "any_panicked": bool(panicked),
    }


def idle(s: PanicState) -> str:
    """No division to name adjoining ones for and none to test: no division panicked in the internal tests. The
    step still ends the panic phase as it passes (``leave``)."""
    if s.undeclared or s.lacking:
        return ""
    panicked = any(t.panicked for r in s.rounds for t in r.tests)
    return "no more divisions must test" if panicked else "no division panicked"


def leave(action: Action, s: PanicState) -> dict[str, Any]:
    """The end of the panic phase, once every round is resolved: "panicked division orders are reset to Defend
    status" (6.1, R:1849-1852). Until now a division that panicked kept its orders, holding for movement and
    maneuver (R:1830-1832); the divisions whose orders change are named in the StepAdvanced event."""
    reset = []
    for command in Command.objects.filter(game=action.game, panicked=True):
        orders = orders_after_panic_phase(DivisionOrders(command.orders), command.panicked)
        if orders != command.orders:
            action.set(command, "orders", orders.value)
            reset.append(command.name)
    return {"orders_reset": tuple(reset)}


STEP = division_test_step(
    "games/steps/panic_adjoining.html",
    pending,
    panel,
    leave,
    actions=(Act("adjoining", "command", Who.SEATED, take_adjoining, ELSEWHERE),),
    idle=idle,
)
