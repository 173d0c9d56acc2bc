"""Typed events: one payload type per kind, each stored as JSON and read back to the same value, each worded by
the words module; and a chart cell is worded in the rule's terms, never by its key in the chart file."""

import json
from dataclasses import dataclass
from typing import Any

import pytest

from republic.charts import shipped_chart
from republic.games.events.assault import (
    AssaultDeclared,
    AssaultEnded,
    AssaultFollowedUp,
    AssaultRoundResolved,
    ChargeDisorderApplied,
    Disordered,
    LinesPassedThrough,
    LocalBreakthroughDeclared,
    Member,
    RoundConditions,
    SupportingBrigadeHit,
    UnitCover,
    UnitFollowUp,
)
from republic.games.events.command import (
    HorsDeCombatSkipped,
    LeaderCheckedForCasualty,
    LeaderMoved,
    LeaderReplaced,
    RallyResolved,
    UnitReassigned,
)
from republic.games.events.fire import (
    ArtilleryFired,
    DeclaredBlock,
    FireSaved,
    PassingFireConducted,
    SkirmishAttacked,
    SkirmishBlocksDeclared,
    SkirmishBlocksRolled,
    UnitFireHits,
)
from republic.games.events.game import (
    CorrectionMade,
    EarlierRecord,
    EventUndone,
    FieldValue,
    FirstAttackerAgreed,
    FirstAttackerChosen,
    FirstAttackerRolled,
    GameEnded,
    ObjectiveTaken,
    OrdersChanged,
    StepAdvanced,
)
from republic.games.events.maneuver import (
    BatteryFunctionsUsed,
    ChargeBonusCleared,
    ChargeBonusUsed,
    ForcedMoveBlocked,
    FormationChanged,
    ManeuverRolled,
    MountChanged,
    SkirmishersDeployed,
)
from republic.games.events.panic import AdjoiningDeclared, AppReading, DemoralizedPanicTested, DivisionPanicTested
from republic.games.events.payload import (
    KINDS,
    LabelledRoll,
    NamedUnit,
    Payload,
    kind_of,
    named_in,
    payload_of,
    read_all,
    stored,
)
from republic.games.text.describe import describe, words
from republic.games.text.terms import cell
from republic.rules.artillery import ArtilleryFireInput, resolve_artillery_fire
from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_fixed_hits import (
    PassageInput,
    PassingUnit,
    SupportingBrigadeInput,
    resolve_passage_of_lines,
    resolve_supporting_brigade,
)
from republic.rules.assault_moves import (
    FollowUp,
    FollowUpInput,
    LocalBreakthroughInput,
    resolve_follow_up,
    resolve_local_breakthrough,
)
from republic.rules.assault_on_units import RoundUnit, resolve_round_on_units
from republic.rules.assault_sides import AssaultSide, Contact
from republic.rules.assault_table import AssaultColumn, AssaultOutcome, Struck
from republic.rules.battery_functions import BatteryFunctionsInput, resolve_battery_functions
from republic.rules.catalog import MECHANICS
from republic.rules.codec import decode
from republic.rules.dice import Roll, d10
from republic.rules.division_panic import DivisionUnit, PanicTrigger, division_panic_test
from republic.rules.examples import EXAMPLES
from republic.rules.fire_results import (
    ArtilleryHitsInput,
    FireHits,
    FireTarget,
    resolve_artillery_hits,
    resolve_fire_hits,
)
from republic.rules.forced_moves import BlockedMoveInput, ForcedMove, resolve_blocked_move
from republic.rules.hits import Hits
from republic.rules.leaders import HorsDeCombatInput, resolve_hors_de_combat
from republic.rules.maneuver import ManeuverInput, resolve_maneuver
from republic.rules.morale import DisorderInput, resolve_disorder
from republic.rules.movement import LeaderMoveInput, MountInput, resolve_leader_move, resolve_mount
from republic.rules.panic import DemoralizedPanicInput, resolve_demoralized_panic
from republic.rules.rally import RallyInput, resolve_rally
from republic.rules.results import CellUse, Provenance
from republic.rules.saved_fire import SavedFireInput, resolve_saved_fire
from republic.rules.sequence import FirstAttackerInput, StepKey, resolve_first_attacker
from republic.rules.skirmish import SkirmishAttackInput, resolve_skirmish_attack, resolve_skirmish_blocks
from republic.rules.troops import BatteryFunction, BatteryType, Cover, Formation, Grade, UnitKind
from republic.rules.troops import Leader as LeaderValue
from republic.rules.units import Correction, UnitState

