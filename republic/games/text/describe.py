"""Any event in one sentence, picked from the words of its phase's module, and the result card that shows an
event with its reasons."""

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from republic.games.events.fire import ArtilleryFired
from republic.games.events.game import (
    EventUndone,
    FirstAttackerAgreed,
    FirstAttackerChosen,
    FirstAttackerRolled,
    GameEnded,
    StepAdvanced,
)
from republic.games.events.payload import Payload, payload_of, results
from republic.games.models import Event
from republic.games.text.assault import ASSAULT_WORDS
from republic.games.text.command import COMMAND_WORDS
from republic.games.text.fire import FIRE_WORDS
from republic.games.text.game import GAME_WORDS, passed_words, step_advanced
from republic.games.text.maneuver import MANEUVER_WORDS
from republic.games.text.panic import PANIC_WORDS
from republic.games.text.terms import cell, dice, modifier, provenance_warning
from republic.rules.results import Provenance
from republic.rules.sequence import StepKey, step_for

_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    **GAME_WORDS,
    **COMMAND_WORDS,
    **MANEUVER_WORDS,
    **FIRE_WORDS,
    **ASSAULT_WORDS,
    **PANIC_WORDS,
}


def describe(event: Event) -> str:
    """The event in one sentence, as the log and the result card show it."""
    payload = payload_of(event)
    if isinstance(payload, EventUndone):
        undone = f"Undone: {describe(event.undoes)}" if event.undoes else f"Undone: event #{payload.seq}"
        if payload.passed == 1:
            undone += ", with the step that passed by itself after it"
        elif payload.passed:
            undone += f", with the {payload.passed} steps that passed by themselves after it"
        return undone
    if isinstance(payload, StepAdvanced):
        return step_advanced(payload, event.game_turn, event.player_turn)
    return words(payload)


def words(payload: Payload) -> str:
    """A payload in one sentence; the kinds that need their event's place in the game go through describe."""
    return _WORDS[type(payload)](payload)


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


def _began(event: Event, passes: int) -> Event | None:
    """The action a run of steps that passed by themselves followed, when it was not a Next step (``walk``): the
    event just before the run."""
    before = Event.objects.filter(game=event.game_id, seq=event.seq - passes).select_related("undoes").first()
    return before if before is not None and not isinstance(payload_of(before), StepAdvanced) else None


def _moved(payload: StepAdvanced, event: Event) -> str:
    return step_advanced(replace(payload, by_itself=()), event.game_turn, event.player_turn)


def last_result(event: Event | None) -> dict[str, Any] | None:
    """The game page's card of its last result. When an action left its step with nothing to do and the game moved
    on by itself (``walk.after_action``), the action's result, then the steps that passed: the page shows what the
    player did, not only where the game went."""
    card = result_card(event)
    if event is None or card is None or not card["passed"]:
        return card
    began = _began(event, len(card["passed"]))
    return card if began is None else {**_card(began), "passed": card["passed"], "moved": ""}


def result_card(event: Event | None) -> dict[str, Any] | None:
    """An event as the result card and the log show it: words, dice, modifiers, chart cells, notes."""
    return None if event is None else _card(event)


def _card(event: Event) -> dict[str, Any]:
    payload = payload_of(event)
    found = results(payload)
    notes = [note for r in found for note in r.notes]
    if isinstance(payload, ArtilleryFired) and payload.worst:
        notes.append(f"joint fire: the group's most hit battery ({payload.worst}) gives the die modifier")
    passed = payload.by_itself if isinstance(payload, StepAdvanced) else ()
    return {
        "event": event,
        "step": _step_of(event, payload),
        "phase": _phase_of(event, payload),
        "summary": describe(event),
        "dice": dice(payload.rolls()),
        "rolls": payload.rolls(),
        "modifiers": [modifier(m) for r in found for m in r.modifiers],
        "cells": [
            {"line": cell(c), "provisional": c.provenance is Provenance.PROVISIONAL} for r in found for c in r.cells
        ],
        "notes": notes,
        "warning": provenance_warning(event.provisional, event.printed_chart),
        # the steps the Next step that brought the game here passed on the way, each with why; the card lists them
        # under its sentence, which then need not say the last of them again (``moved``)
        "passed": [passed_words(p) for p in passed],
        "moved": _moved(payload, event) if isinstance(payload, StepAdvanced) and passed else "",
    }
