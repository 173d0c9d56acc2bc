"""The assault table (5.2, 5.3): its notation, its three columns and which column a round is read on.

A cell is written ``[side] [hits] [action]``; each column is a band table by the modified difference. The
column follows from the kinds of troops on each side, cover, where the defender is struck and open order.
"""

import re
from dataclasses import dataclass, field
from enum import StrEnum

from republic.rules.chart import BandSpec, Chart
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.results import Explained, Mechanic
from republic.rules.troops import UnitKind

# --- outcome notation ------------------------------------------------------------------------------


class OutcomeSide(StrEnum):
    """Whom a table cell's hits fall on."""

    DEFENDER = "defender"
    ATTACKER = "attacker"
    BOTH = "both"
    NONE = "none"


class OutcomeAction(StrEnum):
    """What a table cell makes the sides do next (5.5, R:1721-1783)."""

    CARRY = "carry"
    DRIVE_AWAY = "drive_away"
    MAY_BREAKTHROUGH = "may_breakthrough"
    MUST_BREAKTHROUGH = "must_breakthrough"
    OVERRUN = "overrun"
    BREAK_OFF = "break_off"
    ROLL_AGAIN = "roll_again"
    SURRENDER = "surrender"
    NONE = "none"

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


# The attacker's follow-up after beating the defender.
_VICTOR_ACTIONS = (
    OutcomeAction.CARRY,
    OutcomeAction.DRIVE_AWAY,
    OutcomeAction.MAY_BREAKTHROUGH,
    OutcomeAction.MUST_BREAKTHROUGH,
    OutcomeAction.OVERRUN,
)

_ACTION_WORDS = {action.words: action for action in OutcomeAction if action is not OutcomeAction.NONE}
_ACTION_WORDS["carry position"] = OutcomeAction.CARRY

_HIT_PART = re.compile(r"^\d+[MBP]$", re.IGNORECASE)

# Weights for comparing outcomes: a base lost outweighs a forced move, which outweighs a morale step.
_HIT_WEIGHT = {"m": 1, "p": 2, "b": 3}

# How much an action adds to the defender's plight. A break off costs the attacker 1M and the ground.
_ACTION_WEIGHT = {
    OutcomeAction.NONE: 0,
    OutcomeAction.ROLL_AGAIN: 0,
    OutcomeAction.DRIVE_AWAY: 0,
    OutcomeAction.CARRY: 2,
    OutcomeAction.MAY_BREAKTHROUGH: 3,
    OutcomeAction.MUST_BREAKTHROUGH: 3,
    OutcomeAction.OVERRUN: 4,
    OutcomeAction.BREAK_OFF: -2,
}
_SURRENDER_WEIGHT = 10


def hits_weight(hits: Hits) -> int:
    """A single measure of how much a set of hits hurts, for ordering outcomes."""
    return hits.m * _HIT_WEIGHT["m"] + hits.p * _HIT_WEIGHT["p"] + hits.b * _HIT_WEIGHT["b"]


