"""Scenarios: a whole order of battle with its leaders, from a YAML or JSON file or a CSV sheet, into a game.

A scenario file (JSON is read as YAML, so both give line numbers)::

    scenario: Gettysburg, the morning of July 1, 1863
    ground_scale: medium            # small, medium or large
    first_attacker: Confederate     # optional: otherwise the sides roll for it (1.6)
    sides:
      - name: Union
        players: Ann, Bob
        commands:                   # armies, corps and divisions, nested by `commands`
          - level: corps
            name: I Corps
            leader: {name: John F. Reynolds, value: E2}
            commands:
              - level: division
                name: 1st Division
                leader: {name: James S. Wadsworth, value: P1}
                brigades:
                  - {name: Iron Brigade, grade: crack, bases: 7, skirmishers: 2}
                batteries:
                  - {name: 2nd Maine, type: m_rifle}

A CSV sheet (scenario_csv.py) becomes the same data. Every problem is reported with its line and field, and
nothing is created.
"""

import datetime
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import yaml
from django.conf import settings
from django.db import connection, transaction

from republic.charts import CHART_DIR, chart_path
from republic.file_shapes import YAML_VALUES, control_character, past_any_file
from republic.games import scenario_values as rules_allow
from republic.games.ledger import snapshot
from republic.games.models import ADVANCED_RULES, ChartIdentity, Command, Game, Leader, Objective, Side, Unit
from republic.games.models.charts import shipped_identity
from republic.games.scenario_specs import (
    BatterySpec,
    BrigadeSpec,
    CommandSpec,
    LeaderSpec,
    ObjectiveSpec,
    Scenario,
    SideSpec,
)
from republic.rules.errors import RulesInputError
from republic.rules.scale import GroundScale
from republic.rules.troops import BatteryType, Formation, Grade, UnitKind
from republic.rules.troops import Leader as LeaderValue

LEVELS = ("army", "corps", "division")
MOST = 999  # whole numbers beyond any order of battle (and beyond what the database's small integers hold)
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml reads a file several times faster than PyYAML's own parser, where it is installed; its nodes carry the
same lines. A file it refuses is read again by PyYAML's parser, whose messages and lines the players are shown."""


class ScenarioError(ValueError):
    def __init__(self, where: str, problem: str):
        self.where, self.problem = where, problem
        super().__init__(f"{where}: {problem}" if where else problem)


# --- reading ---------------------------------------------------------------------------------------


