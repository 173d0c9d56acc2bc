"""The same number of queries whatever the battle's size, for every page and action of the assault and panic
phases: declaring, resolving and ending assaults, the hors de combat checks after them, charge disorder, and the
internal and adjoining division panic tests (query_helpers)."""

from typing import Any

import pytest

from republic.games.models import Command, Event, Unit
from republic.games.steps import charge_disorder, division_panic
from republic.games.steps.assaults.follow_up import movers, recorded
from republic.games.steps.assaults.passage import losers
from republic.games.steps.assaults.state import state as assault_state
from republic.rules.panic_phase import adjoining_choices
from tests.games.assault_helpers import declare_data, round_data
from tests.games.conftest import fresh, rolled_for_assault
from tests.games.query_helpers import (
    Costs,
    Send,
    Table,
    battles,
    brigades_of,
    divisions_of,
    go_to,
    leader_checks_cost_the_same,
    set_each,
    units_of,
)


@pytest.fixture
def costs(db) -> Costs:
    return Costs(battles())


def members(division: Command, brigades: int, battery: bool = False) -> list[Unit]:
    units = list(Unit.objects.filter(division=division).order_by("order"))
    return [u for u in units if not u.battery][:brigades] + ([u for u in units if u.battery] if battery else [])


# --- assaults ------------------------------------------------------------------------------------------------


def declare_post(t: Table, k: int, battery: bool = False) -> Send:
    """Two brigades of the attacker's division ``k`` assault two of the defender's division ``k``."""
    game = t.game
    attackers = members(divisions_of(game, "attacker")[k], 2)
    defenders = members(divisions_of(game, "defender")[k], 2, battery)
    data = declare_data(
        game, [(u, "all_out") for u in attackers], [(u, "general") for u in defenders], primary=defenders[0]
    )
    return t.post(f"act/declare-assault/game-{t.game.pk}/", data)


def declared(t: Table) -> list[int]:
    return list(Event.objects.filter(game=t.game, kind="AssaultDeclared").order_by("seq").values_list("seq", flat=True))


def round_post(t: Table, seq: int) -> Send:
    return t.post(f"act/assault-round/assault-{seq}/", round_data(t.game, seq, die="6", die2="4"), f"row-assault-{seq}")


def end_post(t: Table, seq: int) -> Send:
    return t.post(f"act/end-assault/assault-{seq}/", {"version": fresh(t.game).version})


def test_assaults_cost_the_same_at_every_size(costs):
    def assaulting(t: Table) -> None:
        rolled_for_assault(t.game)  # a brigade declares an assault when its maneuver roll allows one
        go_to(t.game, "assaults")
        for k in range(1, len(divisions_of(t.game, "attacker"))):
            declare_post(t, k, battery=True)()
        for seq in declared(t)[::2]:
            round_post(t, seq)()

    costs.each(assaulting)
    costs.pages("assaults")
    costs.measure("an assault declared", lambda t: declare_post(t, 0))
    costs.measure("an assault round", lambda t: round_post(t, declared(t)[-1]))

    def column(t: Table) -> Send:
        seq = declared(t)[-1]
        unit = members(divisions_of(t.game, "attacker")[0], 1)[0]
        query = {f"round-assault-{seq}-cover-{unit.piece.name}": "light", f"round-assault-{seq}-struck": "flank"}
        return lambda: t.client.get(t.path(f"assault/{seq}/column/"), query, HTTP_HX_REQUEST="true")

    costs.measure("an assault's column", column, events=0)

    def supporting(t: Table) -> Send:
        s = assault_state(fresh(t.game))
        busy = s.busy()
        primary = s.assaults[0].defenders[0].unit
        helper = next(u for u in brigades_of(t.game, "defender") if u.key not in busy and u.bases >= 3)
        data = {
            "supporting-version": t.game.version,
            "supporting-unit": helper.name,
            "supporting-supporting_bases": "1",
            "supporting-primary": primary.name,
            "supporting-move": "D",
        }
        return t.post(f"act/supporting-hit/game-{t.game.pk}/", data)

    costs.measure("a supporting brigade's hit", supporting)

    def passage(t: Table) -> Send:
        s = assault_state(fresh(t.game))
        found = losers(s)
        side = next(side for side in ("defender", "attacker") if found[side])
        loser = found[side][0].unit
        friend = next(u for u in brigades_of(t.game, side) if u.key not in s.busy() and u.key != loser.key)
        data = {
            "passage-version": t.game.version,
            "passage-side": side,
            "passage-unit": friend.key,
            "passage-passers": [loser.key],
            f"passage-distance-{loser.piece.name}": "2",
        }
        return t.post(f"act/passage-of-lines/game-{t.game.pk}/", data)

    costs.measure("a lose/lose passage of lines", passage)
    costs.measure("an assault ended", lambda t: end_post(t, declared(t)[-1]))
    costs.each(lambda t: [end_post(t, seq)() for seq in declared(t)[:-1]])
    costs.leave("assaults", passing=1)  # no base lost in the assaults: no leader at risk
    costs.check()


