"""The division panic tests of the panic phase (6.1-6.3), shared by its two steps: internal panic (round 1)
and adjoining panic (every later round, once the table has said which divisions adjoin each one that
panicked).

The engine decides who tests in which round (``next_tests``); the rounds already played are rebuilt from
the phase's DivisionPanicTested events, so the table is asked for exactly the dice of the next round. A
division's own test is the only thing in the phase that changes its units, and a division that panicked
tests no more, so each test is resolved from the state as it stands and applied at once. A division takes
part as it stood when it tested (its own panic may have emptied it). Those decisions are the game's
(``republic.play.panic``): this module reads the state, asks there and writes the answer through the ledger.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django import forms
from django.db.models import Case, IntegerField, QuerySet, When

from republic.games.events.panic import AdjoiningDeclared, AppReading, DivisionPanicTested
from republic.games.events.payload import LabelledRoll, NamedUnit, payload_of
from republic.games.forms import DiceForm, die_field, filled, loss_labels
from republic.games.ledger import Action, ActionRefused, act, turn_events
from republic.games.models import IN_PLAY, Command, Event, Game, Unit
from republic.games.pieces import Piece
from republic.games.readings import read_once, read_once_of
from republic.games.steps.base import Act, Bound, Row, Step, Who, address
from republic.games.text.describe import describe
from republic.play.panic import PanicProgress, after_test, panic_test, progress, taking_part
from republic.play.panic import lacking_test as lacking_of
from republic.play.refusal import Refused
from republic.prepared import prepared
from republic.rules.chart import Chart
from republic.rules.division_panic import DivisionUnit, PanicTrigger, average_grade, panic_die_modifiers
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import condition_for
from republic.rules.panic import PanicCell
from republic.rules.panic_phase import PanicRound, PendingTest, PhaseDivision
from republic.rules.results import Provenance
from republic.rules.sequence import StepKey
from republic.rules.troops import Grade, UnitKind

PANIC_STEPS = (StepKey.INTERNAL_PANIC, StepKey.ADJOINING_PANIC)
TEST_ELSEWHERE = "Panic tests are rolled in the panic phase."
LOSS_CONDITIONS = {
    "out_of_town": "Out of town terrain (blocks, buildings)",
    "across_bridge_or_ford": "Across a bridge or fordable stream",
    "away_from_rear_assault": "Away from an assault in its rear",
}
PRINTED_RESULTS = [("", "use the app's chart")] + [
    (str(PanicCell(move, loss)), str(PanicCell(move, loss)))
    for move in (ForcedMove.FALL_BACK, ForcedMove.RETREAT, ForcedMove.ROUT)
    for loss in range(4)
]


@dataclass(frozen=True)
class Division:
    """A division as the phase names it: a few columns, not a row of the model (a club battle has 80)."""

    pk: int
    name: str
    side_id: int
    side_name: str


@dataclass
class PanicState:
    game: Game
    divisions: dict[str, Division]  # every division of the game, by the engine's id
    phase: dict[str, PhaseDivision]  # the divisions that can take part: units left, or tested already
    now: PanicProgress  # the phase as the game's decisions see it: its rounds and what the next one lacks
    declared: dict[str, list[str]]
    tests: list[tuple[Event, DivisionPanicTested]]
    empty: list[Division]  # divisions with a P4 event but no unit left to test

    @property
    def rounds(self) -> tuple[PanicRound, ...]:
        return self.now.rounds

    @property
    def lacking(self) -> tuple[PendingTest, ...]:
        """The tests of the next round still to roll."""
        return self.now.lacking

    @property
    def undeclared(self) -> tuple[str, ...]:
        """The divisions that panicked whose adjoining divisions the table must name first."""
        return self.now.undeclared

    @property
    def round_number(self) -> int:
        return self.now.round_number

    def name(self, division_id: str) -> str:
        return self.divisions[division_id].name

    def members(self, division_id: str) -> list[Unit]:
        """A division's units as rows, brigades first: read for the one division that tests or is opened."""
        return list(Unit.objects.filter(game=self.game, division_id=int(division_id)).in_battle_order())