class Reader:
    """Plain data plus where each piece came from, so a problem can name its line and field."""

    def __init__(self, where_of):
        self.where_of = where_of

    def fail(self, path: str, problem: str) -> NoReturn:
        raise ScenarioError(self.where_of(path), problem)

    def mapping(self, data: Any, path: str, allowed: set[str]) -> dict:
        if not isinstance(data, dict):
            self.fail(path, "expected a mapping of fields")
        for key in data:
            if key not in allowed:
                self.fail(_join(path, str(key)), f"unknown field; expected one of {', '.join(sorted(allowed))}")
        return data

    def text(
        self, data: dict, path: str, key: str, required: bool = True, default: str = "", longest: int | None = 120
    ) -> str:
        value = data.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.fail(_join(path, key), "missing")
            return default
        if not isinstance(value, str | int | float | datetime.date) or isinstance(value, bool):
            self.fail(_join(path, key), f"expected text, got {value!r}")
        value = str(value).strip()
        if longest is not None and len(value) > longest:
            self.fail(_join(path, key), f"at most {longest} characters, got {len(value)}")
        hidden = control_character(value, lines=longest is None)
        if hidden:
            self.fail(_join(path, key), f"holds {hidden}, which no name or text of a battle has: retype it")
        return value

    def whole(
        self, data: dict, path: str, key: str, default: int | None = None, least: int = 0, most: int = MOST
    ) -> int:
        value = data.get(key, default)
        if value is None:
            self.fail(_join(path, key), "missing")
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(_join(path, key), f"expected a whole number, got {value!r}")
        if value < least:
            self.fail(_join(path, key), f"must be {least} or more, got {value}")
        if value > most:
            self.fail(_join(path, key), f"must be {most} or less, got {value}")
        return value

    def held(
        self, data: dict, path: str, key: str, default: int | None, rule: Callable[[int], str], least: int = 0
    ) -> int:
        """A number of a unit, held to what the rules allow it: ``rule`` says what is wrong with it, or ''."""
        value = self.whole(data, path, key, default, least)
        if problem := rule(value):
            self.fail(_join(path, key), problem)
        return value

    def flag(self, data: dict, path: str, key: str) -> bool:
        value = data.get(key, False)
        if isinstance(value, str) and value.strip().lower() in ("", "yes", "no", "true", "false", "y", "n", "0", "1"):
            return value.strip().lower() in ("yes", "true", "y", "1")
        if not isinstance(value, bool):
            self.fail(_join(path, key), f"expected yes or no, got {value!r}")
        return value

    def choice(self, data: dict, path: str, key: str, enum, default=None):
        value = data.get(key)
        if value is None or value == "":
            if default is None:
                self.fail(_join(path, key), "missing")
            return default
        for member in enum:
            if str(value).strip().lower() in (str(member.value).lower(), member.name.lower()):
                return member
        self.fail(_join(path, key), f"expected one of {', '.join(str(m.value) for m in enum)}, got {value!r}")

    def leader(self, data: Any, path: str) -> LeaderSpec:
        if data is None:
            self.fail(path, "missing: every army, corps and division has a leader")
        data = self.mapping(data, path, {"name", "value"})
        name = self.text(data, path, "name")
        try:
            value = LeaderValue.parse(self.text(data, path, "value"))
        except RulesInputError as exc:
            self.fail(_join(path, "value"), exc.problem)
        return LeaderSpec(name, value)

    def brigade(self, data: Any, path: str) -> BrigadeSpec:
        data = self.mapping(
            data, path, {"name", "grade", "bases", "kind", "formation", "skirmishers", "repeaters", "m_hits"}
        )
        kind = self.choice(data, path, "kind", UnitKind, UnitKind.INFANTRY)
        if kind is UnitKind.ARTILLERY:
            self.fail(_join(path, "kind"), "artillery goes under batteries, not brigades")
        grade = self.choice(data, path, "grade", Grade)
        bases = self.held(data, path, "bases", None, rules_allow.bases_problem, least=1)
        skirmishers = self.held(
            data, path, "skirmishers", 0, lambda n: rules_allow.skirmishers_problem(n, bases, grade.trained)
        )
        m_hits = self.held(data, path, "m_hits", 0, rules_allow.m_hits_problem)
        return BrigadeSpec(
            name=self.text(data, path, "name"),
            grade=grade,
            bases=bases,
            kind=kind,
            formation=self.choice(data, path, "formation", Formation, Formation.TWO_LINE),
            skirmishers=skirmishers,
            repeaters=self.flag(data, path, "repeaters"),
            m_hits=m_hits,
        )

    def battery(self, data: Any, path: str) -> BatterySpec:
        data = self.mapping(data, path, {"name", "type", "horse", "grade", "damage", "limbered"})
        return BatterySpec(
            name=self.text(data, path, "name"),
            battery_type=self.choice(data, path, "type", BatteryType),
            horse=self.flag(data, path, "horse"),
            grade=self.choice(data, path, "grade", Grade, Grade.AVERAGE),
            damage=self.held(data, path, "damage", 0, rules_allow.damage_problem),
            limbered=self.flag(data, path, "limbered"),
        )

    def command(self, data: Any, path: str, above: str | None) -> CommandSpec:
        data = self.mapping(data, path, {"level", "name", "leader", "orders", "commands", "brigades", "batteries"})
        level = self.text(data, path, "level")
        if level not in LEVELS:
            self.fail(_join(path, "level"), f"expected army, corps or division, got {level!r}")
        if above is not None and LEVELS.index(level) <= LEVELS.index(above):
            self.fail(_join(path, "level"), f"a {level} cannot serve under a {above}")
        children = self.sequence(data, path, "commands")
        brigades = self.sequence(data, path, "brigades")
        batteries = self.sequence(data, path, "batteries")
        if level != "division" and (brigades or batteries):
            self.fail(
                _join(path, "brigades" if brigades else "batteries"),
                "brigades and batteries belong to a division (2.1)",
            )
        if level == "division" and children:
            self.fail(_join(path, "commands"), "a division commands brigades and batteries, not other commands")
        if level == "division" and not (brigades or batteries):
            self.fail(_join(path, "brigades"), "a division needs at least one brigade or battery")
        orders = self.text(data, path, "orders", required=False, default="defend")
        if orders not in ("attack", "defend", "hold", "maneuver"):
            self.fail(_join(path, "orders"), f"expected attack, defend, hold or maneuver, got {orders!r}")
        return CommandSpec(
            level=level,
            name=self.text(data, path, "name"),
            orders=orders,
            leader=self.leader(data.get("leader"), _join(path, "leader")),
            commands=tuple(self.command(c, f"{path}.commands[{i}]", level) for i, c in enumerate(children)),
            brigades=tuple(self.brigade(b, f"{path}.brigades[{i}]") for i, b in enumerate(brigades)),
            batteries=tuple(self.battery(b, f"{path}.batteries[{i}]") for i, b in enumerate(batteries)),
        )

    def sequence(self, data: dict, path: str, key: str) -> list:
        value = data.get(key) or []
        if not isinstance(value, list):
            self.fail(_join(path, key), "expected a list")
        return value

    def scenario(self, data: Any) -> Scenario:
        data = self.mapping(
            data,
            "",
            {
                "scenario",
                "description",
                "demo",
                "ground_scale",
                "chart",
                "first_attacker",
                "advanced_rules",
                "objectives",
                "sides",
            },
        )
        sides_data = self.sequence(data, "", "sides")
        if len(sides_data) != 2:
            self.fail("sides", f"a battle has two sides, got {len(sides_data)}")
        sides = []
        for i, side in enumerate(sides_data):
            path = f"sides[{i}]"
            side = self.mapping(side, path, {"name", "players", "commands"})
            commands = self.sequence(side, path, "commands")
            if not commands:
                self.fail(_join(path, "commands"), "a side needs at least one command")
            sides.append(
                SideSpec(
                    name=self.text(side, path, "name", longest=60),
                    players=self.text(side, path, "players", required=False, longest=300),
                    commands=tuple(self.command(c, f"{path}.commands[{j}]", None) for j, c in enumerate(commands)),
                )
            )
        if sides[0].name == sides[1].name:
            self.fail("sides[1].name", f"both sides are called {sides[0].name!r}")
        if (units := sum(c.units() for side in sides for c in side.commands)) > rules_allow.MOST_UNITS:
            self.fail("sides", f"a battle has at most {rules_allow.MOST_UNITS:,} brigades and batteries, got {units:,}")
        first = self.text(data, "", "first_attacker", required=False)
        if first and first not in (s.name for s in sides):
            self.fail("first_attacker", f"no side is called {first!r}")
        chart = self.text(data, "", "chart", required=False, longest=80)
        if chart and (
            not chart.replace("-", "").replace(".", "").replace("_", "").isalnum() or not chart_path(chart).is_file()
        ):
            shipped = ", ".join(sorted(p.stem for p in CHART_DIR.glob("*.yaml")))
            self.fail("chart", f"no chart called {chart!r} ships with the app; charts: {shipped}")
        rules = [
            self.advanced_rule(r, f"advanced_rules[{i}]")
            for i, r in enumerate(self.sequence(data, "", "advanced_rules"))
        ]
        objectives = self.objectives(data, tuple(s.name for s in sides))
        return Scenario(
            title=self.text(data, "", "scenario"),
            sides=tuple(sides),
            description=self.text(data, "", "description", required=False, longest=None),
            demo=self.flag(data, "", "demo"),
            ground_scale=self.choice(data, "", "ground_scale", GroundScale, GroundScale.MEDIUM),
            chart=chart,
            first_attacker=first,
            advanced_rules=tuple(rules),
            objectives=objectives,
        )

    def advanced_rule(self, value: Any, path: str) -> str:
        if str(value).strip() not in ADVANCED_RULES:
            known = ", ".join(f"{number} ({name})" for number, name in ADVANCED_RULES.items())
            self.fail(path, f"no advanced rule numbered {str(value)[:20]!r}; the app knows {known}")
        return str(value).strip()

    def objectives(self, data: dict, sides: tuple[str, ...]) -> tuple[ObjectiveSpec, ...]:
        """The places the scenario names as worth holding: each a name, or a name and the side holding it."""
        found: list[ObjectiveSpec] = []
        for i, item in enumerate(self.sequence(data, "", "objectives")):
            path = f"objectives[{i}]"
            item = {"name": item} if isinstance(item, str) else self.mapping(item, path, {"name", "held_by"})
            spec = ObjectiveSpec(self.text(item, path, "name"), self.text(item, path, "held_by", required=False))
            if spec.held_by and spec.held_by not in sides:
                self.fail(_join(path, "held_by"), f"no side is called {spec.held_by!r}")
            if spec.name in (o.name for o in found):
                self.fail(_join(path, "name"), f"two objectives are called {spec.name!r}")
            found.append(spec)
        return tuple(found)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def parse_scenario(text: str) -> Scenario:
    """A scenario from YAML or JSON text; a ScenarioError names the line and field of any problem."""
    odd = past_any_file(text)
    if odd:
        raise ScenarioError(f"line {odd[0]}", f"{odd[1]}, which no scenario has")
    try:
        root = _compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"line {mark.line + 1}" if mark else ""
        raise ScenarioError(at, f"not readable YAML or JSON: {getattr(exc, 'problem', exc)}") from None
    if root is None:
        raise ScenarioError("", "the file is empty")
    lines: dict[str, int] = {}
    try:
        data = _construct(yaml.SafeLoader(""), root, "", lines, [], [0])
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        at = f"line {mark.line + 1}" if mark else ""
        raise ScenarioError(at, f"not a plain scenario value: {getattr(exc, 'problem', None) or exc}") from None

    def where(path: str) -> str:
        probe = path
        while probe and probe not in lines:
            probe = probe.rsplit(".", 1)[0] if "." in probe else probe.split("[", 1)[0] if "[" in probe else ""
        line = lines.get(probe, lines.get("", 1))
        return f"line {line}, {path}" if path else f"line {line}"

    return Reader(where).scenario(data)


