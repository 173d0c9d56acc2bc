"""A whole game at the table: the demo battle (Gettysburg, the morning of July 1) played through two full game turns,
four player turns, by posting the game page's own forms with typed dice, as players would.

Each player turn walks every step with "Next step" and uses the phases' forms; the dice are chosen so that every
phase does something. After each player turn the position and the units are checked against what the dice and
the shipped chart (republic/charts/republic-1.0-provisional.yaml) give; the arithmetic is in the comments. At the
end the state must equal the setup plus the events, and undoing the last events must give back the state before
them.

The story: Confederate turn 1, Davis's skirmishers and Pegram's rifles hit the Union line, Wadsworth falls, Davis
assaults Cutler's Brigade and drives it back with a Panic 4 event; Wadsworth's Division holds. Union turn 1,
Cutler rallies no better, Wadsworth returns one rating lower, the Iron Brigade's assault on Archer is thrown back.
Confederate turn 2, Pegram's Napoleons fire into the demoralized Cutler's Brigade: its demoralized panic test is a
second Panic 4 event, Wadsworth's Division panics and Buford's, adjoining it, holds. Union turn 2, the Union
rallies and Calef's horse battery fires.
"""

import re

from republic.games.events import LabelledRoll
from republic.games.ledger import snapshot
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.text.terms import ACTION_ORDER
from republic.rules.artillery import ArtilleryFireInput, resolve_artillery_fire
from republic.rules.dice import Roll
from republic.rules.fire_results import FireHits
from republic.rules.hits import Hits
from republic.rules.rally import RallyInput, resolve_rally
from republic.rules.sequence import StepKey
from republic.rules.troops import BatteryType, Grade
from republic.rules.troops import Leader as LeaderValue
from tests.games.conftest import brigade, payload, state_matches_events, summary

HTMX = {"HTTP_HX_REQUEST": "true"}


# --- the table: one helper per form of the game page ------------------------------------------------------


def _problems(html: str) -> str:
    """The error messages a page or fragment shows, to explain a failed action."""
    found = re.findall(r"(?:alert-danger[^>]*>|invalid-feedback[^>]*>\s*<p[^>]*><strong>)\s*([^<]+)", html)
    return " | ".join(text.strip() for text in found) or "(no message on the page)"


def _slot(unit: Unit) -> str:
    return unit.slot


