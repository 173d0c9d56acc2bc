"""Scenarios: a whole order of battle with its leaders, from a YAML or JSON file or a CSV sheet, into a game.

A scenario file (JSON is read as YAML, so both give line numbers)::

    scenario: Gettysburg, the morning of July 1, 1863
    ground_scale: medium            # small, medium or large
    first_attacker: Confederate     # optional: otherwise the sides roll for it (1.6)
    turns: 18                       # optional: the game turns the day holds, 40 minutes each (1.1)
    sources: [Official Records, vol. 27]   # optional: the texts the figures follow
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
                  - {name: Cutler's Brigade, grade: veteran, men: 2025}   # men or bases
                batteries:
                  - {name: 2nd Maine, type: m_rifle}

A brigade's ``men`` become bases at the rules' scale (1.1): 275 a foot base, 150 a horse base (cavalry, mounted or
dismounted), rounded to the nearest base, a half base up; men too few for one base are refused.

A CSV sheet (scenario_csv.py) becomes the same data. Every problem is reported with its line and field, and
nothing is created.
"""

from collections.abc import Iterator
from typing import Any

import yaml
from django.conf import settings
from django.db import connection, transaction

from republic.file_shapes import YAML_VALUES, past_any_file
from republic.games.ledger import snapshot
from republic.games.models import ChartIdentity, Command, Game, GameSetup, Leader, Objective, Side, Unit
from republic.games.models.charts import shipped_identity
from republic.games.scenario_reader import Reader, ScenarioError, field_path
from republic.games.scenario_specs import CommandSpec, Scenario
from republic.rules.troops import UnitKind

_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml reads a file several times faster than PyYAML's own parser, where it is installed; its nodes carry the
same lines. A file it refuses is read again by PyYAML's parser, whose messages and lines the players are shown."""


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
                raise ScenarioError(f"line {key_node.start_mark.line + 1}, {field_path(path, str(key))}", "given twice")
            lines[field_path(path, str(key))] = key_node.start_mark.line + 1
            out[key] = _construct(loader, value_node, field_path(path, str(key)), lines, [*above, node], count)
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
            last_turn=scenario.turns,
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
        GameSetup.objects.create(game=game, state=snapshot(game))
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
