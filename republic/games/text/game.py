"""The game's own events in one sentence: who attacks first, the next step, a row put right by hand, a division's
orders, an objective changing hands, the game's end and an event recorded before events were typed."""

from collections.abc import Callable
from typing import Any

from republic.games.events.game import (
    CorrectionMade,
    EarlierRecord,
    FieldValue,
    FirstAttackerAgreed,
    FirstAttackerChosen,
    FirstAttackerRolled,
    GameEnded,
    ObjectiveTaken,
    OrdersChanged,
    PassedStep,
    StepAdvanced,
)
from republic.games.events.payload import Payload
from republic.games.models import Command
from republic.games.text.fire import taken_words
from republic.games.text.terms import condition
from republic.rules.sequence import StepKey, step_for
from republic.rules.units import Correction


def passed_words(passed: PassedStep) -> str:
    """A step that passed by itself, as the table says it: 'Attacker rallies units: no attacking unit has ...'."""
    return f"{step_for(passed.step).title}: {passed.why}"


def step_advanced(p: StepAdvanced, game_turn: int, player_turn: int) -> str:
    step = step_for(p.to)
    notes = [f"passed by itself, {passed_words(p.by_itself[-1])}"] if p.by_itself else []
    notes += [taken_words(h) for h in p.fire_hits]
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


GAME_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    FirstAttackerRolled: _rolled,
    FirstAttackerAgreed: _agreed,
    FirstAttackerChosen: _first_attacker,
    GameEnded: lambda p: f"Game over: {game_result(p.winner_name, p.note)}",
    CorrectionMade: _correction,
    OrdersChanged: lambda p: f"{p.name}: orders now {Command.Orders(p.orders).label}",
    ObjectiveTaken: lambda p: f"{p.name} now held by {p.after}" if p.after else f"{p.name} now held by no one",
    EarlierRecord: lambda p: p.summary,
}
"""A step advanced and an event undone are not here: their words need the event's place in the game (``describe``)."""
