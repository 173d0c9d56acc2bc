"""Units as a list to choose shows them: a name two units share is told apart by its division, each says how it
stands, and a unit that stands as it stood is not made again, nor read into a choice again (a club battle's
declaration lists 1,000 of them at every version, the same but for the few that changed)."""

from republic.games.models import UnitChoice
from republic.games.readings import forget_shared
from republic.games.steps.assaults.state import _choice, choosable
from republic.games.text.terms import _option, unit_options
from tests.games.conftest import brigade, fresh, set_state

ARCHER = UnitChoice(1, "Archer's Brigade", "Heth's Division", "infantry", "", False, 6, "line", 0)
GUNS = UnitChoice(2, "Pegram's Battery", "Heth's Division", "artillery", "m_rifle", True, 0, "", 2)
TWIN = UnitChoice(3, "Archer's Brigade", "Pender's Division", "infantry", "", False, 4, "open_order", 1)


def test_a_shared_name_is_told_apart_by_its_division_and_each_says_how_it_stands():
    assert unit_options([ARCHER, GUNS]) == [
        ("unit:1", "Archer's Brigade", "Heth's Division", "Formed, 6 bases"),
        ("unit:2", "Pegram's Battery", "Heth's Division", "Rattled, Medium Rifle battery, packed"),
    ]
    assert [name for _, name, _, _ in unit_options([ARCHER, GUNS, TWIN])] == [
        "Archer's Brigade (Heth's Division)",
        "Pegram's Battery",
        "Archer's Brigade (Pender's Division)",
    ]


def test_a_unit_standing_as_it_stood_is_not_made_again_and_one_that_changed_is():
    unit_options([ARCHER, GUNS])
    made = _option.cache_info().misses
    assert unit_options([ARCHER, GUNS])[0][3] == "Formed, 6 bases"
    assert _option.cache_info().misses == made
    shaken = ARCHER._replace(m_hits=3, bases=5)
    assert unit_options([shaken, GUNS])[0][3] == "Shaken, 5 bases"
    assert _option.cache_info().misses == made + 1


def test_a_side_read_again_makes_anew_only_the_choice_of_the_unit_that_changed(demo):
    first = choosable(fresh(demo))
    made = _choice.cache_info().misses
    archer = brigade(demo, "Archer's Brigade")
    set_state(demo, archer, m_hits=3)
    forget_shared()
    again = choosable(fresh(demo))
    assert _choice.cache_info().misses == made + 1
    assert [len(side.units) for side in again.values()] == [len(side.units) for side in first.values()]
    assert next(u for side in again.values() for u in side.units if u.pk == archer.pk).m_hits == 3