CHART = shipped_chart()


def resolved(name: str) -> tuple[Any, Any]:
    """The engine's example input of a mechanic, and its result."""
    mechanic = MECHANICS[name]
    inputs = decode(mechanic.inputs, EXAMPLES[name])
    return inputs, mechanic.resolve(CHART, inputs)


def unit(key: str, **fields: Any) -> UnitState:
    return UnitState(
        key,
        fields.pop("kind", UnitKind.INFANTRY),
        fields.pop("grade", Grade.VETERAN),
        fields.pop("bases", 4),
        fields.pop("bases_start", 4),
        **fields,
    )


def _round() -> AssaultRoundResolved:
    attackers = (RoundUnit(unit("unit:1", bases=6), Contact.ALL_OUT),)
    defenders = (
        RoundUnit(unit("unit:2", grade=Grade.GREEN), Contact.ALL_OUT),
        RoundUnit(
            unit(
                "unit:3",
                kind=UnitKind.ARTILLERY,
                bases=1,
                bases_start=1,
                battery_type=BatteryType.M_SB,
                saved_fire=True,
            ),
            Contact.GENERAL,
        ),
    )
    inputs = AssaultRoundInput(
        AssaultSide.of(d10(9), tuple((m.unit, m.contact, Cover.NONE) for m in attackers)),
        AssaultSide.of(d10(2), tuple((m.unit, m.contact, Cover.LIGHT) for m in defenders), struck=Struck.FLANK),
    )
    printed = CHART.overlay({c.table: "defender 3P 1B carry" for c in AssaultColumn})
    result = resolve_assault_round(printed, inputs)
    on_units = resolve_round_on_units(printed, result, attackers, defenders, struck=Struck.FLANK)
    conditions = RoundConditions(
        (UnitCover("unit:1", Cover.NONE), UnitCover("unit:2", Cover.LIGHT), UnitCover("unit:3", None)),
        Struck.FLANK,
        None,
        AssaultColumn.PITCHED_BATTLE,
        (7,),
        (),
        ("unit_3",),
        printed="defender 3P 1B carry",
    )
    names = tuple(NamedUnit(f"unit:{n}", f"Unit {n}") for n in (1, 2, 3))
    return AssaultRoundResolved(
        40, 1, 2, names, conditions, inputs, result, on_units, app_outcome=AssaultOutcome.parse("both 1M roll again")
    )


def _division_test() -> DivisionPanicTested:
    units = (DivisionUnit("unit:1", Grade.GREEN, 4), DivisionUnit("unit:2", Grade.VETERAN, 0))
    rolls = {PanicTrigger.INTERNAL: d10(1), PanicTrigger.ADJOINING: d10(2)}
    result = division_panic_test(CHART.overlay({"panic_pass": 7}), units, rolls)
    return DivisionPanicTested(
        "12",
        "Heth's Division",
        2,
        tuple(rolls),
        units,
        (NamedUnit("unit:1", "Archer"), NamedUnit("unit:2", "Davis")),
        tuple(LabelledRoll(f"{t.value} panic", r) for t, r in rolls.items()),
        result,
        printed_pass=7,
        app=AppReading(6, False, None, 0),
    )


