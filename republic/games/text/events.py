"""Every kind of event in one sentence, and the result card that shows an event with its reasons."""

from collections.abc import Callable
from typing import Any

from republic.games.events import (
    AdjoiningDeclared,
    ArtilleryFired,
    BatteryFunctionsUsed,
    ChargeBonusCleared,
    ChargeBonusUsed,
    CorrectionMade,
    DemoralizedPanicTested,
    DivisionPanicTested,
    EarlierRecord,
    EventUndone,
    FieldValue,
    FireSaved,
    FirstAttackerAgreed,
    FirstAttackerChosen,
    FirstAttackerRolled,
    FormationChanged,
    GameEnded,
    HorsDeCombatSkipped,
    LeaderCheckedForCasualty,
    LeaderMoved,
    LeaderReplaced,
    ManeuverRolled,
    ObjectiveTaken,
    OrdersChanged,
    Payload,
    RallyResolved,
    SkirmishAttacked,
    SkirmishBlocksDeclared,
    SkirmishBlocksRolled,
    SkirmishersDeployed,
    StepAdvanced,
    UnitReassigned,
    payload_of,
)
from republic.games.ledger import results
from republic.games.models import Command, Event
from republic.games.text.assault_words import ASSAULT_WORDS
from republic.games.text.fire_words import FIRE_WORDS, taken_words
from republic.games.text.maneuver_words import MANEUVER_WORDS
from republic.games.text.move_words import MOVE_WORDS, VERBS
from republic.games.text.terms import (
    actions_sentence,
    cell,
    condition,
    dice,
    inches,
    modifier,
    provenance_warning,
    roll,
)
from republic.rules.division_panic import DivisionPanicResult
from republic.rules.results import Provenance
from republic.rules.sequence import StepKey, step_for
from republic.rules.troops import UnitKind
from republic.rules.units import Correction

# --- events -----------------------------------------------------------------------------------------


def describe(event: Event) -> str:
    """The event in one sentence, as the log and the result card show it."""
    payload = payload_of(event)
    if isinstance(payload, EventUndone):
        return f"Undone: {describe(event.undoes)}" if event.undoes else f"Undone: event #{payload.seq}"
    if isinstance(payload, StepAdvanced):
        return _step_advanced(payload, event.game_turn, event.player_turn)
    return words(payload)


def words(payload: Payload) -> str:
    """A payload in one sentence; the kinds that need their event's place in the game go through describe."""
    return _WORDS[type(payload)](payload)


def _step_advanced(p: StepAdvanced, game_turn: int, player_turn: int) -> str:
    step = step_for(p.to)
    notes = [taken_words(h) for h in p.fire_hits]
    if p.left is StepKey.ARTILLERY_FIRE and not notes:
        notes.append("no skirmish or artillery hits to put on")
    if p.orders_reset:
        notes.append(f"divisions that panicked back on Defend orders: {', '.join(p.orders_reset)}")
    if p.left_undone:
        notes.append(f"moved on by the game master with {len(p.left_undone)} left undone: {'; '.join(p.left_undone)}")
    if p.turn_ended:
        notes.append(f"end of player turn {player_turn} of game turn {game_turn}")
    return f"On to {step.phase.value}: {step.title}" + (f" ({'; '.join(notes)})" if notes else "")


_CORRECTIONS = {
    Correction.M_PLUS: "adds an M hit",
    Correction.M_MINUS: "removes an M hit",
    Correction.BASE_MINUS: "removes a base",
    Correction.BASE_PLUS: "adds a base",
    Correction.DAMAGE_PLUS: "adds a damage",
    Correction.DAMAGE_MINUS: "removes a damage",
    Correction.PACKED: "is packed (closer than double frontage, 1.3)",
    Correction.UNPACKED: "is at normal frontage",
}


_FIELD_NAMES = {
    "m_hits": "M hits",
    "p_hits_turn": "P hits this turn",
    "p_hits_assault": "P hits this assault phase",
    "base_hits_turn": "bases lost this turn",
    "p4_event": "Panic 4 event",
}