def allowed(event: Event) -> list[str]:
    """The actions a maneuver roll allows, in the rules' order."""
    actions = payload(event).result.actions
    return [a.value for a in ACTION_ORDER if a in actions]


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

    def post(self, tail: str, data: dict, htmx: bool = False) -> Event:
        """One action: it must record exactly one event and answer as the app does, with the live fragment
        (drawn for the new version) over htmx, or a redirect to the game page for a plain POST."""
        before = self.version
        response = self.client.post(self.url(tail), data, **(HTMX if htmx else {}))
        body = response.content.decode()
        if htmx:
            answered = response.status_code == 200 and body.lstrip().startswith('<div id="live"')
        else:
            answered = response.status_code == 302 and response["Location"] == self.url()
        if not answered or self.version != before + 1:
            problems = _problems(body if response.status_code == 200 else self.page())
            raise AssertionError(
                f"POST {tail} answered {response.status_code} and recorded {self.version - before} event(s): {problems}"
            )
        if htmx:
            assert "<html" not in body
            assert f'name="version" value="{before + 1}"' in body  # the fragment's forms carry the new version
        return self.game.events.get(seq=before + 1)

    def form(self, tail: str, prefix: str, htmx: bool = False, dice: bool = False, **fields) -> Event:
        """Post a prefixed form; ``dice`` presses "Resolve" with the typed dice (never "Roll for me")."""
        data = {f"{prefix}-version": self.version, **{f"{prefix}-{name}": v for name, v in fields.items()}}
        if dice:
            data["roll"] = "typed"
        return self.post(tail, data, htmx)

    # walking the turn sequence

    def next_step(self, to: str, htmx: bool = False) -> Event:
        event = self.post("next/", {"version": self.version}, htmx)
        assert event.kind == "StepAdvanced" and payload(event).to == StepKey(to), summary(event)
        return event

    def next_step_refused(self, htmx: bool = True) -> str:
        """Press Next step while work is left: nothing changes and the page says what is still to do."""
        before, step = self.version, self.game.step
        response = self.client.post(self.url("next/"), {"version": before}, **(HTMX if htmx else {}))
        assert response.status_code == (200 if htmx else 302)
        body = response.content.decode() if htmx else self.page()
        assert self.version == before and self.game.step == step
        return " ".join(re.findall(r"(Not yet: [^<]+)", body))

    def undo(self, htmx: bool = False) -> Event:
        event = self.post("undo/", {"version": self.version}, htmx)
        assert event.kind == "EventUndone"
        return event

    # command phase

    def rally(self, unit: Unit, die: int, distance: str = "0", htmx: bool = False) -> Event:
        return self.form(
            f"rally/{unit.pk}/", f"rally-{unit.key}", htmx, dice=True, die=die, division_leader_distance=distance
        )

    def replace_leader(self, leader: Leader, htmx: bool = False) -> Event:
        return self.post(f"replace/{leader.pk}/", {"version": self.version}, htmx)

    # maneuver phase

    def roll_maneuver(self, unit: Unit, die: int, htmx: bool = False, **fields) -> Event:
        return self.form(f"maneuver/roll/{unit.pk}/", f"roll-{unit.key}", htmx, dice=True, die=die, **fields)

    def mark_charge_bonus(self, unit: Unit, used: bool, htmx: bool = False) -> Event:
        return self.post(f"maneuver/charge/{unit.pk}/", {"version": self.version, "used": "1" if used else "0"}, htmx)

    def set_skirmishers(self, unit: Unit, deployed: int, htmx: bool = False) -> Event:
        return self.form(f"maneuver/skirmishers/{unit.pk}/", f"skirmishers-{unit.key}", htmx, deployed=deployed)

    def change_formation(self, unit: Unit, formation: str, htmx: bool = False) -> Event:
        return self.form(f"maneuver/formation/{unit.pk}/", f"formation-{unit.key}", htmx, formation=formation)

    def use_battery_functions(self, battery: Unit, *functions: str, htmx: bool = False) -> Event:
        named = {f"function_{i}": f for i, f in enumerate(functions, start=1)}
        return self.form(f"maneuver/battery/{battery.pk}/", f"functions-{battery.key}", htmx, will_fire="on", **named)

    # fire phase

    def declare_blocks(self, blocks: dict[Unit, Unit], htmx: bool = False) -> Event:
        """Each defending brigade's first marker tries to block the first marker of an attacking brigade."""
        fields = {f"block_{blocker.pk}_1": f"{target.key}#1" for blocker, target in blocks.items()}
        return self.form("fire/skirmish/declare/", "skirmish-declare", htmx, **fields)

    def roll_blocks(self, *dice: int, htmx: bool = False) -> Event:
        return self.form(
            "fire/skirmish/blocks/",
            "skirmish-rolls",
            htmx,
            dice=True,
            **{f"die_{i}": die for i, die in enumerate(dice)},
        )

    def skirmish_attack(self, unit: Unit, target, range_: str, die: int, htmx: bool = False) -> Event:
        return self.form(
            f"fire/skirmish/{unit.pk}/",
            f"skirmish-{unit.key}",
            htmx,
            dice=True,
            target=target.key,
            range=range_,
            die=die,
        )

    def fire_battery(self, battery: Unit, target, range_: str, die: int, htmx: bool = False) -> Event:
        return self.form(
            f"fire/artillery/{battery.pk}/",
            f"fire-{battery.key}",
            htmx,
            dice=True,
            target=target.key,
            range=range_,
            cover="none",
            die=die,
        )

    def save_fire(self, battery: Unit, htmx: bool = False) -> Event:
        return self.form(f"fire/artillery/{battery.pk}/save/", f"save-{battery.key}", htmx)

    def check_leader(self, leader: Leader, die: int, die2: int, base_hits: int, htmx: bool = False) -> Event:
        return self.form(
            f"hors-de-combat/{leader.pk}/",
            f"hdc-leader:{leader.pk}",
            htmx,
            dice=True,
            die=die,
            die2=die2,
            base_hits_within_4=base_hits,
        )

    def pass_leader_over(self, leader: Leader, htmx: bool = False) -> Event:
        return self.post(f"hors-de-combat/{leader.pk}/skip/", {"version": self.version}, htmx)

    def demoralized_panic_test(self, unit: Unit, htmx: bool = False) -> Event:
        return self.form(f"fire/panic/{unit.pk}/", f"panic-{unit.key}", htmx)

    # assault phase

    def declare_assault(self, attackers: dict, defenders: dict, htmx: bool = False) -> int:
        """Units with their contact ('all_out' or 'general'); the assault is known by its event's seq."""
        fields = {
            **{f"a-{_slot(u)}": c for u, c in attackers.items()},
            **{f"d-{_slot(u)}": c for u, c in defenders.items()},
        }
        return self.form("assault/declare/", "declare", htmx, **fields).seq

    def resolve_round(
        self, seq: int, attacker_die: int, defender_die: int, attacker_leaders=(), htmx: bool = False
    ) -> Event:
        """One round in the open, defender struck in front; the attacker's E or P leaders within 2" ticked."""
        declared = payload(self.game.events.get(seq=seq))
        covers = {f"cover-{m.unit.replace(':', '_')}": "none" for m in (*declared.attackers, *declared.defenders)}
        leaders = [str(lead.pk) for lead in attacker_leaders]
        return self.form(
            f"assault/{seq}/round/",
            f"round-{seq}",
            htmx,
            dice=True,
            die=attacker_die,
            die2=defender_die,
            struck="front",
            attacker_leaders=leaders,
            **covers,
        )

    def end_assault(self, seq: int, htmx: bool = False) -> Event:
        return self.post(f"assault/{seq}/end/", {"version": self.version}, htmx)

    def apply_charge_disorder(self, htmx: bool = False) -> Event:
        return self.form("assault/disorder/", "disorder", htmx)

    # panic phase

    def division_panic_test(self, division: Command, die: int, htmx: bool = False) -> Event:
        return self.form(f"panic/test/{division.pk}/", f"panic-{division.pk}", htmx, dice=True, die=die)

    def declare_adjoining(self, division: Command, adjoining: list[Command], htmx: bool = False) -> Event:
        return self.form(
            f"panic/adjoining/{division.pk}/",
            f"adjoining-{division.pk}",
            htmx,
            adjoining=[str(d.pk) for d in adjoining],
        )


