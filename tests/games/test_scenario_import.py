"""Scenario import: the demo file, YAML/JSON/CSV problems named by line and field with nothing created, the upload
page and the load_demo command."""

import io
import json

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from republic.games.ledger import replay, snapshot
from republic.games.models import Command, Game, Leader, Side, Unit
from republic.games.scenario import ScenarioError, create_game, parse_scenario
from republic.games.scenario_csv import CSV_COLUMNS, parse_csv
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryType, Grade, UnitKind
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


# --- the demo -----------------------------------------------------------------------------------------------------


def test_the_demo_file_imports_every_side_command_leader_and_unit(db):
    game = create_game(parse_scenario(DEMO))
    assert game.demo and game.status == Game.Status.IN_PROGRESS
    assert game.first_attacker.name == "Confederate"
    assert game.attacker.name == "Confederate" and game.defender.name == "Union"
    assert [s.name for s in game.sides.all()] == ["Confederate", "Union"]
    assert game.ground_scale == GroundScale.MEDIUM.value
    commands = {c.name: c for c in Command.objects.filter(game=game)}
    assert set(commands) == {
        "Third Corps",
        "Heth's Division",
        "I Corps",
        "Wadsworth's Division",
        "Buford's Cavalry Division",
    }
    assert commands["Heth's Division"].parent == commands["Third Corps"]
    assert commands["Heth's Division"].orders == "attack"
    assert commands["Buford's Cavalry Division"].parent is None
    assert commands["Buford's Cavalry Division"].side.name == "Union"
    leaders = {leader.name: str(leader.value) for leader in Leader.objects.filter(game=game)}
    assert leaders == {
        "A. P. Hill": "P1",
        "Henry Heth": "E1",
        "John F. Reynolds": "E3",
        "James S. Wadsworth": "E1",
        "John Buford": "E3",
    }
    assert commands["Heth's Division"].leader.name == "Henry Heth"
    brigades = {b.name: b for b in Unit.objects.brigades().filter(game=game)}
    assert len(brigades) == 8
    assert {b.name for b in Unit.objects.brigades().filter(game=game, division__side__name="Confederate")} == {
        "Archer's Brigade",
        "Davis's Brigade",
        "Pettigrew's Brigade",
        "Brockenbrough's Brigade",
    }
    davis = brigades["Davis's Brigade"]
    assert (davis.grade, davis.bases, davis.bases_start, davis.skirmishers_available, davis.skirmisher_grade) == (
        Grade.AVERAGE.value,
        8,
        8,
        2,
        Grade.AVERAGE.value,
    )
    assert brigades["Gamble's Brigade"].kind == UnitKind.CAVALRY_DISMOUNTED.value
    assert brigades["Gamble's Brigade"].formation == "single_line"
    batteries = {b.name: b for b in Unit.objects.batteries().filter(game=game)}
    assert len(batteries) == 5
    calef = batteries["2nd U.S., Battery A (Calef)"]
    assert calef.horse and calef.battery_type == BatteryType.M_RIFLE.value and calef.grade == "veteran"
    assert batteries["Garnett's Battalion"].battery_type == BatteryType.M_SB.value
    # the setup snapshot holds every row, and equals the state
    assert len(game.setup) == 1 + 2 + 5 + 5 + 8 + 5
    assert game.setup == snapshot(game) == replay(game)
    assert game.setup[davis.key]["bases"] == 8


def test_a_scenario_without_first_attacker_waits_in_set_up(db):
    game = create_game(parse_scenario(DEMO.replace("first_attacker: Confederate\n", "")), "Our game")
    assert game.name == "Our game" and game.status == Game.Status.SETTING_UP and game.first_attacker is None


# --- malformed YAML -----------------------------------------------------------------------------------------------

ARCHER = "{name: Archer's Brigade, grade: veteran, bases: 4"
HETH_UNITS = DEMO[DEMO.index("            brigades:\n              - {name: Archer") : DEMO.index("  - name: Union")]