def _field(f: FieldValue) -> str:
    """A field set by hand, as the table says it: 'M hits 2 (Rattled)', 'step Attacker moves units'."""
    if f.field == "m_hits":
        value = f"{f.value} ({condition(f.value)})"
    elif f.field == "step":
        value = step_for(StepKey(f.value)).title
    elif isinstance(f.value, bool):
        value = "yes" if f.value else "no"
    else:
        value = str(f.value)
    return f"{_FIELD_NAMES.get(f.field, f.field.replace('_', ' '))} {value}"


def _correction(p: CorrectionMade) -> str:
    if p.correction is None:
        return f"Correction: {p.name}: " + "; ".join(_field(f) for f in p.fields)
    words = _CORRECTIONS[p.correction]
    if p.correction in (Correction.PACKED, Correction.UNPACKED):
        return f"Correction: {p.name} {words}"
    value = p.fields[0]
    now = condition(value.value) if value.field == "m_hits" else f"{value.value} {value.field.replace('_', ' ')}"
    return f"Correction: {p.name} {words} (now {now})"


def _rally(p: RallyResolved) -> str:
    r = p.result
    how = "printed chart" if r.printed else f"new number {r.new_number}"
    return (
        f"{p.name} rallies: {r.condition_before.value.capitalize()} → {condition(r.m_hits)} "
        f"(die {roll(p.inputs.roll)}; {how})"
    )


def _leader_replaced(p: LeaderReplaced) -> str:
    if p.successor and p.fresh:
        return f"{p.successor} takes over {p.command} from {p.name}; {p.fresh} takes the division he left"
    if p.successor:
        return f"{p.successor} takes over {p.command} from {p.name}"
    return f"{p.name} returns to {p.command} as {p.result.leader}"


def _leader_moved(p: LeaderMoved) -> str:
    r = p.result
    return (
        f"{p.name} moved {inches(p.inputs.moved)} to support the rally "
        f"({inches(r.left)} left of the {inches(r.distance)} a leader moves in the rally step)"
    )


def _maneuver(p: ManeuverRolled) -> str:
    how = "printed chart" if p.result.printed else f"modified {p.result.modified_roll}"
    return f"{p.name} maneuver: {actions_sentence(p.result.actions)} (die {roll(p.inputs.roll)}; {how})"


def _battery_functions(p: BatteryFunctionsUsed) -> str:
    used = len(p.inputs.functions) - (1 if p.will_fire else 0)
    words = ", ".join(f.value for f in p.recorded)
    return (
        f"{p.name}: {words} ({used} of {p.result.functions_available} functions"
        f"{', one kept to fire' if p.will_fire else ''}); now "
        f"{'limbered' if p.result.limbered_after else 'unlimbered'}"
        f"{'; saved fire lost' if p.result.saved_fire_lost else ''}"
    )


def _blocks_rolled(p: SkirmishBlocksRolled) -> str:
    names = {b.target: b.target_name for b in p.declared}
    blocked = [names.get(marker, marker) for marker in p.blocked]
    return f"Skirmish blocks: {', '.join(blocked)} blocked" if blocked else "Skirmish blocks: none succeeded"


def _skirmish_attack(p: SkirmishAttacked) -> str:
    r = p.result
    outcome = (
        f"1M on {p.target_name}, held to the end of the artillery step"
        if r.hit
        else "the marker flees back to its brigade"
        if r.fled
        else "no effect"
    )
    return f"{p.name}'s skirmishers fire at {p.target_name}: {outcome} (die {roll(p.inputs.roll)})"


def _demoralized_panic(p: DemoralizedPanicTested) -> str:
    r, battery = p.result, p.inputs.kind is UnitKind.ARTILLERY
    words = [r.instruction]
    if r.surrendered:
        words.append(f"all {p.inputs.bases} base{'s' if p.inputs.bases > 1 else ''} taken")
    if r.deserters:
        words.append(f"{r.deserters} base{'s' if r.deserters > 1 else ''} desert")
        if not r.bases_after:
            words.append("abandoned" if battery else "destroyed")
    if r.abandoned and r.bases_after:
        words.append("a battery required to rout is abandoned")
    if r.p4_event:
        words.append("Panic 4 event: the division tests in the panic phase")
    return f"{p.name} ({p.inputs.panic_hits}P) panics: {'; '.join(words)}"


