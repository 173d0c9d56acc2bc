"""The battle report, read off the setup and the events: the state is the setup plus the events' changes (see
ledger.py), so one walk through the events in order, applying each event's changes to a copy of the setup in
memory, gives the state at the end of every player turn and when each fall, rout, panic and assault happened,
with three queries whatever the battle's size and length.

The end of a player turn is the state just before the event that leaves it: that event clears what lasts one
player turn (1.7), the rout of a brigade among it. A game taken back to an earlier turn drops the ends recorded
after it, so a turn played twice is counted as it was played the last time. What is listed (falls, routs, panics,
assaults) is read from the events still in force; undone ones and the undo events themselves are not listed, but
their changes are applied, as they are what the state went through."""

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from republic.games.events.assault import AssaultDeclared, AssaultEnded, AssaultRoundResolved
from republic.games.events.command import LeaderReplaced
from republic.games.events.panic import DivisionPanicTested
from republic.games.events.payload import Payload, payload_of
from republic.games.models import Event, Game, setup_of
from republic.games.pieces import Piece
from republic.games.text import report_words as said
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import condition_for
from republic.rules.troops import Leader as LeaderValue
from republic.rules.troops import LeaderClass, UnitKind

# the kinds whose payloads the report reads; the others are read for their changes alone
READ_KINDS = tuple(
    k.__name__ for k in (AssaultDeclared, AssaultRoundResolved, AssaultEnded, DivisionPanicTested, LeaderReplaced)
)
ROUT = ForcedMove.ROUT.value
State = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Strength:
    """One side at one moment: its brigades' bases in play, its brigades by state, its batteries in play."""

    bases: int
    brigades: dict[str, int]  # by report_words.BRIGADE_STATES
    routed: int  # brigades whose forced move of the player turn is a rout
    batteries: int


@dataclass(frozen=True)
class Moment:
    label: str  # 'Game turn 1, Confederate turn, at its end'
    short: str  # the chart's axis label: '1·1'
    whose: str  # the side attacking in that player turn ('' for the start)
    sides: tuple[Strength, ...]  # in the order of report.sides


@dataclass
class DivisionLosses:
    side: str
    name: str
    bases_start: int = 0
    bases_lost: int = 0
    routed: set[int] = field(default_factory=set)
    destroyed: int = 0
    surrendered: int = 0
    batteries: int = 0
    batteries_lost: int = 0


@dataclass(frozen=True)
class LeaderLost:
    name: str
    value: str
    command: str
    side: str
    when: str
    game_turn: int
    player_turn: int
    fate: str


@dataclass(frozen=True)
class Rout:
    unit: str
    division: str
    side: str
    when: str
    cause: str


@dataclass(frozen=True)
class Panic:
    division: str
    side: str
    when: str
    test: str
    result: str
    panicked: bool


@dataclass
class Assault:
    number: int  # counted afresh each player turn, as the table calls it
    turn: str
    attackers: str
    defenders: str
    attacking_bases: int
    defending_bases: int
    rounds: list[AssaultRoundResolved] = field(default_factory=list)
    ended: bool = False

    @property
    def bases(self) -> int:
        return self.attacking_bases + self.defending_bases

    @property
    def outcome(self) -> str:
        return said.assault_outcome(self.rounds, self.ended)


@dataclass(frozen=True)
class ObjectiveHeld:
    """An objective the scenario names: who holds it now, who held it at the start, and each change of hands."""

    name: str
    holder: str  # a side's name; "" for no one
    at_start: str
    changes: tuple[tuple[str, str], ...]  # (when, the side holding it after; "" for no one)


@dataclass(frozen=True)
class BattleReport:
    sides: tuple[str, ...]
    moments: tuple[Moment, ...]
    divisions: tuple[DivisionLosses, ...]
    leaders: tuple[LeaderLost, ...]
    routs: tuple[Rout, ...]
    panics: tuple[Panic, ...]
    assaults: tuple[Assault, ...]  # the largest first, by bases engaged
    events: int
    objectives: tuple[ObjectiveHeld, ...] = ()