def _compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return yaml.compose(text, Loader=yaml.SafeLoader)


def _construct(
    loader: yaml.SafeLoader, node: yaml.Node, path: str, lines: dict[str, int], above: list, count: list[int]
) -> Any:
    """Plain data from a YAML node tree, noting the line each path starts on. An alias that contains itself, a
    file that aliases multiply past any order of battle, and a field given twice are refused."""
    line = node.start_mark.line + 1
    lines.setdefault(path, line)  # a field's line is its key's, even when its value starts below
    count[0] += 1
    if count[0] > YAML_VALUES:  # past the values the file holds: aliases multiply them (a YAML bomb)
        raise ScenarioError(f"line {line}", f"too many values (more than {YAML_VALUES}): is an alias repeated?")
    if any(node is n for n in above):
        raise ScenarioError(f"line {line}, {path}" if path else f"line {line}", "an alias that contains itself")
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node)
            if not isinstance(key, str | int | float | bool) and key is not None:
                raise ScenarioError(f"line {key_node.start_mark.line + 1}", f"a field name must be text, got {key!r}")
            if key in out:
                raise ScenarioError(f"line {key_node.start_mark.line + 1}, {_join(path, str(key))}", "given twice")
            lines[_join(path, str(key))] = key_node.start_mark.line + 1
            out[key] = _construct(loader, value_node, _join(path, str(key)), lines, [*above, node], count)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [
            _construct(loader, item, f"{path}[{i}]", lines, [*above, node], count) for i, item in enumerate(node.value)
        ]
    return loader.construct_object(node)