def examples() -> list[Payload]:
    rally_inputs = RallyInput.of(unit("unit:1", m_hits=2), d10(6), LeaderValue.parse("E1"), 3.0)
    maneuver_inputs = ManeuverInput.of(unit("unit:1"), d10(4), division_leader=LeaderValue.parse("E1"))
    battery = unit("unit:5", kind=UnitKind.ARTILLERY, bases=1, bases_start=1, battery_type=BatteryType.M_RIFLE)
    functions = BatteryFunctionsInput.planned(battery, (BatteryFunction.LIMBER,), will_fire=False)
    attack = SkirmishAttackInput.of(unit("unit:1"), 2.0, d10(8))
    blocks, _ = resolved("skirmish_blocks")
    fire = ArtilleryFireInput.of(battery, (), unit("unit:2"), range=3.0, roll=d10(10))
    fired = resolve_artillery_fire(CHART, fire)
    shared = resolve_artillery_hits(CHART, ArtilleryHitsInput(fired.result, FireTarget.of(unit("unit:2"))))
    saved = SavedFireInput.of(battery)
    demoralized = DemoralizedPanicInput.of(unit("unit:1", grade=Grade.GREEN, m_hits=4, p_hits_turn=4, bases=3))
    hdc = HorsDeCombatInput(Roll((5, 5)), 2, True)
    replace_inputs, replace_result = resolved("leader_replacement")
    disorder = DisorderInput(1, used_charge_bonus=True)
    supporting = SupportingBrigadeInput(Grade.VETERAN, 7, 2, primary_move=ForcedMove.RETREAT, move=ForcedMove.WITHDRAW)
    supporting_hit = resolve_supporting_brigade(CHART, supporting)
    carry = FollowUpInput("carry", UnitKind.INFANTRY, FollowUp.CARRY, used_bonus=True)
    local = LocalBreakthroughInput(0, used_bonus=True)
    passing = PassageInput((PassingUnit(4, ForcedMove.ROUT, 2.0, "Cutler's Brigade"),), Grade.VETERAN, m_hits=1)
    taken = resolve_fire_hits(unit("unit:2", saved_fire=False), FireHits("unit:2", 2, 1, 1))
    first_roll = FirstAttackerInput("Confederate", "Union", d10(2), d10(9))
    first_choice = FirstAttackerInput("Confederate", "Union", d10(2), d10(9), "Union")
    block = DeclaredBlock("unit:2#1", "Iron, marker 1", Grade.CRACK, "unit:1#1", "Davis, marker 1")
    leader_move = LeaderMoveInput(rally_step=True, moved=1.5)
    routing = BlockedMoveInput(ForcedMove.RETREAT, m_hits=1)
    prolonged = unit(
        "unit:6",
        kind=UnitKind.ARTILLERY,
        bases=1,
        bases_start=1,
        battery_type=BatteryType.M_SB,
        functions_used=(BatteryFunction.PROLONG,),
    )
    at_prolonged = ArtilleryFireInput.of(battery, (), prolonged, range=3.0, roll=d10(5))
    on_prolonged = resolve_artillery_fire(CHART, at_prolonged)
    shared_now = resolve_artillery_hits(CHART, ArtilleryHitsInput(on_prolonged.result, FireTarget.of(prolonged)))
    landed = resolve_fire_hits(prolonged, FireHits("unit:6", 2))
    passing_fire = ArtilleryFireInput.of(battery, (), unit("unit:1"), range=3.0, roll=d10(6), passing_fire=True)
    passed = resolve_artillery_fire(CHART, passing_fire)
    passing_shared = resolve_artillery_hits(
        CHART, ArtilleryHitsInput(passed.result, FireTarget.of(unit("unit:1")), passing_fire=True)
    )
    passing_taken = resolve_fire_hits(unit("unit:1"), FireHits("unit:1", 2))
    mount_inputs = MountInput(UnitKind.CAVALRY_MOUNTED, mount=False)
    return [
        FirstAttackerAgreed(3, "Union", 4, "Confederate", "Union"),
        FirstAttackerChosen(3, "Union", "die roll"),
        FirstAttackerRolled((4, 3), first_roll, resolve_first_attacker(CHART, first_roll)),
        FirstAttackerChosen(3, "Union", "die roll", first_choice, resolve_first_attacker(CHART, first_choice)),
        GameEnded(3, "Union", "held the ridge"),
        GameEnded(None, ""),
        StepAdvanced(
            StepKey.ARTILLERY_FIRE,
            StepKey.FIRE_HORS_DE_COMBAT,
            (UnitFireHits("unit:2", "Cutler", taken),),
            turn_ended=False,
        ),
        EventUndone(4),
        CorrectionMade("unit:1", "Davis", Correction.M_PLUS, (FieldValue("m_hits", 1),)),
        OrdersChanged(9, "Heth's Division", "hold"),
        ObjectiveTaken("objective:3", "McPherson's Ridge", "Union", "Confederate"),
        RallyResolved("unit:1", "Davis", rally_inputs, resolve_rally(CHART, rally_inputs), ("A. P. Hill (P1)",)),
        LeaderReplaced(4, "Henry Heth", "Heth's Division", replace_inputs, replace_result),
        LeaderMoved(4, "Henry Heth", "Heth's Division", leader_move, resolve_leader_move(CHART, leader_move)),
        UnitReassigned("unit:1", "Davis", 9, "Heth's Division", 10, "Pender's Division"),
        ForcedMoveBlocked("unit:1", "Davis", routing, resolve_blocked_move(CHART, routing)),
        ManeuverRolled(
            "unit:1",
            "Davis",
            maneuver_inputs,
            resolve_maneuver(CHART, maneuver_inputs),
            "Henry Heth",
            LeaderValue.parse("E1"),
        ),
        FormationChanged("unit:1", "Davis", Formation.TWO_LINE, Formation.OPEN_ORDER),
        MountChanged("unit:3", "Gamble", UnitKind.CAVALRY_MOUNTED, mount_inputs, resolve_mount(CHART, mount_inputs)),
        SkirmishersDeployed("unit:1", "Davis", 0, 2, 2),
        ChargeBonusUsed("unit:1", "Davis"),
        ChargeBonusCleared("unit:1", "Davis"),
        BatteryFunctionsUsed(
            "unit:5", "Calef", functions, resolve_battery_functions(CHART, functions), (BatteryFunction.LIMBER,)
        ),
        SkirmishBlocksDeclared("Union", (block,), ("unit:1#1", "unit:1#2")),
        SkirmishBlocksRolled("Union", (block,), blocks, resolve_skirmish_blocks(CHART, blocks), ("unit:1#1",)),
        SkirmishAttacked(
            "unit:1",
            "Davis",
            "unit:2",
            "Iron",
            attack,
            resolve_skirmish_attack(CHART, attack),
            (FireHits("unit:2", m=1),),
        ),
        PassingFireConducted(
            "unit:5",
            "Calef",
            NamedUnit("unit:1", "Davis"),
            None,
            None,
            passing_fire,
            None,
            passed,
            passing_shared,
            (UnitFireHits("unit:1", "Davis", passing_taken),),
        ),
        ArtilleryFired(
            (NamedUnit("unit:5", "Calef"),),
            NamedUnit("unit:6", "Garnett"),
            None,
            None,
            at_prolonged,
            None,
            on_prolonged,
            shared_now,
            landed=(UnitFireHits("unit:6", "Garnett", landed),),
        ),
        ArtilleryFired(
            (NamedUnit("unit:5", "Calef"),),
            NamedUnit("unit:2", "Cutler"),
            None,
            None,
            fire,
            Hits(2, 1),
            fired,
            shared,
            (FireHits("unit:2", 2, 1),),
        ),
        FireSaved("unit:5", "Calef", saved, resolve_saved_fire(CHART, saved)),
        DemoralizedPanicTested("unit:1", "Davis", demoralized, resolve_demoralized_panic(CHART, demoralized), "Re 1"),
        LeaderCheckedForCasualty(4, "Henry Heth", "Heth's Division", hdc, resolve_hors_de_combat(CHART, hdc)),
        HorsDeCombatSkipped(4, "Henry Heth"),
        AssaultDeclared(
            1,
            (Member("unit:1", "Davis", Contact.ALL_OUT),),
            (Member("unit:2", "Cutler", Contact.GENERAL), Member("unit:3", "Hall", Contact.ALL_OUT)),
        ),
        _round(),
        AssaultEnded(40, 1, 2, "Davis against Cutler"),
        SupportingBrigadeHit("unit:3", "Iron Brigade", "Cutler's Brigade", supporting, supporting_hit),
        LinesPassedThrough(
            "unit:3",
            "Iron Brigade",
            (NamedUnit("unit:2", "Cutler's Brigade"),),
            passing,
            resolve_passage_of_lines(CHART, passing),
        ),
        AssaultFollowedUp(40, 1, 1, (UnitFollowUp("unit:1", "Davis", carry, resolve_follow_up(CHART, carry)),)),
        LocalBreakthroughDeclared("unit:1", "Davis", local, resolve_local_breakthrough(CHART, local)),
        ChargeDisorderApplied((Disordered("unit:1", "Davis", disorder, resolve_disorder(CHART, disorder)),)),
        _division_test(),
        AdjoiningDeclared("12", "Heth's Division", ("14",), ("Wadsworth's Division",)),
        EarlierRecord("RallyResolved", "Davis's Brigade rallies"),
    ]


