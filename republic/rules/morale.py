"""Morale (2.3, 4.6, 5.5, 5.6): the ladder from Formed to Demoralized and what M hits do to it.

Each M hit walks a unit one step down the ladder. A unit holds at most four M hits (Demoralized);
M hits beyond that become P hits when they come from skirmish or artillery fire (4.6) or from an
assault (5.5). The end-of-turn hits for rout, charge or retreat disorder and a division's rout leave
a demoralized unit demoralized with no P hit (5.5: "if already demoralized the unit remains
demoralized"; 6.1: "already demoralized units suffer no further morale or panic hits").
"""

from dataclasses import dataclass
from enum import StrEnum

from republic.rules.chart import Chart
from republic.rules.errors import RulesInputError
from republic.rules.results import Explained, Mechanic, Modifier


class Condition(StrEnum):
    FORMED = "formed"
    UNFORMED = "unformed"
    RATTLED = "rattled"
    SHAKEN = "shaken"
    DEMORALIZED = "demoralized"

    @property
    def m_hits(self) -> int:
        return list(Condition).index(self)

    @property
    def restrictions(self) -> tuple["Restriction", ...]:
        return RESTRICTIONS[self]

    def forbids(self, restriction: "Restriction") -> bool:
        return restriction in RESTRICTIONS[self]


MAX_M_HITS = 4


class Restriction(StrEnum):
    """What a morale condition forbids (2.3), each worded as the rules word it."""

    CHANGE_FORMATION = "may not change formation"
    DEPLOY_SKIRMISHERS = "may not deploy skirmishers"
    INFANTRY_ASSAULT_ARTILLERY = "infantry will not assault artillery"
    INFANTRY_ASSAULT_OR_ADVANCE_ON_HORSE_OR_GUNS = "infantry will not assault or advance on cavalry or artillery"
    CAVALRY_ASSAULT_ARTILLERY = "cavalry will not assault artillery"
    ARTILLERY_TOWARD_ENEMY = "artillery will not move or prolong toward an enemy"
    UNLIMBER = "may not unlimber"
    ADVANCE = "will not voluntarily advance toward any enemy"
    SILENCED = "unlimbered artillery is silenced; it may limber only to move away from the enemy"
    M_BECOMES_P = "each further M hit from skirmishers, artillery or assault becomes a P hit"


RESTRICTIONS: dict[Condition, tuple[Restriction, ...]] = {
    Condition.FORMED: (),
    Condition.UNFORMED: (Restriction.CHANGE_FORMATION,),
    Condition.RATTLED: (
        Restriction.CHANGE_FORMATION,
        Restriction.DEPLOY_SKIRMISHERS,
        Restriction.INFANTRY_ASSAULT_ARTILLERY,
    ),
    Condition.SHAKEN: (
        Restriction.CHANGE_FORMATION,
        Restriction.DEPLOY_SKIRMISHERS,
        Restriction.INFANTRY_ASSAULT_OR_ADVANCE_ON_HORSE_OR_GUNS,
        Restriction.CAVALRY_ASSAULT_ARTILLERY,
        Restriction.ARTILLERY_TOWARD_ENEMY,
    ),
    Condition.DEMORALIZED: (
        Restriction.CHANGE_FORMATION,
        Restriction.DEPLOY_SKIRMISHERS,
        Restriction.UNLIMBER,
        Restriction.ADVANCE,
        Restriction.SILENCED,
        Restriction.M_BECOMES_P,
    ),
}


_BY_M_HITS = tuple(Condition)


def forbidden(condition: Condition, restriction: Restriction) -> str:
    """Why this condition forbids it, in the rules' words (2.3, R:494-502), or "" when it does not."""
    return f"{condition.value.capitalize()}: {restriction.value} (2.3)" if condition.forbids(restriction) else ""


def condition_for(m_hits: int) -> Condition:
    if not 0 <= m_hits <= MAX_M_HITS:
        raise RulesInputError("m_hits", f"a unit carries 0 to {MAX_M_HITS} M hits, got {m_hits}")
    return _BY_M_HITS[m_hits]


