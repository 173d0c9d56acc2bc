"""Scenario import from a CSV sheet: armies, corps and divisions, or divisions directly under the sides; problems
named by line and column with nothing created."""

import pytest

from republic.games.ledger import snapshot
from republic.games.models import Command, Game, Leader, Side, setup_of
from republic.games.scenario import create_game
from republic.games.scenario_csv import CSV_COLUMNS, parse_csv
from republic.rules.scale import GroundScale
from tests.games.scenario_files import BIG_BATTLE, HETH_ROW, refused, sheet

# --- CSV ----------------------------------------------------------------------------------------------------------


def test_a_csv_sheet_with_army_corps_and_divisions_imports(db):
    scenario = parse_csv(sheet(*BIG_BATTLE), "McPherson's Ridge", GroundScale.SMALL)
    game = create_game(scenario)
    assert game.name == "McPherson's Ridge" and game.ground_scale == "small"
    assert game.status == Game.Status.SETTING_UP  # a sheet names no first attacker: the sides roll for it
    union, confederate = Side.objects.get(game=game, name="Union"), Side.objects.get(game=game, name="Confederate")
    assert union.players == "Ann"
    army = Command.objects.get(game=game, level="army")
    corps = Command.objects.get(game=game, level="corps")
    assert (army.side, army.parent, army.leader.name, str(army.leader.value)) == (union, None, "George G. Meade", "P2")
    assert (corps.parent, corps.leader.name) == (army, "John F. Reynolds")
    first = Command.objects.get(game=game, name="1st Division")
    third = Command.objects.get(game=game, name="3rd Division")
    assert first.parent == third.parent == corps
    assert [b.name for b in first.units.brigades().all()] == ["Iron Brigade", "Cutler's Brigade"]
    assert first.units.brigades().get(name="Iron Brigade").skirmishers_available == 2
    assert [b.name for b in first.units.batteries().all()] == ["Hall's Battery"]
    heth = Command.objects.get(game=game, name="Heth's Division")
    assert (heth.side, heth.parent, str(heth.leader.value)) == (confederate, None, "E1")
    pegram = heth.units.batteries().get()
    assert pegram.horse and pegram.battery_type == "m_sb"
    assert Command.objects.filter(game=game).count() == 5 and Leader.objects.filter(game=game).count() == 5
    assert setup_of(game) == snapshot(game)


