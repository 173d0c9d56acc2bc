"""The hits of the fire phase that wait for the end of the artillery step (4.1, 4.2): every skirmish and
artillery hit so far this phase, read from the events that made them; and hits put on units, as the end of the
step puts those on, and as a fire whose hits land at once puts its own (3.5, R:1229-1237)."""

from collections.abc import Iterable
from typing import Any

from republic.games.events.fire import ArtilleryFired, SkirmishAttacked, UnitFireHits
from republic.games.events.payload import payload_of
from republic.games.ledger import Action, turn_events
from republic.games.models import Event, Game, Unit
from republic.games.text.terms import hits
from republic.play.fire import land
from republic.rules.fire_results import FireHits, waiting_hits
from republic.rules.sequence import StepKey

FIRE_STEPS = (StepKey.SKIRMISH, StepKey.ARTILLERY_FIRE)
FIRE_KINDS = (SkirmishAttacked, ArtilleryFired)


def waiting(game: Game) -> dict[str, FireHits]:
    """The phase's hits still waiting, summed per unit."""
    return waiting_in(turn_events(game, FIRE_STEPS, FIRE_KINDS))


def waiting_in(events: Iterable[Event]) -> dict[str, FireHits]:
    """The hits waiting in these events of the phase (others are passed over), summed per unit."""
    found: list[FireHits] = []
    for event in events:
        payload = payload_of(event)
        if isinstance(payload, SkirmishAttacked | ArtilleryFired):
            found.extend(payload.hits)
    return waiting_hits(found)


def waiting_rows(waits: dict[str, FireHits], units: dict[str, Unit]) -> list[dict[str, Any]]:
    rows = []
    for key, hit in waits.items():
        words = hits(m=hit.m, b=hit.b)
        if hit.marker_b:
            words += f" (and {hit.marker_b}B on its packed skirmishers)"
        rows.append({"unit": units[key], "hits": words})
    return rows


def put_on(action: Action, found: Iterable[tuple[Unit, FireHits]]) -> tuple[UnitFireHits, ...]:
    """Each unit's hits put on it now, as the engine says they change it (4.5, 4.6)."""
    units = list(found)
    taken = []
    for (unit, _), landed in zip(units, land((unit.to_rules(), hit) for unit, hit in units), strict=True):
        action.apply(unit, landed.after)
        taken.append(UnitFireHits(unit.key, unit.name, landed.result))
    return tuple(taken)
