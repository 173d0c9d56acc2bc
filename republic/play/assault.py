"""The assault step (5.1-5.5) as the game decides it: which assaults are open, which round waits and why, what
a side may fight now, and what a round changes on the units taking part.

An assault is what its events made it: its units by key (the primary defender first), the rounds fought and
whether it ended. A round is one of the table's answers (cover, where the defender is struck, the dice, the
leaders near, the rare cases) over the units as they stand; the engine gives its outcome and what it does to
each unit. Readings chosen for the table:
- A round's column is read from the units taking part and the table's cover and flank or rear for that round;
  the table may name another column.
- A defending unit counts all its bases unless the table says how many: a supporting unit counts only its
  bases inside the attacker's assault window (5.2, R:1431-1435).
- A bridging formation split between two assaults (5.2, R:1448-1477) counts the bases the table gives it in
  each, and a round's hits on it are paired with the round of the same number of its other assault: it takes
  the worst of each type of the two, not their sum.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from republic.play.refusal import Refused
from republic.rules.assault import (
    AssaultRoundInput,
    AssaultRoundResult,
    overrun_waits_for,
    resolve_assault_round,
    round_column,
    round_waits_for,
)
from republic.rules.assault_fixed_hits import NO_HITS
from republic.rules.assault_on_units import RoundOnUnits, RoundUnit, after_round, resolve_round_on_units
from republic.rules.assault_sides import AssaultSide, AssaultUnit, Contact
from republic.rules.assault_table import AssaultColumn, AssaultColumnResult, AssaultOutcome, OutcomeAction, Struck
from republic.rules.chart import Chart
from republic.rules.dice import Roll
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.scale import GroundScale
from republic.rules.troops import Cover
from republic.rules.units import UnitState

BREAKING_THROUGH = (OutcomeAction.MAY_BREAKTHROUGH, OutcomeAction.MUST_BREAKTHROUGH, OutcomeAction.OVERRUN)


class Naming(Protocol):
    @property
    def unit(self) -> str: ...


@dataclass(frozen=True)
class Named:
    """A unit a round names, by key."""

    unit: str


class Fought(Protocol):
    """A round fought, as its record holds it: the units it named (the assault's), the outcome and what it did to
    the units. A protocol, so that the app's recorded rounds are decided on as they were read, not copied."""

    @property
    def names(self) -> Sequence[Naming]: ...

    @property
    def result(self) -> AssaultRoundResult: ...

    @property
    def on_units(self) -> RoundOnUnits: ...


@dataclass(frozen=True)
class Assault:
    """An assault of this player turn: ``seq`` names its declaration, ``number`` is its number in the phase."""

    seq: int
    number: int
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    rounds: tuple[Fought, ...] = ()
    ended: bool = False
    left: tuple[bool, bool] = (True, True)  # whether each side, attackers first, has a unit in it still in play
    stalled: bool = False  # the table said the attackers of its last round were stalled, with no movement left

    @property
    def open(self) -> bool:
        return not self.ended

    @property
    def last(self) -> Fought | None:
        return self.rounds[-1] if self.rounds else None


def open_assaults(assaults: Sequence[Assault]) -> list[Assault]:
    """The assaults still open: each is work left until it ends."""
    return [a for a in assaults if a.open]


def first_rounds_left(assaults: Sequence[Assault], assault: Assault) -> list[int]:
    """The other assaults of the phase still open without a first round, by number."""
    return [a.number for a in assaults if a.seq != assault.seq and a.open and not a.rounds]


def waits(assaults: Sequence[Assault], assault: Assault) -> str:
    """Why the assault's next round is not fought yet (5.1, R:1376-1377), "" when it may be."""
    return round_waits_for(len(assault.rounds) + 1, first_rounds_left(assaults, assault))


def overrun_waits(assaults: Sequence[Assault], assault: Assault) -> str:
    """When its last round broke through or overran, what the table marks now and moves later (5.1)."""
    last = assault.last
    if last is None or last.result.outcome.action not in BREAKING_THROUGH:
        return ""
    return overrun_waits_for(first_rounds_left(assaults, assault))


def contact_ended(assault: Assault) -> str:
    """Why the assault's contact has ended for certain after its last round, "" while the table may still fight
    another. It has when a side has no unit left in play, or when the attackers broke off: they move out of assault
    contact range (5.5), unless stalled, with no movement left, when they fight on while within 2" (R:1775-1778).
    After any other round contact ends only if no attacker faces an enemy within 2" once the moves are made: the
    table's to see, so the assault offers both another round and its closing."""
    last = assault.last
    if last is None:
        return ""
    attackers, defenders = assault.left
    if not attackers or not defenders:
        side = "attacking" if not attackers else "defending"
        return f"No {side} unit of assault {assault.number} is left in play: its contact has ended"
    if last.result.outcome.action is OutcomeAction.BREAK_OFF and not assault.stalled:
        return f"The attackers broke off in round {len(assault.rounds)}: assault {assault.number}'s contact has ended"
    return ""


def fight_refusal(assaults: Sequence[Assault], assault: Assault) -> str:
    """Why the assault's next round may not be fought now, "" when it may."""
    if not assault.open:
        return f"Assault {assault.number} has ended."
    ended = contact_ended(assault)
    if ended:
        return f"{ended}. Make the moves that follow, then close it."
    return waits(assaults, assault)


def bonus(assault: Assault) -> bool:
    """The "C" bonus an All Out Win/Win of the round before gives the next round (5.1)."""
    last = assault.last
    return bool(last and last.result.next_round_tactical_bonus)


def busy(assaults: Sequence[Assault]) -> dict[str, Assault]:
    """Units in an open assault, with it: a unit is in one open assault, unless it is split (``bridged``)."""
    return {key: a for a in assaults if a.open for key in (*a.attackers, *a.defenders)}


def taken(assaults: Sequence[Assault], attackers: Sequence[str], defenders: Sequence[str], bridging: bool) -> list[str]:
    """The units a new declaration names that are already in an open assault: a unit is in one assault at a time,
    unless the attacker splits a bridging formation (5.2), whose attackers may be in another."""
    found = busy(assaults)
    return [key for key in (*([] if bridging else attackers), *defenders) if key in found]


def split_twice(assaults: Sequence[Assault], attackers: Sequence[str]) -> list[str]:
    """The attackers a new declaration names that are already split between two open assaults: a bridging
    formation is split into two assaults at most (5.2)."""
    return [key for key in attackers if sum(key in (*a.attackers, *a.defenders) for a in open_assaults(assaults)) > 1]


def end_refusal(assault: Assault) -> str:
    """Why the assault may not be ended now, "" when it may."""
    return f"Assault {assault.number} has already ended." if assault.ended else ""


def bridged(assaults: Sequence[Assault], assault: Assault) -> dict[str, Assault]:
    """The attackers of this assault split as a bridging formation (5.2), each with its other assault of this
    player turn."""
    return {
        key: other
        for key in assault.attackers
        for other in assaults
        if other.seq != assault.seq and key in other.attackers
    }


def taken_in(other: Assault | None, number: int, key: str) -> Hits:
    """A bridging unit's hits in the round of this number of its other assault, once that round is resolved."""
    if other is None or len(other.rounds) < number:
        return NO_HITS
    loss = other.rounds[number - 1].on_units.loss(key)
    return NO_HITS if loss is None else Hits(loss.m_taken, loss.base_hits, loss.panic_hits)


@dataclass(frozen=True)
class Taking:
    """A unit taking part in a round as it stands, with what the table says of it for this round."""

    unit: UnitState
    contact: Contact
    cover: Cover = Cover.NONE
    counted: int | None = None  # the bases it counts when the table gave fewer than all (5.2)
    fresh: bool = False  # a defending battery that did not fire this player turn (5.4)
    retreat_blocked: bool = False  # cannot move back without passing through an enemy formation (5.5)
    out_of_town: bool = False  # would retreat or rout out of town terrain (6.3)
    across_water: bool = False  # would retreat or rout across a bridge or ford (6.3)


@dataclass(frozen=True)
class Round:
    """What the table gives for a round: the units taking part on each side, the dice, where the defender is
    struck, any column it names, each side's E or P leaders within 2" and the rare cases."""

    attackers: tuple[Taking, ...]
    defenders: tuple[Taking, ...]
    attacker_roll: Roll
    defender_roll: Roll
    struck: Struck = Struck.FRONT
    column: AssaultColumn | None = None
    attacker_leaders: int = 0
    defender_leaders: int = 0
    stalled: bool = False
    square_vs_solo_cavalry: bool = False
    printed: AssaultOutcome | None = None  # the outcome read off the players' own printed chart


@dataclass(frozen=True)
class RoundFought:
    """A round resolved: the engine's inputs and result, what it did to the units, the app's own outcome when
    the printed chart's replaced it, and each unit taking part as it stands after the round."""

    number: int
    names: tuple[Named, ...]
    inputs: AssaultRoundInput
    result: AssaultRoundResult
    on_units: RoundOnUnits
    app_outcome: AssaultOutcome | None
    after: tuple[UnitState, ...]


def column(
    attackers: Sequence[Taking], defenders: Sequence[Taking], struck: Struck, override: AssaultColumn | None
) -> AssaultColumnResult | None:
    """The column the rules give for these units and conditions, with the table's choice if it named another;
    None while a side has no unit in the round or the units cannot meet in one."""
    if not attackers or not defenders:
        return None
    try:
        return round_column(_units(attackers), _units(defenders), struck, override)
    except RulesInputError:
        return None


def _units(taking: Sequence[Taking]) -> tuple[AssaultUnit, ...]:
    return tuple(AssaultUnit.of(t.unit, t.contact, t.cover) for t in taking)


def _side(
    taking: tuple[Taking, ...],
    roll: Roll,
    leaders: int,
    *,
    fresh: int = 0,
    struck: Struck | None = None,
    tactical_bonus: bool = False,
) -> AssaultSide:
    return AssaultSide.of(
        roll,
        tuple((t.unit, t.contact, t.cover) for t in taking),
        leaders_within_2=leaders,
        fresh_batteries=fresh,
        struck=struck,
        tactical_bonus=tactical_bonus,
        counted={t.unit.id: t.counted for t in taking if t.counted is not None},
    )


def fight(chart: Chart, scale: GroundScale, assaults: Sequence[Assault], assault: Assault, given: Round) -> RoundFought:
    """The assault's next round: refused while it may not be fought or a side has no unit in it; otherwise the
    engine's outcome on the units taking part (5.1-5.5)."""
    refusal = fight_refusal(assaults, assault)
    if refusal:
        raise Refused(refusal)
    if not given.attackers or not given.defenders:
        raise Refused("Each side needs a unit in the round.")
    inputs = AssaultRoundInput(
        _side(given.attackers, given.attacker_roll, given.attacker_leaders, tactical_bonus=bonus(assault)),
        _side(
            given.defenders,
            given.defender_roll,
            given.defender_leaders,
            fresh=sum(1 for t in given.defenders if t.unit.battery and t.fresh),
            struck=given.struck,
        ),
        column=given.column,
        square_vs_solo_cavalry=given.square_vs_solo_cavalry,
    )
    read = chart
    if given.printed is not None:
        read = chart.overlay({c.table: str(given.printed) for c in AssaultColumn})
    result = resolve_assault_round(read, inputs)
    number = len(assault.rounds) + 1
    split = bridged(assaults, assault)

    def round_units(taking: tuple[Taking, ...]) -> tuple[RoundUnit, ...]:
        return tuple(
            RoundUnit(
                t.unit,
                t.contact,
                retreat_blocked=t.retreat_blocked,
                out_of_town=t.out_of_town,
                across_bridge_or_ford=t.across_water,
                taken_elsewhere=taken_in(split.get(t.unit.id), number, t.unit.id),
            )
            for t in taking
        )

    on_units = resolve_round_on_units(
        read,
        result,
        round_units(given.attackers),
        round_units(given.defenders),
        struck=given.struck,
        stalled=given.stalled,
        scale=scale,
    )
    return RoundFought(
        number,
        tuple(Named(key) for key in (*assault.attackers, *assault.defenders)),
        inputs,
        result,
        on_units,
        resolve_assault_round(chart, inputs).outcome if given.printed is not None else None,
        tuple(after_round(t.unit, on_units) for t in (*given.attackers, *given.defenders)),
    )
