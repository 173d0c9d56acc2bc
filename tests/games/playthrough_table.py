"""The players of the playthrough at the table: a test client that posts the game page's forms, one method a form,
always with the game's current version and with typed dice, and that holds each action to one recorded event;
and what the players check between actions: the position in the turn sequence, a row's values, and what the page
lists as still to do."""

import re

from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.pieces import Piece
from republic.rules.sequence import StepKey
from tests.games.conftest import HTMX, payload, summary

# --- the table: one helper per form of the game page ------------------------------------------------------


def _problems(html: str) -> str:
    """The error messages a page or fragment shows, to explain a failed action."""
    found = re.findall(r"(?:alert-danger[^>]*>|invalid-feedback[^>]*>\s*<p[^>]*><strong>)\s*([^<]+)", html)
    return " | ".join(text.strip() for text in found) or "(no message on the page)"


class Table:
    """The players: a test client posting the game page's forms, always with the game's current version."""

    def __init__(self, client, game: Game):
        self.client, self.game = client, game

    @property
    def version(self) -> int:
        self.game.refresh_from_db()
        return self.game.version

    def url(self, tail: str = "") -> str:
        return f"/games/{self.game.pk}/{tail}"

    def page(self) -> str:
        response = self.client.get(self.url())
        assert response.status_code == 200
        return response.content.decode()

    def post(self, tail: str, data: dict, htmx: bool = False, events: int = 1) -> Event:
        """One action: it must record exactly one event (``events``: a Next step passing idle steps records one a
        step) and answer as the app does, with the live fragment (drawn for the new version) over htmx, or a
        redirect to the game page for a plain POST; its last event is returned."""
        before = self.version
        response = self.client.post(self.url(tail), data, **(HTMX if htmx else {}))
        body = response.content.decode()
        if htmx:
            answered = response.status_code == 200 and body.lstrip().startswith('<div id="live"')
        else:
            answered = response.status_code == 302 and response["Location"] == self.url()
        if not answered or self.version != before + events:
            problems = _problems(body if response.status_code == 200 else self.page())
            raise AssertionError(
                f"POST {tail} answered {response.status_code} and recorded {self.version - before} event(s): {problems}"
            )
        if htmx:
            assert "<html" not in body
            assert f'name="version" value="{before + events}"' in body  # the fragment's forms carry the new version
        return self.game.events.get(seq=before + events)

    def form(self, tail: str, prefix: str, htmx: bool = False, dice: bool = False, **fields) -> Event:
        """Post a prefixed form; ``dice`` presses "Resolve" with the typed dice (never "Roll for me")."""
        data = {f"{prefix}-version": self.version, **{f"{prefix}-{name}": v for name, v in fields.items()}}
        if dice:
            data["roll"] = "typed"
        return self.post(tail, data, htmx)

    # walking the turn sequence

    def next_step(self, to: str, htmx: bool = False, passing: tuple[str, ...] = ()) -> Event:
        """Press Next step, landing at ``to``; ``passing``: the steps on the way that pass by themselves, nobody
        having anything to do in them, each by its own event."""
        event = self.post("next/", {"version": self.version}, htmx, events=1 + len(passing))
        assert event.kind == "StepAdvanced" and payload(event).to == StepKey(to), summary(event)
        assert [p.step for p in payload(event).by_itself] == [StepKey(step) for step in passing], summary(event)
        return event

    def next_step_refused(self, htmx: bool = True) -> str:
        """Press Next step while work is left: nothing changes and the page says what is still to do."""
        before, step = self.version, self.game.step
        response = self.client.post(self.url("next/"), {"version": before}, **(HTMX if htmx else {}))
        assert response.status_code == (200 if htmx else 302)
        body = response.content.decode() if htmx else self.page()
        assert self.version == before and self.game.step == step
        return " ".join(re.findall(r"(Not yet: [^<]+)", body))

    def undo(self, htmx: bool = False, events: int = 1) -> Event:
        """Undo the last action: a Next step that passed steps by itself is undone with them (``events``)."""
        event = self.post("undo/", {"version": self.version}, htmx, events)
        assert event.kind == "EventUndone"
        return event

    # command phase

    def rally(self, unit: Unit, die: int, distance: str = "0", htmx: bool = False) -> Event:
        return self.form(
            f"act/rally/unit-{unit.pk}/",
            f"rally-{unit.piece.name}",
            htmx,
            dice=True,
            die=die,
            division_leader_distance=distance,
        )

    def replace_leader(self, leader: Leader, htmx: bool = False, passes: int = 0) -> Event:
        """The leader replaced (its event returned); ``passes``: the steps that then pass by themselves, the last
        fallen leader replaced."""
        moved = self.post(f"act/replace-leader/leader-{leader.pk}/", {"version": self.version}, htmx, 1 + passes)
        return self.game.events.get(seq=moved.seq - passes)

    # maneuver phase

    def roll_maneuver(self, unit: Unit, die: int, htmx: bool = False, **fields) -> Event:
        return self.form(
            f"act/maneuver-roll/unit-{unit.pk}/", f"roll-{unit.piece.name}", htmx, dice=True, die=die, **fields
        )

    def mark_charge_bonus(self, unit: Unit, used: bool, htmx: bool = False) -> Event:
        return self.post(
            f"act/charge-bonus/unit-{unit.pk}/",
            {"version": self.version, "used": "1" if used else "0", "action": "advance"},
            htmx,
        )

    def set_skirmishers(self, unit: Unit, deployed: int, htmx: bool = False) -> Event:
        return self.form(f"act/skirmishers/unit-{unit.pk}/", f"skirmishers-{unit.piece.name}", htmx, deployed=deployed)

    def change_formation(self, unit: Unit, formation: str, htmx: bool = False) -> Event:
        return self.form(f"act/formation/unit-{unit.pk}/", f"formation-{unit.piece.name}", htmx, formation=formation)

    def use_battery_functions(self, battery: Unit, *functions: str, htmx: bool = False) -> Event:
        named = {f"function_{i}": f for i, f in enumerate(functions, start=1)}
        return self.form(
            f"act/battery-functions/unit-{battery.pk}/",
            f"functions-{battery.piece.name}",
            htmx,
            will_fire="on",
            **named,
        )

    # fire phase

    def declare_blocks(self, blocks: dict[Unit, Unit], htmx: bool = False) -> Event:
        """Each defending brigade's first marker tries to block the first marker of an attacking brigade."""
        fields = {f"block_{blocker.pk}_1": f"{target.key}#1" for blocker, target in blocks.items()}
        return self.form(f"act/declare-blocks/game-{self.game.pk}/", "skirmish-declare", htmx, **fields)

    def roll_blocks(self, *dice: int, htmx: bool = False) -> Event:
        return self.form(
            f"act/roll-blocks/game-{self.game.pk}/",
            "skirmish-rolls",
            htmx,
            dice=True,
            **{f"die_{i}": die for i, die in enumerate(dice)},
        )

    def skirmish_attack(self, unit: Unit, target, range_: str, die: int, htmx: bool = False) -> Event:
        return self.form(
            f"act/skirmish-attack/unit-{unit.pk}/",
            f"skirmish-{unit.piece.name}",
            htmx,
            dice=True,
            target=target.key,
            range=range_,
            die=die,
        )

    def fire_battery(self, battery: Unit, target, range_: str, die: int, htmx: bool = False) -> Event:
        return self.form(
            f"act/artillery-fire/unit-{battery.pk}/",
            f"fire-{battery.piece.name}",
            htmx,
            dice=True,
            target=target.key,
            range=range_,
            cover="none",
            die=die,
        )

    def save_fire(self, battery: Unit, htmx: bool = False) -> Event:
        return self.form(f"act/save-fire/unit-{battery.pk}/", f"save-{battery.piece.name}", htmx)

    def check_leader(self, leader: Leader, die: int, die2: int, base_hits: int, htmx: bool = False) -> Event:
        return self.form(
            f"act/check-leader/leader-{leader.pk}/",
            f"hdc-leader-{leader.pk}",
            htmx,
            dice=True,
            die=die,
            die2=die2,
            base_hits_within_4=base_hits,
        )

    def pass_leader_over(self, leader: Leader, htmx: bool = False) -> Event:
        return self.post(f"act/pass-over-leader/leader-{leader.pk}/", {"version": self.version}, htmx)

    def demoralized_panic_test(self, unit: Unit, htmx: bool = False) -> Event:
        return self.form(f"act/demoralized-panic-test/unit-{unit.pk}/", f"panic-{unit.piece.name}", htmx)

    # assault phase

    def declare_assault(self, attackers: dict, defenders: dict, htmx: bool = False) -> int:
        """Units with their contact ('all_out' or 'general'); the assault is known by its event's seq."""
        fields = {
            "attackers": [unit.key for unit in attackers],
            "defenders": [unit.key for unit in defenders],
            "general": [unit.key for unit, contact in (*attackers.items(), *defenders.items()) if contact == "general"],
        }
        return self.form(f"act/declare-assault/game-{self.game.pk}/", "declare", htmx, **fields).seq

    def resolve_round(
        self, seq: int, attacker_die: int, defender_die: int, attacker_leaders=(), htmx: bool = False
    ) -> Event:
        """One round in the open, defender struck in front; the attacker's E or P leaders within 2" ticked."""
        declared = payload(self.game.events.get(seq=seq))
        covers = {f"cover-{Piece.at(m.unit).name}": "none" for m in (*declared.attackers, *declared.defenders)}
        leaders = [str(lead.pk) for lead in attacker_leaders]
        return self.form(
            f"act/assault-round/assault-{seq}/",
            f"round-assault-{seq}",
            htmx,
            dice=True,
            die=attacker_die,
            die2=defender_die,
            struck="front",
            attacker_leaders=leaders,
            **covers,
        )

    def end_assault(self, seq: int, htmx: bool = False) -> Event:
        return self.post(f"act/end-assault/assault-{seq}/", {"version": self.version}, htmx)

    def apply_charge_disorder(self, htmx: bool = False) -> Event:
        return self.form(f"act/charge-disorder/game-{self.game.pk}/", "disorder", htmx)

    # panic phase

    def division_panic_test(self, division: Command, die: int, htmx: bool = False) -> Event:
        return self.form(
            f"act/panic-test/command-{division.pk}/", f"panic-command-{division.pk}", htmx, dice=True, die=die
        )

    def declare_adjoining(self, division: Command, adjoining: list[Command], htmx: bool = False) -> Event:
        return self.form(
            f"act/adjoining/command-{division.pk}/",
            f"adjoining-command-{division.pk}",
            htmx,
            adjoining=[str(d.pk) for d in adjoining],
        )


# --- the state ---------------------------------------------------------------------------------------------


def assert_position(game: Game, game_turn: int, player_turn: int, attacker: str, step: str = "messages") -> None:
    game.refresh_from_db()
    assert (game.game_turn, game.player_turn, game.step, game.attacker.name) == (game_turn, player_turn, step, attacker)


def assert_state(obj, **expected) -> None:
    """The row as it stands now has these values (``condition`` is the unit's condition word)."""
    obj.refresh_from_db()
    actual = {name: getattr(obj, name) for name in expected}
    assert actual == expected, f"{obj}: {actual} != {expected}"


def pending_text(table: Table) -> str:
    """What the game page lists as still to do before moving on ("" when nothing is), items joined by "; "."""
    found = re.search(r"left before moving on</strong></summary>\s*<ul[^>]*>(.*?)</ul>", table.page(), re.S)
    return "; ".join(re.findall(r"<li>([^<]+)</li>", found.group(1))) if found else ""
