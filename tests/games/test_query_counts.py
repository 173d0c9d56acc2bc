"""The same number of queries whatever the battle's size, for every page and action of the command and maneuver
phases, the actions of any step (undo, a correction, a blocked forced move, orders, a unit moved to another division),
and the end of a player turn and of a game turn.
Each step has real work waiting, as much more at the larger size as the battle is larger (query_helpers)."""

from typing import Any

import pytest
from django.http import HttpResponse

from republic.games.models import Unit
from republic.games.steps import rally
from republic.games.steps.move.state import helpful_leaders
from republic.games.steps.replace_leaders import state as replacing
from republic.games.views.answers import NEWS_MOST
from tests.games.conftest import fresh
from tests.games.query_helpers import (
    Costs,
    Send,
    Table,
    batteries_of,
    battles,
    brigades_of,
    divisions_of,
    go_to,
    leaders_of,
    set_each,
    units_of,
)


@pytest.fixture
def costs(db) -> Costs:
    return Costs(battles())


def test_a_cost_that_grows_with_the_battle_is_caught_and_named(costs):
    def division_by_division(t: Table) -> Send:
        def send() -> HttpResponse:
            for unit in Unit.objects.filter(game=t.game):
                unit.division.name  # noqa: B018 (read one by one on purpose)
            return HttpResponse()

        return send

    costs.measure("a division read for every unit", division_by_division, events=0)
    assert costs.problems[0].startswith(
        "a division read for every unit: 21 queries at 20 units and 61 queries at 60 units; the extra ones:\n"
        '  40 × SELECT "games_command"."id"'
    )


def first_attacker_dice(t: Table, confederate: int, union: int) -> Send:
    prefix = "first-attacker"
    data = {f"{prefix}-version": t.game.version, f"{prefix}-die": confederate, f"{prefix}-die2": union, "roll": "typed"}
    return t.post(f"act/first-attacker-roll/game-{t.game.pk}/", data)


def test_setting_up_costs_the_same_at_every_size(costs):
    costs.each(lambda t: set_each(t.game, [t.game], status="setting_up", first_attacker=None))
    costs.pages("setting up")
    costs.measure("a tie for the first attacker", lambda t: first_attacker_dice(t, 4, 4), events=0)
    costs.measure("the dice for the first attacker", lambda t: first_attacker_dice(t, 3, 8))
    costs.pages("setting up, the dice rolled")
    costs.measure(
        "the first attacker chosen",
        lambda t: t.post(
            f"act/first-attacker/game-{t.game.pk}/",
            {"version": t.game.version, "side": t.game.sides.last().pk, "how": "die roll"},
        ),
    )
    costs.check()


def test_the_end_of_a_game_costs_the_same_at_every_size(costs):
    costs.measure("the end-of-game page", lambda t: lambda: t.client.get(t.path("end/")), events=0)
    costs.measure(
        "the game ended",
        lambda t: t.post("end/", {"version": t.game.version, "winner": t.game.sides.last().pk, "note": "time"}),
    )
    costs.pages("game over")
    costs.measure("a play action refused after the end", lambda t: t.next_step(), events=0)
    costs.measure("the end undone", lambda t: t.post("undo/", {"version": t.game.version}))
    costs.check()


def test_messages_costs_the_same_at_every_size(costs):
    costs.pages("messages")
    costs.leave("messages", passing=2)  # nothing to rally, no leader to replace
    costs.check()


# --- rally ---------------------------------------------------------------------------------------------------


def rally_post(t: Table, unit: Unit) -> Send:
    game, prefix = fresh(t.game), f"rally-{unit.piece.name}"
    others = [
        str(leader.pk) for leader in rally.reach(rally.state(game).due[unit.pk], rally.state(game).leaders).reaching
    ]
    data = {
        f"{prefix}-version": game.version,
        f"{prefix}-die": "6",
        f"{prefix}-division_leader_distance": "3",
        f"{prefix}-leaders_within_4": others,
        "roll": "typed",
    }
    return t.post(f"act/rally/unit-{unit.pk}/", data, f"row-unit-{unit.pk}")


def to_rally(t: Table) -> list[Unit]:
    return rally.state(fresh(t.game)).to_rally


def leader_move_post(t: Table, moved: str) -> Send:
    """The last of the attacking side's leaders moved (as many more of them at the larger size)."""
    game = fresh(t.game)
    data = {
        "leader-move-version": game.version,
        "leader-move-leader": str(rally.state(game).leaders[-1].pk),
        "leader-move-moved": moved,
    }
    return t.post(f"act/leader-move/game-{t.game.pk}/", data)