@pytest.mark.parametrize(
    ("label", "text", "needle", "expected"),
    [
        (
            "bad grade",
            DEMO.replace(ARCHER, "{name: Archer's Brigade, grade: elite, bases: 4"),
            "grade: elite",
            f"{HETH}.brigades[0].grade: expected one of crack, veteran, average, green, untrained, got 'elite'",
        ),
        (
            "bad leader value",
            DEMO.replace("value: E1}", "value: Z9}", 1),
            "value: Z9",
            f"{HETH}.leader.value: a leader is written as class E, P or C and a rating",
        ),
        (
            "zero bases",
            DEMO.replace(ARCHER, "{name: Archer's Brigade, grade: veteran, bases: 0"),
            "bases: 0",
            f"{HETH}.brigades[0].bases: must be 1 or more, got 0",
        ),
        (
            "unknown field",
            DEMO.replace(ARCHER, ARCHER + ", colour: grey"),
            "colour: grey",
            f"{HETH}.brigades[0].colour: unknown field; expected one of bases, formation, grade",
        ),
        (
            "brigade under a corps",
            DEMO.replace(
                "        leader: {name: A. P. Hill, value: P1}\n",
                "        leader: {name: A. P. Hill, value: P1}\n        brigades:\n"
                "          - {name: Stray, grade: green, bases: 3}\n",
            ),
            "        brigades:\n          - {name: Stray",
            "sides[0].commands[0].brigades: brigades and batteries belong to a division (2.1)",
        ),
        (
            "division with no units",
            DEMO.replace(HETH_UNITS, ""),
            "          - level: division\n            name: Heth",
            f"{HETH}.brigades: a division needs at least one brigade or battery",
        ),
        (
            "three sides",
            DEMO + "  - name: French\n    commands: []\n",
            "sides:",
            "sides: a battle has two sides, got 3",
        ),
        (
            "same side names",
            DEMO.replace("- name: Union", "- name: Confederate"),
            '- name: Confederate\n    players: ""\n    commands:\n      - level: corps\n        name: I Corps',
            "sides[1].name: both sides are called 'Confederate'",
        ),
        (
            "first attacker naming no side",
            DEMO.replace("first_attacker: Confederate", "first_attacker: French"),
            "first_attacker:",
            "first_attacker: no side is called 'French'",
        ),
        (
            "bases too many for the database",
            DEMO.replace(ARCHER, "{name: Archer's Brigade, grade: veteran, bases: 80000"),
            "bases: 80000",
            f"{HETH}.brigades[0].bases: must be 999 or less, got 80000",
        ),
        (
            "a field given twice",
            DEMO.replace(ARCHER, ARCHER + ", grade: green"),
            "grade: green",
            f"{HETH}.brigades[0].grade: given twice",
        ),
        (
            "a side name too long",
            DEMO.replace("- name: Union", "- name: " + "U" * 61),
            "- name: UUU",
            "sides[1].name: at most 60 characters, got 61",
        ),
        (
            "a chart that does not ship",
            DEMO.replace("demo: true", "chart: ../../settings"),
            "chart:",
            "chart: no chart called '../../settings' ships with the app; charts: republic-1.0-provisional",
        ),
    ],
)
def test_a_malformed_scenario_names_line_and_field_and_creates_nothing(db, label, text, needle, expected):
    message = refused(parse_scenario, text)
    assert message.startswith(f"line {line_of(text, needle)}, "), (label, message)
    assert expected in message, (label, message)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("scenario: [unclosed\n  sides: {\n", "line 2: not readable YAML or JSON"),
        ("scenario: x\n\tsides: []\n", "line 2: not readable YAML or JSON"),
        ("", "the file is empty"),
        ("  \n# only a comment\n", "the file is empty"),
        ("just a line of text", "line 1: expected a mapping of fields"),
        ("- a\n- b\n", "line 1: expected a mapping of fields"),
        ("scenario: x\nsides: 3\n", "line 2, sides: expected a list"),
        ("scenario: x\nsides:\n  - &s [*s]\n  - b\n", "line 3, sides[0][0]: an alias that contains itself"),
        ("scenario: !!python/name:os.system x\n", "line 1: not a plain scenario value"),
        ("scenario: !local x\n", "line 1: not a plain scenario value"),
    ],
)
def test_what_is_not_a_scenario_at_all_is_refused_with_its_line(db, text, expected):
    assert refused(parse_scenario, text).startswith(expected)


def test_a_yaml_alias_bomb_is_refused_quickly(db):
    rows = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    rows += [f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdef", "bcdefg", strict=True)]
    message = refused(parse_scenario, "\n".join(rows) + "\n")
    assert message.startswith("line ") and "too many values" in message


def test_the_same_scenario_as_json_imports_and_its_errors_give_lines(db):
    data = yaml.safe_load(DEMO)
    game = create_game(parse_scenario(json.dumps(data, indent=2)))
    assert game.first_attacker.name == "Confederate"
    units = Unit.objects.filter(game=game)
    assert units.brigades().count() == 8 and units.batteries().count() == 5
    data["sides"][0]["commands"][0]["commands"][0]["brigades"][1]["grade"] = "elite"
    text = json.dumps(data, indent=2)
    message = refused(parse_scenario, text)
    assert message.startswith(f"line {line_of(text, 'elite')}, {HETH}.brigades[1].grade: expected one of")
    broken = json.dumps(yaml.safe_load(DEMO), indent=2)[:-3]
    assert refused(parse_scenario, broken).startswith(f"line {broken.count(chr(10)) + 1}: not readable YAML or JSON")


# --- CSV ----------------------------------------------------------------------------------------------------------

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
    assert game.setup == snapshot(game)


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
    ],
)
def test_a_bad_csv_sheet_names_the_line_and_column_and_creates_nothing(db, text, expected):
    assert refused(parse_csv, text, "Bad sheet").startswith(expected)


