"""Maneuver (3.2): the 1D10 test that says which actions a brigade may take this turn.

The Maneuver table gives, for each troop grade, the lowest modified roll that allows each action; the
brigade may combine every action whose number its modified roll equals or beats (R:654-662). Hold needs
no roll. The rules name the grades untrained, green, veteran and crack (R:628); Average, used everywhere
else, has its own column between veteran and green.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from republic.rules import dice
from republic.rules.chart import D10_SCORE, DIE_MODIFIER, PRINTED_SOURCE, Chart, GridSpec, KeyedSpec
from republic.rules.dice import Roll
from republic.rules.errors import RulesInputError
from republic.rules.morale import Condition, Restriction, condition_for
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, Provenance, total
from republic.rules.troops import Grade, Leader, LeaderClass
from republic.rules.units import UnitState, restricted


class ManeuverAction(StrEnum):
    ASSAULT = "assault"
    MANEUVER = "maneuver"
    ADVANCE = "advance"
    PULL_BACK = "pull_back"
    HOLD = "hold"

    @property
    def title(self) -> str:  # type: ignore[override]  # the display name deliberately shadows str.title()
        return self.value.replace("_", " ")


ROLLED_ACTIONS = (ManeuverAction.ASSAULT, ManeuverAction.MANEUVER, ManeuverAction.ADVANCE, ManeuverAction.PULL_BACK)

MODIFIER_KEYS = (
    "acting_together",
    "energetic_division_commander",
    "proficient_leader_within_2",
    "energetic_leader_within_2",
    "morale_hit",
    "cautious_division_commander",
    "division_leader_replaced",
)

_LABELS = {
    "acting_together": "Multiple brigades acting together",
    "energetic_division_commander": "Energetic division commander",
    "proficient_leader_within_2": 'Each proficient leader within 2"',
    "energetic_leader_within_2": 'Each energetic leader within 2"',
    "morale_hit": "Each morale hit",
    "cautious_division_commander": "Cautious division commander",
    "division_leader_replaced": "Leader just replaced",
}

TABLES = (
    GridSpec(
        "maneuver",
        "3.2",
        "Maneuver table: lowest modified 1D10 for each action",
        tuple(a.value for a in ROLLED_ACTIONS),
        tuple(g.value for g in Grade),
        D10_SCORE,
    ),
    KeyedSpec("maneuver_modifiers", "3.2", "Maneuver die roll modifiers", MODIFIER_KEYS, DIE_MODIFIER),
)

# A demoralized unit "will not voluntarily advance toward any enemies" (2.3). Advance and assault both
# move the brigade toward its front, where the enemy is, so neither is offered; maneuver and pull back are.
_DEMORALIZED_REFUSES = (ManeuverAction.ASSAULT, ManeuverAction.ADVANCE)
_DEMORALIZED_REASON = "demoralized: will not voluntarily advance toward any enemy (2.3)"


@dataclass(frozen=True)
class ManeuverInput:
    grade: Grade
    roll: Roll
    m_hits: int = 0
    division_commander: LeaderClass | None = None  # a Leader value is read by its class
    proficient_leaders_within_2: int = 0
    energetic_leaders_within_2: int = 0
    acting_together: ManeuverAction | None = None  # the action done with other brigades within 2"
    division_leader_replaced: bool = False
    printed: tuple[ManeuverAction, ...] | None = None  # the actions the players' printed chart allows

    @classmethod
    def of(
        cls,
        unit: UnitState,
        roll: Roll,
        *,
        division_leader: Leader | None = None,
        division_leader_hors_de_combat: bool = False,
        division_leader_replaced: bool = False,
        leaders_within_2: tuple[Leader, ...] = (),
        acting_together: ManeuverAction | None = None,
        printed: tuple[ManeuverAction, ...] | None = None,
    ) -> "ManeuverInput":
        """A brigade's roll as it stands, with the friendly leaders the table says are within 2"."""
        return cls(
            unit.grade,
            roll,
            unit.m_hits,
            commander_class(division_leader, division_leader_hors_de_combat),
            sum(1 for leader in leaders_within_2 if leader.leader_class is LeaderClass.PROFICIENT),
            sum(1 for leader in leaders_within_2 if leader.leader_class is LeaderClass.ENERGETIC),
            acting_together,
            division_leader_replaced,
            printed,
        )

    def __post_init__(self) -> None:
        dice.single(self.roll, "roll")
        condition_for(self.m_hits)
        if isinstance(self.division_commander, Leader):
            object.__setattr__(self, "division_commander", self.division_commander.leader_class)
        for name in ("proficient_leaders_within_2", "energetic_leaders_within_2"):
            if getattr(self, name) < 0:
                raise RulesInputError(name, f"a count of leaders cannot be negative, got {getattr(self, name)}")
        if self.acting_together is ManeuverAction.HOLD:
            raise RulesInputError("acting_together", "hold needs no roll, so acting together adds nothing to it")