def test_rally_costs_the_same_at_every_size(costs):
    def shaken(t: Table) -> None:
        for i, unit in enumerate(brigades_of(t.game, "attacker")):
            set_each(t.game, [unit], m_hits=1 + i % 3)
        go_to(t.game, "rally")
        for unit in to_rally(t)[::2]:
            rally_post(t, unit)()

    costs.each(shaken)
    costs.pages("rally")
    costs.measure("a rally", lambda t: rally_post(t, to_rally(t)[0]))
    costs.measure("a leader's move in the rally step", lambda t: leader_move_post(t, "1.5"))
    costs.measure("a leader's move beyond what is left of his 2 inches", lambda t: leader_move_post(t, "1"), events=0)
    costs.measure("a poll after another phone's rally: its row", lambda t: t.poll(1, whole=False), events=0)
    costs.measure("a poll after many events: the live part", lambda t: t.poll(NEWS_MOST + 1, whole=True), events=0)
    costs.measure("next step refused while units wait to rally", lambda t: t.next_step(), events=0)
    costs.each(lambda t: [rally_post(t, unit)() for unit in to_rally(t)])
    costs.leave("rally", passing=1)  # no leader to replace
    costs.check()


# --- replace leaders -----------------------------------------------------------------------------------------


def replace_post(t: Table, pk: int) -> Send:
    return t.post(f"act/replace-leader/leader-{pk}/", {"version": fresh(t.game).version})


def test_replacing_leaders_costs_the_same_at_every_size(costs):
    def fallen(t: Table) -> None:
        set_each(t.game, leaders_of(t.game, "attacker", "division"), hors_de_combat=True)
        set_each(t.game, leaders_of(t.game, "attacker", "corps")[:1], hors_de_combat=True)
        go_to(t.game, "replace_leaders")

    costs.each(fallen)
    costs.pages("replace leaders")
    first = lambda t, level: leaders_of(t.game, "attacker", level)[0].pk  # noqa: E731
    costs.measure("a division leader replaced", lambda t: replace_post(t, first(t, "division")))
    # the corps leader is replaced once the division leaders who fell with him have returned (2.5)
    divisions = lambda t: [f for f in replacing(fresh(t.game)).fallen if f.command.level == "division"]  # noqa: E731
    costs.each(lambda t: [replace_post(t, leader.pk)() for leader in divisions(t)])
    # the last fallen leader replaced, nobody has anything left to do in the step: it passes by itself
    costs.measure("a corps leader replaced, the last", lambda t: replace_post(t, first(t, "corps")), events=2)
    costs.check()


# --- move ----------------------------------------------------------------------------------------------------


def roll_post(t: Table, unit: Unit, **fields: Any) -> Send:
    game, prefix = fresh(t.game), f"roll-{unit.piece.name}"
    data = {f"{prefix}-version": game.version, f"{prefix}-die": "7", "roll": "typed"}
    data.update({f"{prefix}-{k}": v for k, v in fields.items()})
    return t.post(f"act/maneuver-roll/unit-{unit.pk}/", data, f"row-unit-{unit.pk}")


def formation_post(t: Table, unit: Unit, formation: str) -> Send:
    prefix = f"formation-{unit.piece.name}"
    data = {f"{prefix}-version": fresh(t.game).version, f"{prefix}-formation": formation}
    return t.post(f"act/formation/unit-{unit.pk}/", data, f"row-unit-{unit.pk}")


def functions_post(t: Table, unit: Unit, *functions: str) -> Send:
    prefix = f"functions-{unit.piece.name}"
    data = {f"{prefix}-version": fresh(t.game).version}
    data.update({f"{prefix}-function_{i + 1}": f for i, f in enumerate(functions)})
    return t.post(f"act/battery-functions/unit-{unit.pk}/", data, f"row-unit-{unit.pk}")


def brigade(t: Table, i: int) -> Unit:
    return brigades_of(t.game, "attacker")[i]


def helped(t: Table) -> dict[str, Any]:
    """Every energetic and proficient leader of the side within 2", and brigades acting together."""
    leaders = [str(leader.pk) for leader in helpful_leaders(t.game, t.game.attacker)]
    return {"leaders_within_2": leaders, "acting_together": "advance"}