def read(game: Game) -> BattleReport:
    """The report of a game as it stands: three queries (its setup, its events' changes, the payloads it reads)."""
    setup: State = setup_of(game)
    rows = list(
        Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("pk", "seq", "kind", "game_turn", "player_turn", "step", "changes", "undoes_id")
    )
    undone = {row[7] for row in rows if row[7] is not None}
    standing = {row[0] for row in rows if row[7] is None and row[0] not in undone}
    payloads: dict[int, Payload] = {
        pk: payload_of(_Stored(kind, data))
        for pk, kind, data in Event.objects.filter(game=game, kind__in=READ_KINDS)
        .order_by()
        .values_list("pk", "kind", "payload")
        if pk in standing
    }
    walk = _Walk(game, setup)
    for pk, seq, kind, game_turn, player_turn, step, changes, _undoes in rows:
        walk.event(seq, pk in standing, kind, payloads.get(pk), (game_turn, player_turn, step), changes)
    return walk.report(len(rows))


@dataclass
class _Stored:
    kind: str
    payload: Any


class _Walk:
    def __init__(self, game: Game, setup: State):
        self.state: State = {key: dict(values) for key, values in setup.items()}
        self.game_key = Piece("game", game.pk).key
        self.sides = sorted(
            ((piece.pk, v) for k, v in self.state.items() if (piece := Piece.named(k, "side"))),
            key=lambda s: (s[1]["order"], s[0]),
        )
        self.side_index = {pk: i for i, (pk, _) in enumerate(self.sides)}
        self.start = self.strengths()
        self.ends: dict[tuple[int, int], tuple[Strength, ...]] = {}
        self.lost: Counter[int] = Counter()  # bases lost, by division
        self.routed: dict[int, set[int]] = {}  # the brigades that routed, by division
        self.leaders: list[tuple[int, LeaderLost]] = []
        self.replaced: dict[int, LeaderReplaced] = {}
        self.routs: list[Rout] = []
        self.panics: list[Panic] = []
        self.assaults: dict[int, Assault] = {}
        self.played: set[tuple[int, int]] = set()  # the player turns with events in force
        self.held_at_start = {
            k: self.side_name(v.get("holder_id")) for k, v in self.state.items() if k.startswith("objective:")
        }
        self.changed_hands: dict[str, list[tuple[str, str]]] = {}

    # --- reading the state ---------------------------------------------------------------------------

    @property
    def position(self) -> tuple[int, int]:
        game = self.state[self.game_key]
        return int(game["game_turn"]), int(game["player_turn"])

    def row(self, model: str, pk: Any) -> dict[str, Any]:
        return self.state.get(Piece(model, pk).key, {})

    def side_name(self, side_id: Any) -> str:
        return str(self.row("side", side_id).get("name", ""))

    def attacking(self, player_turn: int) -> str:
        """The side attacking in a player turn: the first attacker in the first, the other in the second."""
        first = self.state[self.game_key].get("first_attacker_id")
        if first is None:
            return ""
        names = [v["name"] for pk, v in self.sides if (pk == first) == (player_turn == 1)]
        return str(names[0]) if names else ""

    def when(self, place: tuple[int, int, str]) -> str:
        game_turn, player_turn, step = place
        return said.when(game_turn, player_turn, self.attacking(player_turn), step)

    def division_of(self, unit: dict[str, Any]) -> dict[str, Any]:
        return self.row("command", unit.get("division_id"))

    def strengths(self) -> tuple[Strength, ...]:
        bases = [0] * len(self.sides)
        batteries = [0] * len(self.sides)
        routed = [0] * len(self.sides)
        brigades: list[Counter[str]] = [Counter() for _ in self.sides]
        for key, unit in self.state.items():
            if not key.startswith("unit:"):
                continue
            index = self.side_index.get(int(self.division_of(unit).get("side_id") or 0))
            if index is None:
                continue
            in_play = not (unit["destroyed"] or unit["surrendered"] or unit["abandoned"])
            if unit["kind"] == UnitKind.ARTILLERY:
                batteries[index] += in_play
                continue
            brigades[index][_brigade_state(unit, in_play)] += 1
            bases[index] += unit["bases"] if in_play else 0
            routed[index] += unit["forced_move"] == ROUT
        return tuple(
            Strength(bases[i], {s: brigades[i][s] for s in said.BRIGADE_STATES}, routed[i], batteries[i])
            for i in range(len(self.sides))
        )

    # --- one event ---------------------------------------------------------------------------------

    def event(
        self,
        seq: int,
        standing: bool,
        kind: str,
        payload: Payload | None,
        place: tuple[int, int, str],
        changes: list[Any],
    ) -> None:
        before = self.position
        left: tuple[Strength, ...] = ()
        if any(c["model"] == "game" and c["field"] in ("game_turn", "player_turn") for c in changes):
            left = self.strengths()
        for change in changes:
            self.change(standing, kind, payload, place, change)
        after = self.position
        if after != before:
            self.ends = {turn: found for turn, found in self.ends.items() if turn < after}
            if after > before:
                self.ends[before] = left
        if standing:
            self.read_payload(seq, payload, place)
            self.played.add(place[:2])

    def change(
        self, standing: bool, kind: str, payload: Payload | None, place: tuple[int, int, str], change: dict[str, Any]
    ) -> None:
        row = self.state.setdefault(f"{change['model']}:{change['id']}", {})
        name, after = change["field"], change["after"]
        if change["model"] == "unit":
            if name == "bases" and row.get("kind") != UnitKind.ARTILLERY:
                self.lost[row.get("division_id", 0)] += change["before"] - after
            elif name == "forced_move" and after == ROUT and change["before"] != ROUT and standing:
                division = self.division_of(row)
                if row.get("kind") != UnitKind.ARTILLERY:  # a division's batteries rout with it, but are no brigades
                    self.routed.setdefault(row.get("division_id", 0), set()).add(change["id"])
                side = self.side_name(division.get("side_id"))
                self.routs.append(
                    Rout(row["name"], division.get("name", ""), side, self.when(place), said.rout_cause(kind, payload))
                )
        elif change["model"] == "objective" and name == "holder_id" and standing:
            taken = (self.when(place), self.side_name(after))
            self.changed_hands.setdefault(Piece("objective", change["id"]).key, []).append(taken)
        elif change["model"] == "leader" and name == "hors_de_combat" and after and standing:
            command = self.row("command", row.get("command_id"))
            game_turn, player_turn, _ = place
            value = str(LeaderValue(LeaderClass(row["leader_class"]), row["rating"]))
            side = self.side_name(command.get("side_id"))
            found = LeaderLost(
                row["name"], value, command.get("name", ""), side, self.when(place), game_turn, player_turn, ""
            )
            self.leaders.append((change["id"], found))
        row[name] = after

    def read_payload(self, seq: int, payload: Payload | None, place: tuple[int, int, str]) -> None:
        if isinstance(payload, LeaderReplaced):
            self.replaced[payload.leader] = payload
        elif isinstance(payload, DivisionPanicTested):
            division = self.row("command", payload.division)
            self.panics.append(
                Panic(
                    payload.name,
                    self.side_name(division.get("side_id")),
                    self.when(place),
                    said.panic_test(payload, place[2]),
                    said.division_panic(payload),
                    not payload.result.held,
                )
            )
        elif isinstance(payload, AssaultDeclared):
            # an assault is known by its declaration's sequence number: its number is counted afresh each turn
            self.assaults[seq] = Assault(
                payload.number,
                said.moment(place[0], place[1], self.attacking(place[1])),
                ", ".join(m.name for m in payload.attackers),
                ", ".join(m.name for m in payload.defenders),
                sum(self.state.get(m.unit, {}).get("bases", 0) for m in payload.attackers),
                sum(self.state.get(m.unit, {}).get("bases", 0) for m in payload.defenders),
            )
        elif isinstance(payload, AssaultRoundResolved) and payload.assault in self.assaults:
            self.assaults[payload.assault].rounds.append(payload)
        elif isinstance(payload, AssaultEnded) and payload.assault in self.assaults:
            self.assaults[payload.assault].ended = True

    # --- the report --------------------------------------------------------------------------------

    def report(self, events: int) -> BattleReport:
        return BattleReport(
            sides=tuple(str(v["name"]) for _, v in self.sides),
            moments=tuple(self.moments()),
            divisions=tuple(self.divisions()),
            leaders=tuple(self.fallen()),
            routs=tuple(self.routs),
            panics=tuple(self.panics),
            assaults=tuple(sorted(self.assaults.values(), key=lambda a: -a.bases)),
            events=events,
            objectives=tuple(self.objectives()),
        )

    def objectives(self) -> list[ObjectiveHeld]:
        found = sorted((row["order"], key, row) for key, row in self.state.items() if key.startswith("objective:"))
        return [
            ObjectiveHeld(
                str(row["name"]),
                self.side_name(row.get("holder_id")),
                self.held_at_start.get(key, ""),
                tuple(self.changed_hands.get(key, [])),
            )
            for _, key, row in found
        ]

    def moments(self) -> list[Moment]:
        found = [Moment("At the start", "Start", "", self.start)]
        for (game_turn, player_turn), strengths in sorted(self.ends.items()):
            whose = self.attacking(player_turn)
            label = f"{said.moment(game_turn, player_turn, whose)}, at its end"
            found.append(Moment(label, said.short_moment(game_turn, player_turn), whose, strengths))
        game = self.state[self.game_key]
        over = game.get("status") == Game.Status.FINISHED
        # the turn the game is in, once something happened in it
        if over or self.position in self.played:
            game_turn, player_turn = self.position
            whose = self.attacking(player_turn)
            turn = said.moment(game_turn, player_turn, whose)
            label = f"{turn}, when the game ended" if over else f"{turn}, so far"
            found.append(Moment(label, "End" if over else "Now", whose, self.strengths()))
        return found

    def divisions(self) -> list[DivisionLosses]:
        found: dict[int, DivisionLosses] = {}
        commands = [(piece.pk, v) for k, v in self.state.items() if (piece := Piece.named(k, "command"))]
        for pk, command in sorted(commands, key=lambda c: (self.side_index.get(c[1]["side_id"], 0), c[1]["order"])):
            if command["level"] == "division":
                found[pk] = DivisionLosses(self.side_name(command["side_id"]), command["name"])
        for key, unit in self.state.items():
            losses = found.get(unit.get("division_id", 0)) if key.startswith("unit:") else None
            if losses is None:
                continue
            if unit["kind"] == UnitKind.ARTILLERY:
                losses.batteries += 1
                losses.batteries_lost += bool(unit["destroyed"] or unit["surrendered"] or unit["abandoned"])
            else:
                in_play = not (unit["destroyed"] or unit["surrendered"] or unit["abandoned"])
                losses.bases_start += unit["bases_start"]
                losses.destroyed += _brigade_state(unit, in_play) == said.DESTROYED
                losses.surrendered += _brigade_state(unit, in_play) == said.SURRENDERED
        for pk, lost in self.lost.items():
            if pk in found:
                found[pk].bases_lost = lost
        for pk, routed in self.routed.items():
            if pk in found:
                found[pk].routed = routed
        return list(found.values())

    def fallen(self) -> list[LeaderLost]:
        found = []
        for pk, lost in self.leaders:
            out = bool(self.row("leader", pk).get("hors_de_combat"))
            fate = said.leader_fate(self.replaced.get(pk), out)
            found.append(replace(lost, fate=fate))
        return found


def _brigade_state(unit: dict[str, Any], in_play: bool) -> str:
    if unit["surrendered"]:
        return said.SURRENDERED
    if unit["destroyed"] or not in_play or not unit["bases"]:
        return said.DESTROYED
    return condition_for(unit["m_hits"]).value