# --- the state ---------------------------------------------------------------------------------------------


def battery(game: Game, name: str) -> Unit:
    return Unit.objects.get(game=game, name=name)


def leader(game: Game, name: str) -> Leader:
    return Leader.objects.get(game=game, name=name)


def division(game: Game, name: str) -> Command:
    return Command.objects.get(game=game, name=name)


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
    found = re.search(r"Still to do before moving on:</strong>\s*<ul[^>]*>(.*?)</ul>", table.page(), re.S)
    return "; ".join(re.findall(r"<li>([^<]+)</li>", found.group(1))) if found else ""


# --- the four player turns ---------------------------------------------------------------------------------


def confederate_turn_1(t: Table) -> None:
    game = t.game
    davis, pettigrew, cutler = (
        brigade(game, n) for n in ("Davis's Brigade", "Pettigrew's Brigade", "Cutler's Brigade")
    )
    iron = brigade(game, "Iron Brigade (Meredith)")
    rifles, calef = battery(game, "Pegram's Battalion (rifles)"), battery(game, "2nd U.S., Battery A (Calef)")
    heth, hill = leader(game, "Henry Heth"), leader(game, "A. P. Hill")
    wadsworth, reynolds = leader(game, "James S. Wadsworth"), leader(game, "John F. Reynolds")
    wadsworths = division(game, "Wadsworth's Division")
    assert_position(game, 1, 1, "Confederate")

    # command: nobody has M hits and no leader has fallen yet, so both steps are empty
    t.next_step("rally")
    assert "Every attacking unit with morale hits has rolled its rally." in t.page()
    t.next_step("replace_leaders", htmx=True)
    assert "No attacking leader is hors de combat." in t.page()
    t.next_step("move")

    # maneuver: Davis (Average) rolls 4, +1 for Heth, an Energetic division commander: 5 reaches Average assault 5
    roll = t.roll_maneuver(davis, die=4)
    assert roll.kind == "ManeuverRolled" and payload(roll).rolls() == (LabelledRoll("maneuver", Roll((4,))),)
    assert payload(roll).result.modified_roll == 5
    assert allowed(roll) == ["assault", "maneuver", "advance", "hold", "pull_back"]
    # the charge bonus toggle: used, taken back, used again
    assert t.mark_charge_bonus(davis, used=True, htmx=True).kind == "ChargeBonusUsed"
    assert t.mark_charge_bonus(davis, used=False).kind == "ChargeBonusCleared"
    assert_state(davis, charge_bonus_used=False)
    t.mark_charge_bonus(davis, used=True, htmx=True)
    t.set_skirmishers(davis, 2)
    t.change_formation(pettigrew, "brigade_column", htmx=True)
    functions = t.use_battery_functions(rifles, "prolong")
    assert functions.kind == "BatteryFunctionsUsed" and "1 of 2 functions, one kept to fire" in summary(functions)
    assert_state(davis, charge_bonus_used=True, skirmishers_deployed=2, formation="two_line")
    assert_state(pettigrew, formation="brigade_column")
    assert_state(rifles, functions_used=["prolong"], limbered=False)
    t.next_step("skirmish")

    # skirmish: the Union has no markers out, so no blocks; Davis's markers (Average reads Veteran) need 8 at 2"
    assert "Davis&#x27;s Brigade</strong>: 2 markers to fire" in t.page()
    attack = t.skirmish_attack(davis, iron, "1", die=8, htmx=True)
    assert payload(attack).hits == (FireHits(iron.key, m=1),)
    t.next_step("artillery_fire")

    # artillery: Pegram's rifles at 3" is the 4" bracket, M rifle 2M; the 10 drifts two cells left: 2M 1B
    expected = resolve_artillery_fire(game.chart, ArtilleryFireInput(BatteryType.M_RIFLE, 3.0, Roll((10,))))
    assert expected.result == Hits(m=2, b=1)
    fire = t.fire_battery(rifles, cutler, "3", die=10)
    assert fire.kind == "ArtilleryFired"
    assert payload(fire).hits == (FireHits(cutler.key, m=2, b=1),)
    # Calef answers at 12" (M rifle 1M, a 5 does not drift): 1M on Davis
    fire = t.fire_battery(calef, davis, "12", die=5, htmx=True)
    assert payload(fire).hits == (FireHits(davis.key, m=1),)
    # fire is simultaneous: the hits wait for the end of the step
    assert "Cutler&#x27;s Brigade: <strong>2M 1B</strong>" in t.page()
    assert_state(cutler, m_hits=0, bases=7, base_hits_turn=0)
    assert_state(davis, m_hits=0)
    assert_state(iron, m_hits=0)
    leaving = t.next_step("fire_hors_de_combat")
    assert "Cutler's Brigade: 2M 1B, now Rattled, 6 bases left" in summary(leaving)
    assert_state(cutler, m_hits=2, bases=6, base_hits_turn=1, condition="rattled")
    assert_state(davis, m_hits=1, condition="unformed")
    assert_state(iron, m_hits=1, condition="unformed")

    # hors de combat: Cutler lost a base, so Wadsworth (its division) and Reynolds (its corps) must roll or pass
    assert t.next_step_refused(htmx=False).startswith("Not yet: hors de combat check for John F. Reynolds")
    # a double 9-9, +1 for the base hit within 4", reads 10-10: 9 or more and he is hors de combat
    check = t.check_leader(wadsworth, 9, 9, base_hits=1)
    assert payload(check).casualty is True and payload(check).inputs.roll.faces == (9, 9)
    assert_state(wadsworth, hors_de_combat=True)
    t.pass_leader_over(reynolds, htmx=True)
    t.next_step("demoralized_panic")
    assert pending_text(t) == ""  # nobody is demoralized yet
    t.next_step("assaults")

    # assault: Davis (Average, 8 bases, Unformed) against Cutler (Veteran, 6 bases, Rattled), Heth and Hill near
    seq = t.declare_assault({davis: "all_out"}, {cutler: "all_out"}, htmx=True)
    assert t.next_step_refused() == (
        "Not yet: finish assault 1 (Davis&#x27;s Brigade against Cutler&#x27;s Brigade): resolve round 1 or end it"
    )
    # attacker 10 - 1 Unformed + 2 leaders within 2" - 4 (all its skirmishers out, -1 a quarter) = 7;
    # defender 1 + 1 Veteran - 2 Rattled - 1 base lost this turn = -1; +8 on Pitched Battle: defender 3P 1B carry.
    # Cutler lost the natural roll by 9 (3 points a hit): 3M, and 1M more for the All-Out Win/Win; 2 + 4 M is
    # Demoralized with 2 M over, which become P: 5P reads Panic 4, Veteran Retreat, and a P4 event.
    fought = t.resolve_round(seq, 10, 1, attacker_leaders=(heth, hill))
    assert payload(fought).rolls() == (LabelledRoll("attacker", Roll((10,))), LabelledRoll("defender", Roll((1,))))
    assert summary(fought).startswith("Assault 1, round 1: 7 to -1 (+8 on Pitched Battle) → defender 1B 3P carry")
    assert str(payload(fought).result.defender.hits) == "4M 1B 3P"
    assert_state(
        cutler,
        m_hits=4,
        bases=5,
        base_hits_turn=2,
        p_hits_turn=5,
        p4_event=True,
        forced_move="Re",
        retreated=True,
        condition="demoralized",
    )
    assert_state(wadsworths, p4_event=True)
    assert_state(davis, m_hits=1, bases=8)
    assert t.end_assault(seq).kind == "AssaultEnded"
    t.next_step("assault_hors_de_combat", htmx=True)

    # Wadsworth is hors de combat already: only Reynolds is asked; 3-7 is not a double
    assert pending_text(t).startswith("hors de combat check for John F. Reynolds (I Corps lost 1 base)")
    assert "James S. Wadsworth" not in pending_text(t)
    check = t.check_leader(reynolds, 3, 7, base_hits=1, htmx=True)
    assert payload(check).casualty is False and "not a double" in summary(check)
    t.next_step("charge_disorder")

    # charge disorder: Davis used its charge bonus, Cutler retreated: 1M each (Cutler stays Demoralized)
    assert pending_text(t) == "apply charge disorder: 1M to Davis&#x27;s Brigade, Cutler&#x27;s Brigade"
    disorder = t.apply_charge_disorder()
    assert [u.unit for u in payload(disorder).units] == [davis.key, cutler.key]
    assert_state(davis, m_hits=2, condition="rattled")
    assert_state(cutler, m_hits=4)
    t.next_step("internal_panic")

    # panic: Cutler's P4 event makes Wadsworth's Division test. Its greatest share of bases is Crack (Iron 7,
    # Cutler 5, Hall 1): pass 4; 10 - 2 for Cutler demoralized = 8: it holds
    assert pending_text(t) == "roll the internal panic test of Wadsworth&#x27;s Division"
    test = t.division_panic_test(wadsworths, die=10, htmx=True)
    assert summary(test) == "Wadsworth's Division holds (10 − 2 demoralized (1) = 8 against 4)"
    assert payload(test).result.held is True
    assert_state(wadsworths, panicked=False, p4_event=True)
    t.next_step("adjoining_panic")
    assert pending_text(t) == ""  # nobody panicked: no adjoining tests
    ending = t.next_step("messages")
    assert "end of player turn 1 of game turn 1" in summary(ending)

    assert_position(game, 1, 2, "Union")
    assert_state(davis, m_hits=2, bases=8, charge_bonus_used=False, skirmishers_deployed=2)
    assert_state(
        cutler, m_hits=4, bases=5, p_hits_turn=0, base_hits_turn=0, p4_event=False, forced_move="", retreated=False
    )
    assert_state(iron, m_hits=1, bases=7)
    assert_state(rifles, fired_this_turn=False, functions_used=[])
    assert_state(wadsworths, p4_event=False)
    assert_state(wadsworth, hors_de_combat=True, rating=1)


