"""Attacker applies charge disorder (1.7, 5.6): 1M to every unit that used charge movement or retreated or
routed this turn, once, then the table closes ranks. Which units suffer it and what applying it changes are the
game's decisions (``republic.play.charge_disorder``); this step reads them from the database and writes the
answer through the ledger."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from republic.games.events.assault import ChargeDisorderApplied, Disordered
from republic.games.forms import Pick, PicksField, VersionForm, filled, offer_picks
from republic.games.ledger import ActionRefused, act, turn_events
from republic.games.models import Event, Game, Unit, UnitChoice, UnitQuerySet
from republic.games.pieces import Piece
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Step, Who, address
from republic.games.text.describe import describe
from republic.play.charge_disorder import DisorderStep, apply, is_due, suffering
from republic.play.refusal import Refused
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import DisorderInput
from republic.rules.sequence import StepKey


@dataclass
class DisorderState:
    game: Game
    step: DisorderStep
    disordered: list[tuple[Unit, DisorderInput]]  # every unit in play that suffers it, with why
    applied: Event | None

    def _others(self) -> UnitQuerySet:
        """The attacker's other brigades in play, which the table may say used charge movement too."""
        found = [unit.pk for unit, _ in self.disordered]
        units = Unit.objects.filter(game=self.game).of_side(self.game.attacker).in_play().brigades()
        return units.exclude(pk__in=found).in_battle_order()

    def others(self) -> list[UnitChoice]:
        return self._others().choices()

    def also(self, slots: Iterable[str]) -> list[Unit]:
        """The other brigades of these slots ('unit_12'), as rows."""
        pks = [Piece.at(slot).pk for slot in slots]
        return list(self._others().filter(pk__in=pks))


@read_once
def state(game: Game) -> DisorderState:
    # the rule (disorder_input) decides who suffers it; only units that used the charge bonus or retreated or
    # routed this turn can, so only those are read, not both sides' every unit
    moved = Q(charge_bonus_used=True) | Q(forced_move__in=[ForcedMove.RETREAT.value, ForcedMove.ROUT.value])
    rows = {
        side: list(Unit.objects.filter(moved, game=game).of_side(side).in_play().in_battle_order())
        for side in (game.attacker, game.defender)
    }
    by_key = {unit.key: unit for units in rows.values() for unit in units}
    applied = next(reversed(turn_events(game, [StepKey.CHARGE_DISORDER], [ChargeDisorderApplied])), None)
    due = suffering(*([unit.to_rules() for unit in rows[side]] for side in (game.attacker, game.defender)))
    step = DisorderStep(due, applied is not None)
    return DisorderState(game, step, [(by_key[d.unit.id], d.why) for d in due], applied)


def pending(s: DisorderState) -> list[str]:
    if not is_due(s.step):
        return []
    return [f"apply charge disorder: 1M to {', '.join(u.name for u, _ in s.disordered)}"]


def reasons(why: DisorderInput) -> str:
    return " and ".join(
        words
        for on, words in (
            (why.used_charge_bonus, "used its charge movement"),
            (why.retreated_or_routed, "retreated or routed"),
        )
        if on
    )


class DisorderForm(VersionForm):
    also = PicksField(
        label="Also used charge movement this turn",
        required=False,
        what="unit",
        help_text="Units that spent any of their assault bonus move, in the maneuver phase or to carry a position "
        "or break through (5.5, 5.6).",
    )

    def __init__(self, *args: Any, candidates: Sequence[UnitChoice] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_picks(self, ["also"], [Pick(u.piece.name, u.name, u.division_name) for u in candidates])


def disorder_form(s: DisorderState, data: Any = None) -> DisorderForm:
    return DisorderForm(data, prefix="disorder", initial={"version": s.game.version}, candidates=s.others())


ELSEWHERE = "Charge disorder is applied in its own step, after the assaults."


def apply_disorder(game: Game, form: DisorderForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=StepKey.CHARGE_DISORDER, elsewhere=ELSEWHERE) as action:
        s = state(action.game)
        also = s.also(data["also"]) if not s.applied else []
        try:
            applied = apply(action.game.chart, s.step, [unit.to_rules() for unit in also])
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        rows = {unit.key: unit for unit, _ in s.disordered} | {unit.key: unit for unit in also}
        done = []
        for d in applied.done:
            unit = rows[d.disorder.unit.id]
            action.apply(unit, d.after)
            done.append(Disordered(unit.key, unit.name, d.disorder.why, d.result, d.disorder.also))
        return action.record(ChargeDisorderApplied(tuple(done)))


def panel(s: DisorderState, bound: Bound) -> dict[str, Any]:
    return {
        "disordered": [{"unit": u, "reasons": reasons(why)} for u, why in s.disordered],
        "applied": describe(s.applied) if s.applied else "",
        "form": bound.get("disorder") or disorder_form(s),
        "action": address(s.game, "charge-disorder", s.game.piece),
    }


def take_disorder(game: Game, piece: Game, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(disorder_form(s, data)) as sent:
        return apply_disorder(game, sent, actor)


STEP = Step(
    "games/steps/charge_disorder.html",
    state,
    pending,
    panel,
    actions=(Act("charge-disorder", "game", Who.PHASING, take_disorder, ELSEWHERE),),
)
