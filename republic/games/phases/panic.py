"""Panic phase (1.7, 6.1-6.3): divisional panic tests (internal panic), then inter-divisional panic tests
(adjoining panic) in rounds.

The engine decides who tests in which round (`next_tests`); this module rebuilds the rounds already played
from the phase's DivisionPanicTested events, so the table is asked for exactly the dice of the next round.
Internal tests are all of round 1 (the internal panic step); every later round is adjoining panic, after the
table has said which divisions adjoin each division that panicked (AdjoiningDeclared).

A division's own test is the only thing in the phase that changes its units, and a division that panicked
tests no more, so each test is resolved from the state as it stands and applied at once.
"""

from dataclasses import dataclass, replace

from django import forms
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from republic.games import answers
from republic.games.dice import DiceForm, die_field
from republic.games.forms import VersionForm
from republic.games.ledger import ActionRefused, StaleGame, act_on, this_turn
from republic.games.models import Battery, Brigade, Command, Event, Game
from republic.games.phases.handler import StepHandler
from republic.games.text import inches
from republic.rules.chart import Cell, Chart
from republic.rules.codec import decode, encode
from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import condition_for
from republic.rules.panic import (
    DivisionPair,
    DivisionPanicResult,
    DivisionUnit,
    PanicCell,
    PanicPhaseInput,
    PanicRound,
    PanicTrigger,
    PendingTest,
    PhaseDivision,
    PhaseTest,
    average_grade,
    division_panic_test,
    next_tests,
    panic_die_modifiers,
)
from republic.rules.results import Provenance
from republic.rules.scale import GroundScale
from republic.rules.sequence import StepKey
from republic.rules.troops import Grade, UnitKind

TESTED = "DivisionPanicTested"
DECLARED = "AdjoiningDeclared"
PANIC_STEPS = (StepKey.INTERNAL_PANIC.value, StepKey.ADJOINING_PANIC.value)
LOSS_CONDITIONS = {
    "out_of_town": "Out of town terrain (blocks, buildings)",
    "across_bridge_or_ford": "Across a bridge or fordable stream",
    "away_from_rear_assault": "Away from an assault in its rear",
}
PRINTED_SOURCE = "the players' printed chart"



# --- the state of the phase -------------------------------------------------------------------------------


def divisions_of(game: Game) -> list[Command]:
    return list(Command.objects.filter(game=game, level=Command.Level.DIVISION).select_related("side")
                .order_by("side__order", "order", "pk"))


def members(division: Command) -> list[Brigade | Battery]:
    return [*Brigade.objects.filter(division=division).order_by("order", "pk"),
            *Battery.objects.filter(division=division).order_by("order", "pk")]


def division_unit(unit: Brigade | Battery) -> DivisionUnit:
    """A unit as the panic test sees it: a unit out of play has no bases left but keeps its last condition."""
    battery = isinstance(unit, Battery)
    return DivisionUnit(
        id=unit.key,
        grade=Grade(unit.grade),
        bases=0 if unit.out_of_play else unit.bases,
        condition=condition_for(unit.m_hits),
        kind=UnitKind.ARTILLERY if battery else UnitKind(unit.kind),
        already_moved=ForcedMove(unit.forced_move) if unit.forced_move else None,
    )


def phase_events(game: Game, kind: str):
    """This player turn's events of the panic phase (both steps), not undone."""
    return this_turn(game, PANIC_STEPS, [kind])


@dataclass(frozen=True)
class _Recorded:
    """A test already played, as the round logic needs it: did the division panic."""

    held: bool

    @property
    def panicked(self) -> bool:
        return not self.held


