"""The scenario files the import tests read: the demo battle's text, CSV sheets of a larger battle, the line a
problem is on, and the message of a refused file."""

import pytest

from republic.games.models import Game
from republic.games.scenario import ScenarioError
from republic.games.scenario_csv import CSV_COLUMNS
from republic.scenarios import DEMO_SCENARIO

DEMO = DEMO_SCENARIO.read_text(encoding="utf-8")
HETH = "sides[0].commands[0].commands[0]"


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first occurrence of needle."""
    at = text.index(needle)
    return text.count("\n", 0, at) + 1


def refused(parse, *args) -> str:
    """The message of the ScenarioError the parse raises; nothing is created by reading."""
    before = Game.objects.count()
    with pytest.raises(ScenarioError) as caught:
        parse(*args)
    assert Game.objects.count() == before
    return str(caught.value)


HEADER = ",".join(CSV_COLUMNS)


def sheet(*rows: dict) -> str:
    return "\n".join([HEADER, *(",".join(row.get(c, "") for c in CSV_COLUMNS) for row in rows)]) + "\n"


POTOMAC = {
    "side": "Union",
    "players": "Ann",
    "army": "Army of the Potomac",
    "army_leader": "George G. Meade",
    "army_leader_value": "P2",
    "corps": "I Corps",
    "corps_leader": "John F. Reynolds",
    "corps_leader_value": "E3",
}
WADSWORTH = {
    **POTOMAC,
    "division": "1st Division",
    "division_leader": "James S. Wadsworth",
    "division_leader_value": "E1",
}
DOUBLEDAY = {**POTOMAC, "division": "3rd Division", "division_leader": "Abner Doubleday", "division_leader_value": "P1"}
HETH_ROW = {
    "side": "Confederate",
    "players": "Bea",
    "division": "Heth's Division",
    "division_leader": "Henry Heth",
    "division_leader_value": "E1",
}
BIG_BATTLE = [
    {
        **WADSWORTH,
        "unit": "Iron Brigade",
        "kind": "infantry",
        "grade": "crack",
        "bases": "7",
        "formation": "two_line",
        "skirmishers": "2",
    },
    {**WADSWORTH, "unit": "Cutler's Brigade", "kind": "infantry", "grade": "veteran", "bases": "7"},
    {**WADSWORTH, "unit": "Hall's Battery", "kind": "artillery", "grade": "veteran", "battery_type": "m_rifle"},
    {**DOUBLEDAY, "unit": "Stone's Brigade", "kind": "infantry", "grade": "average", "bases": "5", "repeaters": "no"},
    {**HETH_ROW, "unit": "Archer's Brigade", "kind": "infantry", "grade": "veteran", "bases": "4"},
    {
        **HETH_ROW,
        "unit": "Pegram's Battalion",
        "kind": "artillery",
        "grade": "veteran",
        "battery_type": "m_sb",
        "horse": "yes",
    },
]
