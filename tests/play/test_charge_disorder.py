"""The charge disorder step's decisions (5.6) without a database: which units suffer it and why, and what applying
it changes."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.play.charge_disorder import DisorderStep, apply, is_due, suffering
from republic.play.refusal import Refused
from republic.rules.forced_moves import ForcedMove
from republic.rules.morale import MAX_M_HITS
from tests.play.assault_states import batteries, brigades
from tests.rules.unit_states import battery, brigade


def ids(disorders) -> list[str]:
    return [d.unit.id for d in disorders]


def test_the_attackers_brigades_that_charged_and_every_unit_that_retreated_suffer_it():
    attackers = [
        brigade("charged", charge_bonus_used=True),
        brigade("still"),
        brigade("routed", forced_move=ForcedMove.ROUT),
        battery("guns", forced_move=ForcedMove.RETREAT),
        brigade("fell back", forced_move=ForcedMove.FALL_BACK),
        brigade("gone", charge_bonus_used=True, destroyed=True),
    ]
    defenders = [brigade("countered", charge_bonus_used=True), brigade("retreated", forced_move=ForcedMove.RETREAT)]
    found = suffering(attackers, defenders)
    assert ids(found) == ["charged", "routed", "guns", "retreated"]
    assert [(d.why.used_charge_bonus, d.why.retreated_or_routed) for d in found] == [
        (True, False),
        (False, True),
        (False, True),
        (False, True),
    ]


def test_applying_it_gives_each_unit_one_m_once_and_marks_those_the_table_named(chart):
    step = DisorderStep(suffering([brigade("a", charge_bonus_used=True, m_hits=1)], []))
    assert is_due(step)
    applied = apply(chart, step, [brigade("b")])
    assert [(d.after.id, d.after.m_hits, d.after.charge_bonus_used, d.disorder.also) for d in applied.done] == [
        ("a", 2, True, False),
        ("b", 1, True, True),
    ]
    assert not is_due(applied.step)
    with pytest.raises(Refused, match="already applied this turn"):
        apply(chart, applied.step, [brigade("c")])


def test_with_no_unit_to_disorder_there_is_nothing_due_and_applying_is_refused(chart):
    step = DisorderStep(suffering([brigade("a")], [brigade("b", charge_bonus_used=True)]))
    assert not is_due(step)
    with pytest.raises(Refused, match="No unit suffers charge disorder this turn"):
        apply(chart, step)


def test_a_battery_the_table_names_as_having_charged_is_not_disordered_for_it(chart):
    applied = apply(chart, DisorderStep(()), [battery("guns")])
    assert applied.done[0].after.m_hits == 0


UNITS = st.lists(
    st.tuples(
        st.one_of(brigades("u"), batteries("u")), st.booleans(), st.sampled_from([None, *ForcedMove]), st.booleans()
    ),
    max_size=8,
)


def units_of(drawn) -> list:
    return [
        replace(u, id=f"u{n}", charge_bonus_used=charged, forced_move=moved, destroyed=gone)
        for n, (u, charged, moved, gone) in enumerate(drawn)
    ]


@given(UNITS, UNITS)
def test_a_unit_suffers_it_exactly_when_in_play_and_it_charged_attacking_or_retreated(attackers, defenders):
    attackers, defenders = units_of(attackers), [replace(u, id=f"d{u.id}") for u in units_of(defenders)]
    found = set(ids(suffering(attackers, defenders)))
    for unit, attacking in [(u, True) for u in attackers] + [(u, False) for u in defenders]:
        charged = attacking and unit.charge_bonus_used and not unit.battery
        assert (unit.id in found) is (not unit.out_of_play and (charged or unit.retreated))


@given(UNITS, st.sets(st.integers(0, 7)), st.randoms(use_true_random=False))
def test_whatever_order_the_table_names_its_units_in_each_takes_one_m_the_same(chart, drawn, named, rng):
    units = units_of(drawn)
    step = DisorderStep(suffering(units, []))
    due = set(ids(step.due))
    also = [u for n, u in enumerate(units) if n in named and u.id not in due and not u.out_of_play]
    shuffled = list(also)
    rng.shuffle(shuffled)

    def outcome(named_units):
        return {d.after.id: d.after for d in apply(chart, step, named_units).done} if step.due or named_units else {}

    once = outcome(also)
    assert outcome(shuffled) == once
    for unit in [d.unit for d in step.due] + also:
        # a battery the table names has no charge movement to be disordered for (5.6)
        disordered = unit.id in due or not unit.battery
        assert once[unit.id].m_hits == min(unit.m_hits + disordered, MAX_M_HITS)
