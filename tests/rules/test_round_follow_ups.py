"""What follows an assault round on the units (4.2, 5.5, 5.6): the attackers' break off (unless stalled) or
breakthrough (unless forced back), the charge disorder a breakthrough costs, and the saved fire the
assault uses up. Each round reads a printed outcome set over the three column tables, so a test fixes the
outcome it needs and the rest follows from the stored chart."""

import pytest

from republic.rules.assault import AssaultRoundInput, resolve_assault_round
from republic.rules.assault_on_units import RoundUnit, after_round, resolve_round_on_units
from republic.rules.assault_sides import AssaultSide, Contact
from republic.rules.assault_table import AssaultColumn, OutcomeAction
from republic.rules.dice import d10
from republic.rules.troops import Cover, Grade, UnitKind
from republic.rules.units import disorder_input
from tests.rules.printed_rounds import Round, index, taking_part
from tests.rules.unit_states import battery, brigade

# --- break off ---------------------------------------------------------------------------------------


def test_attacking_brigades_that_break_off_take_one_m(chart):
    """5.5 (R:1771-1773)."""
    r = Round(
        chart,
        "attacker break off",
        (taking_part(brigade("a")), taking_part(brigade("b", m_hits=2))),
        (taking_part(brigade("def")),),
    )
    assert [b.unit for b in r.result.broke_off] == ["a", "b"]
    assert (r.after("a").m_hits, r.after("b").m_hits) == (1, 3)
    assert r.after("def") == r.units["def"]


def test_a_demoralized_brigade_breaking_off_takes_the_m_as_a_p_and_makes_its_panic_move(chart):
    r = Round(chart, "attacker break off", (taking_part(brigade("a", m_hits=4)),), (taking_part(brigade("def")),))
    after = r.after("a")
    assert (after.m_hits, after.p_hits_turn, after.forced_move) == (4, 1, index(chart, Grade.AVERAGE, 1).move)


def test_stalled_attackers_do_not_break_off_and_take_no_m(chart):
    """5.5 Stalled Assaults: no movement left to break off."""
    r = Round(chart, "attacker break off", (taking_part(brigade("a")),), (taking_part(brigade("def")),), stalled=True)
    assert r.result.broke_off == ()
    assert r.after("a") == r.units["a"]


def test_a_battery_among_the_attackers_does_not_break_off(chart):
    r = Round(
        chart,
        "attacker break off",
        (taking_part(brigade("a")), taking_part(battery("guns"))),
        (taking_part(brigade("def")),),
    )
    assert [b.unit for b in r.result.broke_off] == ["a"]
    assert r.after("guns").m_hits == 0


def test_an_attacker_destroyed_by_the_round_does_not_break_off(chart):
    r = Round(
        chart,
        "attacker 2B break off",
        (taking_part(brigade("a", bases=2, bases_start=6)),),
        (taking_part(brigade("def")),),
    )
    assert r.result.broke_off == ()
    after = r.after("a")
    assert after.destroyed and after.m_hits == 0


def test_break_off_finds_the_attacker_in_the_condition_its_losses_left_it(chart):
    """The losses come first: 1M from the natural roll, then the break off's 1M."""
    r = Round(
        chart,
        "attacker break off",
        (taking_part(brigade("a", m_hits=2)),),
        (taking_part(brigade("def")),),
        attacker_roll=3,
        defender_roll=5,
    )
    assert r.round.attacker.natural_m == 1
    broke = r.result.broke_off[0].result
    assert broke.m_before == 3
    assert r.after("a").m_hits == 4


# --- breakthrough ------------------------------------------------------------------------------------


def test_attackers_that_must_break_through_use_their_charge_bonus_unless_forced_back(chart):
    """5.5: must breakthrough moves the attackers on with their assault movement; one that the round forced
    back (a demoralized brigade taking the natural roll's M as a P) does not."""
    r = Round(
        chart,
        "defender 2P must breakthrough",
        (taking_part(brigade("a")), taking_part(brigade("b", m_hits=4))),
        (taking_part(brigade("def")),),
        attacker_roll=3,
        defender_roll=5,
    )
    assert r.result.break_through == ("a",)
    a, b = r.after("a"), r.after("b")
    assert a.charge_bonus_used and a.m_hits == 1 and a.forced_move is None
    assert not b.charge_bonus_used and b.forced_move is index(chart, Grade.AVERAGE, 1).move


def test_breaking_through_costs_charge_disorder_at_the_end_of_the_turn(chart):
    """5.5 then 5.6: units which use their assault movement bonus suffer one morale hit at the turn's end."""
    r = Round(chart, "defender 2P must breakthrough", (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    assert disorder_input(r.after("a"), attacker=True).used_charge_bonus


@pytest.mark.parametrize("outcome", ["defender 2P may breakthrough", "defender 2P carry", "defender 2P drive away"])
def test_only_a_must_breakthrough_moves_the_attackers_on(chart, outcome):
    r = Round(chart, outcome, (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    assert r.result.break_through == () and not r.after("a").charge_bonus_used


def test_an_infantry_overrun_is_a_must_breakthrough_on_the_units(chart):
    r = Round(chart, "defender 3P 1B overrun", (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    assert r.result.break_through == ("a",)


def test_infantry_attacking_beside_overrunning_cavalry_must_break_through(chart):
    printed = chart.overlay({c.table: "defender 3P 1B overrun" for c in AssaultColumn})
    cav, inf, d = brigade("cav", kind=UnitKind.CAVALRY_MOUNTED), brigade("inf"), brigade("def")
    round_ = resolve_assault_round(
        printed,
        AssaultRoundInput(
            AssaultSide.of(d10(5), ((cav, Contact.ALL_OUT, Cover.NONE), (inf, Contact.ALL_OUT, Cover.NONE))),
            AssaultSide.of(d10(5), ((d, Contact.ALL_OUT, Cover.NONE),)),
        ),
    )
    assert round_.outcome.action is OutcomeAction.OVERRUN
    result = resolve_round_on_units(
        printed,
        round_,
        (RoundUnit(cav, Contact.ALL_OUT), RoundUnit(inf, Contact.ALL_OUT)),
        (RoundUnit(d, Contact.ALL_OUT),),
    )
    assert result.break_through == ("inf",) and after_round(inf, result).charge_bonus_used


# --- saved fire --------------------------------------------------------------------------------------


def test_an_assault_uses_up_the_saved_fire_of_every_battery_in_it(chart):
    """4.2 (R:1078-1080): involvement in an assault causes all participating batteries to lose saved fire."""
    r = Round(
        chart,
        "roll again",
        (taking_part(brigade("a")), taking_part(battery("own", saved_fire=True))),
        (taking_part(brigade("def")), taking_part(battery("theirs", saved_fire=True))),
    )
    assert set(r.result.saved_fire_used) == {"own", "theirs"}
    assert not r.after("own").saved_fire and not r.after("theirs").saved_fire
    assert r.round.defender.modifiers and any("saved fire" in m.label for m in r.round.defender.modifiers)


def test_a_unit_not_in_the_round_is_left_as_it_was(chart):
    r = Round(chart, "defender 1P", (taking_part(brigade("a")),), (taking_part(brigade("def")),))
    bystander = brigade("elsewhere", m_hits=1, saved_fire=False)
    assert after_round(bystander, r.result) == bystander
    assert r.result.loss("elsewhere") is None
