"""Leaders (2.2, 2.5, 4.7): how far a rating reaches, hors de combat, and replacing fallen leaders.

A leader's value is a class (Energetic, Proficient, Cautious) and a rating from -1 to 4 (2.2). The
class matters to maneuver and assault, which read it through `energetic`, `proficient` and `cautious`;
the rating adds to rallies within its reach (`gives_rally_bonus`), which rally.py uses.
"""

from dataclasses import dataclass
from enum import StrEnum

from republic.rules.chart import DIE_MODIFIER, BandSpec, Chart, KeyedSpec, one_of
from republic.rules.dice import Roll, pair
from republic.rules.errors import RulesInputError
from republic.rules.results import CellUse, Explained, Mechanic, Modifier, present, total
from republic.rules.troops import Leader, LeaderClass

# --- class and rating ---------------------------------------------------------------------------------


def energetic(leader: Leader) -> bool:
    return leader.leader_class is LeaderClass.ENERGETIC


def proficient(leader: Leader) -> bool:
    return leader.leader_class is LeaderClass.PROFICIENT


def cautious(leader: Leader) -> bool:
    return leader.leader_class is LeaderClass.CAUTIOUS


class CommandRelation(StrEnum):
    """How a leader near a rallying unit stands to it, for the reach of his rally bonus (2.2)."""

    CHAIN_OF_COMMAND = "chain_of_command"  # a corps or army leader the unit answers to
    ADJOINING_SAME_CORPS = "adjoining_same_corps"  # a leader of an adjoining formation of the same corps
    SAME_SIDE_OTHER = "same_side_other"  # any other friendly leader


_LOWEST_RATING_REACHING = {
    CommandRelation.CHAIN_OF_COMMAND: -1,
    CommandRelation.ADJOINING_SAME_CORPS: 2,
    CommandRelation.SAME_SIDE_OTHER: 3,
}


def rally_reach(rating: int) -> tuple[CommandRelation, ...]:
    """The units a rating's rally bonus reaches (2.2, R:452-476): -1, 0 and 1 only their own command, 2
    also adjoining formations of the same corps, 3 all units of the same side. The rules give a 4 no reach
    of its own; a 4 is read as reaching at least as far as a 3, since a better rating never reaches less."""
    if not -1 <= rating <= 4:
        raise RulesInputError("rating", f"a leader rating runs from -1 to 4, got {rating}")
    return tuple(relation for relation, lowest in _LOWEST_RATING_REACHING.items() if rating >= lowest)


def gives_rally_bonus(rating: int, relation: CommandRelation) -> bool:
    return relation in rally_reach(rating)


# --- hors de combat (4.7) -----------------------------------------------------------------------------


class HorsDeCombatOutcome(StrEnum):
    NO_EFFECT = "no_effect"
    HORS_DE_COMBAT = "hors_de_combat"


HDC_MODIFIERS = ("each_base_hit", "enemy_skirmishers")

TABLES = (
    BandSpec(
        "hors_de_combat", "4.7", "Hors de combat, by modified double", one_of(*(o.value for o in HorsDeCombatOutcome))
    ),
    KeyedSpec(
        "hors_de_combat_modifiers",
        "4.7",
        "Hors de combat die roll modifiers (added to each die)",
        HDC_MODIFIERS,
        DIE_MODIFIER,
    ),
)


@dataclass(frozen=True)
class HorsDeCombatInput:
    """A leader within 4" of a unit that suffered base hits this phase rolls 2D10 (4.7). `base_hits_within_4`
    counts the B suffered by friendly units within 4" (it may be 0 when only enemy units lost bases)."""

    roll: Roll
    base_hits_within_4: int = 0
    enemy_skirmishers_within_4: bool = False

    def __post_init__(self) -> None:
        pair(self.roll, "roll")
        if self.base_hits_within_4 < 0:
            raise RulesInputError(
                "base_hits_within_4", f"a count of base hits cannot be negative, got {self.base_hits_within_4}"
            )


@dataclass(frozen=True)
class HorsDeCombatResult(Explained):
    faces: tuple[int, int]
    double: bool
    modified_pair: tuple[int, int] | None
    outcome: HorsDeCombatOutcome