@dataclass(frozen=True)
class AssaultOutcome:
    """An assault table cell, written ``[side] [hits] [action]``: 'defender 3P 1B carry',
    'attacker 2P', 'attacker break off', 'both 1M roll again', 'roll again', '-'.

    ``to`` takes ``hits``; ``action`` is what follows: carry, drive away, may/must breakthrough and overrun
    are the attacker's follow-up after a defender loss; break off is the attacker's; surrender is the
    side's named; roll again goes with any side."""

    to: OutcomeSide
    hits: Hits = field(default_factory=Hits)
    action: OutcomeAction = OutcomeAction.NONE

    def __post_init__(self) -> None:
        problem = _outcome_problem(self.to, self.hits, self.action)
        if problem:
            raise ValueError(problem)

    @classmethod
    def parse(cls, raw: object) -> "AssaultOutcome":
        if not isinstance(raw, str):
            raise ValueError(f"an assault result is written like 'defender 3P carry', got {raw!r}")
        words = raw.strip().lower().split()
        if words in ([], ["-"]):
            return cls(OutcomeSide.NONE)
        side = OutcomeSide.NONE
        if words[0] in (OutcomeSide.DEFENDER, OutcomeSide.ATTACKER, OutcomeSide.BOTH):
            side = OutcomeSide(words.pop(0))
        hit_parts = []
        while words and _HIT_PART.match(words[0]):
            hit_parts.append(words.pop(0))
        phrase = " ".join(words).replace("_", " ")
        action = OutcomeAction.NONE
        if phrase:
            if phrase not in _ACTION_WORDS:
                raise ValueError(
                    f"unknown assault action {phrase!r} in {raw!r}; expected one of {', '.join(_ACTION_WORDS)}"
                )
            action = _ACTION_WORDS[phrase]
        hits = Hits.parse(" ".join(hit_parts)) if hit_parts else Hits()
        problem = _outcome_problem(side, hits, action)
        if problem:
            raise ValueError(f"{problem}: {raw!r}")
        return cls(side, hits, action)

    @property
    def severity(self) -> int:
        """How bad the outcome is for the defender, net of what it does to the attacker; higher is worse.
        Used to check that a better attacker roll never leaves the defender better off."""
        own = hits_weight(self.hits) if self.to in (OutcomeSide.DEFENDER, OutcomeSide.BOTH) else 0
        theirs = hits_weight(self.hits) if self.to in (OutcomeSide.ATTACKER, OutcomeSide.BOTH) else 0
        if self.action is OutcomeAction.SURRENDER:
            action = _SURRENDER_WEIGHT if self.to is OutcomeSide.DEFENDER else -_SURRENDER_WEIGHT
        else:
            action = _ACTION_WEIGHT[self.action]
        return own - theirs + action

    def __str__(self) -> str:
        parts = [] if self.to is OutcomeSide.NONE else [self.to.value]
        if self.hits:
            parts.append(str(self.hits))
        if self.action is not OutcomeAction.NONE:
            parts.append(self.action.words)
        return " ".join(parts) or "-"


def _outcome_problem(side: OutcomeSide, hits: Hits, action: OutcomeAction) -> str:
    if side is OutcomeSide.NONE and hits:
        return "say who takes the hits (defender, attacker or both)"
    if side is not OutcomeSide.NONE and not hits and action is OutcomeAction.NONE:
        return f"nothing happens to the {side.value}"
    if action in _VICTOR_ACTIONS and side is not OutcomeSide.DEFENDER:
        return f"'{action.words}' follows a defender loss; write it after 'defender'"
    if action is OutcomeAction.BREAK_OFF and side is not OutcomeSide.ATTACKER:
        return "only the attacker breaks off; write 'attacker break off'"
    if action is OutcomeAction.SURRENDER and side not in (OutcomeSide.DEFENDER, OutcomeSide.ATTACKER):
        return "say which side surrenders"
    return ""


# --- columns (5.2 open order, 5.3) ----------------------------------------------------------------


class AssaultColumn(StrEnum):
    ATTACKER_ADVANTAGE = "attacker_advantage"
    PITCHED_BATTLE = "pitched_battle"
    DEFENDER_ADVANTAGE = "defender_advantage"

    @property
    def table(self) -> str:
        return f"assault_{self.value}"

    @property
    def title(self) -> str:  # type: ignore[override]  # the display name deliberately shadows str.title()
        return self.value.replace("_", " ").title()


TABLES = tuple(
    BandSpec(column.table, "5.3", f"Assault: {column.title}, by modified difference", AssaultOutcome.parse)
    for column in AssaultColumn
)