def union_turn_1(t: Table) -> None:
    game = t.game
    archer, pettigrew, davis = (
        brigade(game, n) for n in ("Archer's Brigade", "Pettigrew's Brigade", "Davis's Brigade")
    )
    iron, cutler, devin = (brigade(game, n) for n in ("Iron Brigade (Meredith)", "Cutler's Brigade", "Devin's Brigade"))
    hall, garnett = battery(game, "2nd Maine Light, Battery B (Hall)"), battery(game, "Garnett's Battalion")
    wadsworth, reynolds = leader(game, "James S. Wadsworth"), leader(game, "John F. Reynolds")

    t.next_step("rally")
    refused = t.next_step_refused()
    assert refused == ("Not yet: rally Iron Brigade (Meredith) (Unformed); rally Cutler&#x27;s Brigade (Demoralized)")
    # rally: Wadsworth is hors de combat and not yet replaced, so his rating (1) is subtracted.
    # Iron (Crack, Unformed 13): 13 + 3 - 1 = 15, Crack Formed
    rallied = t.rally(iron, die=3, htmx=True)
    assert summary(rallied).startswith("Iron Brigade (Meredith) rallies: Unformed → Formed")
    # Cutler (Veteran, Demoralized 4, 2 of 7 bases lost is 28%: -2): 4 + 1 - 1 - 2 = 2, below the line
    rallied = t.rally(cutler, die=1)
    expected = resolve_rally(
        game.chart,
        RallyInput(
            grade=Grade.VETERAN,
            m_hits=4,
            roll=Roll((1,)),
            division_leader=LeaderValue.parse("E1"),
            division_leader_distance=0,
            division_leader_hors_de_combat=True,
            bases_at_start=7,
            bases_now=5,
        ),
    )
    assert payload(rallied).result.new_number == expected.new_number == 2
    assert_state(iron, m_hits=0, condition="formed")
    assert_state(cutler, m_hits=4, condition="demoralized")
    t.next_step("replace_leaders")

    # Wadsworth comes back one rating lower
    assert pending_text(t) == "replace James S. Wadsworth, hors de combat"
    replaced = t.replace_leader(wadsworth)
    assert summary(replaced) == "James S. Wadsworth returns to Wadsworth's Division as E0"
    assert_state(wadsworth, hors_de_combat=False, rating=0, replaced_this_turn=True)
    t.next_step("move", htmx=True)

    # maneuver: Iron (Crack) rolls 5, +1 Energetic commander, -3 for its leader just replaced: 3, Crack assault
    roll = t.roll_maneuver(iron, die=5, htmx=True)
    assert payload(roll).result.modified_roll == 3 and "assault" in allowed(roll)
    t.mark_charge_bonus(iron, used=True)
    t.set_skirmishers(iron, 2, htmx=True)
    t.change_formation(devin, "two_line")
    t.use_battery_functions(hall, "prolong")
    assert_state(iron, charge_bonus_used=True, skirmishers_deployed=2)
    assert_state(devin, formation="two_line")
    t.next_step("skirmish")

    # skirmish: Davis's markers still out may block the Iron Brigade's; blocks are all declared first
    assert "Confederate: declare every block first" in t.page()
    t.declare_blocks({davis: iron}, htmx=True)
    assert pending_text(t) == "roll the 1 declared skirmish block"
    blocks = t.roll_blocks(6)  # Davis's Average markers block on the Veteran line: 6
    assert payload(blocks).blocked == (f"{iron.key}#1",)
    # the unblocked marker (Crack) fires at Archer from 4": 8 or more hits
    assert "Iron Brigade (Meredith)</strong>: 1 marker to fire" in t.page()
    attack = t.skirmish_attack(iron, archer, "4", die=9)
    assert payload(attack).hits == (FireHits(archer.key, m=1),)
    t.next_step("artillery_fire")

    # artillery: Hall at 5" (6" bracket) M rifle 2M on Pettigrew; Garnett saves its fire
    fire = t.fire_battery(hall, pettigrew, "5", die=5)
    assert payload(fire).hits == (FireHits(pettigrew.key, m=2),)
    assert t.save_fire(garnett, htmx=True).kind == "FireSaved"
    assert_state(pettigrew, m_hits=0)
    t.next_step("fire_hors_de_combat")
    assert_state(pettigrew, m_hits=2, condition="rattled", bases=9)
    assert_state(archer, m_hits=1, condition="unformed")

    # no base was lost to fire: no leader must roll, no unit is demoralized with P hits
    assert pending_text(t) == ""
    t.next_step("demoralized_panic")
    t.next_step("assaults", htmx=True)

    # assault: Iron (Crack, 7 bases) on Archer (Veteran, 4 bases, Unformed)
    seq = t.declare_assault({iron: "all_out"}, {archer: "all_out"})
    # attacker 1 + 2 Crack - 4 (both skirmish markers out) = -1; defender 10 + 1 Veteran - 1 Unformed - 1 (4
    # bases against 7, 3:2) = 9; -10 on Pitched Battle: attacker 3P 1B. Iron lost the natural roll by 9 (Crack,
    # 4 points a hit): 3M, Shaken; Panic 3, Crack: Withdraw.
    fought = t.resolve_round(seq, 1, 10, htmx=True)
    assert summary(fought) == (
        "Assault 1, round 1: -1 to 9 (-10 on Pitched Battle) → attacker 1B 3P; natural roll lost by the attacker: 3M"
    )
    assert_state(
        iron, m_hits=3, bases=6, base_hits_turn=1, p_hits_turn=3, forced_move="W", p4_event=False, condition="shaken"
    )
    assert_state(archer, m_hits=1, bases=4)
    t.end_assault(seq, htmx=True)
    t.next_step("assault_hors_de_combat")

    # Iron lost a base: Wadsworth rolls (2-5, no double), Reynolds is passed over
    assert t.next_step_refused().startswith("Not yet: hors de combat check for John F. Reynolds")
    t.check_leader(wadsworth, 2, 5, base_hits=1)
    t.pass_leader_over(reynolds, htmx=True)
    assert pending_text(t) == ""
    t.next_step("charge_disorder")

    # the Iron Brigade used its charge bonus: 1M, Demoralized
    disorder = t.apply_charge_disorder(htmx=True)
    assert [u.unit for u in payload(disorder).units] == [iron.key]
    assert_state(iron, m_hits=4, condition="demoralized")
    t.next_step("internal_panic")
    # Iron's Panic 3 is no Panic 4 event, and nothing else took P hits: no division tests
    assert "No division had a Panic 4 event this turn" in t.page()
    t.next_step("adjoining_panic")
    assert "end of player turn 2 of game turn 1" in summary(t.next_step("messages"))

    assert_position(game, 2, 1, "Confederate")
    assert_state(iron, m_hits=4, bases=6, charge_bonus_used=False, forced_move="", p_hits_turn=0)
    assert_state(cutler, m_hits=4, bases=5)
    assert_state(archer, m_hits=1, bases=4)
    assert_state(pettigrew, m_hits=2, bases=9)
    assert_state(wadsworth, rating=0, hors_de_combat=False, replaced_this_turn=False)
    assert_state(garnett, saved_fire=True)
    assert_state(hall, fired_this_turn=False, functions_used=[])