@dataclass
class PanicState:
    divisions: dict[str, Command]  # every division of the game, by the engine's id
    units: dict[str, list[Brigade | Battery]]  # each division's units
    phase: dict[str, PhaseDivision]  # the divisions that can take part: units left, or tested already
    inputs: PanicPhaseInput
    rounds: tuple[PanicRound, ...]
    lacking: tuple[PendingTest, ...]  # tests of the next round still to roll
    undeclared: tuple[str, ...]  # panicked divisions whose adjoining divisions the table must name first
    declared: dict[str, list[str]]
    tests: list[Event]
    empty: list[Command]  # divisions with a P4 event but no unit left to test

    @property
    def round_number(self) -> int:
        return len(self.rounds) + 1

    def name(self, division_id: str) -> str:
        return self.divisions[division_id].name


def panic_state(game: Game) -> PanicState:
    divisions = {str(d.pk): d for d in divisions_of(game)}
    tests = list(phase_events(game, TESTED))
    declarations = list(phase_events(game, DECLARED))
    recorded: dict[tuple[str, str], Event] = {}
    units_then: dict[str, tuple[DivisionUnit, ...]] = {}
    for event in tests:
        units_then.setdefault(event.inputs["division"], decode(tuple[DivisionUnit, ...], event.inputs["units"]))
        for trigger in event.inputs["triggers"]:
            recorded[(event.inputs["division"], trigger)] = event
    units, phase, empty = {}, {}, []
    for key, division in divisions.items():
        units[key] = members(division)
        # a division tested already takes part as it stood then (its own panic may have emptied it)
        engine_units = units_then.get(key) or tuple(division_unit(u) for u in units[key])
        if any(u.present for u in engine_units):
            phase[key] = PhaseDivision(key, engine_units, internal=division.p4_event)
        elif division.p4_event:
            empty.append(division)
    declared = {e.inputs["division"]: list(e.inputs["adjoining"]) for e in declarations}
    pairs = tuple(DivisionPair(first, second) for first, others in declared.items() for second in others
                  if first in phase and second in phase and first != second)
    inputs = PanicPhaseInput(divisions=tuple(phase.values()), adjoining=pairs, scale=GroundScale(game.ground_scale))
    rounds: tuple[PanicRound, ...] = ()
    lacking: tuple[PendingTest, ...] = ()
    undeclared: tuple[str, ...] = ()
    while True:
        if rounds:
            undeclared = tuple(t.division for t in rounds[-1].tests if t.panicked and t.division not in declared)
            if undeclared:
                break
        pending = next_tests(inputs, rounds)
        if not pending:
            break
        lacking = tuple(t for t in pending if any((t.division, tr.value) not in recorded for tr in t.triggers))
        if lacking:
            break
        played = tuple(PhaseTest(t.division, t.triggers, _Recorded(recorded[(t.division, t.triggers[0].value)]
                                                                   .result["held"])) for t in pending)
        rounds = (*rounds, PanicRound(len(rounds) + 1, played))
    return PanicState(divisions, units, phase, inputs, rounds, lacking, undeclared, declared, tests, empty)


def _test_words(state: PanicState, test: PendingTest) -> str:
    kinds = " and ".join(f"{t.value}" for t in test.triggers)
    return f"roll the {kinds} panic test of {state.name(test.division)}"


def _internal_pending(game: Game) -> list[str]:
    state = panic_state(game)
    return [_test_words(state, t) for t in state.lacking]


def _adjoining_pending(game: Game) -> list[str]:
    state = panic_state(game)
    return ([f"say which divisions adjoin {state.name(d)}, which panicked" for d in state.undeclared]
            + [_test_words(state, t) + f" (round {state.round_number})" for t in state.lacking])


# --- the division panic test ------------------------------------------------------------------------------


PRINTED_RESULTS = [("", "use the app's chart")] + [
    (str(PanicCell(move, loss)), str(PanicCell(move, loss)))
    for move in (ForcedMove.FALL_BACK, ForcedMove.RETREAT, ForcedMove.ROUT) for loss in range(4)
]


