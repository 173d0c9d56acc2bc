"""A form is stale when what it is about moved on since it was drawn, not whenever the game did: forty players
enter dice for their own brigades at once (republic/games/ledger.py, ``moved_on``)."""

import pytest

from republic.games.events.game import CorrectionMade
from republic.games.events.maneuver import ChargeBonusCleared
from republic.games.ledger import StaleGame, act, acting_on, undo_last
from republic.games.models import Event, Unit
from republic.games.steps.walk import advance
from tests.games.conftest import brigade, fresh
from tests.games.test_walk_and_ledger import note


def hit(game, unit: Unit, version: int, row: str | None = "") -> Event:
    """One more M hit on the unit, entered at its row (``row`` None: at no row) by a form drawn at ``version``."""
    with acting_on(f"unit-{unit.pk}" if row == "" else row), act(game, version, "test") as action:
        unit.refresh_from_db()
        action.set(unit, "m_hits", unit.m_hits + 1)
        return action.record(note(unit))


def hits(*units: Unit) -> list[int]:
    return list(Unit.objects.filter(pk__in=[u.pk for u in units]).order_by("pk").values_list("m_hits", flat=True))


@pytest.fixture
def three(demo):
    names = ("Archer's Brigade", "Davis's Brigade", "Pettigrew's Brigade")
    return demo, *(brigade(demo, name) for name in names)


def test_forms_about_other_units_drawn_at_the_same_version_all_apply(three):
    game, archer, davis, pettigrew = three
    drawn = game.version
    for unit in (archer, davis, pettigrew):
        hit(fresh(game), unit, drawn)
    assert hits(archer, davis, pettigrew) == [1, 1, 1] and fresh(game).version == drawn + 3
    assert list(Event.objects.filter(game=game).values_list("subject", flat=True)) == [
        f"unit-{archer.pk}",
        f"unit-{davis.pk}",
        f"unit-{pettigrew.pk}",
    ]


def test_a_second_form_about_the_same_unit_is_stale_and_changes_nothing(three):
    game, archer, davis, _ = three
    drawn = game.version
    hit(fresh(game), archer, drawn)
    with pytest.raises(StaleGame):
        hit(fresh(game), archer, drawn)  # a double tap
    # entered at another row but changing Archer's: stale once its changes are known
    with pytest.raises(StaleGame):
        hit(fresh(game), archer, drawn, row=f"unit-{davis.pk}")
    assert hits(archer, davis) == [1, 0] and fresh(game).version == drawn + 1


def test_a_unit_named_in_a_later_event_makes_its_forms_stale(three):
    game, archer, davis, pettigrew = three
    drawn = game.version
    # entered at Archer's row, changing nothing, naming Davis (as a fire names its target)
    with acting_on(f"unit-{archer.pk}"), act(fresh(game), drawn, "test") as action:
        action.record(ChargeBonusCleared(davis.key, davis.name))
    with pytest.raises(StaleGame):
        hit(fresh(game), davis, drawn)
    with pytest.raises(StaleGame):
        hit(fresh(game), archer, drawn)
    hit(fresh(game), pettigrew, drawn)
    assert hits(archer, davis, pettigrew) == [0, 0, 1]


@pytest.mark.parametrize("later", ["advance", "about nothing", "undo of an event about nothing"])
def test_after_a_new_step_or_an_event_about_nothing_every_earlier_form_is_stale(three, later):
    game, archer, davis, _ = three
    hit(fresh(game), archer, fresh(game).version)
    drawn = fresh(game).version
    if later == "advance":
        advance(fresh(game), drawn, "test")
    else:
        with acting_on(None), act(fresh(game), drawn, "test") as action:
            action.record(CorrectionMade("", "", None, ()))
        if later != "about nothing":
            drawn = fresh(game).version
            undo_last(fresh(game), drawn, "test")
    with pytest.raises(StaleGame):
        hit(fresh(game), davis, drawn)
    assert hits(davis) == [0]


def test_an_undo_makes_stale_the_forms_about_what_it_takes_back_and_no_others(three):
    game, archer, davis, pettigrew = three
    # a form about Pettigrew, drawn after Archer's hit: the hit named neither him nor his row
    hit(fresh(game), archer, fresh(game).version)
    drawn = fresh(game).version
    undo_last(fresh(game), drawn, "test")  # another player takes Archer's hit back
    with pytest.raises(StaleGame):
        hit(fresh(game), archer, drawn)
    hit(fresh(game), pettigrew, drawn)
    hit(fresh(game), davis, drawn, row=f"unit-{davis.pk}")
    assert hits(archer, davis, pettigrew) == [0, 1, 1]
    # an undo itself is sent from no row: stale after any event, so it never takes back what its player has not seen
    with pytest.raises(StaleGame):
        undo_last(fresh(game), drawn, "test")


def test_a_form_of_no_row_is_stale_after_any_event_but_its_own_event_is_about_what_it_changed(three):
    game, archer, davis, pettigrew = three
    drawn = game.version
    hit(fresh(game), archer, drawn)
    with pytest.raises(StaleGame):
        hit(fresh(game), davis, drawn, row=None)
    with pytest.raises(StaleGame):
        advance(fresh(game), drawn, "test")
    assert hits(davis) == [0]
    drawn = fresh(game).version
    hit(fresh(game), pettigrew, drawn, row=None)  # a correction on a unit's card, say
    hit(fresh(game), davis, drawn)
    with pytest.raises(StaleGame):
        hit(fresh(game), pettigrew, drawn)
    assert hits(archer, davis, pettigrew) == [1, 1, 1]


def test_a_version_the_game_never_had_is_stale(three):
    game, archer, *_ = three
    with pytest.raises(StaleGame):
        hit(fresh(game), archer, game.version + 1)


def test_what_an_event_is_about_is_recorded_with_it_and_staleness_reads_that_record(three):
    game, archer, davis, pettigrew = three
    drawn = game.version
    with acting_on(f"unit-{archer.pk}"), act(fresh(game), drawn, "test") as action:
        event = action.record(ChargeBonusCleared(davis.key, davis.name))
    assert event.about == sorted([archer.key, davis.key])  # its row, and the unit its payload names
    hit(fresh(game), pettigrew, drawn)
    assert Event.objects.get(pk=event.pk).about == sorted([archer.key, davis.key])
    # the record, not the payload, says what the event is about: once it says Pettigrew, Davis's form is not stale
    Event.objects.filter(pk=event.pk).update(about=[pettigrew.key])
    hit(fresh(game), davis, drawn)
    assert hits(archer, davis, pettigrew) == [0, 1, 1]