def resolve_hors_de_combat(chart: Chart, inputs: HorsDeCombatInput) -> HorsDeCombatResult:
    """Only doubles can hurt a leader; the modifiers are added to each die of the double, so the table is
    read with one die's modified value (R:1296-1299: 5-5 with +2 is 7-7). The B modifier is one per base
    hit, as the example and the sentence "add one point per base hit" read it, not one per unit (R:1303-1305)."""
    first, second = pair(inputs.roll, "roll")
    if first != second:
        return HorsDeCombatResult(
            faces=(first, second),
            double=False,
            modified_pair=None,
            outcome=HorsDeCombatOutcome.NO_EFFECT,
            notes=("not a double: no effect, no table read and no modifiers used (4.7)",),
        )
    cells: list[CellUse] = []
    per_hit: int
    per_hit, use = chart.entry("hors_de_combat_modifiers", "each_base_hit")
    cells.append(use)
    skirmish = None
    if inputs.enemy_skirmishers_within_4:
        value: int
        value, use = chart.entry("hors_de_combat_modifiers", "enemy_skirmishers")
        cells.append(use)
        skirmish = Modifier('enemy skirmish marker within 4"', value, "4.7")
    modifiers = present(
        Modifier(
            f'each base hit (B) within 4" ({inputs.base_hits_within_4} B)', per_hit * inputs.base_hits_within_4, "4.7"
        ),
        skirmish,
    )
    modified = first + total(modifiers)
    outcome: str
    outcome, use = chart.band("hors_de_combat", modified)
    cells.append(use)
    return HorsDeCombatResult(
        faces=(first, second),
        double=True,
        modified_pair=(modified, modified),
        outcome=HorsDeCombatOutcome(outcome),
        modifiers=modifiers,
        cells=tuple(cells),
        notes=(f"double {first}-{first} read as {modified}-{modified}: modifiers add to each die (4.7)",),
    )


# --- replacing fallen leaders (2.5) -------------------------------------------------------------------


class LeaderRank(StrEnum):
    """Command levels, highest first (2.1, 2.5: "Army/Corps/Column leader"). A column is read as a wing of
    several corps, so it ranks between army and corps."""

    ARMY = "army"
    COLUMN = "column"
    CORPS = "corps"
    DIVISION = "division"

    @property
    def level(self) -> int:
        """0 for the highest command; larger is lower in the chain."""
        return list(LeaderRank).index(self)


def returning_rating(rating: int) -> int:
    """A divisional leader back from hors de combat: one point lower, never below zero; a negative leader
    comes back as a zero (2.5, R:578-582)."""
    if not -1 <= rating <= 4:
        raise RulesInputError("rating", f"a leader rating runs from -1 to 4, got {rating}")
    return max(0, rating - 1)


@dataclass(frozen=True)
class Candidate:
    name: str
    rank: LeaderRank
    leader: Leader

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise RulesInputError("name", "a candidate needs a name")


@dataclass(frozen=True)
class LeaderReplacementInput:
    """The fallen leader's rank and value; for an army, column or corps leader, the leaders who could take
    over (anyone below him in his chain of command)."""

    rank: LeaderRank
    leader: Leader
    name: str = ""
    candidates: tuple[Candidate, ...] = ()

    def __post_init__(self) -> None:
        if self.rank is LeaderRank.DIVISION:
            if self.candidates:
                raise RulesInputError("candidates", "a divisional leader returns himself (2.5); give no candidates")
            return
        if not self.candidates:
            raise RulesInputError(
                "candidates",
                f"a fallen {self.rank} leader is replaced by the highest rated leader ranked next in his chain "
                "of command (2.5); list the leaders who could take over",
            )
        for index, candidate in enumerate(self.candidates):
            if candidate.rank.level <= self.rank.level:
                raise RulesInputError(
                    f"candidates[{index}].rank",
                    f"{candidate.name} ({candidate.rank}) does not rank below the fallen {self.rank} leader",
                )


@dataclass(frozen=True)
class LeaderReplacementResult(Explained):
    name: str
    leader: Leader
    rank: LeaderRank
    former_rank: LeaderRank
    division_leader_replaced: bool