def test_a_csv_sheet_with_divisions_directly_under_the_sides_imports(db):
    rows = [
        {
            "side": "North",
            "division": "Blue",
            "division_leader": "Able",
            "division_leader_value": "C1",
            "unit": "1st Brigade",
            "kind": "cavalry_mounted",
            "grade": "green",
            "bases": "3",
        },
        {
            "side": "North",
            "division": "Blue",
            "unit": "2nd Brigade",
            "kind": "infantry",
            "grade": "untrained",
            "bases": "6",
        },
        {
            "side": "South",
            "division": "Grey",
            "division_leader": "Baker",
            "division_leader_value": "E4",
            "unit": "Grey Guns",
            "kind": "Artillery",
            "grade": "average",
            "battery_type": "l_sb",
        },
    ]
    columns = (
        "side",
        "division",
        "division_leader",
        "division_leader_value",
        "unit",
        "kind",
        "grade",
        "bases",
        "battery_type",
    )
    text = (
        "\ufeff"
        + ",".join(columns)
        + "\r\n"
        + "".join(",".join(row.get(c, "") for c in columns) + "\r\n" for row in rows)
    )
    game = create_game(parse_csv(text, "Skirmish"))
    blue = Command.objects.get(game=game, name="Blue")
    assert blue.parent is None and blue.level == "division" and blue.leader.name == "Able"
    assert [b.name for b in blue.units.brigades().all()] == ["1st Brigade", "2nd Brigade"]
    assert Command.objects.get(game=game, name="Grey").units.batteries().get().battery_type == "l_sb"
    assert Command.objects.filter(game=game).count() == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            sheet(*BIG_BATTLE[:2], {**BIG_BATTLE[2], "grade": "elite"}, *BIG_BATTLE[3:]),
            "line 4, grade: expected one of crack, veteran, average, green, untrained, got 'elite'",
        ),
        (sheet(*BIG_BATTLE[:4], {**BIG_BATTLE[4], "bases": "0"}, *BIG_BATTLE[5:]), "line 6, bases: must be 1 or more"),
        (sheet(*BIG_BATTLE[:5], {**BIG_BATTLE[5], "battery_type": ""}), "line 7, battery_type: missing"),
        (
            sheet(*BIG_BATTLE[:3], {**BIG_BATTLE[3], "division_leader_value": "X1"}, *BIG_BATTLE[4:]),
            "line 5, division_leader_value: a leader is written as class E, P or C",
        ),
        (
            sheet(*({**row, "corps_leader": ""} for row in BIG_BATTLE[:4]), *BIG_BATTLE[4:]),
            "line 2, corps_leader: missing",
        ),
        (sheet(*BIG_BATTLE[:3], {**BIG_BATTLE[3], "division": ""}, *BIG_BATTLE[4:]), "line 5, division: missing"),
        (sheet(*BIG_BATTLE[:4], {**BIG_BATTLE[4], "side": ""}, *BIG_BATTLE[5:]), "line 6, side: missing"),
        (
            sheet(
                *BIG_BATTLE,
                {**HETH_ROW, "side": "French", "unit": "Zouaves", "kind": "infantry", "grade": "green", "bases": "3"},
            ),
            "line 8, side: a battle has two sides (Union, Confederate)",
        ),
        (
            sheet(*BIG_BATTLE[:1], {**BIG_BATTLE[1], "division_leader_value": "E2"}, *BIG_BATTLE[2:]),
            "line 3, division_leader_value: 'E2' differs from 'E1' given for the same division, 1st Division",
        ),
        (sheet(*BIG_BATTLE[:4]), "line 1, side: a battle has two sides, got 1"),
        (sheet(*BIG_BATTLE) + "Union,Ann" + "," * len(CSV_COLUMNS) + "extra\n", "line 8: more values than the header"),
        (sheet(*BIG_BATTLE).replace(",grade,", ",", 1), "line 1: the header lacks the column 'grade'; columns: side,"),
        (
            sheet(*BIG_BATTLE).replace(",horse\n", ",horse,colour\n", 1),
            "line 1: unknown column 'colour'; columns: side,",
        ),
        (
            sheet(*BIG_BATTLE[:1], {**BIG_BATTLE[1], "unit": "x" * 200_000}, *BIG_BATTLE[2:]),
            "line 3: not a readable CSV line: field larger than field limit",
        ),
        (
            sheet(*BIG_BATTLE[:1], {**BIG_BATTLE[1], "unit": "x" * 121}, *BIG_BATTLE[2:]),
            "line 3, unit: at most 120 characters, got 121",
        ),
        ("", "the file is empty"),
        (
            sheet(*BIG_BATTLE[:1], {**BIG_BATTLE[1], "unit": "Cutler's\x00Brigade"}, *BIG_BATTLE[2:]),
            "line 3, unit: holds the control character U+0000, which no name or text of a battle has: retype it",
        ),
        (
            sheet(*BIG_BATTLE[:3], {**BIG_BATTLE[3], "division_leader": "Abner\x1bDoubleday"}, *BIG_BATTLE[4:]),
            "line 5, division_leader: holds the control character U+001B",
        ),
        (
            sheet(*BIG_BATTLE[:4], {**BIG_BATTLE[4], "skirmishers": "500"}, *BIG_BATTLE[5:]),
            "line 6, skirmishers: at most one skirmish marker per base, as open order deploys them (1.4): 4 for this "
            "brigade, got 500",
        ),
        (
            sheet(*BIG_BATTLE[:4], {**BIG_BATTLE[4], "bases": "31"}, *BIG_BATTLE[5:]),
            "line 6, bases: a brigade has at most 30 bases (8,250 infantry or 4,500 cavalry, 1.1), got 31",
        ),
    ],
)
def test_a_bad_csv_sheet_names_the_line_and_column_and_creates_nothing(db, text, expected):
    assert refused(parse_csv, text, "Bad sheet").startswith(expected)


def test_a_sheet_of_more_units_than_any_battle_is_refused(db):
    rows = [
        {**HETH_ROW, "unit": f"Brigade {n}", "kind": "infantry", "grade": "green", "bases": "3"} for n in range(2001)
    ]
    message = refused(parse_csv, sheet(*BIG_BATTLE, *rows), "Too big")
    assert message == "line 1, side: a battle has at most 2,000 brigades and batteries, got 2,007"


def test_csv_errors_name_the_right_line_when_units_share_a_name(db):
    rows = [*BIG_BATTLE, {**HETH_ROW, "unit": "Cutler's Brigade", "kind": "infantry", "grade": "green", "bases": "x"}]
    assert refused(parse_csv, sheet(*rows), "Twins").startswith("line 8, bases: expected a whole number, got 'x'")
