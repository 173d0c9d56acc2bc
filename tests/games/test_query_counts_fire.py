"""The same number of queries whatever the battle's size, for every page and action of the fire phase: skirmish
blocks and attacks, artillery fire and saved fire, the hits put on when the artillery step ends, the hors de
combat checks and the demoralized panic tests (query_helpers)."""

import pytest

from republic.games.models import Unit
from republic.games.steps import artillery_fire, demoralized_panic, skirmish
from tests.games.conftest import fresh
from tests.games.query_helpers import (
    Costs,
    Send,
    Table,
    batteries_of,
    battles,
    brigades_of,
    go_to,
    leader_checks_cost_the_same,
    set_each,
)


@pytest.fixture
def costs(db) -> Costs:
    return Costs(battles())


# --- skirmish ------------------------------------------------------------------------------------------------


def skirmishers_out(t: Table) -> None:
    """Every brigade of both sides has its skirmishers out, at the skirmish step."""
    for side in ("attacker", "defender"):
        for unit in brigades_of(t.game, side):
            set_each(t.game, [unit], skirmishers_deployed=unit.skirmishers_available)
    go_to(t.game, "skirmish")


def declare_post(t: Table, every: int = 2) -> Send:
    """Every ``every``-th defending marker tries to block the attacking marker at its place (0: no block)."""
    s = skirmish.state(fresh(t.game))
    data: dict[str, object] = {"skirmish-declare-version": t.game.version}
    if every:
        for blocker, target in zip(s.defenders[::every], s.attackers[::every], strict=False):
            data[f"skirmish-declare-{blocker.field}"] = target.id
    return t.post(f"act/declare-blocks/game-{t.game.pk}/", data)


def rolls_post(t: Table) -> Send:
    s = skirmish.state(fresh(t.game))
    data: dict[str, object] = {"skirmish-rolls-version": t.game.version, "roll": "typed"}
    for i, _ in enumerate(s.declared.blocks if s.declared else ()):
        data[f"skirmish-rolls-die_{i}"] = "9" if i % 2 else "2"
    return t.post(f"act/roll-blocks/game-{t.game.pk}/", data)


def attack_post(t: Table, brigade: Unit, target: Unit, printed: str = "") -> Send:
    prefix = f"skirmish-{brigade.piece.name}"
    data = {
        f"{prefix}-version": fresh(t.game).version,
        f"{prefix}-die": "10",
        f"{prefix}-range": "1",
        f"{prefix}-target": target.key,
        f"{prefix}-printed": printed,
        "roll": "typed",
    }
    return t.post(f"act/skirmish-attack/unit-{brigade.pk}/", data, f"row-unit-{brigade.pk}")


def attacks(t: Table, skip: int = 1) -> None:
    """Every attacking brigade with a marker left fires but the first ``skip``; every third marker flees."""
    s = skirmish.state(fresh(t.game))
    enemies = s.enemies()
    for i, (brigade, _) in enumerate(s.attacks_left()[skip:]):
        attack_post(t, brigade, enemies[i % len(enemies)], "flee" if i % 3 == 0 else "hit")()


def test_skirmish_costs_the_same_at_every_size(costs):
    costs.each(skirmishers_out)
    costs.pages("skirmish, declaring blocks")
    costs.measure("skirmish blocks declared", declare_post)
    costs.pages("skirmish, rolling blocks")
    costs.measure("skirmish blocks rolled", rolls_post)
    costs.each(attacks)
    costs.pages("skirmish, attacking")

    def first_attack(t: Table) -> Send:
        s = skirmish.state(fresh(t.game))
        return attack_post(t, s.attacks_left()[0][0], s.enemies()[-1])

    costs.measure("a skirmish attack", first_attack)
    costs.leave("skirmish")
    costs.check()


# --- artillery fire ------------------------------------------------------------------------------------------


def fire_post(t: Table, battery: Unit, printed: str = "", joined: tuple[Unit, ...] = (), extra: int = 0) -> Send:
    """``battery`` fires at the first of its enemies in play (and with ``extra`` the next as tandem and adjacent)."""
    s = artillery_fire.state(fresh(t.game))
    enemies = s.enemies(battery)
    prefix = f"fire-{battery.piece.name}"
    data = {
        f"{prefix}-version": t.game.version,
        f"{prefix}-die": "5",
        f"{prefix}-range": "3",
        f"{prefix}-target": enemies[0].key,
        f"{prefix}-cover": "none",
        f"{prefix}-printed": printed,
        f"{prefix}-joined": [b.key for b in joined],
        "roll": "typed",
    }
    if extra:
        data.update({f"{prefix}-tandem": enemies[1].key, f"{prefix}-adjacent": enemies[2].key})
    return t.post(f"act/artillery-fire/unit-{battery.pk}/", data, f"row-unit-{battery.pk}")


def under_fire(t: Table, every: int = 2) -> None:
    """Skirmish hits are waiting and (unless ``every`` is 0) every other battery but the first two and the last
    has fired, at the artillery step."""
    skirmishers_out(t)
    declare_post(t, every=0)()
    attacks(t, skip=0)
    t.next_step()()
    s = artillery_fire.state(fresh(t.game))
    ready = s.batteries(s.ready)
    for battery in ready[2:-1:every] if every else ():
        fire_post(t, battery, printed="1M 1B")()
    assert fresh(t.game).step == "artillery_fire"