# --- creating the game -------------------------------------------------------------------------------


def create_game(scenario: Scenario, name: str = "", chart: ChartIdentity | None = None) -> Game:
    """The game of a scenario, on ``chart`` if given, else on the shipped chart the scenario names or the app's."""
    with transaction.atomic():
        game = Game.objects.create(
            name=name or scenario.title,
            scenario=scenario.title,
            demo=scenario.demo,
            **(chart or shipped_identity(scenario.chart or settings.REPUBLIC_CHART)).fields(),
            ground_scale=scenario.ground_scale,
            advanced_rules=list(scenario.advanced_rules),
        )
        order = iter(range(1, 100_000))
        sides = {}
        built = _Built()
        for number, spec in enumerate(scenario.sides, start=1):
            side = Side.objects.create(game=game, name=spec.name, players=spec.players, order=number)
            sides[spec.name] = side
            for command in spec.commands:
                built.command(game, side, None, command, order, 0)
        built.save()
        Objective.objects.bulk_create(
            Objective(game=game, name=spec.name, order=number, holder=sides.get(spec.held_by))
            for number, spec in enumerate(scenario.objectives, start=1)
        )
        if scenario.first_attacker:
            game.first_attacker = sides[scenario.first_attacker]
        game.status = Game.Status.IN_PROGRESS if scenario.first_attacker else Game.Status.SETTING_UP
        game.save()
        game.setup = snapshot(game)
        game.save(update_fields=["setup"])
    return game


