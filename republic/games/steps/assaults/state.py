"""The assaults of this player turn, read from their events; what they make due and what waits is decided in
``republic.play.assault``.

An assault lives in its events, not in the state: AssaultDeclared names its units (primary defender first)
with their contact, each AssaultRoundResolved applies one round to the units, AssaultEnded closes it. An
assault is known by the sequence number of its declaration, so undoing the declaration takes it away.
"""

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from django.http import Http404

from republic.games.events.assault import AssaultDeclared, AssaultEnded, AssaultFollowedUp, AssaultRoundResolved
from republic.games.events.payload import payload_of
from republic.games.forms import Pick
from republic.games.ledger import ActionRefused, turn_events
from republic.games.models import Command, Event, Game, Leader, Unit, UnitChoice
from republic.games.models.battle import CHOICE_COLUMNS
from republic.games.pieces import Piece
from republic.games.readings import read_once, read_once_of
from republic.games.text.terms import unit_options
from republic.play import assault as play
from republic.prepared import prepared
from republic.rules.assault_sides import Contact
from republic.rules.sequence import StepKey

ELSEWHERE = "Assaults are declared in the assault step."


def in_play(unit: Unit) -> bool:
    return not unit.out_of_play and unit.bases > 0


@dataclass
class Member:
    unit: Unit
    contact: Contact

    @property
    def battery(self) -> bool:
        return self.unit.battery


@dataclass
class Assault:
    seq: int
    declared: AssaultDeclared
    attackers: list[Member]
    defenders: list[Member]
    rounds: list[AssaultRoundResolved] = field(default_factory=list)
    ended: AssaultEnded | None = None
    ended_event: Event | None = None

    @property
    def number(self) -> int:
        return self.declared.number

    @property
    def open(self) -> bool:
        return self.ended is None

    @property
    def members(self) -> list[Member]:
        return [*self.attackers, *self.defenders]

    @property
    def title(self) -> str:
        return f"{_names(self.attackers)} against {_names(self.defenders)}"

    @property
    def last(self) -> AssaultRoundResolved | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def core(self) -> play.Assault:
        """The assault as the game's decisions see it."""
        return play.Assault(
            self.seq,
            self.number,
            tuple(m.unit.key for m in self.attackers),
            tuple(m.unit.key for m in self.defenders),
            tuple(self.rounds),
            not self.open,
            (bool(self.playing("attacker")), bool(self.playing("defender"))),
            bool(self.last and self.last.conditions.stalled),
        )

    @property
    def contact_ended(self) -> str:
        return play.contact_ended(self.core)

    @property
    def bonus(self) -> bool:
        return play.bonus(self.core)

    def playing(self, side: str) -> list[Member]:
        return [m for m in (self.attackers if side == "attacker" else self.defenders) if in_play(m.unit)]


def _names(members: list[Member]) -> str:
    return ", ".join(m.unit.name for m in members)


@dataclass
class AssaultState:
    game: Game
    units: dict[str, Unit]  # the units of this turn's assaults
    assaults: list[Assault]
    follow_ups: list[AssaultFollowedUp] = field(default_factory=list)  # the attackers' moves recorded

    @cached_property
    def _in_action(self) -> dict[str, list[Leader]]:
        """Each side's leaders in action with their commands: read for a round's form, when it is drawn or sent,
        not for the step's page."""
        game = self.game
        return {
            side: list(
                Leader.objects.filter(game=game)
                .of_side(owner)
                .in_action()
                .select_related("command")
                .order_by("command__order", "pk")
            )
            for side, owner in (("attacker", game.attacker), ("defender", game.defender))
        }

    @cached_property
    def leaders(self) -> dict[str, list[Leader]]:
        """Each side's energetic and proficient leaders in action: those that add to a round (5.4)."""
        return {side: [lead for lead in found if lead.adds] for side, found in self._in_action.items()}

    def near(self, assault: Assault) -> dict[str, set[int]]:
        """Each side's leaders of the commands its units in the assault belong to, up the chain: those a player
        looks for first. Any other leader of the side within 2" adds as well ("Leader does not have to be within
        the brigade's direct chain of command", R:672), so the form offers them too, one tap further."""
        near: dict[str, set[int]] = {}
        for side, members in (("attacker", assault.attackers), ("defender", assault.defenders)):
            # a command's parent is read off its leader: a command without one ends the climb
            parent = {lead.command_id: lead.command.parent_id for lead in self._in_action[side]}
            chain: set[int] = set()
            for member in members:
                at: int | None = member.unit.division_id
                while at is not None and at not in chain:
                    chain.add(at)
                    at = parent.get(at)
            near[side] = {lead.pk for lead in self.leaders[side] if lead.command_id in chain}
        return near

    @property
    def cores(self) -> list[play.Assault]:
        return [a.core for a in self.assaults]

    def _by_seq(self, found: dict[str, play.Assault]) -> dict[str, Assault]:
        assaults = {a.seq: a for a in self.assaults}
        return {key: assaults[core.seq] for key, core in found.items()}

    def open(self) -> list[Assault]:
        """The assaults still open: each is work left until it ends."""
        seqs = {core.seq for core in play.open_assaults(self.cores)}
        return [a for a in self.assaults if a.seq in seqs]

    def busy(self) -> dict[str, Assault]:
        """Units in an open assault, with it: a unit is in one open assault, unless it is split (``bridged``)."""
        return self._by_seq(play.busy(self.cores))

    def bridged(self, assault: Assault) -> dict[str, Assault]:
        """The attackers of this assault split as a bridging formation (5.2), each with its other assault."""
        return self._by_seq(play.bridged(self.cores, assault.core))

    def side_units(self, side: str) -> tuple[UnitChoice, ...]:
        """A side's units not out of play, in the order of battle: those an assault may name."""
        return self._side(side).units

    def side_picks(self, side: str) -> tuple[Pick, ...]:
        """The same units as a player chooses them (``side_units``, one for one)."""
        return self._side(side).picks

    def _side(self, side: str) -> "Choosable":
        owner = self.game.attacker if side == "attacker" else self.game.defender
        return choosable(self.game).get(owner.pk, NONE) if owner else NONE

    def waits(self, assault: Assault) -> str:
        return play.waits(self.cores, assault.core)

    def overrun_waits(self, assault: Assault) -> str:
        return play.overrun_waits(self.cores, assault.core)

    def find(self, seq: int) -> Assault:
        """The assault declared by event ``seq``, refused when it is not one of this player turn's."""
        assault = next((a for a in self.assaults if a.seq == seq), None)
        if assault is None:
            raise ActionRefused("That assault is not one of this player turn's.")
        return assault