@dataclass(frozen=True)
class ActionCheck:
    """One action against the table: the number it needs, the modified roll it was judged on, and why."""

    action: ManeuverAction
    needed: int | None  # None: hold, which needs no roll
    roll: int | None
    allowed: bool
    reason: str


@dataclass(frozen=True)
class ManeuverResult(Explained):
    grade: Grade
    natural: int
    modified_roll: int
    allowed: tuple[ActionCheck, ...]
    refused: tuple[ActionCheck, ...]

    @property
    def actions(self) -> tuple[ManeuverAction, ...]:
        return tuple(check.action for check in self.allowed)


def resolve_maneuver(chart: Chart, inputs: ManeuverInput) -> ManeuverResult:
    """The actions a brigade may combine this turn.

    Acting together: the +1 is earned by doing the same action as the other brigades (R:664-666), so it
    counts toward that action only; every other action is judged on the roll without it.
    The division commander and any leader within 2" are separate modifiers in the rules, so a division
    commander standing within 2" counts in both.
    """
    natural = dice.single(inputs.roll, "roll")
    keyed, cells = _modifiers(chart, inputs)
    modifiers = tuple(keyed.values())
    modified = natural + total(modifiers)
    # die points: the chart's whole number times a count of one (Modifier.value also allows movement's inches)
    together = cast(int, keyed["acting_together"].value) if "acting_together" in keyed else 0
    condition = condition_for(inputs.m_hits)

    allowed = [ActionCheck(ManeuverAction.HOLD, None, None, True, "hold needs no roll (3.2)")]
    refused: list[ActionCheck] = []
    for action in ROLLED_ACTIONS:
        roll = modified if action is inputs.acting_together else modified - together
        if inputs.printed is None:
            needed: int
            needed, use = chart.cell("maneuver", action.value, inputs.grade.value)
            cells.append(use)
            check = _check(action, needed, roll, condition)
        else:
            check = _printed_check(action, action in inputs.printed, roll, condition)
        (allowed if check.allowed else refused).append(check)
    if inputs.printed is not None:
        shown = ", ".join(a.value for a in inputs.printed) or "hold"
        cells.append(CellUse("maneuver", inputs.grade.value, shown, Provenance.PRINTED, PRINTED_SOURCE))

    notes = [f"{condition.value}: {r} (2.3)" for r in condition.restrictions]
    if together and inputs.acting_together is not None:  # a modifier for it means there is an action
        notes.append(f"the +{together} for acting together counts only toward {inputs.acting_together.title}")
    if any(c.action is ManeuverAction.PULL_BACK for c in allowed):
        notes.append("pulling back: no assault move bonus and no maneuver changes of direction (3.2)")
    return ManeuverResult(
        grade=inputs.grade,
        natural=natural,
        modified_roll=modified,
        allowed=tuple(allowed),
        refused=tuple(refused),
        modifiers=modifiers,
        cells=tuple(cells),
        notes=tuple(notes),
    )


def _check(action: ManeuverAction, needed: int, roll: int, condition: Condition) -> ActionCheck:
    if condition is Condition.DEMORALIZED and action in _DEMORALIZED_REFUSES:
        return ActionCheck(action, needed, roll, False, _DEMORALIZED_REASON)
    if roll >= needed:
        return ActionCheck(action, needed, roll, True, f"{roll} equals or beats {needed}")
    return ActionCheck(action, needed, roll, False, f"{roll} is below {needed}")


def _printed_check(action: ManeuverAction, chart_allows: bool, roll: int, condition: Condition) -> ActionCheck:
    """The players' printed chart replaces the table's numbers, not the morale restrictions (2.3)."""
    if condition is Condition.DEMORALIZED and action in _DEMORALIZED_REFUSES:
        return ActionCheck(action, None, roll, False, _DEMORALIZED_REASON)
    if chart_allows:
        return ActionCheck(action, None, roll, True, "the players' printed chart allows it")
    return ActionCheck(action, None, roll, False, "the players' printed chart does not allow it")


def commander_class(leader: Leader | None, hors_de_combat: bool) -> LeaderClass | None:
    """The division commander's class as the roll reads it. A leader hors de combat is "out of action and
    unable to contribute to unit assault or morale results" (2.5, 4.7): his class adds nothing, neither the
    Energetic +1 nor the Cautious -1. (The replace-leaders step comes first, so this happens only after a
    correction.)"""
    return None if leader is None or hors_de_combat else leader.leader_class


FORWARD = (ManeuverAction.ASSAULT, ManeuverAction.MANEUVER, ManeuverAction.ADVANCE)


