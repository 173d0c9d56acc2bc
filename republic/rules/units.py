"""A unit's state (1.3, 1.4, 2.3, 3.3-3.5, 4.2, 5.5, 6.1) and the changes the rules make to it.

What the table keeps of a brigade or a battery between actions is one frozen value. Every mechanic that
changes a unit says so through the functions here or beside its own rule (``after_*`` in the chapter
modules), so a hit, a forced move, a desertion or a lost saved fire means the same wherever it comes from.
The refusals of the maneuver phase are rules too: they return the reason, or "" when the unit may.
"""

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from republic.rules.errors import RulesInputError
from republic.rules.forced_moves import BlockedMoveResult, ForcedMove
from republic.rules.morale import (
    MAX_M_HITS,
    Condition,
    DisorderInput,
    MoraleResult,
    Restriction,
    condition_for,
    forbidden,
)
from republic.rules.troops import BatteryFunction, BatteryType, Formation, Grade, UnitKind

MOST_DAMAGE = 9
"""A battery's damage as the table can correct it; far beyond what any fire or assault leaves."""


@dataclass(frozen=True)
class UnitState:
    """A brigade (any kind but artillery) or a battery (kind artillery, one base). ``id`` names it in the
    inputs and results of the mechanics. Fields of this player turn are cleared by ``new_player_turn``."""

    id: str
    kind: UnitKind
    grade: Grade
    bases: int
    bases_start: int
    m_hits: int = 0
    p_hits_turn: int = 0
    p_hits_assault: int = 0  # those of this player turn's assault phase: its worst-P modifier counts no others
    base_hits_turn: int = 0
    p4_event: bool = False
    forced_move: ForcedMove | None = None
    formation: Formation = Formation.TWO_LINE
    skirmishers_available: int = 0
    skirmishers_deployed: int = 0
    skirmisher_grade: Grade | None = None
    repeaters: bool = False
    charge_bonus_used: bool = False
    destroyed: bool = False
    surrendered: bool = False
    battery_type: BatteryType | None = None
    horse: bool = False
    damage: int = 0
    limbered: bool = False
    packed: bool = False
    saved_fire: bool = False
    fired_this_turn: bool = False
    functions_used: tuple[BatteryFunction, ...] = ()
    abandoned: bool = False

    def __post_init__(self) -> None:
        condition_for(self.m_hits)
        for name in (
            "bases",
            "bases_start",
            "p_hits_turn",
            "p_hits_assault",
            "base_hits_turn",
            "damage",
            "skirmishers_available",
            "skirmishers_deployed",
        ):
            if getattr(self, name) < 0:
                raise RulesInputError(name, f"cannot be negative, got {getattr(self, name)}")
        if self.battery != (self.battery_type is not None):
            raise RulesInputError("battery_type", "a battery, and only a battery, has a battery type")

    @property
    def battery(self) -> bool:
        return self.kind is UnitKind.ARTILLERY

    @property
    def condition(self) -> Condition:
        return condition_for(self.m_hits)

    @property
    def out_of_play(self) -> bool:
        """Destroyed, surrendered or, for a battery, abandoned."""
        return self.destroyed or self.surrendered or self.abandoned

    @property
    def in_play(self) -> bool:
        return not self.out_of_play and self.bases > 0

    @property
    def retreated(self) -> bool:
        """It retreated or routed this player turn (its longest forced move)."""
        return self.forced_move in (ForcedMove.RETREAT, ForcedMove.ROUT)

    @property
    def skirmisher_type(self) -> Grade:
        """Its markers' grade: the brigade's own until artillery lowers it (4.5)."""
        return self.skirmisher_grade or self.grade


# --- what the rules do to a unit -----------------------------------------------------------------


def with_morale(unit: UnitState, m_hits: int, panic_hits: int = 0) -> UnitState:
    """The unit in a new morale condition, with any P hits it took added to this turn's. A battery loses its
    saved fire on becoming Rattled or worse (4.2, R:1080-1081)."""
    rattled = condition_for(m_hits).m_hits >= Condition.RATTLED.m_hits
    return replace(
        unit, m_hits=m_hits, p_hits_turn=unit.p_hits_turn + panic_hits, saved_fire=unit.saved_fire and not rattled
    )


def after_morale(unit: UnitState, morale: MoraleResult) -> UnitState:
    """M hits taken: the new condition, and any M beyond Demoralized that became P this turn (4.6, 5.5)."""
    return with_morale(unit, morale.m_after, morale.panic_hits)


def after_move(unit: UnitState, move: ForcedMove | None, abandoned: bool = False) -> UnitState:
    """A forced move made: the unit remembers the longest of the player turn (6.1 reads it). A battery the
    chart abandons for the move (5.5) is out of play, and one that moves in any way loses its saved fire
    (4.2, R:1072-1073)."""
    if move is None:
        return unit
    longest = unit.forced_move
    if longest is None or longest.severity < move.severity:
        longest = move
    return replace(
        unit, forced_move=longest, abandoned=unit.abandoned or (unit.battery and abandoned), saved_fire=False
    )