class MoraleCause(StrEnum):
    FIRE = "fire"  # skirmish or artillery fire (4.6)
    ASSAULT = "assault"  # assault results, natural-roll loss, break off, supporting brigade (5.5)
    ROUT = "rout"  # end of a rout move (5.5)
    DISORDER = "disorder"  # charge or retreat disorder at the end of the turn (5.6)
    DIVISION_ROUT = "division_rout"  # a routing division's units (6.1)

    @property
    def converts_to_panic(self) -> bool:
        return self in (MoraleCause.FIRE, MoraleCause.ASSAULT)


@dataclass(frozen=True)
class MoraleInput:
    m_hits: int
    new_m_hits: int
    cause: MoraleCause = MoraleCause.FIRE

    def __post_init__(self) -> None:
        condition_for(self.m_hits)
        if self.new_m_hits < 0:
            raise RulesInputError("new_m_hits", f"hits cannot be negative, got {self.new_m_hits}")


@dataclass(frozen=True)
class MoraleResult(Explained):
    m_before: int
    m_after: int
    condition_before: Condition
    condition_after: Condition
    panic_hits: int


def apply_morale_hits(m_hits: int, new_m_hits: int, cause: MoraleCause = MoraleCause.FIRE) -> MoraleResult:
    before = condition_for(m_hits)
    if new_m_hits < 0:
        raise RulesInputError("new_m_hits", f"hits cannot be negative, got {new_m_hits}")
    after = min(MAX_M_HITS, m_hits + new_m_hits)
    excess = m_hits + new_m_hits - after
    panic = excess if cause.converts_to_panic else 0
    notes = []
    if excess:
        section = "4.6" if cause is MoraleCause.FIRE else "5.5"
        notes.append(
            f"{excess} M beyond Demoralized became {panic} P ({section})"
            if panic
            else f"{excess} M beyond Demoralized: the unit stays Demoralized"
        )
    return MoraleResult(
        m_before=m_hits,
        m_after=after,
        condition_before=before,
        condition_after=condition_for(after),
        panic_hits=panic,
        modifiers=(Modifier(f"M hits ({cause})", new_m_hits, "2.3"),) if new_m_hits else (),
        notes=tuple(notes),
    )


def resolve_morale(chart: Chart, inputs: MoraleInput) -> MoraleResult:
    return apply_morale_hits(inputs.m_hits, inputs.new_m_hits, inputs.cause)


@dataclass(frozen=True)
class DisorderInput:
    m_hits: int
    used_charge_bonus: bool = False
    retreated_or_routed: bool = False

    def __post_init__(self) -> None:
        condition_for(self.m_hits)


def resolve_disorder(chart: Chart, inputs: DisorderInput) -> MoraleResult:
    """Charge and retreat disorder (5.6): one M at the end of the turn, once, whatever caused it."""
    disordered = inputs.used_charge_bonus or inputs.retreated_or_routed
    result = apply_morale_hits(inputs.m_hits, 1 if disordered else 0, MoraleCause.DISORDER)
    reasons = [
        r
        for r, on in (
            ("used charge bonus", inputs.used_charge_bonus),
            ("retreated or routed", inputs.retreated_or_routed),
        )
        if on
    ]
    note = f"charge disorder: {' and '.join(reasons)} → 1M (5.6)" if reasons else "no charge disorder"
    return MoraleResult(**{**result.__dict__, "notes": (note, *result.notes)})


MECHANICS = (
    Mechanic(
        "morale", "2.3, 4.6, 5.5", "Apply M hits to a unit: new condition and any P hits", MoraleInput, resolve_morale
    ),
    Mechanic(
        "charge_disorder",
        "5.6",
        "End-of-turn M hit for using the charge bonus or retreating",
        DisorderInput,
        resolve_disorder,
    ),
)
TABLES = ()