def movement_post(t: Table, unit: Unit) -> Send:
    prefix = f"move-{unit.piece.name}"
    values = {
        "formation_changes": "1",
        "formation_changes_in_rough": "0",
        "passages_of_lines": "1",
        "terrain_within": ["woods"],
    }
    data = {f"{prefix}-{k}": v for k, v in values.items()}
    return t.post(f"maneuver/movement/{unit.pk}/", data, f"row-unit-{unit.pk}")


def mount_post(t: Table, unit: Unit, mount: str) -> Send:
    prefix = f"mount-{unit.piece.name}"
    data = {f"{prefix}-version": fresh(t.game).version, f"{prefix}-mount": mount}
    return t.post(f"act/mount/unit-{unit.pk}/", data, f"row-unit-{unit.pk}")


def skirmishers_post(t: Table, unit: Unit, deployed: int) -> Send:
    prefix = f"skirmishers-{unit.piece.name}"
    data = {f"{prefix}-version": fresh(t.game).version, f"{prefix}-deployed": deployed}
    return t.post(f"act/skirmishers/unit-{unit.pk}/", data, f"row-unit-{unit.pk}")


def passing_post(t: Table, battery: Unit, targets: list[Unit]) -> Send:
    """A defending battery's passing fire at the first of ``targets``, the next two its tandem and adjacent."""
    prefix = f"passing-{battery.piece.name}"
    data = {
        f"{prefix}-version": fresh(t.game).version,
        f"{prefix}-die": "5",
        f"{prefix}-range": "3",
        f"{prefix}-target": targets[0].key,
        f"{prefix}-tandem": targets[1].key,
        f"{prefix}-adjacent": targets[2].key,
        f"{prefix}-cover": "none",
        f"{prefix}-printed": "3M 3B",
        "roll": "typed",
    }
    return t.post(f"act/passing-fire/unit-{battery.pk}/", data, f"row-unit-{battery.pk}")


def test_moving_costs_the_same_at_every_size(costs):
    def moving(t: Table) -> None:
        go_to(t.game, "move")
        brigades = brigades_of(t.game, "attacker")
        for unit in brigades[2::2]:
            roll_post(t, unit, printed=["assault", "advance"])()
        for unit in brigades[3::4]:
            formation_post(t, unit, "brigade_column")()
        for unit in batteries_of(t.game, "attacker")[1:]:
            functions_post(t, unit, "limber", "move")()
        # every other defending battery but the first has made passing fire, each at brigades of its own
        for i, unit in enumerate(batteries_of(t.game, "defender")[1::2]):
            passing_post(t, unit, brigades[3 * i + 3 : 3 * i + 6])()
        # the first division holds, its allowance halved; every third brigade from the third is mounted cavalry
        set_each(t.game, divisions_of(t.game, "attacker")[:1], orders="hold")
        set_each(t.game, brigades[2::3], kind="cavalry_mounted")
        set_each(t.game, brigades_of(t.game, "defender")[:1], kind="cavalry_mounted")

    costs.each(moving)
    costs.pages("move")
    costs.measure("a maneuver roll", lambda t: roll_post(t, brigade(t, 0), **helped(t)))
    costs.measure("a movement allowance", lambda t: movement_post(t, brigade(t, 0)), events=0)
    costs.measure(
        "the charge bonus used",
        lambda t: t.post(
            f"act/charge-bonus/unit-{brigade(t, 0).pk}/",
            {"version": t.game.version, "used": "1", "action": "advance"},
            f"row-unit-{brigade(t, 0).pk}",
        ),
    )
    costs.measure("a formation change", lambda t: formation_post(t, brigade(t, 1), "single_line"))
    costs.measure("skirmishers deployed", lambda t: skirmishers_post(t, brigade(t, 1), 1))
    costs.measure("a brigade dismounts", lambda t: mount_post(t, brigade(t, 2), "0"))
    costs.measure(
        "the defender's cavalry dismounts in reaction",
        lambda t: t.post(
            f"act/mount/unit-{brigades_of(t.game, 'defender')[0].pk}/",
            {
                f"mount-{brigades_of(t.game, 'defender')[0].piece.name}-{k}": v
                for k, v in (("version", t.game.version), ("mount", "0"))
            },
        ),
    )
    costs.measure("a dismounted brigade's movement allowance", lambda t: movement_post(t, brigade(t, 2)), events=0)
    costs.measure("a battery's functions", lambda t: functions_post(t, batteries_of(t.game, "attacker")[0], "limber"))
    first_defending = lambda t: batteries_of(t.game, "defender")[0]  # noqa: E731
    costs.measure(
        "a defending battery's row opened for passing fire",
        lambda t: t.get(f"rows/unit-{first_defending(t).pk}/"),
        events=0,
    )
    costs.measure(
        "passing fire, with tandem and adjacent targets",
        lambda t: passing_post(t, first_defending(t), brigades_of(t.game, "attacker")[:3]),
    )
    costs.leave("move")
    costs.check()