def test_csv_errors_name_the_right_line_when_units_share_a_name(db):
    rows = [*BIG_BATTLE, {**HETH_ROW, "unit": "Cutler's Brigade", "kind": "infantry", "grade": "green", "bases": "x"}]
    assert refused(parse_csv, sheet(*rows), "Twins").startswith("line 8, bases: expected a whole number, got 'x'")


# --- the upload page ----------------------------------------------------------------------------------------------


def upload(client, filename: str, content: str, **fields):
    data = {
        "file": SimpleUploadedFile(filename, content.encode("utf-8")),
        "name": "",
        "ground_scale": "medium",
        **fields,
    }
    return client.post("/games/new/", data)


def test_uploading_the_yaml_file_creates_the_game_and_redirects_to_it(client, db):
    response = upload(client, "gettysburg.yaml", DEMO, name="Friday night")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.name == "Friday night" and game.first_attacker.name == "Confederate"
    assert client.get(response["Location"]).status_code == 200


def test_uploading_over_htmx_redirects_the_browser(client, db):
    response = client.post(
        "/games/new/",
        {"file": SimpleUploadedFile("g.json", json.dumps(yaml.safe_load(DEMO)).encode()), "ground_scale": "medium"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and response["HX-Redirect"] == f"/games/{Game.objects.get().pk}/"


def test_uploading_a_csv_sheet_creates_the_game_named_after_the_file(client, db):
    response = upload(client, "mcpherson-ridge.csv", sheet(*BIG_BATTLE), ground_scale="large")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.name, game.ground_scale, game.status) == ("mcpherson-ridge", "large", Game.Status.SETTING_UP)
    assert Unit.objects.brigades().filter(game=game).count() == 4


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        (
            "bad.yaml",
            DEMO.replace("first_attacker: Confederate", "first_attacker: French"),
            f"bad.yaml, line {line_of(DEMO, 'first_attacker')}, first_attacker: no side is called &#x27;French&#x27;",
        ),
        (
            "bad.csv",
            sheet(*BIG_BATTLE[:2], {**BIG_BATTLE[2], "grade": "elite"}, *BIG_BATTLE[3:]),
            "bad.csv, line 4, grade: expected one of",
        ),
        ("blank.yaml", "# nothing yet\n", "blank.yaml, the file is empty"),
        ("empty.csv", "", "The submitted file is empty."),
    ],
)
def test_a_bad_upload_shows_the_error_at_the_field_and_creates_nothing(client, db, name, content, expected):
    response = upload(client, name, content)
    assert response.status_code == 200
    assert Game.objects.count() == 0
    body = response.content.decode()
    field_error = body[body.index('id="id_file_error"') :]
    assert expected in field_error[: field_error.index("</div>")]


def test_names_too_long_for_the_database_are_refused_at_the_field_not_with_an_error_page(client, db):
    text = DEMO.replace("name: Davis's Brigade", "name: " + "D" * 121)
    response = upload(client, "long.yaml", text)
    assert response.status_code == 200 and Game.objects.count() == 0
    assert response.context["upload"].errors["file"] == [
        f"long.yaml, line {line_of(text, 'DDD')}, {HETH}.brigades[1].name: at most 120 characters, got 121"
    ]


def test_an_upload_that_is_not_utf8_text_is_refused_at_the_field(client, db):
    response = client.post(
        "/games/new/", {"file": SimpleUploadedFile("x.yaml", b"\xff\xfe\x00bad"), "ground_scale": "medium"}
    )
    assert response.status_code == 200 and Game.objects.count() == 0
    assert response.context["upload"].errors["file"] == ["The file is not UTF-8 text."]


def test_an_upload_without_a_file_is_refused(client, db):
    response = client.post("/games/new/", {"ground_scale": "medium"})
    assert response.status_code == 200 and Game.objects.count() == 0
    assert "file" in response.context["upload"].errors


# --- load_demo ----------------------------------------------------------------------------------------------------


def test_load_demo_loads_once_creates_the_game_master_once_and_prints_the_way_in(db):
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    game = Game.objects.get(demo=True)
    first = out.getvalue()
    assert "Loaded the demo battle" in first
    assert f"Play the demo at http://127.0.0.1:8000/games/{game.pk}/" in first
    assert "Game master sign-in at http://127.0.0.1:8000/admin/ as gm, password " in first
    gm = get_user_model().objects.get(username="gm")
    assert gm.is_superuser and gm.is_staff
    password = first.split("password ", 1)[1].split()[0]
    assert gm.check_password(password)
    again = io.StringIO()
    call_command("load_demo", "--host", "table.local:8011", stdout=again)
    assert Game.objects.filter(demo=True).count() == 1 and Game.objects.count() == 1
    assert get_user_model().objects.filter(username="gm").count() == 1
    assert f"Play the demo at http://table.local:8011/games/{game.pk}/" in again.getvalue()
    assert "Loaded" not in again.getvalue() and password not in again.getvalue()
    gm.refresh_from_db()
    assert gm.check_password(password)