def confederate_turn_2(t: Table) -> None:
    game = t.game
    archer, davis, pettigrew = (
        brigade(game, n) for n in ("Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade")
    )
    iron, cutler = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Cutler's Brigade")
    napoleons = battery(game, "Pegram's Battalion (Napoleons)")
    hall = battery(game, "2nd Maine Light, Battery B (Hall)")
    wadsworth, reynolds = leader(game, "James S. Wadsworth"), leader(game, "John F. Reynolds")
    wadsworths, bufords = division(game, "Wadsworth's Division"), division(game, "Buford's Cavalry Division")

    t.next_step("rally", htmx=True)
    assert pending_text(t) == (
        "rally Archer&#x27;s Brigade (Unformed); rally Davis&#x27;s Brigade (Rattled); "
        "rally Pettigrew&#x27;s Brigade (Rattled)"
    )
    # Heth (E1) adds 1 at any distance; 3" to him is no whole 4" step.
    # Davis (Average, Rattled 10): 10 + 5 + 1 = 16, Unformed (13; Formed needs 17)
    assert "Rattled → Unformed" in summary(t.rally(davis, die=5, distance="3"))
    # Archer (Veteran, Unformed 13): 13 + 4 + 1 = 18, Formed (16)
    assert "Unformed → Formed" in summary(t.rally(archer, die=4, distance="3", htmx=True))
    # Pettigrew (Average, Rattled 10): 10 + 2 + 1 = 13, Unformed
    assert "Rattled → Unformed" in summary(t.rally(pettigrew, die=2, distance="3"))
    t.next_step("replace_leaders")
    t.next_step("move")

    # maneuver: Archer (Veteran) 7 + 1 = 8; it deploys its one marker; the Napoleons prolong and keep a fire
    assert payload(t.roll_maneuver(archer, die=7)).result.modified_roll == 8
    t.set_skirmishers(archer, 1)
    t.use_battery_functions(napoleons, "prolong", htmx=True)
    t.next_step("skirmish")

    # skirmish: the Union declares no block; Davis's marker misses Iron at 2" (a 3 against 8)
    blocks = t.declare_blocks({})
    assert summary(blocks) == "Union declare skirmish blocks: no blocks"
    attack = t.skirmish_attack(davis, iron, "2", die=3, htmx=True)
    assert payload(attack).hits == () and "no effect" in summary(attack)
    t.next_step("artillery_fire")

    # artillery: the Napoleons at 2" (M Sb 3M 1B), a 10 drifts two cells left: 4M 2B on the demoralized
    # Cutler's Brigade, whose every M beyond Demoralized becomes a P hit (4.6)
    fire = t.fire_battery(napoleons, cutler, "2", die=10)
    assert payload(fire).hits == (FireHits(cutler.key, m=4, b=2),)
    assert_state(cutler, m_hits=4, bases=5, p_hits_turn=0)
    t.next_step("fire_hors_de_combat", htmx=True)
    assert_state(cutler, m_hits=4, bases=3, p_hits_turn=4, base_hits_turn=2)

    # hors de combat: a double 4-4 with 2 base hits reads 6-6, under 9: unhurt
    check = t.check_leader(wadsworth, 4, 4, base_hits=2, htmx=True)
    assert payload(check).casualty is False and payload(check).result.double is True
    t.pass_leader_over(reynolds)
    t.next_step("demoralized_panic")

    # demoralized panic: Cutler's 4P read Panic 4: Veteran Retreat 12", and a P4 event for its division
    assert pending_text(t) == "demoralized panic test for Cutler&#x27;s Brigade (4P)"
    assert t.next_step_refused() == "Not yet: demoralized panic test for Cutler&#x27;s Brigade (4P)"
    tested = t.demoralized_panic_test(cutler)
    result = payload(tested).result
    assert (result.move, result.distance, result.deserters, result.p4_event) == ("Re", 12.0, 0, True)
    assert_state(cutler, p4_event=True, forced_move="Re", retreated=True, bases=3)
    assert_state(wadsworths, p4_event=True)
    t.next_step("assaults")
    t.next_step("assault_hors_de_combat")  # no assault this turn
    t.next_step("charge_disorder")

    # charge disorder: Cutler retreated (it stays Demoralized)
    assert [u.unit for u in payload(t.apply_charge_disorder()).units] == [cutler.key]
    t.next_step("internal_panic", htmx=True)

    # internal panic: Crack pass 4 again (Iron 6 bases against Cutler 3 and Hall 1); 1 - 2 x 2 demoralized
    # (Iron and Cutler) = -3: it panics, Crack Panic 4 is Fall back 10"; Cutler has already retreated further
    test = t.division_panic_test(wadsworths, die=1)
    assert summary(test).startswith(
        "Wadsworth's Division panics (1 − 4 demoralized (2) = -3 against 4): every unit "
        "falls back 10\" (Cutler's Brigade already moved as far)"
    )
    assert_state(wadsworths, panicked=True, orders="defend")
    assert_state(iron, forced_move="F", m_hits=4, bases=6)
    assert_state(hall, forced_move="F", abandoned=False)
    assert_state(cutler, forced_move="Re")
    t.next_step("adjoining_panic")

    # adjoining panic: the table names Buford's division as adjoining; it tests (Veteran pass 5): 10 + 2 unshaken
    assert pending_text(t) == "say which divisions adjoin Wadsworth&#x27;s Division, which panicked"
    t.declare_adjoining(wadsworths, [bufords], htmx=True)
    assert pending_text(t) == "roll the adjoining panic test of Buford&#x27;s Cavalry Division (round 2)"
    test = t.division_panic_test(bufords, die=10)
    assert summary(test) == "Buford's Cavalry Division holds (10 + 2 unshaken = 12 against 5)"
    assert pending_text(t) == ""
    assert "end of player turn 1 of game turn 2" in summary(t.next_step("messages"))

    assert_position(game, 2, 2, "Union")
    assert_state(davis, m_hits=1, bases=8, skirmishers_deployed=2)
    assert_state(archer, m_hits=0, bases=4, skirmishers_deployed=1)
    assert_state(pettigrew, m_hits=1, bases=9, formation="brigade_column")
    assert_state(cutler, m_hits=4, bases=3, p4_event=False, p_hits_turn=0, forced_move="", retreated=False)
    assert_state(iron, m_hits=4, bases=6, forced_move="")
    assert_state(wadsworths, panicked=False, p4_event=False)
    assert_state(bufords, panicked=False)


