"""Demoralized panic test (1.7, 4.7): each demoralized unit whose excess M from fire became P hits makes its
Panic Index move; bases lost in it desert at once. No division test now; a Panic 4 event makes its division
test in the panic phase. A unit whose move would pass through an enemy formation surrenders, as in an assault
(5.5 Group Surrender; the reading is set out in republic.rules.panic). Which units test and what a test changes
are the game's decisions (``republic.play.demoralized_panic``); this module reads the state and writes the answer."""

from dataclasses import dataclass
from typing import Any

from django import forms

from republic.games.events.panic import DemoralizedPanicTested
from republic.games.events.payload import named_in
from republic.games.forms import VersionForm, filled, loss_labels
from republic.games.ledger import ActionRefused, act, turn_events
from republic.games.models import Event, Game, Unit
from republic.games.readings import read_once
from republic.games.steps.base import Act, Bound, Row, Step, Who, address, row_of, unit_row
from republic.play.demoralized_panic import DemoralizedStep, due
from republic.play.demoralized_panic import panic_test as panic_test_of
from republic.play.refusal import Refused
from republic.rules.chart import Chart
from republic.rules.morale import MAX_M_HITS
from republic.rules.panic import PanicCell, panic_level_read
from republic.rules.sequence import StepKey


@dataclass
class PanicTestState:
    game: Game
    core: DemoralizedStep  # the step as the game's decisions see it
    to_test: list[Unit]  # the units the core says must still test, with their side
    done: list[Event]


@read_once
def state(game: Game) -> PanicTestState:
    """Demoralized units of either side with P hits this turn (their excess M from fire), not yet tested."""
    events = turn_events(game, [StepKey.DEMORALIZED_PANIC], [DemoralizedPanicTested])
    tested = set(named_in(events, DemoralizedPanicTested, "unit"))
    sides = [side.pk for side in (game.attacker, game.defender) if side is not None]
    units = sorted(
        Unit.objects.filter(game=game, division__side__in=sides, m_hits=MAX_M_HITS, p_hits_turn__gt=0, bases__gt=0)
        .in_play()
        .in_battle_order()
        .select_related("division__side"),
        key=lambda u: sides.index(u.division.side_id),
    )
    core = DemoralizedStep(tuple(u.to_rules() for u in units), frozenset(tested))
    owed = {u.id for u in due(core)}
    return PanicTestState(game, core, [u for u in units if u.key in owed], events)


def pending(s: PanicTestState) -> list[str]:
    return [f"demoralized panic test for {u.name} ({u.p_hits_turn}P)" for u in s.to_test]


def idle(s: PanicTestState) -> str:
    return "no demoralized unit has panic hits from fire" if not (s.to_test or s.done) else ""


LOSS_CONDITIONS = {
    "out_of_town": "Retreating or routing out of town terrain",
    "across_bridge_or_ford": "Retreating or routing across a bridge or fordable stream",
}


class DemoralizedPanicForm(VersionForm):
    out_of_town = forms.BooleanField(required=False)
    across_bridge_or_ford = forms.BooleanField(required=False)
    surrounded = forms.BooleanField(
        label="Cannot move back without passing through an enemy formation",
        required=False,
        help_text="Surrounded or pinned against an obstacle: it surrenders instead of its panic move "
        "(5.5 Group Surrender).",
    )
    printed = forms.CharField(
        label="Or: the move and loss from your printed Panic Index",
        required=False,
        max_length=10,
        help_text="Like F, Re 1 or Rt 2: the move, then the bases that desert.",
    )

    def __init__(self, *args: Any, chart: Chart, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        loss_labels(self, chart, LOSS_CONDITIONS)

    def clean_printed(self) -> PanicCell | None:
        text = self.cleaned_data.get("printed", "").strip()
        if not text:
            return None
        try:
            return PanicCell.parse(text)
        except ValueError:
            raise forms.ValidationError("Write the move as D, W, F, Re or Rt, then any loss number: Re 1.") from None


def panic_form(game: Game, unit: Unit, data: Any = None) -> DemoralizedPanicForm:
    return DemoralizedPanicForm(
        data, prefix=unit.piece.prefix("panic"), initial={"version": game.version}, chart=game.chart
    )


def no_test(unit: Unit) -> str:
    return f"{unit.name} has no demoralized panic test to make now."


def panic_test(game: Game, unit: Unit, form: DemoralizedPanicForm, actor: str) -> Event:
    data = form.cleaned_data
    refusal = no_test(unit)
    with act(game, data["version"], actor, step=StepKey.DEMORALIZED_PANIC, elsewhere=refusal) as action:
        s = state(action.game)
        printed: PanicCell | None = data.get("printed")
        conditions = {
            "out_of_town": data["out_of_town"],
            "across_bridge_or_ford": data["across_bridge_or_ford"],
            "retreat_blocked": data["surrounded"],
        }
        readings = {"panic_index": str(printed)} if printed else {}
        try:
            done = panic_test_of(action.game.chart, s.core, unit.key, action.game.scale, conditions, readings, refusal)
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        testing = next(u for u in s.to_test if u.key == unit.key)
        action.apply(testing, done.unit)
        inputs, result = done.inputs, done.result
        return action.record(
            DemoralizedPanicTested(testing.key, testing.name, inputs, result, str(printed) if printed else "")
        )


def rows(s: PanicTestState) -> list[Row]:
    return [
        unit_row(unit, f"{unit.division.side.name} · Panic {panic_level_read(unit.p_hits_turn)}", "Test", due=True)
        for unit in s.to_test
    ]


def opened(s: PanicTestState, row: Row, bound: Bound) -> dict[str, Any]:
    unit = row_of(row, s.to_test)
    return {
        "unit": unit,
        "form": bound.get(unit.piece.prefix("panic")) or panic_form(s.game, unit),
        "level": panic_level_read(unit.p_hits_turn),
        "action": address(s.game, "demoralized-panic-test", unit.piece),
    }


def panel(s: PanicTestState, bound: Bound) -> dict[str, Any]:
    return {"done": len(s.done), "nothing": "No demoralized unit has panic hits from fire to test."}


def take_panic_test(game: Game, unit: Unit, data: Any, actor: str) -> Event:
    with filled(panic_form(game, unit, data)) as sent:
        return panic_test(game, unit, sent, actor)


STEP = Step(
    "games/steps/fire_panic.html",
    state,
    pending,
    panel,
    rows=rows,
    form="games/rows/fire_panic.html",
    opened=opened,
    actions=(Act("demoralized-panic-test", "unit", Who.OWNER, take_panic_test, no_test),),
    idle=idle,
)
