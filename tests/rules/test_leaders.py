"""Leaders (2.2, 2.5, 4.7): reach of a rating, hors de combat, replacing fallen leaders."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.catalog import mechanic
from republic.rules.codec import decode
from republic.rules.dice import Roll, d10
from republic.rules.errors import RulesInputError
from republic.rules.leaders import (
    Candidate,
    CommandRelation,
    FallenLeader,
    HorsDeCombatInput,
    HorsDeCombatOutcome,
    LeaderRank,
    LeaderReplacementInput,
    cautious,
    energetic,
    gives_rally_bonus,
    proficient,
    rally_reach,
    replacement_order,
    resolve_hors_de_combat,
    resolve_leader_replacement,
    returning_rating,
)
from republic.rules.results import Provenance
from republic.rules.troops import Leader

OWN, ADJOINING, SIDE = (
    CommandRelation.CHAIN_OF_COMMAND,
    CommandRelation.ADJOINING_SAME_CORPS,
    CommandRelation.SAME_SIDE_OTHER,
)

# --- class and reach ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "e", "p", "c"), [("E4", True, False, False), ("P1", False, True, False), ("C0", False, False, True)]
)
def test_leader_class_questions_for_maneuver_and_assault(text, e, p, c):
    leader = Leader.parse(text)
    assert (energetic(leader), proficient(leader), cautious(leader)) == (e, p, c)


@pytest.mark.parametrize(
    ("rating", "reach"),
    [
        (-1, {OWN}),
        (0, {OWN}),
        (1, {OWN}),
        (2, {OWN, ADJOINING}),
        (3, {OWN, ADJOINING, SIDE}),
        (4, {OWN, ADJOINING, SIDE}),
    ],
)
def test_a_ratings_rally_bonus_reaches_further_from_two_and_three(rating, reach):
    """2.2 (R:452-476)."""
    assert set(rally_reach(rating)) == reach
    assert all(gives_rally_bonus(rating, r) == (r in reach) for r in CommandRelation)


@pytest.mark.parametrize("rating", [-2, 5])
def test_a_rating_outside_minus_one_to_four_has_no_reach(rating):
    with pytest.raises(RulesInputError) as err:
        rally_reach(rating)
    assert err.value.field == "rating"


# --- hors de combat ----------------------------------------------------------------------------------


def test_double_five_near_a_brigade_that_lost_two_bases_reads_seven_seven(chart):
    """T13 (R:1296-1299)."""
    result = resolve_hors_de_combat(chart, HorsDeCombatInput(Roll((5, 5)), base_hits_within_4=2))
    assert result.double and result.faces == (5, 5)
    assert result.modified_pair == (7, 7)
    assert result.modifier_total == 2
    assert result.cells[-1].table == "hors_de_combat"


def test_a_roll_that_is_not_a_double_has_no_effect_and_reads_no_table(chart):
    result = resolve_hors_de_combat(
        chart, HorsDeCombatInput(Roll((10, 9)), base_hits_within_4=6, enemy_skirmishers_within_4=True)
    )
    assert result.outcome is HorsDeCombatOutcome.NO_EFFECT
    assert not result.double and result.modified_pair is None
    assert result.cells == () and result.modifiers == ()
    assert any("not a double" in n for n in result.notes)


def test_enemy_skirmishers_add_one_to_each_die_once(chart):
    result = resolve_hors_de_combat(chart, HorsDeCombatInput(Roll((3, 3)), enemy_skirmishers_within_4=True))
    assert result.modified_pair == (4, 4)
    assert [m.value for m in result.modifiers] == [1]


def test_hors_de_combat_outcome_is_the_band_of_the_modified_double(chart):
    for face in range(1, 11):
        result = resolve_hors_de_combat(chart, HorsDeCombatInput(Roll((face, face)), base_hits_within_4=1))
        assert result.outcome.value == chart.band("hors_de_combat", face + 1)[0]


@pytest.mark.parametrize("value", range(-5, 31))
def test_every_modified_double_lands_in_exactly_one_hors_de_combat_band(chart, value):
    assert sum(band.holds(value) for band in chart.tables["hors_de_combat"].bands) == 1


def test_a_higher_modified_double_is_never_safer(chart):
    struck = [chart.band("hors_de_combat", v)[0] == "hors_de_combat" for v in range(1, 31)]
    assert struck == sorted(struck)
    assert not struck[0] and struck[-1]


def test_hors_de_combat_modifiers_are_confirmed_one_point_each(chart):
    cells = chart.tables["hors_de_combat_modifiers"].cells.values()
    assert all(c.value == 1 and c.provenance is Provenance.CONFIRMED and c.source for c in cells)


@given(face=st.integers(1, 10), hits=st.integers(0, 12), skirmishers=st.booleans())
def test_more_base_hits_nearby_never_make_a_leader_safer(chart, face, hits, skirmishers):
    fewer = resolve_hors_de_combat(chart, HorsDeCombatInput(Roll((face, face)), hits, skirmishers))
    more = resolve_hors_de_combat(chart, HorsDeCombatInput(Roll((face, face)), hits + 1, skirmishers))
    if fewer.outcome is HorsDeCombatOutcome.HORS_DE_COMBAT:
        assert more.outcome is HorsDeCombatOutcome.HORS_DE_COMBAT
    assert more.modified_pair[0] == fewer.modified_pair[0] + 1


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"roll": d10(5)}, "roll"),
        ({"roll": Roll((5, 5, 5))}, "roll"),
        ({"roll": Roll((5, 5)), "base_hits_within_4": -1}, "base_hits_within_4"),
    ],
)
def test_bad_hors_de_combat_input_names_its_field(inputs, field):
    with pytest.raises(RulesInputError) as err:
        HorsDeCombatInput(**inputs)
    assert err.value.field == field


def test_hors_de_combat_is_registered_and_decodes_a_pair(chart):
    hdc = mechanic("hors_de_combat")
    inputs = decode(hdc.inputs, {"roll": [10, 10]})
    assert hdc.resolve(chart, inputs).modified_pair == (10, 10)


# --- replacing fallen leaders ------------------------------------------------------------------------


@pytest.mark.parametrize(("before", "after"), [(4, 3), (2, 1), (1, 0), (0, 0), (-1, 0)])
def test_a_divisional_leader_returns_one_lower_never_below_zero(before, after):
    """2.5 (R:578-582)."""
    assert returning_rating(before) == after


def test_returning_divisional_leader_keeps_his_class_and_flags_the_maneuver_penalty(chart):
    result = resolve_leader_replacement(
        chart, LeaderReplacementInput(LeaderRank.DIVISION, Leader.parse("E2"), name="Hood")
    )
    assert (result.name, str(result.leader), result.rank) == ("Hood", "E1", LeaderRank.DIVISION)
    assert result.division_leader_replaced
    assert any("-3" in n and "maneuver" in n for n in result.notes)


def test_negative_divisional_leader_comes_back_as_zero(chart):
    result = resolve_leader_replacement(chart, LeaderReplacementInput(LeaderRank.DIVISION, Leader.parse("C-1")))
    assert str(result.leader) == "C0"


def corps_candidates() -> tuple[Candidate, ...]:
    return (
        Candidate("Doubleday", LeaderRank.DIVISION, Leader.parse("C1")),
        Candidate("Wadsworth", LeaderRank.DIVISION, Leader.parse("P2")),
        Candidate("Robinson", LeaderRank.DIVISION, Leader.parse("E1")),
    )


def test_fallen_corps_leader_is_replaced_by_the_highest_rated_division_leader(chart):
    result = resolve_leader_replacement(
        chart,
        LeaderReplacementInput(LeaderRank.CORPS, Leader.parse("E3"), name="Reynolds", candidates=corps_candidates()),
    )
    assert (result.name, str(result.leader), result.rank, result.former_rank) == (
        "Wadsworth",
        "P2",
        LeaderRank.CORPS,
        LeaderRank.DIVISION,
    )
    assert result.division_leader_replaced
    assert any("fresh divisional leader" in n for n in result.notes)


def test_fallen_army_leader_goes_to_the_next_rank_even_over_a_better_rated_lower_one(chart):
    candidates = (
        Candidate("Hancock", LeaderRank.DIVISION, Leader.parse("E3")),
        Candidate("Sedgwick", LeaderRank.CORPS, Leader.parse("P1")),
        Candidate("Sickles", LeaderRank.CORPS, Leader.parse("E0")),
    )
    result = resolve_leader_replacement(
        chart, LeaderReplacementInput(LeaderRank.ARMY, Leader.parse("P1"), candidates=candidates)
    )
    assert result.name == "Sedgwick" and not result.division_leader_replaced


def test_a_tie_on_rating_takes_the_first_listed_and_says_who_else_tied(chart):
    candidates = (
        Candidate("Ames", LeaderRank.DIVISION, Leader.parse("E2")),
        Candidate("Gibbon", LeaderRank.DIVISION, Leader.parse("E2")),
    )
    result = resolve_leader_replacement(
        chart, LeaderReplacementInput(LeaderRank.CORPS, Leader.parse("E3"), candidates=candidates)
    )
    assert result.name == "Ames"
    assert any("Gibbon" in n and "tied" in n for n in result.notes)


@pytest.mark.parametrize(
    ("rank", "candidates", "field"),
    [
        (LeaderRank.CORPS, (), "candidates"),
        (LeaderRank.ARMY, (), "candidates"),
        (LeaderRank.DIVISION, (Candidate("Ames", LeaderRank.DIVISION, Leader.parse("E2")),), "candidates"),
        (LeaderRank.CORPS, (Candidate("Ames", LeaderRank.CORPS, Leader.parse("E2")),), "candidates[0].rank"),
        (
            LeaderRank.CORPS,
            (
                Candidate("Ames", LeaderRank.DIVISION, Leader.parse("E2")),
                Candidate("Meade", LeaderRank.ARMY, Leader.parse("P1")),
            ),
            "candidates[1].rank",
        ),
    ],
)
def test_bad_replacement_input_names_its_field(rank, candidates, field):
    with pytest.raises(RulesInputError) as err:
        LeaderReplacementInput(rank, Leader.parse("P1"), candidates=candidates)
    assert err.value.field == field


def test_an_empty_candidate_list_is_refused_with_a_reason():
    with pytest.raises(RulesInputError, match="list the leaders who could take over"):
        LeaderReplacementInput(LeaderRank.CORPS, Leader.parse("P1"))


def test_fallen_leaders_are_replaced_from_the_bottom_of_the_chain_up():
    """R:578-587: a corps leader's place goes to "the highest rated leader available who is ranked next in chain
    of command"; his division leader who fell with him is available once he returns, so he is replaced first.
    An army leader waits for every fallen leader below him; a leader of another chain waits for no one."""
    army = FallenLeader("Lee", LeaderRank.ARMY, "army")
    corps = FallenLeader("Hill", LeaderRank.CORPS, "third", ("army",))
    division = FallenLeader("Heth", LeaderRank.DIVISION, "heth", ("third", "army"))
    elsewhere = FallenLeader("Rodes", LeaderRank.DIVISION, "rodes", ("second", "army"))
    turns = replacement_order([army, corps, division, elsewhere])
    assert [(t.leader.name, tuple(w.name for w in t.waits_for)) for t in turns] == [
        ("Heth", ()),
        ("Rodes", ()),
        ("Hill", ("Heth",)),
        ("Lee", ("Heth", "Rodes", "Hill")),
    ]
    assert [t.refusal for t in turns[:2]] == ["", ""]
    assert turns[2].refusal.startswith("Replace Heth first: Hill's place goes to the best-rated leader")
    assert turns[3].refusal.startswith("Replace Heth, Rodes and Hill first: Lee's place")
    assert not replacement_order([corps])[0].waits_for  # alone, he is replaced at once


def test_leader_replacement_is_registered_and_decodes_candidates(chart):
    replacement = mechanic("leader_replacement")
    inputs = decode(
        replacement.inputs,
        {
            "rank": "corps",
            "leader": "E3",
            "candidates": [
                {"name": "Ames", "rank": "division", "leader": "E2"},
                {"name": "Barlow", "rank": "division", "leader": "E0"},
            ],
        },
    )
    assert replacement.resolve(chart, inputs).name == "Ames"
    with pytest.raises(RulesInputError) as err:
        decode(
            replacement.inputs,
            {"rank": "corps", "leader": "E3", "candidates": [{"name": "Ames", "rank": "colonel", "leader": "E2"}]},
        )
    assert err.value.field == "candidates[0].rank"