def union_turn_2(t: Table) -> dict:
    """Plays the Union's second turn; returns the state just before Calef fires, for the undo at the end."""
    game = t.game
    iron, cutler = brigade(game, "Iron Brigade (Meredith)"), brigade(game, "Cutler's Brigade")
    gamble, davis = brigade(game, "Gamble's Brigade"), brigade(game, "Davis's Brigade")
    calef = battery(game, "2nd U.S., Battery A (Calef)")
    buford = leader(game, "John Buford")

    t.next_step("rally")
    # Wadsworth is now E0: no rating to add. Iron (Crack, Demoralized 5, 1 of 7 lost is 14%: -1): 5 + 10 - 1
    # = 14, Unformed (13; Formed 15). Cutler (Veteran, Demoralized 4, 4 of 7 lost is 57%: -4): 4 + 10 - 4 = 10,
    # Rattled
    assert "Demoralized → Unformed" in summary(t.rally(iron, die=10, htmx=True))
    assert "Demoralized → Rattled" in summary(t.rally(cutler, die=10))
    assert_state(iron, m_hits=1)
    assert_state(cutler, m_hits=2)
    t.next_step("replace_leaders")
    t.next_step("move")

    # maneuver: Gamble (Veteran) 2 + 1 for Buford, its Energetic commander, + 2 for Buford within 2" = 5
    roll = t.roll_maneuver(gamble, die=2, leaders_within_2=[str(buford.pk)])
    assert payload(roll).result.modified_roll == 5 and allowed(roll)[0] == "assault"
    t.next_step("skirmish")
    # blocks and skirmish attacks are optional: nothing to do
    assert "Confederate: declare every block first" in t.page()
    t.next_step("artillery_fire")

    before_fire = snapshot(game)
    t.fire_battery(calef, davis, "12", die=5, htmx=True)
    t.next_step("fire_hors_de_combat")
    assert_state(davis, m_hits=2)
    # the rest of the turn has nothing to do: no base lost (no hors de combat check), no demoralized unit under
    # fire, no assault, no charge bonus used nor retreat, so no Panic 4 event and no panic test
    assert pending_text(t) == ""
    for step in (
        "demoralized_panic",
        "assaults",
        "assault_hors_de_combat",
        "charge_disorder",
        "internal_panic",
        "adjoining_panic",
    ):
        t.next_step(step)
    assert "end of player turn 2 of game turn 2" in summary(t.next_step("messages"))

    assert_position(game, 3, 1, "Confederate")
    assert_state(davis, m_hits=2, bases=8, condition="rattled")
    assert_state(iron, m_hits=1, bases=6, condition="unformed")
    assert_state(cutler, m_hits=2, bases=3, condition="rattled")
    assert_state(gamble, m_hits=0, bases=10)
    assert_state(calef, fired_this_turn=False)
    return before_fire


