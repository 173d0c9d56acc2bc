"""The games of the corpus, each played at the table through the app's own forms (a few states set first by a
correction, as a table puts right what the board shows), with undos and going back among them. Together they reach
every kind of event; tests/games/test_saved_games.py holds that they do."""

from collections.abc import Callable

from django.http import HttpResponse

from republic.games.models import Game
from republic.games.scenario import create_game, parse_scenario
from republic.scenarios import DEMO_SCENARIO
from tests.bench_walk import prepare, walk
from tests.club_battle import club_scenario
from tests.devices import master_device, seated_device
from tests.games.assault_helpers import declared, post_round
from tests.games.conftest import HTMX, at_step, battery, brigade, division, fresh, leader, rolled_for_assault, set_state
from tests.games.move_helpers import at_move
from tests.games.playthrough_game_turn_1 import confederate_turn_1, union_turn_1
from tests.games.playthrough_game_turn_2 import confederate_turn_2, union_turn_2
from tests.games.playthrough_table import Table


def demo(first_attacker: bool = True, name: str = "") -> Game:
    text = DEMO_SCENARIO.read_text(encoding="utf-8")
    scenario = parse_scenario(text if first_attacker else text.replace("first_attacker: Confederate\n", ""))
    return create_game(scenario, name) if name else create_game(scenario)


def _sent(game: Game, send: Callable[[], HttpResponse], events: int = 1) -> None:
    """A form posted as the table posts it: the app answers and records its events (a refusal records none)."""
    before = fresh(game).version
    response = send()
    recorded = fresh(game).version - before
    if response.status_code not in (200, 302) or recorded != events:
        raise AssertionError(f"the app answered {response.status_code} and recorded {recorded} event(s)")


def demo_two_game_turns() -> Game:
    """The demo played through two game turns (tests/games/test_playthrough.py), then the game master's own work:
    a division's orders, a brigade moved to another division, a correction, an undo, going back two events, and
    the end of the game."""
    client = master_device()
    t = Table(client, demo(name="Gettysburg, two game turns"))
    confederate_turn_1(t)
    union_turn_1(t)
    confederate_turn_2(t)
    union_turn_2(t)
    game = t.game
    buford, cutler = division(game, "Buford's Cavalry Division"), brigade(game, "Cutler's Brigade")
    t.post(f"divisions/{buford.pk}/orders/", {"version": t.version, "orders": "hold"})
    t.post(f"reassign/{cutler.pk}/", {"version": t.version, "division": buford.pk})
    t.post(f"units/{cutler.pk}/m_plus/", {"version": t.version})
    t.post(f"units/{cutler.pk}/m_plus/", {"version": t.version})
    t.undo(htmx=True)
    back_to = t.version
    t.post(f"units/{cutler.pk}/m_minus/", {"version": t.version})
    t.post(f"units/{cutler.pk}/base_minus/", {"version": t.version})
    _sent(game, lambda: client.post(t.url(f"back/{back_to}/"), {"version": t.version}), events=2)
    union = game.sides.get(name="Union").pk
    t.post("end/", {"version": t.version, "winner": union, "note": "Union held the ridge"})
    return fresh(game)


def demo_first_attacker_rolled() -> Game:
    """The demo without a first attacker: the sides roll for it, the high roller chooses, a leader moves at the
    rally step, and the move is taken back and made again."""
    client = master_device()
    game = demo(first_attacker=False, name="Gettysburg, first attacker by the dice")
    p = "first-attacker"
    rolled = {f"{p}-version": fresh(game).version, f"{p}-die": 3, f"{p}-die2": 8, "roll": "typed"}
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/first-attacker-roll/game-{game.pk}/", rolled, **HTMX))
    chosen = {"version": fresh(game).version, "side": game.sides.get(name="Union").pk, "how": "die roll"}
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/first-attacker/game-{game.pk}/", chosen))
    t = Table(client, game)
    set_state(game, brigade(game, "Iron Brigade (Meredith)"), m_hits=1)  # a unit to rally: the step waits
    t.next_step("rally")
    reynolds = leader(game, "John F. Reynolds")
    for moved in ("1", "2"):
        t.post(
            f"act/leader-move/game-{game.pk}/",
            {"leader-move-version": t.version, "leader-move-leader": reynolds.pk, "leader-move-moved": moved},
        )
        if moved == "1":
            t.undo()
    return fresh(game)


def demo_first_attacker_agreed() -> Game:
    """The demo without a first attacker, agreed at the table without a roll: the Union's phone agrees that the
    Union attack first, the Confederates' phone first agrees otherwise, then to the same; then play moves on."""
    game = demo(first_attacker=False, name="Gettysburg, first attacker agreed")
    phones = {side: seated_device(game, side) for side in ("Union", "Confederate")}

    def agree(phone: str, attacker: str) -> HttpResponse:
        chosen = {"version": fresh(game).version, "side": game.sides.get(name=attacker).pk, "how": "agreed"}
        return phones[phone].post(f"/games/{game.pk}/act/first-attacker/game-{game.pk}/", chosen, **HTMX)

    for phone, attacker in (("Union", "Union"), ("Confederate", "Confederate")):
        _sent(game, lambda: agree(phone, attacker))  # noqa: B023 (sent at once, in this turn of the loop)
    _sent(game, lambda: agree("Confederate", "Union"))
    Table(master_device(), game).next_step("move", passing=("rally", "replace_leaders"))
    return fresh(game)