class _Built:
    """The rows of an order of battle, made first and saved a table at a time: a club's battle of 400 units is
    a handful of inserts, not one for every unit. Commands go in level by level, so each knows its parent's id."""

    def __init__(self) -> None:
        self.commands: list[list[Command]] = []
        self.leaders: list[Leader] = []
        self.units: list[Unit] = []

    def command(
        self, game: Game, side: Side, parent: Command | None, spec: CommandSpec, order: Iterator[int], depth: int
    ) -> None:
        command = Command(
            game=game, side=side, parent=parent, level=spec.level, name=spec.name, orders=spec.orders, order=next(order)
        )
        if len(self.commands) <= depth:
            self.commands.append([])
        self.commands[depth].append(command)
        self.leaders.append(
            Leader(
                game=game,
                command=command,
                name=spec.leader.name,
                leader_class=spec.leader.value.leader_class.value,
                rating=spec.leader.value.rating,
            )
        )
        for child in spec.commands:
            self.command(game, side, command, child, order, depth + 1)
        for b in spec.brigades:
            self.units.append(
                Unit(
                    game=game,
                    division=command,
                    name=b.name,
                    order=next(order),
                    grade=b.grade,
                    kind=b.kind,
                    bases_start=b.bases,
                    bases=b.bases,
                    formation=b.formation,
                    skirmishers_available=b.skirmishers,
                    skirmisher_grade=b.grade if b.skirmishers else "",
                    repeaters=b.repeaters,
                    m_hits=b.m_hits,
                )
            )
        for g in spec.batteries:
            self.units.append(
                Unit(
                    game=game,
                    division=command,
                    name=g.name,
                    order=next(order),
                    grade=g.grade,
                    kind=UnitKind.ARTILLERY,
                    battery_type=g.battery_type,
                    horse=g.horse,
                    damage=g.damage,
                    limbered=g.limbered,
                )
            )

    def save(self) -> None:
        for level in self.commands:
            if connection.features.can_return_rows_from_bulk_insert:
                Command.objects.bulk_create(level)
            else:  # a database that cannot say the ids it gave: the children need them
                for command in level:
                    command.save()
        Leader.objects.bulk_create(self.leaders)
        Unit.objects.bulk_create(self.units)