# --- the playthrough ------------------------------------------------------------------------------------------


def test_two_game_turns_played_through_the_game_pages_forms(client, demo):
    t = Table(client, demo)
    confederate_turn_1(t)
    union_turn_1(t)
    confederate_turn_2(t)
    before_calef_fired = union_turn_2(t)

    game = t.game
    assert_position(game, 3, 1, "Confederate", "messages")
    events = list(game.events.all())
    assert {e.kind for e in events} == {
        "StepAdvanced",
        "RallyResolved",
        "LeaderReplaced",
        "ManeuverRolled",
        "ChargeBonusUsed",
        "ChargeBonusCleared",
        "SkirmishersDeployed",
        "FormationChanged",
        "BatteryFunctionsUsed",
        "SkirmishBlocksDeclared",
        "SkirmishBlocksRolled",
        "SkirmishAttacked",
        "ArtilleryFired",
        "FireSaved",
        "LeaderCheckedForCasualty",
        "HorsDeCombatSkipped",
        "DemoralizedPanicTested",
        "AssaultDeclared",
        "AssaultRoundResolved",
        "AssaultEnded",
        "ChargeDisorderApplied",
        "DivisionPanicTested",
        "AdjoiningDeclared",
    }
    assert sum(e.kind == "StepAdvanced" for e in events) == 4 * 13  # every step of four player turns
    # every die was typed at the table
    assert all(r.roll.source == "typed" for e in events for r in payload(e).rolls())
    assert [e.step for e in events if e.kind == "DivisionPanicTested"] == [
        "internal_panic",
        "internal_panic",
        "adjoining_panic",
    ]
    assert state_matches_events(game)
    assert client.get(f"/games/{game.pk}/log/").status_code == 200

    # undo, latest first: the end of the player turn comes back (Calef had fired this turn) ...
    undone = t.undo(htmx=True)
    assert undone.undoes.kind == "StepAdvanced"
    assert_position(game, 2, 2, "Union", "adjoining_panic")
    calef = battery(game, "2nd U.S., Battery A (Calef)")
    assert_state(calef, fired_this_turn=True)
    # ... then the steps back to the fire phase, where Calef's hit is taken off Davis again ...
    for _ in range(7):
        t.undo()
    assert_position(game, 2, 2, "Union", "artillery_fire")
    assert_state(brigade(game, "Davis's Brigade"), m_hits=1)
    assert "Davis&#x27;s Brigade: <strong>1M</strong>" in t.page()  # the hit waits again
    # ... and Calef's fire itself: the state is exactly as it was before it fired
    assert t.undo().undoes.kind == "ArtilleryFired"
    assert snapshot(game) == before_calef_fired
    assert_state(calef, fired_this_turn=False)
    assert state_matches_events(game)
