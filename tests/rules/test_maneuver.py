"""Maneuver (3.2): the Maneuver table, its die roll modifiers and the actions a brigade may combine."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.codec import decode, encode
from republic.rules.dice import Roll, d10
from republic.rules.errors import RulesInputError
from republic.rules.maneuver import (
    ROLLED_ACTIONS,
    ManeuverAction,
    ManeuverInput,
    assault_refusal,
    maneuver_test,
    resolve_maneuver,
)
from republic.rules.results import Provenance
from republic.rules.troops import Grade, Leader, LeaderClass, UnitKind
from tests.rules.unit_states import battery, brigade

A = ManeuverAction
GRADES = list(Grade)


def threshold(chart, action, grade):
    return chart.cell("maneuver", action.value, grade.value)[0]


# --- worked example ---------------------------------------------------------------------------------


def test_green_modified_three_may_advance_hold_or_pull_back_but_not_maneuver_or_assault(chart):
    """T6 (R:660-662)."""
    result = maneuver_test(chart, Grade.GREEN, d10(3))
    assert result.modified_roll == 3
    assert set(result.actions) == {A.ADVANCE, A.HOLD, A.PULL_BACK}
    assert {c.action for c in result.refused} == {A.MANEUVER, A.ASSAULT}


def test_green_reaching_three_through_morale_hits_gets_the_same_actions(chart):
    """T6 (R:660-662) with the roll reached through modifiers: a natural 5 less 2 M hits."""
    result = maneuver_test(chart, Grade.GREEN, d10(5), m_hits=2)
    assert result.natural == 5 and result.modified_roll == 3
    assert set(result.actions) == {A.ADVANCE, A.HOLD, A.PULL_BACK}


# --- the table --------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ROLLED_ACTIONS)
def test_a_better_grade_never_needs_a_higher_number(chart, action):
    numbers = [threshold(chart, action, grade) for grade in GRADES]
    assert numbers == sorted(numbers)


@pytest.mark.parametrize("grade", GRADES)
def test_within_a_grade_the_more_ambitious_action_never_needs_less(chart, grade):
    numbers = [threshold(chart, action, grade) for action in ROLLED_ACTIONS]
    assert numbers == sorted(numbers, reverse=True)


@pytest.mark.parametrize("grade", GRADES)
@pytest.mark.parametrize("action", ROLLED_ACTIONS)
def test_every_threshold_is_within_reach_of_an_unmodified_d10(chart, grade, action):
    assert 1 <= threshold(chart, action, grade) <= 10


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("acting_together", 1),
        ("energetic_division_commander", 1),
        ("proficient_leader_within_2", 1),
        ("energetic_leader_within_2", 2),
        ("morale_hit", -1),
        ("cautious_division_commander", -1),
        ("division_leader_replaced", -3),
    ],
)
def test_maneuver_modifiers_are_the_rules_values_and_cite_them(chart, key, value):
    """R:663-683."""
    got, use = chart.entry("maneuver_modifiers", key)
    assert got == value
    assert use.provenance is Provenance.CONFIRMED and use.source.startswith("R:6")


def test_every_maneuver_result_says_it_rests_on_the_provisional_table(chart):
    assert maneuver_test(chart, Grade.VETERAN, d10(7)).provisional


# --- modifiers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "total"),
    [
        ({"division_commander": LeaderClass.ENERGETIC}, 1),
        ({"division_commander": LeaderClass.PROFICIENT}, 0),
        ({"division_commander": LeaderClass.CAUTIOUS}, -1),
        ({"division_commander": Leader.parse("E3")}, 1),
        ({"division_commander": Leader.parse("C0")}, -1),
        ({"proficient_leaders_within_2": 2}, 2),
        ({"energetic_leaders_within_2": 2}, 4),
        ({"m_hits": 3}, -3),
        ({"division_leader_replaced": True}, -3),
        ({"division_commander": LeaderClass.ENERGETIC, "energetic_leaders_within_2": 1, "m_hits": 1}, 2),
    ],
)
def test_die_roll_modifiers_add_up(chart, options, total):
    result = maneuver_test(chart, Grade.AVERAGE, d10(5), **options)
    assert result.modified_roll == 5 + total
    assert result.modifier_total == total
    assert all(m.section == "3.2" for m in result.modifiers)


def test_each_modifier_is_labelled_in_the_rules_words(chart):
    result = maneuver_test(
        chart, Grade.AVERAGE, d10(5), m_hits=2, energetic_leaders_within_2=1, division_leader_replaced=True
    )
    labels = {m.label: m.value for m in result.modifiers}
    assert labels == {'Each energetic leader within 2"': 2, "Each morale hit (x2)": -2, "Leader just replaced": -3}


def test_acting_together_counts_only_toward_the_shared_action(chart):
    """R:664-666: the +1 is earned by doing the same action as the other brigades."""
    result = maneuver_test(chart, Grade.GREEN, d10(5), acting_together=A.ASSAULT)
    assert result.modified_roll == 6
    checks = {c.action: c for c in (*result.allowed, *result.refused)}
    assert checks[A.ASSAULT].allowed and checks[A.ASSAULT].roll == 6
    assert checks[A.MANEUVER].roll == 5
    assert any("counts only toward assault" in note for note in result.notes)


def test_acting_together_does_not_lift_another_action_over_its_number(chart):
    maneuver_needs = threshold(chart, A.MANEUVER, Grade.VETERAN)
    result = maneuver_test(chart, Grade.VETERAN, d10(maneuver_needs - 1), acting_together=A.ADVANCE)
    assert A.MANEUVER not in result.actions
    alone = maneuver_test(chart, Grade.VETERAN, d10(maneuver_needs - 1), acting_together=A.MANEUVER)
    assert A.MANEUVER in alone.actions


def test_hold_is_always_allowed_and_needs_no_roll(chart):
    result = maneuver_test(chart, Grade.UNTRAINED, d10(1), m_hits=3, division_leader_replaced=True)
    assert result.modified_roll == -5
    assert result.actions == (A.HOLD,)
    assert result.allowed[0].needed is None


# --- morale condition -------------------------------------------------------------------------------


def test_demoralized_brigade_is_not_offered_advance_or_assault_whatever_it_rolls(chart):
    """2.3 (R:501-503): will not voluntarily advance toward any enemy."""
    result = maneuver_test(chart, Grade.CRACK, d10(10), m_hits=4, energetic_leaders_within_2=2)
    assert set(result.actions) == {A.HOLD, A.MANEUVER, A.PULL_BACK}
    refused = {c.action: c.reason for c in result.refused}
    assert set(refused) == {A.ADVANCE, A.ASSAULT}
    assert all("demoralized" in reason for reason in refused.values())


def test_the_restrictions_of_the_brigades_condition_come_as_notes(chart):
    shaken = maneuver_test(chart, Grade.CRACK, d10(10), m_hits=3)
    assert "shaken: infantry will not assault or advance on cavalry or artillery (2.3)" in shaken.notes
    assert A.ASSAULT in shaken.actions
    formed = maneuver_test(chart, Grade.CRACK, d10(10))
    assert not any(note.startswith("formed") for note in formed.notes)


def test_pulling_back_carries_its_limits_as_a_note(chart):
    result = maneuver_test(chart, Grade.CRACK, d10(5))
    assert any("no assault move bonus" in note for note in result.notes)


# --- invariants -------------------------------------------------------------------------------------

situations = st.fixed_dictionaries(
    {
        "m_hits": st.integers(0, 4),
        "division_commander": st.sampled_from([None, *LeaderClass]),
        "proficient_leaders_within_2": st.integers(0, 3),
        "energetic_leaders_within_2": st.integers(0, 3),
        "acting_together": st.sampled_from([None, *ROLLED_ACTIONS]),
        "division_leader_replaced": st.booleans(),
    }
)


@given(grade=st.sampled_from(GRADES), face=st.integers(1, 9), situation=situations)
def test_a_higher_roll_never_allows_fewer_actions(chart, grade, face, situation):
    lower = set(maneuver_test(chart, grade, d10(face), **situation).actions)
    higher = set(maneuver_test(chart, grade, d10(face + 1), **situation).actions)
    assert lower <= higher


@given(rank=st.integers(0, len(GRADES) - 2), face=st.integers(1, 10), situation=situations)
def test_a_better_grade_never_allows_fewer_actions(chart, rank, face, situation):
    better = set(maneuver_test(chart, GRADES[rank], d10(face), **situation).actions)
    worse = set(maneuver_test(chart, GRADES[rank + 1], d10(face), **situation).actions)
    assert worse <= better


@given(grade=st.sampled_from(GRADES), face=st.integers(1, 10), situation=situations)
def test_every_action_is_either_allowed_or_refused_once_and_hold_always_allowed(chart, grade, face, situation):
    result = maneuver_test(chart, grade, d10(face), **situation)
    actions = [c.action for c in (*result.allowed, *result.refused)]
    assert sorted(actions) == sorted(ManeuverAction)
    assert A.HOLD in result.actions


# --- bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"roll": Roll((4, 5))}, "roll"),
        ({"m_hits": 5}, "m_hits"),
        ({"m_hits": -1}, "m_hits"),
        ({"proficient_leaders_within_2": -1}, "proficient_leaders_within_2"),
        ({"energetic_leaders_within_2": -2}, "energetic_leaders_within_2"),
        ({"acting_together": A.HOLD}, "acting_together"),
    ],
)
def test_bad_input_is_refused_naming_the_field(options, field):
    values = {"grade": Grade.GREEN, "roll": d10(5), **options}
    with pytest.raises(RulesInputError) as err:
        ManeuverInput(**values)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"grade": "elite", "roll": 5}, "grade"),
        ({"grade": "green", "roll": 11}, "roll"),
        ({"grade": "green", "roll": 5, "division_commander": "X"}, "division_commander"),
        ({"grade": "green", "roll": 5, "acting_together": "charge"}, "acting_together"),
    ],
)
def test_decoding_bad_json_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(ManeuverInput, data)
    assert err.value.field == field


def test_the_mechanic_resolves_from_json_and_encodes_its_reasons(chart):
    inputs = decode(ManeuverInput, {"grade": "veteran", "roll": 6, "division_commander": "energetic"})
    data = encode(resolve_maneuver(chart, inputs))
    assert data["modified_roll"] == 7
    assert data["provisional"] is True
    assert data["allowed"][0]["action"] == "hold"
    assert {c["table"] for c in data["cells"]} == {"maneuver", "maneuver_modifiers"}


# --- initiating an assault (3.2, 2.3) ---------------------------------------------------------------------


ALL = (ManeuverAction.ASSAULT, ManeuverAction.MANEUVER, ManeuverAction.ADVANCE, ManeuverAction.PULL_BACK)


def test_a_brigade_initiates_an_assault_only_when_its_roll_this_turn_allows_one():
    """R:631-635: "Units which do not roll high enough on the maneuver table to qualify for this ... may not
    voluntarily initiate assaults - at least not this turn.\""""
    attacker, defender = brigade("att"), brigade("def")
    assert assault_refusal(attacker, ALL, [defender]) == ""
    assert "no maneuver roll this turn" in assault_refusal(attacker, None, [defender])
    assert "did not allow Assault" in assault_refusal(attacker, (ManeuverAction.ADVANCE,), [defender])
    assert assault_refusal(battery("guns"), None, [defender]) == ""  # a battery joins without a roll


@pytest.mark.parametrize(
    ("m_hits", "kind", "defender", "refused"),
    [
        (2, UnitKind.INFANTRY, "guns", "Rattled: infantry will not assault artillery (2.3)"),
        (2, UnitKind.INFANTRY, "horse", ""),
        (3, UnitKind.INFANTRY, "horse", "Shaken: infantry will not assault or advance on cavalry or artillery (2.3)"),
        (
            3,
            UnitKind.CAVALRY_DISMOUNTED,
            "guns",
            "Shaken: infantry will not assault or advance on cavalry or artillery",
        ),
        (3, UnitKind.CAVALRY_MOUNTED, "guns", "Shaken: cavalry will not assault artillery (2.3)"),
        (3, UnitKind.CAVALRY_MOUNTED, "foot", ""),
        (4, UnitKind.INFANTRY, "foot", "Demoralized: will not voluntarily advance toward any enemy (2.3)"),
    ],
)
def test_a_morale_condition_forbids_some_assaults(m_hits, kind, defender, refused):
    """R:494-502: rattled infantry will not assault artillery; shaken infantry will not assault or advance on
    cavalry or artillery, shaken cavalry not artillery; demoralized units will not voluntarily advance."""
    defenders = {
        "guns": [brigade("def"), battery("guns")],
        "horse": [brigade("def", kind=UnitKind.CAVALRY_MOUNTED)],
        "foot": [brigade("def")],
    }[defender]
    found = assault_refusal(brigade("att", m_hits=m_hits, kind=kind), ALL, defenders)
    assert found.startswith(refused) and bool(found) == bool(refused)