def after_blocked_move(unit: UnitState, result: BlockedMoveResult) -> UnitState:
    """The unit makes the next move down the list instead of its blocked one (3.3): the move remembered, with the
    M at the end of a rout or a battery abandoned for it."""
    return with_morale(after_move(unit, result.move, abandoned=result.abandoned), result.m_after)


def after_bases_lost(unit: UnitState, lost: int) -> UnitState:
    """Bases lost to hits, desertion or capture this player turn; with none left a brigade is destroyed
    and a battery abandoned."""
    lost = min(lost, unit.bases)
    if not lost:
        return unit
    bases = unit.bases - lost
    gone = bases == 0
    return replace(
        unit,
        bases=bases,
        base_hits_turn=unit.base_hits_turn + lost,
        destroyed=unit.destroyed or (gone and not unit.battery),
        abandoned=unit.abandoned or (gone and unit.battery),
    )


def after_p4_event(unit: UnitState) -> UnitState:
    """A Panic 4 event this turn: its division tests for internal panic in the panic phase (6.2)."""
    return replace(unit, p4_event=True)


def gone_in_assault(unit: UnitState, gone: bool) -> bool:
    """Whether a brigade left play in the assault phase, which makes its division test for internal panic as a
    Panic 4 event does. R:1710-1713: "If a unit is completely destroyed during the course of the assault phase,
    the parent division must still check for panic (does not apply to a unit destroyed during the artillery
    phase, even if that unit was already in assault contact)." Read as a trigger of its own beside the P4
    event (6.1): were it only the P4 rule restated, the exception for the artillery phase would contradict
    R:1270-1272, by which a P4 counts even for a unit that fire destroyed. A brigade taken whole by surrender
    is gone as wholly as one destroyed; a battery is abandoned, not destroyed."""
    return gone and not unit.battery


def after_surrender(unit: UnitState) -> UnitState:
    """The unit surrenders (5.5 Group Surrender): every base it has left is taken."""
    return replace(
        unit,
        bases=0,
        base_hits_turn=unit.base_hits_turn + unit.bases,
        surrendered=unit.surrendered or not unit.battery,
        abandoned=unit.abandoned or unit.battery,
    )


def disorder_input(unit: UnitState, attacker: bool, also_charged: bool = False) -> DisorderInput:
    """Why a unit suffers charge disorder at the end of the assault phase (5.6): the attacker's brigades that
    used their charge movement, and every unit that retreated or routed this turn. ``also_charged``: the table
    says it spent charge movement the app did not see (carrying a position, breaking through)."""
    charged = not unit.battery and (also_charged or (attacker and unit.charge_bonus_used))
    return DisorderInput(unit.m_hits, used_charge_bonus=charged, retreated_or_routed=unit.retreated)


TURN_FIELDS = (
    "p_hits_turn",
    "p_hits_assault",
    "base_hits_turn",
    "p4_event",
    "forced_move",
    "charge_bonus_used",
    "fired_this_turn",
    "functions_used",
)
"""What lasts one player turn. Each goes back to its default, which is empty (0, no, none), when the turn ends."""
TURN_CLEARED: dict[str, Any] = {f.name: f.default for f in fields(UnitState) if f.name in TURN_FIELDS}
"""What each field of the turn goes back to."""


def new_player_turn(unit: UnitState) -> UnitState:
    """What lasts one player turn is cleared when it ends (1.7)."""
    return replace(unit, **TURN_CLEARED)


def rallied(unit: UnitState, condition: Condition) -> UnitState:
    return replace(unit, m_hits=condition.m_hits)


# --- the table's corrections ---------------------------------------------------------------------


class Correction(StrEnum):
    """One-tap corrections the table makes to a unit when the app and the table disagree."""

    M_PLUS = "m_plus"
    M_MINUS = "m_minus"
    BASE_MINUS = "base_minus"
    BASE_PLUS = "base_plus"
    DAMAGE_PLUS = "damage_plus"
    DAMAGE_MINUS = "damage_minus"
    PACKED = "packed"
    UNPACKED = "unpacked"

    @property
    def for_battery(self) -> bool:
        return self in (Correction.DAMAGE_PLUS, Correction.DAMAGE_MINUS, Correction.PACKED, Correction.UNPACKED)

    @property
    def for_brigade(self) -> bool:
        return self in (Correction.BASE_MINUS, Correction.BASE_PLUS)