def demo_assault_aftermath() -> Game:
    """The demo at the Confederates' assault step: a local breakthrough, Davis's assault on Cutler carried, Cutler
    driven back through the Iron Brigade, the Iron Brigade's hit as a supporting brigade, and the attackers'
    follow-up; then the Union's objective taken and the Confederates' blocked forced move."""
    client = master_device()
    game = at_step(rolled_for_assault(demo(name="Gettysburg, an assault's aftermath")), "assaults")
    davis, cutler, iron = (brigade(game, n) for n in ("Davis's Brigade", "Cutler's Brigade", "Iron Brigade (Meredith)"))
    archer = brigade(game, "Archer's Brigade")
    data = {
        "breakthrough-version": fresh(game).version,
        "breakthrough-unit": archer.name,
        "breakthrough-used_bonus": "on",
    }
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/local-breakthrough/game-{game.pk}/", data, **HTMX))
    seq = declared(client, game, [(davis, "all_out")], [(cutler, "all_out")])
    supporting = {
        "supporting-version": fresh(game).version,
        "supporting-unit": iron.name,
        "supporting-supporting_bases": "2",
        "supporting-primary": cutler.name,
        "supporting-move": "W",
    }
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/supporting-hit/game-{game.pk}/", supporting, **HTMX))
    _sent(game, lambda: post_round(client, game, seq, die="10", die2="2"))
    passage = {
        "passage-version": fresh(game).version,
        "passage-side": "defender",
        "passage-unit": iron.key,
        "passage-passers": [cutler.key],
        f"passage-distance-{cutler.piece.name}": "2.5",
    }
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/passage-of-lines/game-{game.pk}/", passage, **HTMX))
    follow = {
        f"follow-assault-{seq}-version": fresh(game).version,
        f"follow-assault-{seq}-move-{davis.piece.name}": "carry",
    }
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/follow-up/assault-{seq}/", follow, **HTMX))
    ridge = game.objectives.get(name="McPherson's Ridge")
    taken = {"holder": game.sides.get(name="Confederate").pk, "version": fresh(game).version}
    pettigrew = seated_device(game, "Confederate", "Pettigrew")
    _sent(game, lambda: pettigrew.post(f"/games/{game.pk}/objectives/{ridge.pk}/", taken))
    set_state(game, davis, forced_move="W")
    block = {"version": fresh(game).version}
    to_division = {**HTMX, "HTTP_HX_TARGET": f"division-{davis.division_id}"}
    _sent(game, lambda: client.post(f"/games/{game.pk}/blocked/{davis.pk}/", block, **to_division))
    return fresh(game)


def demo_move_step() -> Game:
    """The demo's first move step: a cavalry brigade dismounts, a defending battery makes passing fire."""
    client = master_device()
    game = demo(name="Gettysburg, the first move")
    archer = brigade(game, "Archer's Brigade")
    set_state(game, archer, kind="cavalry_mounted")
    game = at_move(game)
    prefix = f"mount-{archer.piece.name}"
    mount = {f"{prefix}-version": fresh(game).version, f"{prefix}-mount": "0"}
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/mount/unit-{archer.pk}/", mount, **HTMX))
    hall = battery(game, "2nd Maine Light, Battery B (Hall)")
    prefix = f"passing-{hall.piece.name}"
    passing = {
        f"{prefix}-version": fresh(game).version,
        f"{prefix}-die": "5",
        f"{prefix}-range": "3",
        f"{prefix}-target": "Davis's Brigade",
        f"{prefix}-cover": "none",
        "roll": "typed",
    }
    _sent(game, lambda: client.post(f"/games/{game.pk}/act/passing-fire/unit-{hall.pk}/", passing, **HTMX))
    return fresh(game)


def club_battle_400() -> Game:
    """A 400-unit club battle: the four player turns of two game turns walked through every step's forms as the
    benchmark walks them (tests/bench_walk.py), each turn's table first given work at every step."""
    game = create_game(parse_scenario(club_scenario(400, "Club battle of 400 units")))
    client = master_device()
    for _ in range(4):
        prepare(game)
        walked = walk(game, client, repeat=1, say=lambda _: None, settle=False)
        if walked.probe.failures:
            raise AssertionError(walked.probe.failures[0])
    return fresh(game)


def earlier_record() -> Game:
    """A game recorded before the events were typed (the app's first schema), carried across by the app's own
    migrations as tests/games/test_migration.py plays it: its event is an EarlierRecord."""
    from django.core.management import call_command

    from tests.games.test_migration import BEFORE

    call_command("migrate", "games", "0001_initial", verbosity=0, interactive=False)
    found: dict[str, object] = {}
    exec(BEFORE.replace("print(game.pk)", "found['pk'] = game.pk"), {"found": found})
    call_command("migrate", verbosity=0, interactive=False)
    return Game.objects.get(pk=found["pk"])


PLAYS: dict[str, Callable[[], Game]] = {
    "earlier-record": earlier_record,
    "demo-two-game-turns": demo_two_game_turns,
    "demo-first-attacker-rolled": demo_first_attacker_rolled,
    "demo-first-attacker-agreed": demo_first_attacker_agreed,
    "demo-assault-aftermath": demo_assault_aftermath,
    "demo-move-step": demo_move_step,
    "club-battle-400": club_battle_400,
}
"""Each file's name (its stem) and the play that makes it; the first needs the database empty and at the app's
first schema, so it comes first."""