_AS_TESTED = ("pk", "division_id", "grade", "bases", "m_hits", "kind", "forced_move", "p4", "playing")
_GRADES = {grade.value: grade for grade in Grade}
_KINDS = {kind.value: kind for kind in UnitKind}


def _as_tested_rows(game: int) -> QuerySet[Unit, tuple[Any, ...]]:
    battery = Case(When(kind=UnitKind.ARTILLERY, then=1), default=0)
    playing = Case(When(IN_PLAY, then=1), default=0, output_field=IntegerField())
    p4 = Case(When(p4_event=True, then=1), default=0, output_field=IntegerField())
    rows = Unit.objects.filter(game=game).annotate(playing=playing, p4=p4).order_by(battery, "order", "pk")
    return rows.values_list(*_AS_TESTED)


_AS_TESTED_ROWS = prepared(_as_tested_rows)
_DIVISIONS = prepared(
    lambda game: (
        Command.objects.filter(game=game, level=Command.Level.DIVISION)
        .order_by("side__order", "order", "pk")
        .values_list("pk", "name", "side_id", "side__name")
    )
)


@read_once_of(Unit)
def _as_tested(game: Game) -> tuple[dict[str, tuple[DivisionUnit, ...]], frozenset[str]]:
    """Each division's units as a test sees them (brigades first), and the divisions with a Panic 4 event. The
    phase looks at every division, so every unit of a club battle is read: as the few columns a test reads, not
    as 1,000 rows of the model, its yes-or-no columns read as numbers. An action that changes no unit (naming
    adjoining divisions, leaving the step) finds it read already at its new version."""
    units: dict[str, list[DivisionUnit]] = {}
    internal: set[str] = set()
    # read as the database gives them (numbers and words, alike on SQLite and PostgreSQL): Django's conversion of
    # each value took a 1,000-unit battle's reading half again as long as the query, and writing its SQL as long
    for pk, division, grade, bases, m_hits, kind, moved, p4_event, in_play in _AS_TESTED_ROWS.rows(game.pk):
        units.setdefault(str(division), []).append(_tested(pk, grade, bases, m_hits, kind, moved, in_play))
        if p4_event:
            internal.add(str(division))
    return {division: tuple(members) for division, members in units.items()}, frozenset(internal)


@lru_cache(maxsize=16_384)
def _tested(pk: int, grade: str, bases: int, m_hits: int, kind: str, moved: str, in_play: int) -> DivisionUnit:
    """A unit as a test sees it, from its columns: made once for each state of each unit a server process meets
    (the same units are read at every version of the phase, each read unchanged but for a few)."""
    return DivisionUnit.standing(
        Piece("unit", pk).key,
        _GRADES[grade],
        bases,
        condition_for(m_hits),
        _KINDS[kind],
        ForcedMove(moved) if moved else None,
        in_play=in_play == 1,
    )


@read_once
def state(game: Game) -> PanicState:
    divisions = {str(pk): Division(pk, name, side, side_name) for pk, name, side, side_name in _DIVISIONS(game.pk)}
    units, internal = _as_tested(game)
    # the phase's tests and declarations, read at once
    events = [(e, payload_of(e)) for e in turn_events(game, PANIC_STEPS, [DivisionPanicTested, AdjoiningDeclared])]
    tests = [(e, p) for e, p in events if isinstance(p, DivisionPanicTested)]
    recorded = {(p.division, trigger): p.result for _, p in tests for trigger in p.triggers}
    units_then: dict[str, tuple[DivisionUnit, ...]] = {}
    for _, p in tests:
        units_then.setdefault(p.division, p.units)
    phase, empty = taking_part(
        ((key, str(division.side_id)) for key, division in divisions.items()), units, units_then, internal
    )
    declared = {p.division: list(p.adjoining) for _, p in events if isinstance(p, AdjoiningDeclared)}
    now = progress(phase, declared, recorded, game.scale)
    return PanicState(game, divisions, phase, now, declared, tests, [divisions[key] for key in empty])


