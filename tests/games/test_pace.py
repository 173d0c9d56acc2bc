"""The pace of the day, worked out from made-up event times: minutes a player turn and a step, the slowest steps,
the side waited on longest, the step being played, undone events, and the projection's words in every case."""

from datetime import UTC, datetime, timedelta

from republic.games.pace import Mark, Tally, pace_of
from republic.games.text.pace import NO_DAY_END, NO_LAST_TURN, NOT_YET, minutes, projection

START = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)
SIDES = ("Confederate", "Union")
CHOSEN = "FirstAttackerChosen"
MESSAGES, RALLY, MOVE = "Defenders exchange messages", "Attacker rallies units", "Attacker moves units"
PANIC = "Divisional panic tests (internal panic)"


def at(minute: float, game_turn: int, player_turn: int, step: str, kind: str = "StepAdvanced") -> Mark:
    return (START + timedelta(minutes=minute), game_turn, player_turn, step, kind)


def turn(begin: float, game_turn: int, player_turn: int, rally: float, move: float, panic: float) -> list[Mark]:
    """A player turn of three timed steps from ``begin``: rally (the attacker's), move (the attacker's) and internal
    panic (both sides'), each ended by its Next step."""
    return [
        at(begin + rally, game_turn, player_turn, "rally"),
        at(begin + rally + move, game_turn, player_turn, "move"),
        at(begin + rally + move + panic, game_turn, player_turn, "internal_panic"),
    ]


def words(pace) -> str:
    return projection(pace.projection, pace.now, pace.in_progress)


def test_each_figure_is_read_from_the_events_times():
    marks = [at(0, 1, 1, "messages", CHOSEN), *turn(0, 1, 1, 4, 16, 10), *turn(30, 1, 2, 6, 24, 20)]
    now = START + timedelta(minutes=90)
    pace = pace_of(Tally().add(marks), (2, 1, "messages"), SIDES, now)
    assert pace.player_turns == 2
    assert pace.per_player_turn == timedelta(minutes=40)  # 30 and 50
    assert pace.per_game_turn == timedelta(minutes=80)
    assert pace.this_player_turn == timedelta(minutes=10)  # since the last Next step, at 80
    by_step = {s.step: s for s in pace.steps}
    assert by_step[MOVE].mean == timedelta(minutes=20) and by_step[MOVE].total == timedelta(minutes=40)
    assert by_step[PANIC].times == 2
    assert [s.step for s in pace.slowest] == [MOVE, PANIC, RALLY]
    # rally and move are the attacker's: the Confederates' in player turn 1, the Union's in 2; panic both sides';
    # the messages being sent now are the defenders': the Union's in game turn 2's first player turn
    assert pace.waited == [
        ("Union", timedelta(minutes=40)),
        ("both sides", timedelta(minutes=30)),
        ("Confederate", timedelta(minutes=20)),
    ]


def test_the_side_waited_on_longest_comes_first():
    marks = [at(0, 1, 1, "messages", CHOSEN), *turn(0, 1, 1, 4, 16, 10), *turn(30, 1, 2, 6, 24, 20)]
    pace = pace_of(Tally().add(marks), None, SIDES, START + timedelta(minutes=80), over=True)
    assert dict(pace.waited) == {
        "Confederate": timedelta(minutes=20),
        "Union": timedelta(minutes=30),
        "both sides": timedelta(minutes=30),
    }
    assert pace.waited[-1][0] == "Confederate"


def test_the_step_being_played_runs_until_now_and_counts_in_the_turn_so_far_not_in_the_means():
    marks = [at(0, 1, 1, "messages", CHOSEN), at(5, 1, 1, "rally"), at(8, 1, 1, "move", "UnitMoved")]
    pace = pace_of(Tally().add(marks), (1, 1, "move"), SIDES, START + timedelta(minutes=30))
    assert pace.this_player_turn == timedelta(minutes=30)
    move = next(s for s in pace.steps if s.step == MOVE)
    assert move.total == timedelta(minutes=25) and move.times == 0 and move.mean == timedelta(0)
    rally = next(s for s in pace.steps if s.step == RALLY)
    assert rally.times == 1 and rally.mean == timedelta(minutes=5)
    assert pace.per_player_turn is None and words(pace) == NOT_YET


def test_an_undone_action_and_its_undo_are_time_spent_at_their_step():
    kept = [at(0, 1, 1, "messages", CHOSEN), at(10, 1, 1, "rally", "RallyResolved"), at(20, 1, 1, "rally")]
    undone = [
        at(0, 1, 1, "messages", CHOSEN),
        at(10, 1, 1, "rally", "RallyResolved"),
        at(12, 1, 1, "rally", "EventUndone"),
        at(15, 1, 1, "rally", "RallyResolved"),
        at(20, 1, 1, "rally"),
    ]
    now = START + timedelta(minutes=25)
    for marks in (kept, undone):
        pace = pace_of(Tally().add(marks), (1, 2, "messages"), SIDES, now)
        assert pace.per_player_turn == timedelta(minutes=20)


def test_the_clock_starts_at_the_first_attacker_and_stops_at_the_end_until_it_is_undone():
    marks = [
        at(-60, 1, 1, "messages", "CorrectionMade"),
        at(0, 1, 1, "messages", CHOSEN),
        at(10, 1, 1, "messages", "GameEnded"),
        at(300, 1, 1, "messages", "CorrectionMade"),
    ]
    pace = pace_of(Tally().add(marks), None, SIDES, START + timedelta(minutes=400), over=True)
    assert [(s.step, s.total) for s in pace.steps] == [(MESSAGES, timedelta(minutes=10))]
    assert words(pace) == ""
    taken_back = [*marks[:3], at(300, 1, 1, "messages", "EventUndone"), at(305, 1, 1, "messages")]
    pace = pace_of(Tally().add(taken_back), (1, 1, "rally"), SIDES, START + timedelta(minutes=310))
    assert [(s.step, s.total) for s in pace.steps] == [(MESSAGES, timedelta(minutes=15)), (RALLY, timedelta(minutes=5))]


