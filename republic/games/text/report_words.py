"""The battle report's words: the states a brigade is counted in, when something happened, and what a divisional
panic, a rout, a fallen leader and an assault came to, all made of the words the log uses for the same events."""

from republic.games.events.assault import AssaultRoundResolved
from republic.games.events.command import LeaderReplaced
from republic.games.events.panic import DivisionPanicTested
from republic.games.events.payload import Payload
from republic.games.text.describe import words
from republic.games.text.maneuver import VERBS
from republic.games.text.panic import panic_arithmetic
from republic.games.text.terms import condition
from republic.rules.morale import Condition
from republic.rules.sequence import StepKey, step_for

DESTROYED = "destroyed"
SURRENDERED = "surrendered"
BRIGADE_STATES: tuple[str, ...] = (*(c.value for c in Condition), DESTROYED, SURRENDERED)
"""Every state a brigade is counted in, in the order a stacked bar is drawn (bottom first): each condition of a
brigade in play (2.3), then the ways out of play."""

STATE_LABELS: dict[str, str] = {
    **{c.value: condition(c.m_hits) for c in Condition},
    DESTROYED: "Destroyed",
    SURRENDERED: "Surrendered",
}
# one or two letters drawn inside a bar's segment, so that a state is told without its colour (print, colour blindness)
STATE_MARKS: dict[str, str] = {"formed": "F", "unformed": "U", "rattled": "R", "shaken": "S", "demoralized": "D"}
STATE_MARKS |= {DESTROYED: "X", SURRENDERED: "Su"}

ROUTED = "Routed this player turn"


def player_turn_name(player_turn: int, side: str) -> str:
    """'Confederate turn': the player turn by the side attacking in it (1.7); its number before one is chosen."""
    return f"{side} turn" if side else f"player turn {player_turn}"


def moment(game_turn: int, player_turn: int, side: str) -> str:
    """'Game turn 2, Union turn'."""
    return f"Game turn {game_turn}, {player_turn_name(player_turn, side)}"


def short_moment(game_turn: int, player_turn: int) -> str:
    """A chart's axis label for the end of a player turn: '2·1' is game turn 2, player turn 1."""
    return f"{game_turn}·{player_turn}"


def when(game_turn: int, player_turn: int, side: str, step: str) -> str:
    """'Game turn 1, Confederate turn, fire phase'."""
    if step not in set(StepKey):
        return moment(game_turn, player_turn, side)
    return f"{moment(game_turn, player_turn, side)}, {step_for(StepKey(step)).phase.value} phase"


def division_panic(p: DivisionPanicTested) -> str:
    """A divisional panic test's result in a line: 'holds (7 against 6)', 'panics: every unit retreats (…)'."""
    r = p.result
    if r.held or r.move is None:
        return f"holds ({panic_arithmetic(r)})"
    deserters = sum(u.deserters for u in r.units)
    gone = f"; {deserters} base{'s desert' if deserters != 1 else ' deserts'}" if deserters else ""
    return f"panics ({panic_arithmetic(r)}): every unit {VERBS[r.move]}{gone}"


def panic_test(p: DivisionPanicTested, step: str) -> str:
    """'Internal panic, round 1' or 'adjoining panic'."""
    test = "adjoining panic" if step == StepKey.ADJOINING_PANIC else "internal panic"
    return f"{test.capitalize()}, round {p.round}" if p.round > 1 else test.capitalize()


def round_outcome(p: AssaultRoundResolved) -> str:
    """'round 1: defender 2M fall back; Win/Win', the table's cell as the round's sentence says it."""
    return f"round {p.round}: {p.result.outcome}" + ("; Win/Win" if p.result.win_win else "")


def assault_outcome(rounds: list[AssaultRoundResolved], ended: bool) -> str:
    if not rounds:
        return "called off before any round" if ended else "no round resolved yet"
    said = "; ".join(round_outcome(r) for r in rounds)
    return said[:1].upper() + said[1:] + ("" if ended else " (not over yet)")


def leader_fate(replaced: LeaderReplaced | None, still_out: bool) -> str:
    """What followed a leader's fall: the replacement's sentence, or how he stands at the end."""
    if replaced is not None:
        return words(replaced)
    return "still hors de combat" if still_out else "back in action"


ROUT_CAUSES = {
    "AssaultRoundResolved": "an assault round",
    "DivisionPanicTested": "a divisional panic",
    "DemoralizedPanicTested": "a demoralized panic test",
    "ForcedMoveBlocked": "a forced move blocked by another unit",
    "CorrectionMade": "a correction by hand",
}


def rout_cause(kind: str, payload: Payload | None) -> str:
    """What made a unit rout: 'assault 2, round 1: defender 2M rout', 'Heth's Division panics'."""
    if isinstance(payload, AssaultRoundResolved):
        return f"assault {payload.number}, {round_outcome(payload)}"
    if isinstance(payload, DivisionPanicTested):
        return f"{payload.name} panics"
    return ROUT_CAUSES.get(kind, "the table")