class PanicTestForm(DiceForm):
    out_of_town = forms.BooleanField(label=LOSS_CONDITIONS["out_of_town"], required=False)
    across_bridge_or_ford = forms.BooleanField(label=LOSS_CONDITIONS["across_bridge_or_ford"], required=False)
    away_from_rear_assault = forms.BooleanField(label=LOSS_CONDITIONS["away_from_rear_assault"], required=False)
    die = die_field()
    printed_pass = forms.IntegerField(
        label="Pass number from your printed chart", required=False, min_value=1, max_value=12,
        error_messages={"min_value": "A pass number is 1 to 12.", "max_value": "A pass number is 1 to 12."})
    printed_result = forms.ChoiceField(label="Panic 4 result (move and loss) from your printed chart",
                                       required=False, choices=PRINTED_RESULTS)

    def __init__(self, *args, triggers=(PanicTrigger.INTERNAL,), **kwargs):
        super().__init__(*args, **kwargs)
        self.triggers = tuple(triggers)
        self.dice_fields = ("die", "die2")[:len(self.triggers)]
        if len(self.triggers) > 1:
            self.fields["die2"] = die_field()
        for name, trigger in zip(self.dice_fields, self.triggers, strict=True):
            self.fields[name].label = f"{trigger.value.capitalize()} panic die (1-10)"

    def trigger_rolls(self) -> dict:
        return dict(zip(self.triggers, self.rolls(), strict=True))


def chart_with_printed(chart: Chart, grade: Grade, pass_number: int | None, p4: str) -> Chart:
    """The app's chart with the cells the players read from their printed chart put in their place."""
    tables = dict(chart.tables)
    if pass_number is not None:
        table = tables["panic_pass"]
        cells = {**table.cells, (grade.value, ""): Cell(pass_number, Provenance.CONFIRMED, PRINTED_SOURCE,
                                                        raw=pass_number)}
        tables["panic_pass"] = replace(table, cells=cells)
    if p4:
        table = tables["panic_index"]
        cells = {**table.cells, (grade.value, "p4"): Cell(PanicCell.parse(p4), Provenance.CONFIRMED, PRINTED_SOURCE,
                                                          raw=p4)}
        tables["panic_index"] = replace(table, cells=cells)
    return replace(chart, tables=tables)


_VERBS = {ForcedMove.DISENGAGE: "disengages", ForcedMove.WITHDRAW: "withdraws", ForcedMove.FALL_BACK: "falls back",
          ForcedMove.RETREAT: "retreats", ForcedMove.ROUT: "routs"}



def _arithmetic(result: DivisionPanicResult) -> str:
    """'7 + 2 unshaken = 9 against 6': the die, the die modifiers, the pass number."""
    taken = next(t for t in result.rolls if t.trigger is result.trigger)
    terms = [str(taken.roll.faces[0])]
    for m in result.modifiers:
        if m.label.startswith("loss number"):
            continue
        label = m.label.replace("rolling division is ", "").replace("each demoralized unit present", "demoralized")
        terms.append(f"{'+' if m.value >= 0 else '−'} {abs(m.value)} {label}")
    sum_text = " ".join(terms) + (f" = {taken.modified}" if len(terms) > 1 else "")
    both = ""
    if len(result.rolls) > 1:
        both = ", ".join(f"{t.trigger.value} {t.modified}" for t in result.rolls) + "; the worse stands: "
    return f"{both}{sum_text} against {result.pass_number}"


def test_summary(name: str, result: DivisionPanicResult, names: dict[str, str]) -> str:
    """What the table reads: who holds, who panics, how far every unit goes, who deserts."""
    if result.held:
        return f"{name} holds ({_arithmetic(result)})"
    verb = _VERBS[result.move]
    distances = [u.distance for u in result.units if u.move is not None]
    if distances:
        usual = max(distances, key=distances.count)
        others = [f"{names[u.id]} {inches(u.distance)}" if u.move is not None
                  else f"{names[u.id]} already moved as far" for u in result.units
                  if u.move is None or u.distance != usual]
        moves = f"every unit {verb} {inches(usual)}" + (f" ({', '.join(others)})" if others else "")
    else:
        moves = f"every unit has already moved as far as the division's {result.move.title}"
    parts = [f"{name} panics ({_arithmetic(result)}): {moves}"]
    for u in result.units:
        if u.deserters:
            gone = " (none left)" if not u.bases_after else ""
            parts.append(f"{u.deserters} base{'s desert' if u.deserters > 1 else ' deserts'} from {names[u.id]}{gone}")
    if any(u.m_hits for u in result.units):
        parts.append("1M on each unit not yet demoralized")
    parts.append("orders now Defend")
    return "; ".join(parts)