def resolve_leader_replacement(chart: Chart, inputs: LeaderReplacementInput) -> LeaderReplacementResult:
    """Replace Leaders step of the owner's next command phase (2.5). "Highest rated leader ranked next in
    chain of command" is read as: among the candidates of the highest rank below the fallen leader, the one
    with the best rating; a tie goes to the first listed, and the players may swap him for another tied one."""
    if inputs.rank is LeaderRank.DIVISION:
        returned = Leader(inputs.leader.leader_class, returning_rating(inputs.leader.rating))
        return LeaderReplacementResult(
            name=inputs.name,
            leader=returned,
            rank=LeaderRank.DIVISION,
            former_rank=LeaderRank.DIVISION,
            division_leader_replaced=True,
            notes=(
                f"the divisional leader returns as {returned} (was {inputs.leader}; one lower, never below 0) (2.5)",
                "the division's brigades take the leader-just-replaced maneuver modifier (-3) this turn (3.2)",
            ),
        )
    next_level = min(c.rank.level for c in inputs.candidates)
    eligible = [c for c in inputs.candidates if c.rank.level == next_level]
    best = max(c.leader.rating for c in eligible)
    tied = [c for c in eligible if c.leader.rating == best]
    chosen = tied[0]
    notes = [f"{chosen.name} ({chosen.leader}, {chosen.rank}) takes over the fallen {inputs.rank} command (2.5)"]
    if len(tied) > 1:
        others = ", ".join(c.name for c in tied[1:])
        notes.append(f"tied on rating {best} with {others}: the first listed is taken; the players may choose")
    moved_from_division = chosen.rank is LeaderRank.DIVISION
    if moved_from_division:
        notes.append(
            f"{chosen.name}'s division needs a fresh divisional leader figure; its brigades take the "
            "leader-just-replaced maneuver modifier (-3) this turn (2.5, 3.2)"
        )
    else:
        notes.append(f"{chosen.name}'s {chosen.rank} command below must be filled in turn (2.5)")
    return LeaderReplacementResult(
        name=chosen.name,
        leader=chosen.leader,
        rank=inputs.rank,
        former_rank=chosen.rank,
        division_leader_replaced=moved_from_division,
        notes=tuple(notes),
    )


@dataclass(frozen=True)
class FallenLeader:
    """A leader hors de combat at his side's Replace Leaders step: his rank, the command he led, and the
    commands above it in the chain (any keys the table's app gives them, the same for every leader); ``key``:
    how the app knows him."""

    name: str
    rank: LeaderRank
    command: str
    above: tuple[str, ...] = ()
    key: str = ""


@dataclass(frozen=True)
class ReplacementTurn:
    """One fallen leader in the order his side replaces them, with the fallen leaders below him in his chain
    of command that are replaced before him."""

    leader: FallenLeader
    waits_for: tuple[FallenLeader, ...] = ()

    @property
    def refusal(self) -> str:
        """Why he is not replaced yet, in the table's words; "" when he may be now."""
        if not self.waits_for:
            return ""
        *others, last = (f.name for f in self.waits_for)
        names = f"{', '.join(others)} and {last}" if others else last
        return (
            f"Replace {names} first: {self.leader.name}'s place goes to the best-rated leader next below him in "
            "play, and a leader below him who is hors de combat is back in play, or gone, only once replaced (2.5)"
        )


def replacement_order(fallen: "tuple[FallenLeader, ...] | list[FallenLeader]") -> tuple[ReplacementTurn, ...]:
    """The order the fallen leaders of a side are replaced in (2.5, R:578-587): from the bottom of the chain of
    command up. A corps leader's place goes to "the highest rated leader available who is ranked next in chain
    of command"; a division leader who fell with him is available only once he has returned (one rating
    lower), and a corps leader who fell with his army leader is gone only once his own successor is named. So
    every fallen leader below one in his chain is replaced before him, divisions first; within a rank the
    given order holds."""
    ordered = sorted(fallen, key=lambda f: -f.rank.level)
    return tuple(ReplacementTurn(f, tuple(o for o in ordered if o is not f and f.command in o.above)) for f in ordered)


MECHANICS = (
    Mechanic(
        "hors_de_combat",
        "4.7",
        "Leader loss check: 2D10, doubles only, modifiers on each die",
        HorsDeCombatInput,
        resolve_hors_de_combat,
    ),
    Mechanic(
        "leader_replacement",
        "2.5",
        "Return of a divisional leader or the successor of a fallen army, column or corps leader",
        LeaderReplacementInput,
        resolve_leader_replacement,
    ),
)