def charge_refusal(allowed: tuple[ManeuverAction, ...] | None, action: ManeuverAction | None = None) -> str:
    """Why a brigade may not use its assault move bonus, given the actions its roll this turn allowed (None:
    it has not rolled) and the action it took with it when the table says (None: not asked yet), or "": the
    bonus is used moving forward (3.1, 3.2). "Brigades pulling back may not use the assault move bonus"
    (R:650-653) whatever else the roll allowed, and a brigade on hold makes no move at all (R:645-649)."""
    if allowed is None:
        return "No maneuver roll this turn: a brigade that has not rolled holds (3.2)."
    if not set(FORWARD) & set(allowed):
        return "Its roll allows only hold or pull back: no assault move bonus (3.2)."
    if action is ManeuverAction.PULL_BACK:
        return "It pulled back: a brigade pulling back may not use the assault move bonus (3.2)."
    if action is ManeuverAction.HOLD:
        return "It held: a brigade on hold stays where it is and makes no assault move (3.2)."
    if action is not None and action not in allowed:
        return f"Its roll this turn does not allow it to {action.title}: the bonus goes with a move it may make (3.2)."
    return ""


def assault_refusal(unit: UnitState, allowed: tuple[ManeuverAction, ...] | None, defenders: Sequence[UnitState]) -> str:
    """Why an attacking unit may not initiate an assault on these defenders, or "".

    Its morale condition may forbid it (2.3, R:494-502): demoralized troops will not voluntarily advance; rattled
    infantry will not assault artillery; shaken infantry will not assault cavalry or artillery, shaken cavalry
    not artillery. Troops on horse assault as cavalry and troops on foot as infantry; a defender on horse is
    cavalry, and any battery among the defenders makes it an assault on artillery. Then a brigade needs this
    turn's maneuver roll to allow Assault: "Units which do not roll high enough on the maneuver table to qualify
    for this ... may not voluntarily initiate assaults - at least not this turn" (R:631-635). A battery rolls
    no maneuver; it joins an assault but never initiates one alone (5.1)."""
    if unit.battery:
        return ""
    guns = any(d.battery for d in defenders)
    horse = any(d.kind.horse for d in defenders)
    forbidden = [Restriction.ADVANCE]
    if unit.kind.horse:
        forbidden += [Restriction.CAVALRY_ASSAULT_ARTILLERY] if guns else []
    else:
        forbidden += [Restriction.INFANTRY_ASSAULT_OR_ADVANCE_ON_HORSE_OR_GUNS] if guns or horse else []
        forbidden += [Restriction.INFANTRY_ASSAULT_ARTILLERY] if guns else []
    refused = next((why for why in (restricted(unit, r) for r in forbidden) if why), "")
    if refused:
        return refused
    return roll_refusal(allowed)


def roll_refusal(allowed: tuple[ManeuverAction, ...] | None) -> str:
    """Why a brigade's maneuver roll this turn (None: no roll) does not let it initiate an assault, or ""."""
    if allowed is None:
        return "no maneuver roll this turn: a brigade that has not rolled may not initiate an assault (3.2, R:631-635)"
    if ManeuverAction.ASSAULT not in allowed:
        return "its maneuver roll this turn did not allow Assault: no assault of its own this turn (3.2, R:631-635)"
    return ""


def _modifiers(chart: Chart, inputs: ManeuverInput) -> tuple[dict[str, Modifier], list[CellUse]]:
    counts = {
        "acting_together": int(inputs.acting_together is not None),
        "energetic_division_commander": int(inputs.division_commander is LeaderClass.ENERGETIC),
        "proficient_leader_within_2": inputs.proficient_leaders_within_2,
        "energetic_leader_within_2": inputs.energetic_leaders_within_2,
        "morale_hit": inputs.m_hits,
        "cautious_division_commander": int(inputs.division_commander is LeaderClass.CAUTIOUS),
        "division_leader_replaced": int(inputs.division_leader_replaced),
    }
    modifiers, cells = {}, []
    for key in MODIFIER_KEYS:
        count = counts[key]
        if not count:
            continue
        value: int
        value, use = chart.entry("maneuver_modifiers", key)
        cells.append(use)
        label = _LABELS[key] if count == 1 else f"{_LABELS[key]} (x{count})"
        if value:
            modifiers[key] = Modifier(label, value * count, "3.2")
    return modifiers, cells


def maneuver_test(
    chart: Chart,
    grade: Grade,
    roll: Roll,
    m_hits: int = 0,
    division_commander: LeaderClass | Leader | None = None,
    proficient_leaders_within_2: int = 0,
    energetic_leaders_within_2: int = 0,
    acting_together: ManeuverAction | None = None,
    division_leader_replaced: bool = False,
) -> ManeuverResult:
    # a Leader is read by its class, as ManeuverInput.__post_init__ does, since its field is typed as the class
    commander = division_commander.leader_class if isinstance(division_commander, Leader) else division_commander
    return resolve_maneuver(
        chart,
        ManeuverInput(
            grade,
            roll,
            m_hits,
            commander,
            proficient_leaders_within_2,
            energetic_leaders_within_2,
            acting_together,
            division_leader_replaced,
        ),
    )


MECHANICS = (
    Mechanic(
        "maneuver", "3.2", "Maneuver test: the actions a brigade may combine this turn", ManeuverInput, resolve_maneuver
    ),
)
