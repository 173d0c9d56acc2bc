"""Reading a scenario's plain data, field by field, into its specs: every problem names its line and field."""

import datetime
from collections.abc import Callable
from typing import Any, NoReturn

from republic.charts import CHART_DIR, chart_path
from republic.file_shapes import control_character
from republic.games import scenario_values as rules_allow
from republic.games.models import ADVANCED_RULES
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


class ScenarioError(ValueError):
    def __init__(self, where: str, problem: str):
        self.where, self.problem = where, problem
        super().__init__(f"{where}: {problem}" if where else problem)


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
                self.fail(field_path(path, str(key)), f"unknown field; expected one of {', '.join(sorted(allowed))}")
        return data

    def text(
        self, data: dict, path: str, key: str, required: bool = True, default: str = "", longest: int | None = 120
    ) -> str:
        value = data.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.fail(field_path(path, key), "missing")
            return default
        if not isinstance(value, str | int | float | datetime.date) or isinstance(value, bool):
            self.fail(field_path(path, key), f"expected text, got {value!r}")
        value = str(value).strip()
        if longest is not None and len(value) > longest:
            self.fail(field_path(path, key), f"at most {longest} characters, got {len(value)}")
        hidden = control_character(value, lines=longest is None)
        if hidden:
            self.fail(field_path(path, key), f"holds {hidden}, which no name or text of a battle has: retype it")
        return value

    def whole(
        self, data: dict, path: str, key: str, default: int | None = None, least: int = 0, most: int = MOST
    ) -> int:
        value = data.get(key, default)
        if value is None:
            self.fail(field_path(path, key), "missing")
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field_path(path, key), f"expected a whole number, got {value!r}")
        if value < least:
            self.fail(field_path(path, key), f"must be {least} or more, got {value}")
        if value > most:
            self.fail(field_path(path, key), f"must be {most} or less, got {value}")
        return value

    def held(
        self, data: dict, path: str, key: str, default: int | None, rule: Callable[[int], str], least: int = 0
    ) -> int:
        """A number of a unit, held to what the rules allow it: ``rule`` says what is wrong with it, or ''."""
        value = self.whole(data, path, key, default, least)
        if problem := rule(value):
            self.fail(field_path(path, key), problem)
        return value

    def flag(self, data: dict, path: str, key: str) -> bool:
        value = data.get(key, False)
        if isinstance(value, str) and value.strip().lower() in ("", "yes", "no", "true", "false", "y", "n", "0", "1"):
            return value.strip().lower() in ("yes", "true", "y", "1")
        if not isinstance(value, bool):
            self.fail(field_path(path, key), f"expected yes or no, got {value!r}")
        return value

    def choice(self, data: dict, path: str, key: str, enum, default=None):
        value = data.get(key)
        if value is None or value == "":
            if default is None:
                self.fail(field_path(path, key), "missing")
            return default
        for member in enum:
            if str(value).strip().lower() in (str(member.value).lower(), member.name.lower()):
                return member
        self.fail(field_path(path, key), f"expected one of {', '.join(str(m.value) for m in enum)}, got {value!r}")

    def leader(self, data: Any, path: str) -> LeaderSpec:
        if data is None:
            self.fail(path, "missing: every army, corps and division has a leader")
        data = self.mapping(data, path, {"name", "value"})
        name = self.text(data, path, "name")
        try:
            value = LeaderValue.parse(self.text(data, path, "value"))
        except RulesInputError as exc:
            self.fail(field_path(path, "value"), exc.problem)
        return LeaderSpec(name, value)

    def brigade(self, data: Any, path: str) -> BrigadeSpec:
        data = self.mapping(
            data, path, {"name", "grade", "bases", "men", "kind", "formation", "skirmishers", "repeaters", "m_hits"}
        )
        kind = self.choice(data, path, "kind", UnitKind, UnitKind.INFANTRY)
        if kind is UnitKind.ARTILLERY:
            self.fail(field_path(path, "kind"), "artillery goes under batteries, not brigades")
        grade = self.choice(data, path, "grade", Grade)
        bases = self.bases(data, path, kind)
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

    def bases(self, data: dict, path: str, kind: UnitKind) -> int:
        """A brigade's bases, given as bases or as the men of its order of battle, turned into bases at 1.1."""
        if "men" not in data:
            return self.held(data, path, "bases", None, rules_allow.bases_problem, least=1)
        if "bases" in data:
            self.fail(field_path(path, "men"), "give bases or men, not both")
        men = self.whole(data, path, "men", least=1, most=99_999)
        horse = kind in (UnitKind.CAVALRY_MOUNTED, UnitKind.CAVALRY_DISMOUNTED)
        bases = rules_allow.bases_of_men(men, horse)
        a_base = rules_allow.MEN_A_HORSE_BASE if horse else rules_allow.MEN_A_BASE
        if not bases:
            self.fail(field_path(path, "men"), f"{men} men gives 0 bases at {a_base} men a base (1.1)")
        if problem := rules_allow.bases_problem(bases):
            self.fail(field_path(path, "men"), f"{men} men at {a_base} a base (1.1): {problem}")
        return bases

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
            self.fail(field_path(path, "level"), f"expected army, corps or division, got {level!r}")
        if above is not None and LEVELS.index(level) <= LEVELS.index(above):
            self.fail(field_path(path, "level"), f"a {level} cannot serve under a {above}")
        children = self.sequence(data, path, "commands")
        brigades = self.sequence(data, path, "brigades")
        batteries = self.sequence(data, path, "batteries")
        if level != "division" and (brigades or batteries):
            self.fail(
                field_path(path, "brigades" if brigades else "batteries"),
                "brigades and batteries belong to a division (2.1)",
            )
        if level == "division" and children:
            self.fail(field_path(path, "commands"), "a division commands brigades and batteries, not other commands")
        if level == "division" and not (brigades or batteries):
            self.fail(field_path(path, "brigades"), "a division needs at least one brigade or battery")
        orders = self.text(data, path, "orders", required=False, default="defend")
        if orders not in ("attack", "defend", "hold", "maneuver"):
            self.fail(field_path(path, "orders"), f"expected attack, defend, hold or maneuver, got {orders!r}")
        return CommandSpec(
            level=level,
            name=self.text(data, path, "name"),
            orders=orders,
            leader=self.leader(data.get("leader"), field_path(path, "leader")),
            commands=tuple(self.command(c, f"{path}.commands[{i}]", level) for i, c in enumerate(children)),
            brigades=tuple(self.brigade(b, f"{path}.brigades[{i}]") for i, b in enumerate(brigades)),
            batteries=tuple(self.battery(b, f"{path}.batteries[{i}]") for i, b in enumerate(batteries)),
        )

    def sequence(self, data: dict, path: str, key: str) -> list:
        value = data.get(key) or []
        if not isinstance(value, list):
            self.fail(field_path(path, key), "expected a list")
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
                "turns",
                "sources",
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
                self.fail(field_path(path, "commands"), "a side needs at least one command")
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
            turns=self.whole(data, "", "turns", 0, least=1, most=60) if "turns" in data else None,
            sources=tuple(
                self.text({"source": s}, f"sources[{i}]", "source", longest=300)
                for i, s in enumerate(self.sequence(data, "", "sources"))
            ),
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
                self.fail(field_path(path, "held_by"), f"no side is called {spec.held_by!r}")
            if spec.name in (o.name for o in found):
                self.fail(field_path(path, "name"), f"two objectives are called {spec.name!r}")
            found.append(spec)
        return tuple(found)


def field_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
