"""The taps script's counting (tests/taps/counts.py): screens scrolled to reach a control, which refusals the player
did not cause, and the totals of its table."""

from tests.taps.counts import Count, Tally, moved_on, screens_to


def test_a_control_on_screen_costs_no_scrolling_and_each_screen_beyond_costs_one():
    assert screens_to(0, 44) == 0
    assert screens_to(696, 740) == 0
    assert screens_to(700, 744) == 1  # 4 px below the fold is still a swipe
    assert screens_to(1400, 1444) == 1
    assert screens_to(1500, 1544) == 2
    assert screens_to(-10, 34) == 1  # above the screen: a swipe back up
    assert screens_to(-800, -756) == 2


def test_only_a_refusal_that_the_game_moved_on_is_counted_as_not_caused():
    assert moved_on("The game moved on since this page was drawn: nothing was changed.")
    assert not moved_on("Not yet: rally Cutler's Brigade (Demoralized)")
    assert not moved_on("That is the other side's unit.")


def test_the_table_adds_every_kind_into_the_whole_turn():
    tally = Tally()
    tally.count("die entry").add(Count(actions=2, taps=4, typed=2, seconds=1.5))
    tally.count("next step").add(Count(actions=3, taps=3, next_steps=3, seconds=0.5))
    tally.count("die entry").add(Count(actions=1, taps=1, screens=2, not_caused=1))
    whole = tally.total()
    assert (whole.actions, whole.taps, whole.typed, whole.screens, whole.next_steps, whole.not_caused) == (
        6,
        8,
        2,
        2,
        3,
        1,
    )
    lines = tally.table().splitlines()
    assert [line.split()[0] for line in lines[2:4]] == ["die", "next"]  # in the order the kinds came
    assert lines[-1].split()[:4] == ["whole", "game", "turn", "6"]
    assert lines[2].split()[2:5] == ["3", "5", "1.7"]  # actions, taps, taps an action