def _apply(action, division: Command, units: list[Brigade | Battery], result: DivisionPanicResult) -> None:
    if result.held:
        return
    by_key = {u.key: u for u in units}
    for outcome in result.units:
        unit = by_key[outcome.id]
        battery = isinstance(unit, Battery)
        if outcome.move is not None:
            action.set(unit, "forced_move", outcome.move.value)
            if not battery and outcome.move in (ForcedMove.RETREAT, ForcedMove.ROUT):
                action.set(unit, "retreated", True)
            if battery and outcome.move is ForcedMove.ROUT:
                action.set(unit, "abandoned", True)  # batteries required to rout are abandoned (5.5)
        if outcome.deserters:
            action.set(unit, "bases", outcome.bases_after)
            action.set(unit, "base_hits_turn", unit.base_hits_turn + outcome.deserters)
            if not outcome.bases_after:
                action.set(unit, "abandoned" if battery else "destroyed", True)
        if outcome.m_hits:
            action.set(unit, "m_hits", outcome.condition_after.m_hits)
    action.set(division, "panicked", True)
    if result.orders_reset_to_defend:
        action.set(division, "orders", Command.Orders.DEFEND.value)


def test_division(game: Game, division: Command, form: PanicTestForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        division = Command.objects.get(pk=division.pk)
        if game.step not in PANIC_STEPS:
            raise ActionRefused("Panic tests are rolled in the panic phase.")
        state = panic_state(game)
        test = next((t for t in state.lacking if t.division == str(division.pk)), None)
        if test is None:
            raise ActionRefused(f"{division.name} has no panic test to roll now.")
        if test.triggers != form.triggers:
            raise ActionRefused(f"{division.name} now tests for {' and '.join(t.value for t in test.triggers)} "
                                "panic: nothing was changed. Here is the form again.")
        units = state.units[test.division]
        engine_units = state.phase[test.division].units
        rolls = form.trigger_rolls()
        conditions = {name: bool(data.get(name)) for name in LOSS_CONDITIONS}
        scale = GroundScale(game.ground_scale)
        chart = game.chart
        app_result = division_panic_test(chart, engine_units, rolls, scale, **conditions)
        printed_pass, printed_p4 = data.get("printed_pass"), data.get("printed_result") or ""
        printed = printed_pass is not None or bool(printed_p4)
        result = app_result
        if printed:
            own = chart_with_printed(chart, average_grade(engine_units), printed_pass, printed_p4)
            result = division_panic_test(own, engine_units, rolls, scale, **conditions)
        _apply(action, division, units, result)
        names = {u.key: u.name for u in units}
        stored = encode(result)
        if printed:
            stored["app_chart"] = {"pass_number": app_result.pass_number, "held": app_result.held,
                                   "move": encode(app_result.move), "loss_number": app_result.loss_number}
        dice = [{**encode(roll), "label": f"{trigger.value} panic"} for trigger, roll in rolls.items()]
        return action.record(
            TESTED, test_summary(division.name, result, names), subject=division.name,
            inputs={"division": test.division, "round": state.round_number,
                    "triggers": [t.value for t in test.triggers], "units": encode(engine_units),
                    "unit_names": names, **conditions, "scale": scale.value,
                    "printed_pass": printed_pass, "printed_result": printed_p4},
            dice=dice, result=stored, provisional=result.provisional and not printed, printed_chart=printed,
        )


def _prefix(division_id: str) -> str:
    return f"panic-{division_id}"


def _unit_rows(units: list[Brigade | Battery]) -> list[dict]:
    rows = []
    for unit in units:
        battery = isinstance(unit, Battery)
        rows.append({
            "unit": unit,
            "condition": condition_for(unit.m_hits).value,
            "kind": "battery" if battery else unit.get_kind_display(),
            "bases": unit.bases,
            "out": unit.out_of_play,
            "moved": ForcedMove(unit.forced_move).title if unit.forced_move else "",
        })
    return rows


def _test_rows(game: Game, state: PanicState, bound: dict) -> list[dict]:
    rows = []
    for test in state.lacking:
        division = state.divisions[test.division]
        engine_units = state.phase[test.division].units
        prefix = _prefix(test.division)
        form = bound.get(prefix) or PanicTestForm(prefix=prefix, initial={"version": game.version},
                                                  triggers=test.triggers)
        grade = average_grade(engine_units)
        pass_number, pass_cell = game.chart.entry("panic_pass", grade.value)
        modifiers, _ = panic_die_modifiers(game.chart, engine_units)
        rows.append({
            "division": division,
            "triggers": " and ".join(t.value for t in test.triggers),
            "form": form,
            "prefix": prefix,
            "action": f"/games/{game.pk}/panic/test/{division.pk}/",
            "units": _unit_rows(state.units[test.division]),
            "grade": grade.value,
            "pass_number": pass_number,
            "pass_provisional": pass_cell.provenance is Provenance.PROVISIONAL,
            "modifiers": [f"{m.value:+g} {m.label}" for m in modifiers],
        })
    return rows


def _played(state: PanicState) -> list[dict]:
    """Every test of the phase so far, with each unit's instruction when its division panicked."""
    played = []
    for event in state.tests:
        names = event.inputs.get("unit_names", {})
        units = [{"name": names.get(u["id"], u["id"]), "instruction": u["instruction"], "notes": u["notes"]}
                 for u in event.result.get("units", [])]
        played.append({"event": event, "round": event.inputs.get("round"), "held": event.result.get("held"),
                       "units": units})
    return played


def _internal_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    state = panic_state(game)
    return {"tests": _test_rows(game, state, bound), "played": _played(state), "empty": state.empty,
            "any_p4": any(d.internal for d in state.phase.values()) or bool(state.empty)}


@require_POST
def test_view(request: HttpRequest, game_id: int, division_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    division = answers.unit_of_game(Command, game, division_id)
    if division.level != Command.Level.DIVISION:
        return answers.stale(request, game, f"{division.name} is not a division: nothing was changed.")
    state = panic_state(game) if game.step in PANIC_STEPS else None
    test = next((t for t in state.lacking if t.division == str(division.pk)), None) if state else None
    prefix = _prefix(str(division.pk))
    form = PanicTestForm(request.POST, prefix=prefix,
                         triggers=test.triggers if test else (PanicTrigger.INTERNAL,))
    if "version" in form.errors:
        return answers.stale(request, game, "The form was incomplete: nothing was changed.")
    if form.is_valid():
        try:
            event = test_division(game, division, form, answers.actor_of(request))
        except StaleGame as exc:
            return answers.stale(request, exc.game, str(exc))
        except ActionRefused as exc:
            return answers.stale(request, game, str(exc))
        except RulesInputError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.problem)
        else:
            return answers.done(request, game, event)
    if test is None:
        return answers.stale(request, game, f"{division.name} has no panic test to roll now.")
    return answers.invalid(request, game, {prefix: form})


# --- adjoining divisions ----------------------------------------------------------------------------------


class AdjoiningForm(VersionForm):
    adjoining = forms.MultipleChoiceField(
        label='Divisions adjoining it', required=False, widget=forms.CheckboxSelectMultiple,
        help_text='Their closest units are within 3" of its closest units, or within line of sight if that is '
                  "less (6.2). Leave all unticked if none adjoins it.")

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["adjoining"].choices = list(choices)


def _adjoining_choices(state: PanicState, division_id: str) -> list[tuple[str, str]]:
    return [(key, f"{state.divisions[key].name} ({state.divisions[key].side.name})")
            for key in state.phase if key != division_id]


def declare_adjoining(game: Game, division: Command, form: AdjoiningForm, actor: str) -> Event:
    data = form.cleaned_data
    with act_on(game, data["version"], actor) as action:
        game = action.game
        key = str(division.pk)
        if game.step != StepKey.ADJOINING_PANIC:
            raise ActionRefused("Adjoining divisions are named in the adjoining panic step.")
        state = panic_state(game)
        if key not in state.undeclared:
            raise ActionRefused(f"{division.name} has no adjoining divisions to name now.")
        chosen = [k for k, _ in _adjoining_choices(state, key) if k in data["adjoining"]]
        names = [state.name(k) for k in chosen]
        summary = (f"Adjoining {division.name}: {', '.join(names)}" if names
                   else f"No division adjoins {division.name}")
        return action.record(DECLARED, summary, subject=division.name,
                             inputs={"division": key, "adjoining": chosen, "names": names})


def _adjoining_prefix(division_id: str) -> str:
    return f"adjoining-{division_id}"


def _declare_rows(game: Game, state: PanicState, bound: dict) -> list[dict]:
    rows = []
    for key in state.undeclared:
        prefix = _adjoining_prefix(key)
        already = [first for first, others in state.declared.items() if key in others]
        form = bound.get(prefix) or AdjoiningForm(prefix=prefix, choices=_adjoining_choices(state, key),
                                                  initial={"version": game.version, "adjoining": already})
        rows.append({"division": state.divisions[key], "form": form,
                     "action": f"/games/{game.pk}/panic/adjoining/{key}/"})
    return rows


def _adjoining_panel(request: HttpRequest, game: Game, bound: dict) -> dict:
    state = panic_state(game)
    panicked = [t.division for r in state.rounds for t in r.tests if t.panicked]
    declared = [{"division": state.divisions[k], "names": [state.name(o) for o in others if o in state.divisions]}
                for k, others in state.declared.items() if k in state.divisions]
    return {"declare": _declare_rows(game, state, bound), "tests": _test_rows(game, state, bound),
            "played": _played(state), "declared": declared, "round": state.round_number,
            "any_panicked": bool(panicked)}


@require_POST
def adjoining_view(request: HttpRequest, game_id: int, division_id: int) -> HttpResponse:
    game = answers.game_or_404(game_id)
    division = answers.unit_of_game(Command, game, division_id)
    if division.level != Command.Level.DIVISION:
        return answers.stale(request, game, f"{division.name} is not a division: nothing was changed.")
    state = panic_state(game)
    key = str(division.pk)
    prefix = _adjoining_prefix(key)
    form = AdjoiningForm(request.POST, prefix=prefix, choices=_adjoining_choices(state, key))
    if form.is_valid():
        try:
            event = declare_adjoining(game, division, form, answers.actor_of(request))
        except StaleGame as exc:
            return answers.stale(request, exc.game, str(exc))
        except ActionRefused as exc:
            return answers.stale(request, game, str(exc))
        return answers.done(request, game, event)
    if "version" in form.errors:
        return answers.stale(request, game, "The form was incomplete: nothing was changed.")
    if key not in state.undeclared or game.step != StepKey.ADJOINING_PANIC:
        return answers.stale(request, game, f"{division.name} has no adjoining divisions to name now.")
    return answers.invalid(request, game, {prefix: form})


STEPS = {
    StepKey.INTERNAL_PANIC: StepHandler("games/steps/panic_internal.html", _internal_pending, _internal_panel),
    StepKey.ADJOINING_PANIC: StepHandler("games/steps/panic_adjoining.html", _adjoining_pending, _adjoining_panel),
}
urls = [
    path("games/<int:game_id>/panic/test/<int:division_id>/", test_view, name="panic_test"),
    path("games/<int:game_id>/panic/adjoining/<int:division_id>/", adjoining_view, name="panic_adjoining"),
]