@read_once
def state(game: Game) -> AssaultState:
    events = [
        (event, payload_of(event))
        for event in turn_events(
            game, [StepKey.ASSAULTS], [AssaultDeclared, AssaultRoundResolved, AssaultEnded, AssaultFollowedUp]
        )
    ]
    # the units of this turn's assaults, not the whole battle
    named = [m.unit for _, p in events if isinstance(p, AssaultDeclared) for m in (*p.attackers, *p.defenders)]
    units = {
        u.key: u for u in Unit.objects.filter(game=game, pk__in=[Piece.at(key).pk for key in named]).in_battle_order()
    }
    found: dict[int, Assault] = {}
    for event, payload in events:
        if isinstance(payload, AssaultDeclared):
            sides = [
                [Member(units[m.unit], m.contact) for m in members if m.unit in units]
                for members in (payload.attackers, payload.defenders)
            ]
            found[event.seq] = Assault(event.seq, payload, sides[0], sides[1])
        elif isinstance(payload, AssaultRoundResolved) and payload.assault in found:
            found[payload.assault].rounds.append(payload)
        elif isinstance(payload, AssaultEnded) and payload.assault in found:
            found[payload.assault].ended = payload
            found[payload.assault].ended_event = event
    follow_ups = [p for _, p in events if isinstance(p, AssaultFollowedUp)]
    return AssaultState(game, units, list(found.values()), follow_ups)


def declared_in(game: Game, seq: int) -> None:
    """404 unless event ``seq`` of this game declared an assault."""
    if not Event.objects.filter(game=game, seq=seq, kind=AssaultDeclared.__name__).exists():
        raise Http404("No such assault in this game.")


@dataclass(frozen=True)
class Choosable:
    """A side's units not out of play, in the order of battle, and the same as a player chooses them: made when
    first asked for (the supporting hit offers the defender's alone)."""

    units: tuple[UnitChoice, ...]

    @cached_property
    def picks(self) -> tuple[Pick, ...]:
        return tuple(map(Pick._make, unit_options(self.units)))


NONE = Choosable(())


@read_once_of(Unit, Command)
def choosable(game: Game) -> dict[int, Choosable]:
    """Each side's units an assault may name (by the side's id): read once for the declaration, the supporting
    hit, the follow-up and the passage of lines, whose forms a club battle draws for forty phones, each listing a
    side's 500 units. It reads each unit's division too (its name, its side): a division corrected reads it again."""
    by_side: dict[int, list[UnitChoice]] = {}
    # read as the database gives them, its SQL made once per process: Django's conversion of a club battle's 10,000
    # values cost half the query again
    for row in _CHOOSABLE.rows(game.pk):
        by_side.setdefault(row[0], []).append(_choice(row))
    return {side: Choosable(tuple(found)) for side, found in by_side.items()}


@lru_cache(maxsize=16_384)
def _choice(row: tuple[Any, ...]) -> UnitChoice:
    """A unit as a choice, from its row: made once for each way a unit stands in a server process (at every version
    a club battle's 1,000 units are the same but for the few that changed)."""
    _side, pk, name, division, kind, battery_type, packed, *rest = row
    return UnitChoice(pk, name, division, kind, battery_type, bool(packed), *rest)


_CHOOSABLE = prepared(
    lambda game: (
        Unit.objects.filter(game=game).in_play().in_battle_order().values_list("division__side_id", *CHOICE_COLUMNS)
    )
)