class Struck(StrEnum):
    """Where the attacker strikes the defender (5.1 flank and rear zones)."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


_FOOT = (UnitKind.INFANTRY, UnitKind.CAVALRY_DISMOUNTED, UnitKind.MOUNTED_INFANTRY_DISMOUNTED)
_INFANTRY = (UnitKind.INFANTRY, UnitKind.MOUNTED_INFANTRY_DISMOUNTED)


@dataclass(frozen=True)
class AssaultColumnInput:
    attacker_kind: UnitKind
    defender_kind: UnitKind
    struck: Struck = Struck.FRONT
    attacker_in_cover: bool = False
    defender_in_cover: bool = False
    attacker_open_order: bool = False
    defender_open_order: bool = False
    override: AssaultColumn | None = None

    def __post_init__(self) -> None:
        for side in ("attacker", "defender"):
            if getattr(self, f"{side}_open_order") and getattr(self, f"{side}_kind") is UnitKind.ARTILLERY:
                raise RulesInputError(f"{side}_open_order", "artillery has no open order")


@dataclass(frozen=True)
class AssaultColumnResult(Explained):
    column: AssaultColumn
    rules_column: AssaultColumn
    for_attacker: tuple[str, ...]
    for_defender: tuple[str, ...]


def assault_column(
    attacker_kind: UnitKind,
    defender_kind: UnitKind,
    struck: Struck = Struck.FRONT,
    *,
    attacker_in_cover: bool = False,
    defender_in_cover: bool = False,
    attacker_open_order: bool = False,
    defender_open_order: bool = False,
    override: AssaultColumn | None = None,
) -> AssaultColumnResult:
    """The assault column (5.3) with its reasons.

    "Cavalry" in the 5.3 lists is mounted cavalry (item 1 says so; dismounted cavalry fights as foot).
    Opposing advantages cancel one for one, as in the rules' example (R:1548-1552), and the side with
    more left over gets its column. An open-order brigade against a close-order infantry or cavalry
    brigade decides the column outright, "regardless of cover" (R:1490-1499)."""
    for_attacker, for_defender = [], []
    horse = attacker_kind is UnitKind.CAVALRY_MOUNTED
    if horse and struck is not Struck.FRONT and defender_kind in _FOOT:
        for_attacker.append(f"mounted cavalry assaulting the {struck.value} of foot troops")
    if horse and defender_kind is UnitKind.MOUNTED_INFANTRY_MOUNTED:
        for_attacker.append("cavalry assaulting mounted infantry")
    if horse and defender_kind is UnitKind.ARTILLERY:
        for_attacker.append("cavalry assaulting artillery")
    if attacker_kind in _INFANTRY and defender_kind is UnitKind.CAVALRY_DISMOUNTED:
        for_attacker.append("infantry assaulting dismounted cavalry")
    if defender_in_cover and not attacker_in_cover:
        for_defender.append("troops in the open assaulting troops in cover")
    if horse and struck is Struck.FRONT and defender_kind in _INFANTRY:
        for_defender.append("cavalry assaulting the front of infantry")
    if attacker_kind is UnitKind.MOUNTED_INFANTRY_MOUNTED and defender_kind in (*_INFANTRY, UnitKind.CAVALRY_MOUNTED):
        for_defender.append("mounted infantry assaulting infantry or mounted cavalry")

    notes = []
    fighting_arms = UnitKind.ARTILLERY not in (attacker_kind, defender_kind)
    if fighting_arms and defender_open_order and not attacker_open_order:
        rules_column = AssaultColumn.ATTACKER_ADVANTAGE
        notes.append("open-order defender against a close-order brigade: Attacker Advantage, whatever else (5.2)")
    elif fighting_arms and attacker_open_order and not defender_open_order:
        rules_column = AssaultColumn.DEFENDER_ADVANTAGE
        notes.append("open-order attacker against a close-order brigade: Defender Advantage, whatever else (5.2)")
    else:
        balance = len(for_attacker) - len(for_defender)
        if balance > 0:
            rules_column = AssaultColumn.ATTACKER_ADVANTAGE
        elif balance < 0:
            rules_column = AssaultColumn.DEFENDER_ADVANTAGE
        else:
            rules_column = AssaultColumn.PITCHED_BATTLE
        if for_attacker and for_defender:
            notes.append(
                f"{len(for_attacker)} attacker and {len(for_defender)} defender advantages cancel one for one (5.3)"
            )
        if not for_attacker and not for_defender:
            notes.append("no advantage either way: Pitched Battle (5.3)")
    notes.extend(f"attacker advantage: {reason}" for reason in for_attacker)
    notes.extend(f"defender advantage: {reason}" for reason in for_defender)
    column = rules_column
    if override is not None and override is not rules_column:
        column = override
        notes.append(f"the table chose {override.title} over {rules_column.title}")
    return AssaultColumnResult(
        column=column,
        rules_column=rules_column,
        for_attacker=tuple(for_attacker),
        for_defender=tuple(for_defender),
        notes=tuple(notes),
    )


def resolve_assault_column(chart: Chart, inputs: AssaultColumnInput) -> AssaultColumnResult:
    return assault_column(
        inputs.attacker_kind,
        inputs.defender_kind,
        inputs.struck,
        attacker_in_cover=inputs.attacker_in_cover,
        defender_in_cover=inputs.defender_in_cover,
        attacker_open_order=inputs.attacker_open_order,
        defender_open_order=inputs.defender_open_order,
        override=inputs.override,
    )


MECHANICS = (
    Mechanic(
        "assault_column",
        "5.2, 5.3",
        "Which assault table: Attacker Advantage, Pitched Battle or Defender Advantage, with the reasons",
        AssaultColumnInput,
        resolve_assault_column,
    ),
)