def _casualty(p: LeaderCheckedForCasualty) -> str:
    if p.casualty:
        return (
            f"{p.name} is hors de combat ({roll(p.inputs.roll)}): move him to the rear of {p.command} and flag "
            "him until his side's next Replace leaders step"
        )
    return f"{p.name} is unhurt ({roll(p.inputs.roll)}{'' if p.result.double else ', not a double'})"


def panic_arithmetic(result: DivisionPanicResult) -> str:
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


def _division_panic(p: DivisionPanicTested) -> str:
    """What the table reads: who holds, who panics, how far every unit goes, who deserts."""
    result = p.result
    if result.held or result.move is None:
        return f"{p.name} holds ({panic_arithmetic(result)})"
    verb = VERBS[result.move]
    distances = [u.distance for u in result.units if u.move is not None]
    if distances:
        usual = max(distances, key=distances.count)
        others = [
            f"{p.name_of(u.id)} {inches(u.distance)}"
            if u.move is not None
            else f"{p.name_of(u.id)} already moved as far"
            for u in result.units
            if u.move is None or u.distance != usual
        ]
        moves = f"every unit {verb} {inches(usual)}" + (f" ({', '.join(others)})" if others else "")
    else:
        moves = f"every unit has already moved as far as the division's {result.move.title}"
    parts = [f"{p.name} panics ({panic_arithmetic(result)}): {moves}"]
    for u in result.units:
        if u.deserters:
            gone = " (none left)" if not u.bases_after else ""
            parts.append(
                f"{u.deserters} base{'s desert' if u.deserters > 1 else ' deserts'} from {p.name_of(u.id)}{gone}"
            )
    if any(u.m_hits for u in result.units):
        parts.append("1M on each unit not yet demoralized")
    parts.append("orders reset to Defend when the panic phase ends")
    return "; ".join(parts)


def _adjoining(p: AdjoiningDeclared) -> str:
    return f"Adjoining {p.name}: {', '.join(p.names)}" if p.names else f"No division adjoins {p.name}"


def _rolled(p: FirstAttackerRolled) -> str:
    i = p.inputs
    dice = f"{i.first_side} rolled {i.first_roll.faces[0]}, {i.second_side} {i.second_roll.faces[0]}"
    return f"The roll for the first attacker: {dice}; {p.result.high_roller} rolled high and choose who attacks first"


def _agreed(p: FirstAttackerAgreed) -> str:
    return f"{p.by_name} agree that {p.side_name} attack first, waiting on {p.waiting_on} to agree"


def _first_attacker(p: FirstAttackerChosen) -> str:
    if p.how == FirstAttackerChosen.AGREED:
        return f"{p.side_name} attack first, as agreed by all"
    if p.inputs is None or p.result is None:
        return f"{p.side_name} attack first, the high roller's choice"
    high, low = sorted((p.inputs.first_roll.faces[0], p.inputs.second_roll.faces[0]), reverse=True)
    if p.result.high_roller == p.side_name:
        return f"{p.side_name} attack first, their own choice after rolling high ({high} to {low})"
    return f"{p.side_name} attack first, the choice of {p.result.high_roller}, who rolled high ({high} to {low})"


def game_result(winner: str, note: str) -> str:
    """A game's result as the table says it: 'Union won (held the ridge)', 'A draw'."""
    said = f"{winner} won" if winner else "A draw"
    return f"{said} ({note})" if note else said