def test_the_attackers_moves_cost_the_same_at_every_size(costs):
    """A local breakthrough before the rounds, then the moves after a round that lets the attackers carry."""

    def ready(t: Table) -> None:
        rolled_for_assault(t.game)
        go_to(t.game, "assaults")

    costs.each(ready)

    def breakthrough(t: Table) -> Send:
        unit = members(divisions_of(t.game, "attacker")[1], 1)[0]
        data = {"breakthrough-version": t.game.version, "breakthrough-unit": unit.name, "breakthrough-used_bonus": "on"}
        return t.post(f"act/local-breakthrough/game-{t.game.pk}/", data)

    costs.measure("a local breakthrough", breakthrough)
    costs.each(lambda t: declare_post(t, 0)())
    costs.each(
        lambda t: t.post(
            f"act/assault-round/assault-{declared(t)[-1]}/", round_data(t.game, declared(t)[-1], die="10", die2="1")
        )()
    )

    def moves(t: Table) -> Send:
        seq = declared(t)[-1]
        s = assault_state(fresh(t.game))
        found = movers(s.find(seq), recorded(s))
        assert found, "the round left the attackers a move to choose"
        data = {f"follow-assault-{seq}-version": t.game.version}
        data.update({f"follow-assault-{seq}-move-{m.member.unit.piece.name}": m.moves[0].value for m in found})
        return t.post(f"act/follow-up/assault-{seq}/", data, f"row-assault-{seq}")

    costs.measure("the attackers' moves after a round", moves)
    costs.check()


def test_hors_de_combat_after_assaults_costs_the_same_at_every_size(costs):
    def lost_bases(t: Table) -> None:
        go_to(t.game, "assaults")
        for side in ("attacker", "defender"):
            for division in divisions_of(t.game, side):
                unit = members(division, 1)[0]
                t.post(f"units/{unit.pk}/base_minus/", {"version": fresh(t.game).version})()
        t.next_step()()
        assert fresh(t.game).step == "assault_hors_de_combat"

    costs.each(lost_bases)
    leader_checks_cost_the_same(costs, "hors de combat after assaults")


# --- charge disorder -------------------------------------------------------------------------------------------


def test_charge_disorder_costs_the_same_at_every_size(costs):
    def charged(t: Table) -> None:
        set_each(t.game, brigades_of(t.game, "attacker")[::2], charge_bonus_used=True)
        set_each(t.game, units_of(t.game, "defender")[::3], forced_move="Re")
        go_to(t.game, "charge_disorder")

    costs.each(charged)
    costs.pages("charge disorder")

    def disorder(t: Table) -> Send:
        also = [u.piece.name for u in charge_disorder.state(t.game).others()[::2]]
        return t.post(
            f"act/charge-disorder/game-{t.game.pk}/", {"disorder-version": t.game.version, "disorder-also": also}
        )

    costs.measure("charge disorder applied", disorder)
    costs.leave("charge disorder", passing=2)  # no division to test in the panic phase
    costs.check()


# --- the panic phase -------------------------------------------------------------------------------------------


def panic_post(t: Table, test: Any, die: str = "5") -> Send:
    prefix = f"panic-command-{test.division}"
    data = {f"{prefix}-version": fresh(t.game).version, f"{prefix}-die": die, f"{prefix}-die2": die, "roll": "typed"}
    return t.post(f"act/panic-test/command-{test.division}/", data, f"row-command-{test.division}")


def adjoining_post(t: Table, key: str, adjoining: list[str]) -> Send:
    prefix = f"adjoining-command-{key}"
    data = {f"{prefix}-version": fresh(t.game).version, f"{prefix}-adjoining": adjoining}
    return t.post(f"act/adjoining/command-{key}/", data)


def panic_state(t: Table) -> division_panic.PanicState:
    return division_panic.state(fresh(t.game))


def shaken_divisions(t: Table) -> None:
    """A unit of every division had a Panic 4 event this turn, at internal panic."""
    for side in ("attacker", "defender"):
        for division in divisions_of(t.game, side):
            set_each(t.game, members(division, 1), p4_event=True)
    go_to(t.game, "internal_panic")


def roll_every_test(t: Table) -> None:
    """Every test waiting is rolled: every other division panics."""
    for i, test in enumerate(panic_state(t).lacking):
        panic_post(t, test, die="1" if i % 2 == 0 else "9")()


def test_internal_panic_costs_the_same_at_every_size(costs):
    costs.each(shaken_divisions)
    costs.pages("internal panic")
    costs.measure("a division panic test", lambda t: panic_post(t, panic_state(t).lacking[0], die="1"))
    costs.each(roll_every_test)
    costs.leave("internal panic")
    costs.check()


def test_adjoining_panic_costs_the_same_at_every_size(costs):
    def panicked(t: Table) -> None:
        shaken_divisions(t)
        roll_every_test(t)
        t.next_step()()
        assert fresh(t.game).step == "adjoining_panic"

    costs.each(panicked)
    costs.pages("adjoining panic, naming adjoining divisions")

    def adjoining(t: Table) -> Send:
        s = panic_state(t)
        first = s.undeclared[0]
        return adjoining_post(t, first, list(adjoining_choices(tuple(s.phase.values()), first)))

    costs.measure("adjoining divisions named", adjoining)
    costs.each(lambda t: [adjoining_post(t, key, [])() for key in panic_state(t).undeclared])
    costs.pages("adjoining panic, testing")
    costs.measure("an adjoining panic test", lambda t: panic_post(t, panic_state(t).lacking[0], die="9"))

    def settle(t: Table) -> None:
        while (s := panic_state(t)).undeclared or s.lacking:
            if s.undeclared:
                adjoining_post(t, s.undeclared[0], [])()
            else:
                panic_post(t, s.lacking[0], die="9")()

    costs.each(settle)
    costs.leave("adjoining panic, ending the player turn")
    costs.check()