@dataclass
class Stored:
    """An event as the database gives it back: its kind and its payload's JSON."""

    kind: str
    payload: Any
    game_turn: int = 1
    player_turn: int = 2
    undoes: Any = None


def test_every_kind_of_event_has_an_example():
    assert {type(p) for p in examples()} == set(KINDS.values())


@pytest.mark.parametrize("payload", examples(), ids=lambda p: type(p).__name__)
def test_a_payload_stored_as_json_reads_back_the_same(payload):
    text = json.dumps(stored(payload))
    assert payload_of(Stored(kind_of(payload), json.loads(text))) == payload


@pytest.mark.parametrize("payload", examples(), ids=lambda p: type(p).__name__)
def test_every_kind_of_event_is_worded(payload):
    said = describe(Stored(kind_of(payload), stored(payload)))  # type: ignore[arg-type]
    assert said and "{" not in said and "None" not in said
    if not isinstance(payload, StepAdvanced | EventUndone):
        assert said == words(payload)


def test_the_words_of_a_few_events_read_as_the_table_says_them():
    found = {type(p): describe(Stored(kind_of(p), stored(p))) for p in examples()}  # type: ignore[arg-type]
    assert found[StepAdvanced] == (
        "On to fire: Hors de combat checks (Cutler: 2M 1B, now Rattled, 3 bases left, skirmishers now green)"
    )
    assert found[EventUndone] == "Undone: event #4"
    assert found[LeaderMoved] == (
        'Henry Heth moved 1.5" to support the rally (0.5" left of the 2" a leader moves in the rally step)'
    )
    assert found[UnitReassigned] == "Davis leaves Heth's Division for Pender's Division"
    assert found[ForcedMoveBlocked] == (
        'Davis\'s retreat would end on another unit: it routs instead, 14" in all (2" beyond the retreat), turning '
        "away from the enemy; the M at the end of its rout leaves it Rattled"
    )
    assert found[MountChanged] == "Gamble dismounts: a formation change (3.5)"
    assert found[FirstAttackerRolled] == (
        "The roll for the first attacker: Confederate rolled 2, Union 9; Union rolled high and choose who attacks first"
    )
    assert found[GameEnded] == "Game over: A draw"  # the last example of the kind
    assert found[ArtilleryFired].startswith("Calef fires at Cutler: 2M 1B (printed chart); Cutler 2M 1B")
    assert found[PassingFireConducted] == (
        "Calef makes passing fire at Davis: 2M (die 6, typed); Davis: 2M, now Rattled"
    )
    assert found[AssaultRoundResolved].startswith("Assault 1, round 2: ")
    assert "(printed chart: defender 3P 1B carry) → defender 1B 3P carry" in found[AssaultRoundResolved]


