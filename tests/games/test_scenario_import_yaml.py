"""Scenario import from YAML and JSON: the demo file with every side, command, leader and unit, a scenario that
waits in set-up, and problems named by line and field with nothing created."""

import json

import pytest
import yaml

from republic.games.ledger import replay, snapshot
from republic.games.models import Command, Game, Leader, Objective, Unit, setup_of
from republic.games.scenario import create_game, parse_scenario
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryType, Grade, UnitKind
from tests.games.scenario_files import DEMO, HETH, line_of, refused

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
    assert len(setup_of(game)) == 1 + 2 + 5 + 5 + 8 + 5 + 3
    objectives = [(o.name, o.holder.name if o.holder else "") for o in Objective.objects.filter(game=game)]
    assert objectives == [("McPherson's Ridge", "Union"), ("Herr's Ridge", "Confederate"), ("Seminary Ridge", "")]
    assert setup_of(game) == snapshot(game) == replay(game)
    assert setup_of(game)[davis.key]["bases"] == 8


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
            "a leader rating past the rules'",
            DEMO.replace("value: E1}", "value: E5}", 1),
            "value: E5",
            f"{HETH}.leader.value: a leader rating runs from -1 to 4, got 5",
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
            "an objective held by no side of the battle",
            DEMO.replace("{name: Seminary Ridge}", "{name: Seminary Ridge, held_by: French}"),
            "{name: Seminary Ridge",
            "objectives[2].held_by: no side is called 'French'",
        ),
        (
            "two objectives of one name",
            DEMO.replace("{name: Seminary Ridge}", "{name: Herr's Ridge}"),
            "{name: Herr's Ridge}",
            'objectives[2].name: two objectives are called "Herr\'s Ridge"',
        ),
        (
            "an objective with a field of no objective",
            DEMO.replace("{name: Seminary Ridge}", "{name: Seminary Ridge, points: 3}"),
            "{name: Seminary Ridge",
            "objectives[2].points: unknown field; expected one of held_by, name",
        ),
        (
            "skirmish markers past one a base",
            DEMO.replace(ARCHER + ", formation: two_line, skirmishers: 1", ARCHER + ", skirmishers: 500"),
            "skirmishers: 500",
            f"{HETH}.brigades[0].skirmishers: at most one skirmish marker per base, as open order deploys them (1.4): "
            "4 for this brigade, got 500",
        ),
        (
            "bases past any brigade of the war",
            DEMO.replace(ARCHER, "{name: Archer's Brigade, grade: veteran, bases: 31"),
            "bases: 31",
            f"{HETH}.brigades[0].bases: a brigade has at most 30 bases (8,250 infantry or 4,500 cavalry, 1.1), got 31",
        ),
        (
            "M hits past a routed unit's",
            DEMO.replace(ARCHER, ARCHER + ", m_hits: 5"),
            "m_hits: 5",
            f"{HETH}.brigades[0].m_hits: a unit carries 0 to 4 M hits, got 5",
        ),
        (
            "battery damage past what the table corrects",
            DEMO.replace(
                "{name: Garnett's Battalion, type: m_sb", "{name: Garnett's Battalion, damage: 10, type: m_sb"
            ),
            "damage: 10",
            f"{HETH}.batteries[0].damage: a battery carries 0 to 9 damage, got 10",
        ),
        (
            "a NUL escaped in a leader's name",
            DEMO.replace("{name: Henry Heth,", '{name: "Henry\\0Heth",'),
            "Henry",
            f"{HETH}.leader.name: holds the control character U+0000, which no name or text of a battle has",
        ),
        (
            "half of a UTF-16 pair escaped in a side's name",
            DEMO.replace("- name: Union", '- name: "Union\\ud800"'),
            "Union\\ud800",
            "sides[1].name: holds the control character U+D800",
        ),
        (
            "an advanced rule the app does not know",
            DEMO.replace("demo: true", "demo: true\nadvanced_rules: [101, 999]"),
            "advanced_rules",
            "advanced_rules[1]: no advanced rule numbered '999'; the app knows 101 (Cavalry Skirmishers), 102",
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