# --- what the table may do at any step ---------------------------------------------------------------------


def test_undo_a_correction_and_orders_cost_the_same_at_every_size(costs):
    def moved(t: Table) -> None:
        go_to(t.game, "move")
        for unit in brigades_of(t.game, "attacker")[::2]:
            roll_post(t, unit)()

    costs.each(moved)
    costs.measure("undo", lambda t: t.post("undo/", {"version": t.game.version}))
    unit = lambda t: units_of(t.game, "defender")[0]  # noqa: E731
    division = lambda t: divisions_of(t.game, "defender")[0]  # noqa: E731
    costs.measure("a correction", lambda t: t.post(f"units/{unit(t).pk}/m_plus/", {"version": t.game.version}))
    costs.measure(
        "a correction from its division's page",
        lambda t: t.post(f"units/{unit(t).pk}/m_plus/", {"version": t.game.version}, f"division-{unit(t).division_id}"),
    )
    costs.measure(
        "orders",
        lambda t: t.post(
            f"divisions/{division(t).pk}/orders/",
            {"version": t.game.version, "orders": "attack"},
            f"division-{division(t).pk}",
        ),
    )
    costs.measure(
        "a unit moved to another division from its division's page",
        lambda t: t.post(
            f"reassign/{unit(t).pk}/",
            {"version": t.game.version, "division": divisions_of(t.game, "defender")[-1].pk},
            f"division-{unit(t).division_id}",
        ),
    )
    costs.each(lambda t: set_each(t.game, units_of(t.game, "defender"), forced_move="W"))
    costs.measure(
        "a forced move blocked from its division's page",
        lambda t: t.post(f"blocked/{unit(t).pk}/", {"version": t.game.version}, f"division-{unit(t).division_id}"),
    )
    costs.measure("a forced move blocked", lambda t: t.post(f"blocked/{unit(t).pk}/", {"version": t.game.version}))
    costs.measure("the order of battle", lambda t: t.get("units/"), events=0)
    costs.measure("a division's page", lambda t: t.get(f"divisions/{division(t).pk}/"), events=0)
    costs.measure("the turn log", lambda t: t.get("log/"), events=0)
    costs.measure(
        "following a corps", lambda t: t.post("follow/", {"follow": f"command-{division(t).parent_id}"}), events=0
    )
    costs.measure("the page of a device following a corps", lambda t: t.page(), events=0)
    costs.check()


# --- the ends of a turn ----------------------------------------------------------------------------------------


def worn(t: Table, player_turn: int) -> None:
    """Everything that lasts one player turn is set on the units, divisions and leaders, at the turn's last step."""
    game = t.game
    for i, unit in enumerate(Unit.objects.filter(game=game).order_by("order")):
        fields: dict[str, Any] = {"p_hits_turn": 1 + i % 2, "forced_move": "Re" if i % 3 else "F"}
        if unit.battery:
            fields.update(fired_this_turn=True, functions_used=["limber", "move"])
        else:
            fields.update(charge_bonus_used=bool(i % 2), base_hits_turn=1)
        set_each(game, [unit], **fields)
    set_each(game, divisions_of(game, "defender"), panicked=True, orders="attack")
    set_each(game, leaders_of(game, "attacker", "division"), replaced_this_turn=True)
    go_to(game, "adjoining_panic", player_turn=player_turn)


def test_the_end_of_a_player_turn_costs_the_same_at_every_size(costs):
    costs.each(lambda t: worn(t, 1))
    costs.pages("the last step of a player turn")
    costs.measure("the end of a player turn", lambda t: t.next_step())
    costs.measure("undoing the end of a player turn", lambda t: t.post("undo/", {"version": t.game.version}))
    costs.measure("the turn log", lambda t: lambda: t.client.get(t.path("log/")), events=0)
    costs.check()


def test_the_end_of_a_game_turn_costs_the_same_at_every_size(costs):
    costs.each(lambda t: worn(t, 2))
    costs.measure("the end of a game turn", lambda t: t.next_step())
    costs.pages("the first step of a game turn")
    costs.check()