def pending_words(s: PanicState, test: PendingTest) -> str:
    kinds = " and ".join(f"{t.value}" for t in test.triggers)
    return f"roll the {kinds} panic test of {s.name(test.division)}"


# --- the division panic test --------------------------------------------------------------------------


class PanicTestForm(DiceForm):
    out_of_town = forms.BooleanField(required=False)
    across_bridge_or_ford = forms.BooleanField(required=False)
    away_from_rear_assault = forms.BooleanField(required=False)
    die = die_field()
    printed_pass = forms.IntegerField(
        label="Pass number from your printed chart",
        required=False,
        min_value=1,
        max_value=12,
        error_messages={"min_value": "A pass number is 1 to 12.", "max_value": "A pass number is 1 to 12."},
    )
    printed_result = forms.ChoiceField(
        label="Panic 4 result (move and loss) from your printed chart", required=False, choices=PRINTED_RESULTS
    )

    def __init__(
        self, *args: Any, chart: Chart, triggers: Sequence[PanicTrigger] = (PanicTrigger.INTERNAL,), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        loss_labels(self, chart, LOSS_CONDITIONS)
        self.triggers = tuple(triggers)
        self.dice_fields = ("die", "die2")[: len(self.triggers)]
        if len(self.triggers) > 1:
            self.fields["die2"] = die_field()
        for name, trigger in zip(self.dice_fields, self.triggers, strict=True):
            self.fields[name].label = f"{trigger.value.capitalize()} panic die (1-10)"


def form_prefix(division_id: str) -> str:
    return Piece("command", int(division_id)).prefix("panic")


def panic_form(game: Game, division_id: str, triggers: Sequence[PanicTrigger], data: Any = None) -> PanicTestForm:
    return PanicTestForm(
        data, prefix=form_prefix(division_id), initial={"version": game.version}, chart=game.chart, triggers=triggers
    )


def lacking_test(s: PanicState, division: Command) -> PendingTest | None:
    return lacking_of(s.now, str(division.pk))


def roll_panic_test(game: Game, division: Command, form: PanicTestForm, actor: str) -> Event:
    data = form.cleaned_data
    with act(game, data["version"], actor, step=PANIC_STEPS, elsewhere=TEST_ELSEWHERE) as action:
        s = state(action.game)
        rolls = dict(zip(form.triggers, form.rolls(), strict=True))
        conditions = {name: bool(data.get(name)) for name in LOSS_CONDITIONS}
        printed_pass, printed_p4 = data.get("printed_pass"), data.get("printed_result") or ""
        readings = {
            name: value
            for name, value in (("panic_pass", printed_pass), ("panic_index", printed_p4))
            if value not in (None, "")
        }
        try:
            done = panic_test(
                action.game.chart,
                s.now,
                s.phase,
                str(division.pk),
                division.name,
                form.triggers,
                rolls,
                action.game.scale,
                conditions,
                readings,
            )
        except Refused as refused:
            raise ActionRefused(str(refused)) from None
        test, result, engine_units = done.test, done.result, done.units
        units = s.members(test.division)
        own = done.app
        app = AppReading(own.pass_number, own.held, own.move, own.loss_number) if own else None
        if result.panicked:
            by_key = {u.key: u for u in units}
            for key, after in after_test(result, {u.key: u.to_rules() for u in units}).items():
                action.apply(by_key[key], after)
            command = Command.objects.get(pk=division.pk)
            action.set(command, "panicked", True)  # its orders go back to Defend as the phase ends (adjoining_panic)
        return action.record(
            DivisionPanicTested(
                test.division,
                division.name,
                s.round_number,
                test.triggers,
                engine_units,
                tuple(NamedUnit(u.key, u.name) for u in units),
                tuple(LabelledRoll(f"{trigger.value} panic", roll) for trigger, roll in rolls.items()),
                result,
                action.game.scale,
                printed_pass=printed_pass,
                printed_result=printed_p4,
                app=app,
                **conditions,
            )
        )


def panic_rows(s: PanicState) -> list[Row]:
    """A row for each division test of the round still to roll."""
    rows = []
    for test in s.lacking:
        division = s.divisions[test.division]
        triggers = " and ".join(t.value for t in test.triggers)
        grade = average_grade(s.phase[test.division].units)
        facts = f"{division.side_name} · {triggers} panic test · average grade {grade.value}"
        rows.append(
            Row(Piece("command", division.pk).name, division.name, facts, "Test", command=division.pk, due=True)
        )
    return rows


def opened_test(s: PanicState, row: Row, bound: Bound) -> dict[str, Any]:
    """A division's test with what the app reads from the state: the pass number, the die modifiers and each
    unit as it stands."""
    test = next(t for t in s.lacking if row.subject == Piece("command", s.divisions[t.division].pk).name)
    division = s.divisions[test.division]
    engine_units = s.phase[test.division].units
    grade = average_grade(engine_units)
    chart = s.game.chart
    pass_number, pass_cell = chart.entry("panic_pass", grade.value)
    modifiers, _ = panic_die_modifiers(chart, engine_units)
    return {
        "division": division,
        "triggers": " and ".join(t.value for t in test.triggers),
        "form": bound.get(form_prefix(test.division)) or panic_form(s.game, test.division, test.triggers),
        "action": address(s.game, "panic-test", Piece("command", division.pk)),
        "units": [
            {
                "unit": u,
                "condition": u.condition.value,
                "kind": "battery" if u.battery else u.get_kind_display(),
                "bases": u.bases,
                "out": u.out_of_play,
                "moved": ForcedMove(u.forced_move).title if u.forced_move else "",
            }
            for u in s.members(test.division)
        ],
        "grade": grade.value,
        "pass_number": pass_number,
        "pass_provisional": pass_cell.provenance is Provenance.PROVISIONAL,
        "modifiers": [f"{m.value:+g} {m.label}" for m in modifiers],
    }


def not_a_division(division: Command) -> None:
    if division.level != Command.Level.DIVISION:
        raise ActionRefused(f"{division.name} is not a division: nothing was changed.")


def sent_test(s: PanicState, division: Command, data: Any) -> PanicTestForm:
    """The division's test as sent: a division with no test to roll now is refused, unless its form is whole
    (then the test itself says why, or that the page was stale)."""
    not_a_division(division)
    test = lacking_test(s, division)
    form = panic_form(s.game, str(division.pk), test.triggers if test else (PanicTrigger.INTERNAL,), data)
    if test is None and not form.is_valid() and "version" not in form.errors:
        raise ActionRefused(f"{division.name} has no panic test to roll now.")
    return form


def take_panic_test(game: Game, division: Command, data: Any, actor: str) -> Event:
    s = state(game)
    with filled(sent_test(s, division, data)) as sent:
        return roll_panic_test(game, division, sent, actor)


PANIC_TEST: Act = Act("panic-test", "command", Who.OWNER, take_panic_test, TEST_ELSEWHERE)


def division_test_step(
    template: str,
    pending: Callable[[PanicState], list[str]],
    panel: Callable[[PanicState, Bound], dict[str, Any]],
    leave: Callable[[Action, PanicState], dict[str, Any]] | None = None,
    actions: tuple[Act, ...] = (),
    idle: Callable[[PanicState], str] | None = None,
) -> Step[PanicState]:
    """A panic step whose work is a test per division, each a row opened on tap (both steps offer the test)."""
    return Step(
        template,
        state,
        pending,
        panel,
        leave,
        rows=panic_rows,
        form="games/rows/panic_test.html",
        opened=opened_test,
        actions=(PANIC_TEST, *actions),
        idle=idle,
    )


def played(s: PanicState) -> list[dict[str, Any]]:
    """Every test of the phase so far, with each unit's instruction when its division panicked."""
    return [
        {
            "event": event,
            "summary": describe(event),
            "round": p.round,
            "held": p.result.held,
            "units": [
                {"name": p.name_of(u.id), "instruction": u.instruction, "notes": u.notes} for u in p.result.units
            ],
        }
        for event, p in s.tests
    ]
