"""A unit's grade, formation and battery type as a row says them, read at once, are the words of the model's own
choices."""

import pytest

from republic.games.models import Unit, UnitChoice
from republic.rules.troops import BatteryType, Formation, Grade


@pytest.mark.parametrize("grade", list(Grade))
def test_grade(grade):
    unit = Unit(grade=grade.value)
    assert unit.grade_label == unit.get_grade_display()


@pytest.mark.parametrize("formation", list(Formation))
def test_formation(formation):
    unit = Unit(formation=formation.value)
    assert unit.formation_label == unit.get_formation_display()


@pytest.mark.parametrize("battery_type", list(BatteryType))
def test_battery_type(battery_type):
    unit = Unit(kind="artillery", battery_type=battery_type.value)
    choice = UnitChoice(1, "Guns", "Division", "artillery", battery_type.value, False, 1, "", 0)
    assert unit.battery_label == choice.battery_label == unit.get_battery_type_display()
