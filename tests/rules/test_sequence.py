"""Starting a game and the turn sequence (1.6, 1.7)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from republic.rules.catalog import MECHANICS
from republic.rules.codec import decode, encode
from republic.rules.dice import d10
from republic.rules.errors import RulesInputError
from republic.rules.sequence import (
    STEPS,
    Actor,
    FirstAttackerInput,
    Phase,
    Position,
    StepKey,
    TurnSequenceInput,
    attacker_for,
    defender_for,
    first_position,
    next_position,
    resolve_first_attacker,
    resolve_turn_sequence,
    step_for,
)


def test_one_player_turn_runs_the_steps_of_1_7_in_order():
    """R:356-385."""
    assert [s.key for s in STEPS] == [
        StepKey.MESSAGES,
        StepKey.RALLY,
        StepKey.REPLACE_LEADERS,
        StepKey.MOVE,
        StepKey.SKIRMISH,
        StepKey.ARTILLERY_FIRE,
        StepKey.FIRE_HORS_DE_COMBAT,
        StepKey.DEMORALIZED_PANIC,
        StepKey.ASSAULTS,
        StepKey.ASSAULT_HORS_DE_COMBAT,
        StepKey.CHARGE_DISORDER,
        StepKey.INTERNAL_PANIC,
        StepKey.ADJOINING_PANIC,
    ]


def test_phases_come_in_order_each_in_one_block():
    phases = [s.phase for s in STEPS]
    blocks = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    assert blocks == list(Phase)


@pytest.mark.parametrize("step", STEPS, ids=lambda s: s.key)
def test_every_step_says_who_acts_where_the_rule_is_and_what_to_do(step):
    assert step.title and step.section[0].isdigit() and len(step.instructions) > 30
    assert step_for(step.key) is step


@pytest.mark.parametrize(
    ("key", "actor"),
    [
        (StepKey.MESSAGES, Actor.DEFENDER),
        (StepKey.RALLY, Actor.ATTACKER),
        (StepKey.MOVE, Actor.ATTACKER),
        (StepKey.SKIRMISH, Actor.BOTH),
        (StepKey.CHARGE_DISORDER, Actor.ATTACKER),
        (StepKey.INTERNAL_PANIC, Actor.BOTH),
    ],
)
def test_who_acts_follows_1_7(key, actor):
    assert step_for(key).actor is actor


def test_after_player_turn_one_comes_player_turn_two_then_the_next_game_turn():
    last = STEPS[-1].key
    assert first_position() == Position(1, 1, StepKey.MESSAGES)
    assert next_position(Position(1, 1, StepKey.MESSAGES)) == Position(1, 1, StepKey.RALLY)
    assert next_position(Position(1, 1, last)) == Position(1, 2, StepKey.MESSAGES)
    assert next_position(Position(1, 2, last)) == Position(2, 1, StepKey.MESSAGES)


def test_the_sides_alternate_as_attacker():
    """1.6 (R:338-344)."""
    assert attacker_for(Position(3, 1), "Union", "Confederate") == "Union"
    assert attacker_for(Position(3, 2), "Union", "Confederate") == "Confederate"
    assert defender_for(Position(3, 2), "Union", "Confederate") == "Union"


@given(st.integers(1, 50), st.sampled_from([1, 2]), st.sampled_from(list(StepKey)))
def test_two_player_turns_of_steps_later_is_the_same_step_of_the_next_game_turn(game_turn, player_turn, key):
    position = Position(game_turn, player_turn, key)
    walked = position
    attackers = []
    for _ in range(2 * len(STEPS)):
        walked = next_position(walked)
        attackers.append(attacker_for(walked, "A", "B"))
    assert walked == Position(game_turn + 1, player_turn, key)
    assert attackers.count("A") == attackers.count("B") == len(STEPS)


def test_high_roller_chooses_the_first_attacker():
    """1.6 (R:338-344)."""
    undecided = resolve_first_attacker(None, FirstAttackerInput("Union", "Confederate", d10(3), d10(8)))
    assert undecided.high_roller == "Confederate" and undecided.first_attacker is None and not undecided.roll_again
    chosen = resolve_first_attacker(None, FirstAttackerInput("Union", "Confederate", d10(3), d10(8), "Union"))
    assert (chosen.first_attacker, chosen.second_attacker) == ("Union", "Confederate")


def test_a_tie_rolls_again():
    result = resolve_first_attacker(None, FirstAttackerInput("Union", "Confederate", d10(6), d10(6)))
    assert result.roll_again and result.high_roller is None and "roll again" in result.notes[0]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"first_side": "A", "second_side": "A", "first_roll": 3, "second_roll": 4}, "second_side"),
        ({"first_side": "", "second_side": "B", "first_roll": 3, "second_roll": 4}, "first_side"),
        ({"first_side": "A", "second_side": "B", "first_roll": [3, 4], "second_roll": 4}, "first_roll"),
        ({"first_side": "A", "second_side": "B", "first_roll": 3, "second_roll": 0}, "second_roll"),
        ({"first_side": "A", "second_side": "B", "first_roll": 3, "second_roll": 4, "choice": "C"}, "choice"),
        ({"first_side": "A", "second_side": "B", "first_roll": 4, "second_roll": 4, "choice": "A"}, "choice"),
    ],
)
def test_bad_first_attacker_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(FirstAttackerInput, data)
    assert err.value.field == field


def test_turn_sequence_gives_the_step_its_sides_and_the_next_position():
    data = {"game_turn": 2, "player_turn": 2, "step": "move", "first_attacker": "Union", "other_side": "Confederate"}
    result = resolve_turn_sequence(None, decode(TurnSequenceInput, data))
    assert result.step.phase is Phase.MANEUVER and result.step.actor is Actor.ATTACKER
    assert (result.attacker, result.defender) == ("Confederate", "Union")
    assert result.next_position == Position(2, 2, StepKey.SKIRMISH)
    assert not result.ends_player_turn
    assert encode(result)["step"]["section"] == "3.1, 3.2"


def test_the_last_step_ends_the_player_turn_and_the_second_ends_the_game_turn():
    first = resolve_turn_sequence(None, TurnSequenceInput(1, 1, StepKey.ADJOINING_PANIC))
    second = resolve_turn_sequence(None, TurnSequenceInput(1, 2, StepKey.ADJOINING_PANIC))
    assert first.ends_player_turn and not first.ends_game_turn and "swap" in first.notes[1]
    assert second.ends_player_turn and second.ends_game_turn
    assert "Defend" in second.notes[0]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"game_turn": 0}, "game_turn"),
        ({"player_turn": 3}, "player_turn"),
        ({"step": "lunch"}, "step"),
        ({"first_attacker": "Union"}, "other_side"),
        ({"first_attacker": "Union", "other_side": "Union"}, "other_side"),
    ],
)
def test_bad_turn_sequence_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(TurnSequenceInput, data)
    assert err.value.field == field


def test_a_position_refuses_an_unknown_step():
    with pytest.raises(RulesInputError) as err:
        Position(1, 1, "lunch")
    assert err.value.field == "step"


def test_sequence_mechanics_are_registered():
    assert MECHANICS["first_attacker"].section == "1.6"
    assert MECHANICS["turn_sequence"].resolve is resolve_turn_sequence
