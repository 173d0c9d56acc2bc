"""Attacker rallies units (1.7, 2.3): every attacking unit with M hits rolls its rally, once."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django import forms
from django.urls import reverse

from republic.games.events import RallyResolved, named_in
from republic.games.forms import DiceForm, die_field, inches_field, offer_many
from republic.games.ledger import ActionRefused, act, read_once, this_turn
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.steps.base import Bound, Row, Step, row_of, unit_row
from republic.games.text.terms import condition
from republic.rules.leaders import CommandRelation
from republic.rules.morale import Condition
from republic.rules.rally import RallyInput, RallyLeader, resolve_rally
from republic.rules.sequence import StepKey
from republic.rules.units import rallied

ROW_FIELDS = ("name", "m_hits", "grade", "division__name")
PRINTED_CONDITIONS = [("", "use the app's chart")] + [(c.value, c.value.capitalize()) for c in Condition]


@dataclass
class RallyState:
    game: Game
    to_rally: list[Unit]  # attacking units with M hits that have not rolled this step, with their division
    rallied: list[Event]

    @cached_property
    def leaders(self) -> list[Leader]:
        """The attacking side's leaders in action: read for the one unit that rallies or is opened."""
        return list(
            Leader.objects.filter(game=self.game).of_side(self.game.attacker).in_action().select_related("command")
        )

    def whole(self, unit: Unit) -> Unit:
        """A unit to rally with its chain of command, whose leaders may help (2.3)."""
        return Unit.objects.select_related("division__parent__parent").get(pk=unit.pk)


@read_once
def state(game: Game) -> RallyState:
    rallied = list(this_turn(game, [StepKey.RALLY], [RallyResolved]))
    done = set(named_in(rallied, RallyResolved, "unit"))
    units = Unit.objects.filter(game=game, m_hits__gt=0).of_side(game.attacker).in_play().in_battle_order()
    # as the rows show them: the unit that rallies or is opened is read whole (``whole``)
    shown = units.only(*ROW_FIELDS)
    return RallyState(game, [u for u in shown if u.key not in done], rallied)


def pending(s: RallyState) -> list[str]:
    return [f"rally {u.name} ({condition(u.m_hits)})" for u in s.to_rally]


class RallyForm(DiceForm):
    division_leader_distance = inches_field("Distance to the division leader (inches)", initial=0)
    leaders_within_4 = forms.MultipleChoiceField(
        label='Other leaders within 4"',
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Corps and army leaders of the chain count; rating 2 and 3 leaders also reach further (2.2).",
    )
    die = die_field()
    printed = forms.ChoiceField(
        label="Or: new condition from your printed chart", required=False, choices=PRINTED_CONDITIONS
    )

    def __init__(self, *args: Any, leaders: Sequence[Leader] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_many(self, "leaders_within_4", [(str(leader.pk), str(leader)) for leader in leaders])


def prefix(unit: Unit) -> str:
    return f"rally-{unit.key}"


def other_leaders(unit: Unit, leaders: list[Leader]) -> list[Leader]:
    """Leaders of the unit's side other than its division leader, who might stand within 4"."""
    return [leader for leader in leaders if leader.command_id != unit.division_id]


def side_leaders(game: Game, unit: Unit) -> list[Leader]:
    return list(Leader.objects.filter(game=game).of_side(unit.division.side_id).in_action().select_related("command"))


def form(game: Game, unit: Unit, leaders: list[Leader], data: Any = None) -> RallyForm:
    return RallyForm(data, prefix=prefix(unit), initial={"version": game.version}, leaders=other_leaders(unit, leaders))


def _relation(unit: Unit, leader: Leader) -> CommandRelation:
    chain = unit.division.chain()
    if leader.command_id in {c.pk for c in chain}:
        return CommandRelation.CHAIN_OF_COMMAND
    corps = next((c for c in chain if c.level == Command.Level.CORPS), None)
    if corps is not None and leader.command.parent_id == corps.pk:
        return CommandRelation.ADJOINING_SAME_CORPS
    return CommandRelation.SAME_SIDE_OTHER


def rally(game: Game, unit: Unit, form: RallyForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = f"{unit.name} has no rally to make now."
    with act(game, data["version"], actor, step=StepKey.RALLY, elsewhere=refusal) as action:
        s = state(action.game)
        unit = s.whole(next((u for u in s.to_rally if u.pk == unit.pk), None) or _refuse(refusal))
        leader = unit.division.leader or _refuse(f"{unit.division.name} has no leader to rally its units.")
        others = {str(leader.pk): leader for leader in other_leaders(unit, s.leaders)}
        chosen = [others[pk] for pk in data["leaders_within_4"] if pk in others]
        printed = data.get("printed")
        inputs = RallyInput.of(
            unit.to_rules(),
            form.rolls("die")[0],
            leader.value,
            float(data["division_leader_distance"]),
            division_leader_hors_de_combat=leader.hors_de_combat,
            other_leaders=tuple(RallyLeader(o.value, _relation(unit, o)) for o in chosen),
            scale=action.game.scale,
            printed=Condition(printed) if printed else None,
        )
        result = resolve_rally(action.game.chart, inputs)
        action.apply(unit, rallied(unit.to_rules(), result.condition_after))
        return action.record(
            RallyResolved(unit.key, unit.name, inputs, result, tuple(str(leader) for leader in chosen))
        )


def _refuse(message: str) -> Any:
    raise ActionRefused(message)


def rows(s: RallyState) -> list[Row]:
    return [
        unit_row(unit, f"{unit.grade_label}, {unit.m_hits} M · {unit.division.name}", "Rally") for unit in s.to_rally
    ]


def opened(s: RallyState, row: Row, bound: Bound) -> dict[str, Any]:
    unit = s.whole(row_of(row, s.to_rally))
    return {
        "unit": unit,
        "form": bound.get(prefix(unit)) or form(s.game, unit, s.leaders),
        "action": reverse("games:rally", args=[s.game.pk, unit.pk]),
    }


def panel(s: RallyState, bound: Bound) -> dict[str, Any]:
    return {"nothing": "Every attacking unit with morale hits has rolled its rally.", "rallied": len(s.rallied)}


STEP = Step("games/steps/rally.html", state, pending, panel, rows=rows, form="games/rows/rally.html", opened=opened)