def test_the_hits_a_fire_puts_on_a_battery_that_prolonged_are_worded_as_on_at_once():
    fired = next(p for p in examples() if isinstance(p, ArtilleryFired) and p.landed)
    said = describe(Stored(kind_of(fired), stored(fired)))  # type: ignore[arg-type]
    assert said == "Calef fires at Garnett: 2M (die 5, typed); Garnett at once, as it prolonged (3.5): 2M, now Rattled"


def test_fields_set_by_hand_are_worded_as_the_table_says_them():
    payload = CorrectionMade(
        "unit:1", "Davis", None, (FieldValue("m_hits", 2), FieldValue("p4_event", True), FieldValue("bases", 6))
    )
    said = describe(Stored(kind_of(payload), stored(payload)))  # type: ignore[arg-type]
    assert said == "Correction: Davis: M hits 2 (Rattled); Panic 4 event yes; bases 6"
    payload = CorrectionMade("game:1", "Gettysburg", None, (FieldValue("step", "move"),))
    said = describe(Stored(kind_of(payload), stored(payload)))  # type: ignore[arg-type]
    assert said == "Correction: Gettysburg: step Attacker moves units"


def test_an_event_stamped_at_the_end_of_a_player_turn_says_so():
    payload = StepAdvanced(StepKey.ADJOINING_PANIC, StepKey.MESSAGES, turn_ended=True)
    said = describe(Stored(kind_of(payload), stored(payload), 3, 2))  # type: ignore[arg-type]
    assert said == "On to command: Defenders exchange messages (end of player turn 2 of game turn 3)"


