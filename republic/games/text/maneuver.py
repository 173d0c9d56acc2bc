"""The maneuver phase's events in one sentence: a maneuver roll, a formation, skirmishers, a mount, the assault
move bonus, a battery's functions; and forced moves in words: what each move makes a unit do, a move blocked by
another unit (3.3) and what a unit's card offers for it."""

from collections.abc import Callable
from typing import Any

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
from republic.games.events.payload import Payload
from republic.games.text.terms import actions_sentence, condition, inches, roll
from republic.rules.forced_moves import BlockedMoveResult, ForcedMove

VERBS = {
    ForcedMove.DISENGAGE: "disengages",
    ForcedMove.WITHDRAW: "withdraws",
    ForcedMove.FALL_BACK: "falls back",
    ForcedMove.RETREAT: "retreats",
    ForcedMove.ROUT: "routs",
}


def blocked_offer(result: BlockedMoveResult) -> str:
    """What the card's button does: 'Blocked: fall back instead, 10"'."""
    return f"Blocked: {result.move.title} instead, {inches(result.distance)}"


def last_move(name: str) -> str:
    """Why a rout blocked by another unit stays a rout."""
    return (
        f"{name} routs, the last move of the list: it goes on past the unit in its way until it is clear of its rear "
        "(3.3). Only enemy bases in its way make a unit surrender (5.5)."
    )


def _blocked(p: ForcedMoveBlocked) -> str:
    r = p.result
    facing = "facing the enemy" if r.faces_enemy else "turning away from the enemy"
    said = (
        f"{p.name}'s {r.blocked.title} would end on another unit: it {VERBS[r.move]} instead, {inches(r.distance)} "
        f"in all ({inches(r.beyond)} beyond the {r.blocked.title}), {facing}"
    )
    if r.abandoned:
        return said + "; a battery required to rout is abandoned"
    if r.m_after != p.inputs.m_hits:
        return said + f"; the M at the end of its rout leaves it {condition(r.m_after)}"
    return said


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


def _mount(p: MountChanged) -> str:
    if p.inputs.reacting:
        return f"{p.name} dismounts in reaction to the enemy's move (3.5)"
    return f"{p.name} {'mounts' if p.inputs.mount else 'dismounts'}: a formation change (3.5)"


MANEUVER_WORDS: dict[type[Payload], Callable[[Any], str]] = {
    ManeuverRolled: _maneuver,
    FormationChanged: lambda p: (
        f"{p.name} changes formation: {p.before.value.replace('_', ' ')} → {p.after.value.replace('_', ' ')}"
    ),
    MountChanged: _mount,
    SkirmishersDeployed: lambda p: (
        f"{p.name} {'deploys' if p.after > p.before else 'recalls'} skirmishers: {p.before} → {p.after} of {p.limit}"
    ),
    ChargeBonusUsed: lambda p: f"{p.name} used its assault move bonus: 1M at the end of the turn (3.1, 5.6)",
    ChargeBonusCleared: lambda p: f"{p.name} did not use its assault move bonus after all",
    BatteryFunctionsUsed: _battery_functions,
    ForcedMoveBlocked: _blocked,
}