def test_artillery_fire_costs_the_same_at_every_size(costs):
    # no battery fires beforehand: after the joint fire and the save, the small battle has a battery left to draw
    costs.each(lambda t: under_fire(t, every=0))

    def functions_used(t: Table) -> None:
        """Some batteries unlimbered in place (they may fire), some limbered and unlimbered again (no function
        left to fire with, only saving it): as many more in the larger battle."""
        ready = artillery_fire.state(fresh(t.game)).batteries(artillery_fire.state(fresh(t.game)).ready)
        set_each(t.game, ready[2:-1:3], functions_used=["unlimber"])
        set_each(t.game, ready[3:-1:3], functions_used=["limber", "unlimber"])

    costs.each(functions_used)
    costs.pages("artillery fire")

    def joint_fire(t: Table) -> Send:
        s = artillery_fire.state(fresh(t.game))
        first, second, *_ = s.batteries(s.ready)
        return fire_post(t, first, joined=(second,), extra=2)

    def save(t: Table) -> Send:
        s = artillery_fire.state(fresh(t.game))
        battery = s.batteries(s.ready)[-1]
        saving = {f"save-{battery.piece.name}-version": t.game.version}
        return t.post(f"act/save-fire/unit-{battery.pk}/", saving, f"row-unit-{battery.pk}")

    costs.measure("artillery fire, joint, with tandem and adjacent targets", joint_fire)
    costs.measure("saved fire", save)
    costs.leave("artillery fire, putting every hit on")
    costs.measure("undoing the hits of the fire phase", lambda t: t.post("undo/", {"version": t.game.version}))
    costs.check()


def test_the_artillery_step_after_passing_fire_costs_the_same_at_every_size(costs):
    def passed(t: Table) -> None:
        """Every other defending battery made passing fire in the move: it does not fire here (R:1235-1237)."""
        go_to(t.game, "move")
        targets = brigades_of(t.game, "attacker")
        for i, battery in enumerate(batteries_of(t.game, "defender")[1::2]):
            prefix = f"passing-{battery.piece.name}"
            data = {
                f"{prefix}-version": fresh(t.game).version,
                f"{prefix}-die": "5",
                f"{prefix}-range": "3",
                f"{prefix}-target": targets[i].key,
                f"{prefix}-cover": "none",
                f"{prefix}-printed": "1M",
                "roll": "typed",
            }
            t.post(f"act/passing-fire/unit-{battery.pk}/", data)()
        under_fire(t, every=0)

    costs.each(passed)
    costs.pages("artillery fire after passing fire")
    costs.check()


def test_fire_at_a_battery_that_prolonged_costs_the_same_at_every_size(costs):
    def prolonged(t: Table) -> None:
        """Every attacking battery prolonged: enemy artillery's hits land on it at once, before it fires (3.5)."""
        set_each(t.game, batteries_of(t.game, "attacker"), functions_used=["prolong"])
        under_fire(t, every=0)

    costs.each(prolonged)
    costs.pages("artillery fire with prolonged batteries")

    def at_prolonged(t: Table) -> Send:
        """The first defending battery fires at the first attacking battery."""
        firing, target = batteries_of(t.game, "defender")[0], batteries_of(t.game, "attacker")[0]
        prefix = f"fire-{firing.piece.name}"
        data = {
            f"{prefix}-version": fresh(t.game).version,
            f"{prefix}-die": "5",
            f"{prefix}-range": "3",
            f"{prefix}-target": target.key,
            f"{prefix}-cover": "none",
            f"{prefix}-printed": "1M 1B",
            "roll": "typed",
        }
        return t.post(f"act/artillery-fire/unit-{firing.pk}/", data, f"row-unit-{firing.pk}")

    costs.measure("artillery fire at a battery that prolonged, its hits on at once", at_prolonged)
    costs.measure(
        "the prolonged battery's own fire, after them",
        lambda t: fire_post(t, batteries_of(t.game, "attacker")[0], printed="1M"),
    )
    costs.check()


# --- hors de combat after fire -------------------------------------------------------------------------------


def test_hors_de_combat_after_fire_costs_the_same_at_every_size(costs):
    def fired(t: Table) -> None:
        under_fire(t)
        t.next_step()()
        assert fresh(t.game).step == "fire_hors_de_combat"

    costs.each(fired)
    leader_checks_cost_the_same(costs, "hors de combat after fire", passing=1)  # no demoralized unit to test


# --- demoralized panic ---------------------------------------------------------------------------------------


def panic_post(t: Table, unit: Unit) -> Send:
    data = {f"panic-{unit.piece.name}-version": fresh(t.game).version}
    return t.post(f"act/demoralized-panic-test/unit-{unit.pk}/", data, f"row-unit-{unit.pk}")


def to_test(t: Table) -> list[Unit]:
    return demoralized_panic.state(fresh(t.game)).to_test


def test_demoralized_panic_costs_the_same_at_every_size(costs):
    def demoralized(t: Table) -> None:
        for side in ("attacker", "defender"):
            for i, unit in enumerate(brigades_of(t.game, side)[::2]):
                set_each(t.game, [unit], m_hits=4, p_hits_turn=1 + i % 3)
        go_to(t.game, "demoralized_panic")

    costs.each(demoralized)
    costs.pages("demoralized panic")
    costs.measure("a demoralized panic test", lambda t: panic_post(t, to_test(t)[0]))
    costs.each(lambda t: [panic_post(t, unit)() for unit in to_test(t)])
    costs.leave("demoralized panic")
    costs.check()