def test_the_end_of_the_panic_phase_names_the_divisions_put_back_on_defend():
    reset = ("Heth's Division", "Pender's Division")
    payload = StepAdvanced(StepKey.ADJOINING_PANIC, StepKey.MESSAGES, orders_reset=reset, turn_ended=True)
    said = describe(Stored(kind_of(payload), stored(payload), 3, 2))  # type: ignore[arg-type]
    assert said == (
        "On to command: Defenders exchange messages (divisions that panicked back on Defend orders: Heth's Division, "
        "Pender's Division; end of player turn 2 of game turn 3)"
    )
    assert payload_of(Stored(kind_of(payload), json.loads(json.dumps(stored(payload))))) == payload


@pytest.mark.parametrize("table", list(CHART.tables.values()), ids=lambda t: t.name)
def test_a_chart_cell_is_worded_by_its_tables_title_and_the_rules_names(table):
    keys = [band.label() for band in table.bands] or [f"{r}, {c}" if c else r for r, c in table.cells]
    for key in keys:
        said = cell(CellUse(table.name, key, "7", Provenance.PROVISIONAL))
        assert said.startswith(f"{table.spec.title}: ") and said.endswith(" = 7 (provisional)")
        assert "_" not in said.split(": ", 1)[1], said  # no key of the chart file shows through
    assert cell(CellUse(table.name, keys[0], "7", Provenance.PRINTED)).endswith("(printed chart)")


def test_a_plain_field_is_read_from_the_stored_payloads_of_its_kind_alone():
    found = [Stored(kind_of(p), json.loads(json.dumps(stored(p)))) for p in examples()]
    saved = [p.unit for p in read_all(found, FireSaved)]
    assert saved and named_in(found, FireSaved, "unit") == saved
    with pytest.raises(AttributeError, match="FireSaved has no field leader"):
        named_in(found, FireSaved, "leader")


@dataclass
class Recorded:
    """An event as the database gives it back: with its id and the moment it was recorded."""

    id: int
    created: str
    kind: str
    payload: Any


def test_a_recorded_event_is_decoded_once_and_an_id_recorded_again_afresh():
    first = next(p for p in examples() if isinstance(p, FireSaved))
    other = next(p for p in examples() if isinstance(p, StepAdvanced))
    kept = json.loads(json.dumps(stored(first)))
    decoded = payload_of(Recorded(987_654, "12:00:00.000001", kind_of(first), kept))
    assert payload_of(Recorded(987_654, "12:00:00.000001", kind_of(first), kept)) is decoded
    # the same id after a rolled-back transaction is another event: it is read for what it holds
    again = Recorded(987_654, "12:00:00.000002", kind_of(other), json.loads(json.dumps(stored(other))))
    assert payload_of(again) == other
    # an event not yet saved has no id: decoded every time
    assert payload_of(Stored(kind_of(first), kept)) is not decoded