_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    FirstAttackerRolled: _rolled,
    FirstAttackerAgreed: _agreed,
    FirstAttackerChosen: _first_attacker,
    GameEnded: lambda p: f"Game over: {game_result(p.winner_name, p.note)}",
    CorrectionMade: _correction,
    OrdersChanged: lambda p: f"{p.name}: orders now {Command.Orders(p.orders).label}",
    ObjectiveTaken: lambda p: f"{p.name} now held by {p.after}" if p.after else f"{p.name} now held by no one",
    RallyResolved: _rally,
    LeaderReplaced: _leader_replaced,
    LeaderMoved: _leader_moved,
    UnitReassigned: lambda p: f"{p.name} leaves {p.left_name} for {p.joined_name}",
    ManeuverRolled: _maneuver,
    FormationChanged: lambda p: (
        f"{p.name} changes formation: {p.before.value.replace('_', ' ')} → {p.after.value.replace('_', ' ')}"
    ),
    SkirmishersDeployed: lambda p: (
        f"{p.name} {'deploys' if p.after > p.before else 'recalls'} skirmishers: {p.before} → {p.after} of {p.limit}"
    ),
    ChargeBonusUsed: lambda p: f"{p.name} used its assault move bonus: 1M at the end of the turn (3.1, 5.6)",
    ChargeBonusCleared: lambda p: f"{p.name} did not use its assault move bonus after all",
    BatteryFunctionsUsed: _battery_functions,
    SkirmishBlocksDeclared: lambda p: (
        f"{p.side} declare skirmish blocks: "
        + ("; ".join(f"{b.blocker_name} on {b.target_name}" for b in p.blocks) or "no blocks")
    ),
    SkirmishBlocksRolled: _blocks_rolled,
    SkirmishAttacked: _skirmish_attack,
    FireSaved: lambda p: f"{p.name} saves its fire{' (it keeps its one saved fire marker)' if p.kept else ''}",
    DemoralizedPanicTested: _demoralized_panic,
    LeaderCheckedForCasualty: _casualty,
    HorsDeCombatSkipped: lambda p: f'{p.name} was not within 4" of a unit that lost bases: no roll',
    DivisionPanicTested: _division_panic,
    AdjoiningDeclared: _adjoining,
    EarlierRecord: lambda p: p.summary,
    **ASSAULT_WORDS,
    **MOVE_WORDS,
    **FIRE_WORDS,
    **MANEUVER_WORDS,
}


def done(event: Event) -> dict[str, Any]:
    """An event in a step's list of what is done: its words and its provenance marks."""
    return {
        "event": event,
        "summary": describe(event),
        "provisional": event.provisional,
        "printed_chart": event.printed_chart,
    }


# --- the result card --------------------------------------------------------------------------------


def _step_of(event: Event, payload: Payload) -> str:
    if isinstance(payload, FirstAttackerRolled | FirstAttackerAgreed | FirstAttackerChosen):
        return "Setting up"
    if isinstance(payload, GameEnded):
        return "Game over"
    return step_for(StepKey(event.step)).title


def _phase_of(event: Event, payload: Payload) -> str:
    """The part of the turn the log files an event under: 'Fire phase', or setting up or the game's end, which
    belong to no phase."""
    if isinstance(payload, FirstAttackerRolled | FirstAttackerAgreed | FirstAttackerChosen | GameEnded):
        return _step_of(event, payload)
    return f"{step_for(StepKey(event.step)).phase.value.capitalize()} phase"


def result_card(event: Event | None) -> dict[str, Any] | None:
    """An event as the result card and the log show it: words, dice, modifiers, chart cells, notes."""
    if event is None:
        return None
    payload = payload_of(event)
    found = results(payload)
    notes = [note for r in found for note in r.notes]
    if isinstance(payload, ArtilleryFired) and payload.worst:
        notes.append(f"joint fire: the group's most hit battery ({payload.worst}) gives the die modifier")
    return {
        "event": event,
        "step": _step_of(event, payload),
        "phase": _phase_of(event, payload),
        "summary": describe(event),
        "dice": dice(payload.rolls()),
        "modifiers": [modifier(m) for r in found for m in r.modifiers],
        "cells": [
            {"line": cell(c), "provisional": c.provenance is Provenance.PROVISIONAL} for r in found for c in r.cells
        ],
        "notes": notes,
        "warning": provenance_warning(event.provisional, event.printed_chart),
    }