BRIGADE_CORRECTIONS = (Correction.M_PLUS, Correction.M_MINUS, Correction.BASE_MINUS, Correction.BASE_PLUS)
BATTERY_CORRECTIONS = (Correction.M_PLUS, Correction.M_MINUS, Correction.DAMAGE_PLUS, Correction.DAMAGE_MINUS)


def corrected(unit: UnitState, correction: Correction) -> UnitState:
    """The unit with one correction made; a correction beyond what a unit can hold is refused. A brigade
    corrected down to no bases is destroyed, and one given a base back is in play again."""
    if (correction.for_battery and not unit.battery) or (correction.for_brigade and unit.battery):
        what = "bases" if correction.for_brigade else "damage or frontage"
        raise RulesInputError("correction", f"has no {what} to correct")
    if correction in (Correction.PACKED, Correction.UNPACKED):
        return replace(unit, packed=correction is Correction.PACKED)
    step = 1 if correction in (Correction.M_PLUS, Correction.BASE_PLUS, Correction.DAMAGE_PLUS) else -1
    field, limit = {
        Correction.M_PLUS: ("m_hits", MAX_M_HITS),
        Correction.M_MINUS: ("m_hits", MAX_M_HITS),
        Correction.BASE_MINUS: ("bases", unit.bases_start),
        Correction.BASE_PLUS: ("bases", unit.bases_start),
        Correction.DAMAGE_PLUS: ("damage", MOST_DAMAGE),
        Correction.DAMAGE_MINUS: ("damage", MOST_DAMAGE),
    }[correction]
    value = getattr(unit, field) + step
    if not 0 <= value <= limit:
        raise RulesInputError(field, f"cannot go to {value} {field.replace('_', ' ')} (0 to {limit})")
    if field == "bases":
        return replace(unit, bases=value, destroyed=value == 0)
    return replace(unit, **{field: value})


# --- what a unit may do in the maneuver phase (1.4, 2.3, 3.5) ------------------------------------


def restricted(unit: UnitState, restriction: Restriction) -> str:
    """Why the unit's condition forbids this (2.3), or "" when it does not."""
    return forbidden(unit.condition, restriction)


def skirmisher_limit(unit: UnitState) -> int:
    """Skirmish markers it may have out: its troop list's, or in open order one per combat base (1.4)."""
    if unit.formation is Formation.OPEN_ORDER:
        return max(unit.skirmishers_available, unit.bases)
    return unit.skirmishers_available


def skirmishers_it_may_set(unit: UnitState) -> int:
    """The most markers the table may set now: recalling stays possible when deploying is forbidden."""
    if restricted(unit, Restriction.DEPLOY_SKIRMISHERS):
        return unit.skirmishers_deployed
    return skirmisher_limit(unit)


def skirmisher_refusal(unit: UnitState, wanted: int | None = None) -> str:
    """Why the brigade may not deploy (more) skirmishers; with ``wanted``, whether that number may be out."""
    if not unit.grade.trained:
        return "Untrained: no skirmishers (3.5: trained brigades, Green or better, deploy them)"
    if wanted is not None and wanted <= unit.skirmishers_deployed:
        return ""  # recalling is always allowed
    refused = restricted(unit, Restriction.DEPLOY_SKIRMISHERS)
    if refused:
        return f"{refused}; it may recall them"
    limit = skirmisher_limit(unit)
    if wanted is not None and wanted > limit:
        open_order = " (one per combat base in open order, 1.4)" if unit.formation is Formation.OPEN_ORDER else ""
        return f"at most {limit} skirmish marker(s) for this brigade{open_order}"
    if wanted is None and limit == 0:
        return "No skirmish markers in this brigade's troop list (open order deploys one per base, 1.4)"
    return ""


def formation_refusal(unit: UnitState, formation: Formation) -> str:
    if formation is unit.formation:
        return f"it is already in {formation.value.replace('_', ' ')}"
    refused = restricted(unit, Restriction.CHANGE_FORMATION)
    if refused:
        return refused
    if formation is Formation.OPEN_ORDER and not unit.grade.trained:
        return "Untrained: may not use open order (1.4: open order must be trained, Green grade or better)"
    if unit.formation is Formation.OPEN_ORDER and unit.skirmishers_deployed > unit.skirmishers_available:
        return f"recall skirmishers to {unit.skirmishers_available} first: only open order deploys one per base (1.4)"
    return ""


def after_formation(unit: UnitState, formation: Formation) -> UnitState:
    refused = formation_refusal(unit, formation)
    if refused:
        raise RulesInputError("formation", refused)
    return replace(unit, formation=formation)


def after_skirmishers(unit: UnitState, deployed: int) -> UnitState:
    refused = skirmisher_refusal(unit, deployed)
    if refused:
        raise RulesInputError("deployed", refused)
    if deployed == unit.skirmishers_deployed:
        raise RulesInputError("deployed", f"{deployed} already deployed.")
    return replace(unit, skirmishers_deployed=deployed)