def test_at_this_pace_the_turn_reached_by_the_days_end_and_when_it_ends():
    marks = [at(0, 1, 1, "messages", CHOSEN), at(30, 1, 1, "rally"), at(60, 1, 2, "rally")]
    now = START + timedelta(minutes=60)  # 11:00, game turn 2 just begun, a game turn takes 60 minutes
    day_ends = START + timedelta(hours=8)  # 18:00
    pace = pace_of(Tally().add(marks), (2, 1, "messages"), SIDES, now, day_ends=day_ends, last_turn=12)
    assert words(pace) == (
        "At this pace: game turn 8 of 12 by 18:00 · the day ends 18:00 · game turn 12 would end 22:00"
    )
    late = pace_of(
        Tally().add(marks), (2, 1, "messages"), SIDES, now, day_ends=day_ends + timedelta(minutes=20), last_turn=12
    )
    assert words(late).startswith("At this pace: game turn 9 of 12 by 19:00 · the day ends 18:20")
    early = pace_of(Tally().add(marks), (2, 1, "messages"), SIDES, now, day_ends=day_ends, last_turn=5)
    assert words(early) == "At this pace: game turn 5 of 5 by 15:00 · the day ends 18:00"


def test_the_projection_says_what_the_game_master_has_not_set():
    marks = [at(0, 1, 1, "messages", CHOSEN), at(20, 1, 1, "rally"), at(40, 1, 2, "rally")]
    now = START + timedelta(minutes=50)  # game turn 2, 10 minutes in; 40 minutes a game turn: it ends 11:20
    neither = pace_of(Tally().add(marks), (2, 1, "messages"), SIDES, now)
    assert words(neither) == f"At this pace: game turn 2 by 11:20 · {NO_DAY_END} · {NO_LAST_TURN}"
    no_end = pace_of(Tally().add(marks), (2, 1, "messages"), SIDES, now, last_turn=4)
    assert words(no_end) == f"At this pace: game turn 4 of 4 by 12:40 · {NO_DAY_END}"
    no_last = pace_of(Tally().add(marks), (2, 1, "messages"), SIDES, now, day_ends=START + timedelta(hours=3))
    assert words(no_last) == f"At this pace: game turn 5 by 13:20 · the day ends 13:00 · {NO_LAST_TURN}"
    ended = pace_of(
        Tally().add(marks), (2, 1, "messages"), SIDES, now, day_ends=START + timedelta(minutes=45), last_turn=4
    )
    assert "the day ended 10:45" in words(ended)


def test_a_game_turn_is_two_player_turns_until_one_is_finished():
    marks = [at(0, 1, 1, "messages", CHOSEN), at(25, 1, 1, "rally")]
    pace = pace_of(Tally().add(marks), (1, 2, "messages"), SIDES, START + timedelta(minutes=30))
    assert pace.per_player_turn == timedelta(minutes=25) and pace.per_game_turn == timedelta(minutes=50)
    assert words(pace).startswith("At this pace: game turn 1 by 10:50")


def test_a_game_past_its_last_turn_says_so():
    marks = [at(0, 1, 1, "messages", CHOSEN), at(20, 1, 2, "rally"), at(40, 2, 2, "rally")]
    pace = pace_of(Tally().add(marks), (3, 1, "messages"), SIDES, START + timedelta(minutes=40), last_turn=2)
    assert words(pace).startswith("At this pace: game turn 3 (past the last turn, 2) by")


def test_minutes_read_as_the_table_says_them():
    assert minutes(timedelta(minutes=52, seconds=20)) == "52 min"
    assert minutes(timedelta(minutes=65)) == "1 h 05"
    assert minutes(None) == "–"


def test_a_step_passed_in_less_than_a_minute_is_not_among_the_slowest():
    marks = [at(0, 1, 1, "messages", CHOSEN), *turn(0, 1, 1, 0.5, 16, 10), *turn(26.5, 1, 2, 0.5, 24, 20)]
    pace = pace_of(Tally().add(marks), (2, 1, "messages"), SIDES, START + timedelta(minutes=90))
    assert [s.step for s in pace.slowest] == [MOVE, PANIC]
    assert RALLY in {s.step for s in pace.steps}  # still timed, in the table of every step


def test_events_summed_a_few_at_a_time_give_the_sums_of_all_of_them_at_once():
    """A server process keeps each game's sums and adds the events written since: wherever the day was cut, before
    the first attacker, at the end or after its undo, the pace is the same."""
    marks = [
        at(-60, 1, 1, "messages", "CorrectionMade"),
        at(0, 1, 1, "messages", CHOSEN),
        *turn(0, 1, 1, 4, 16, 10),
        at(40, 1, 2, "messages", "GameEnded"),
        at(300, 1, 2, "messages", "EventUndone"),
        *turn(300, 1, 2, 6, 24, 20),
    ]
    whole = Tally().add(marks)
    now = START + timedelta(minutes=400)
    for first in range(len(marks) + 1):
        for second in range(first, len(marks) + 1):
            cut = Tally().add(marks[:first]).add(marks[first:second]).add(marks[second:])
            assert cut == whole, (first, second)
    assert pace_of(whole, (2, 1, "messages"), SIDES, now).player_turns == 2
