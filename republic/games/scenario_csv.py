"""An order of battle kept in a spreadsheet: one row per brigade or battery, its chain of command named in
columns (CSV_COLUMNS). The rows become the same data a scenario file holds, read by the same reader, so every
problem is reported with its line and column, and nothing is created."""

import csv
import io

from republic.games.scenario_reader import LEVELS, Reader, ScenarioError
from republic.games.scenario_specs import Scenario
from republic.rules.scale import GroundScale

CSV_COLUMNS = (
    "side",
    "players",
    "army",
    "army_leader",
    "army_leader_value",
    "corps",
    "corps_leader",
    "corps_leader_value",
    "division",
    "division_leader",
    "division_leader_value",
    "unit",
    "kind",
    "grade",
    "bases",
    "formation",
    "skirmishers",
    "repeaters",
    "battery_type",
    "horse",
)
"""One row per brigade or battery. Leave army and corps (and their leader columns) empty for divisions
directly under the side. A battery row has kind 'artillery' and a battery_type; bases do not apply."""


def parse_csv(text: str, title: str, ground_scale: GroundScale = GroundScale.MEDIUM) -> Scenario:
    """An order of battle from a spreadsheet export; a ScenarioError names the line and column."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise ScenarioError("", "the file is empty")
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [h.strip() for h in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise ScenarioError("line 1", f"not a readable CSV line: {exc}") from None
    missing = [
        c
        for c in ("side", "division", "division_leader", "division_leader_value", "unit", "kind", "grade")
        if c not in header
    ]
    if missing:
        raise ScenarioError("line 1", f"the header lacks the column '{missing[0]}'; columns: {', '.join(CSV_COLUMNS)}")
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown:
        raise ScenarioError("line 1", f"unknown column '{unknown[0]}'; columns: {', '.join(CSV_COLUMNS)}")
    sides: dict[str, dict] = {}
    places: dict[int, int] = {}  # id of each side, command and unit read -> the sheet line it came from
    conflicts: list[ScenarioError] = []
    number = 1  # the last line read: a CSV error stops on the next
    try:
        for number, raw in enumerate(reader, start=2):
            if None in raw:
                raise ScenarioError(f"line {number}", f"more values than the header's {len(header)} columns")
            row = {k.strip(): (v or "").strip() for k, v in raw.items() if k}
            if not any(row.values()):
                continue
            if not row["side"]:
                raise ScenarioError(f"line {number}, side", "missing")
            if row["side"] not in sides and len(sides) == 2:
                raise ScenarioError(
                    f"line {number}, side",
                    f"a battle has two sides ({', '.join(sides)}); this names a third: {row['side']!r}",
                )
            side = sides.get(row["side"])
            if side is None:
                side = sides[row["side"]] = {"name": row["side"], "players": row.get("players", ""), "commands": []}
                places[id(side)] = number
            parent_list = side["commands"]
            for level in LEVELS:
                name = row.get(level, "")
                if not name:
                    if level == "division":
                        raise ScenarioError(f"line {number}, division", "missing")
                    continue
                leader = {"name": row.get(f"{level}_leader", ""), "value": row.get(f"{level}_leader_value", "")}
                found = next((c for c in parent_list if c["name"] == name and c["level"] == level), None)
                if found is None:
                    found = {
                        "level": level,
                        "name": name,
                        "leader": leader,
                        **({"brigades": [], "batteries": []} if level == "division" else {"commands": []}),
                    }
                    parent_list.append(found)
                    places[id(found)] = number
                else:
                    for key, column in (("name", f"{level}_leader"), ("value", f"{level}_leader_value")):
                        if leader[key] and not found["leader"][key]:
                            found["leader"][key] = leader[key]  # the leader may be named on any of its rows
                        elif leader[key] and leader[key] != found["leader"][key]:
                            conflicts.append(
                                ScenarioError(
                                    f"line {number}, {column}",
                                    f"{leader[key]!r} differs from {found['leader'][key]!r} "
                                    f"given for the same {level}, {name}, on an earlier line",
                                )
                            )
                division = found
                parent_list = found.get("commands", [])
            if row["kind"].lower() == "artillery":
                unit = {
                    "name": row["unit"],
                    "type": row.get("battery_type", ""),
                    "horse": row.get("horse", ""),
                    "grade": row["grade"],
                }
                division["batteries"].append(unit)
            else:
                fields = ("kind", "grade", "bases", "formation", "skirmishers", "repeaters")
                unit = {"name": row["unit"], **{k: row[k] for k in fields if row.get(k)}}
                division["brigades"].append(unit)
            places[id(unit)] = number
    except csv.Error as exc:
        raise ScenarioError(f"line {number + 1}", f"not a readable CSV line: {exc}") from None
    data = {"scenario": title, "ground_scale": ground_scale.value, "sides": list(sides.values())}
    structure = _structure_lines(data, places)

    def where(path: str) -> str:
        line, prefix, column = next(
            (
                (line, prefix, column)
                for prefix, line, column in structure
                if path == prefix or path.startswith(prefix + ".")
            ),
            (1, "", ""),
        )
        field = path[len(prefix) :].lstrip(".") if prefix else path
        if column and field in ("name", "leader", "leader.name", "leader.value"):
            # a command's name is its level's column; its leader's are <level>_leader and <level>_leader_value
            field = {
                "name": column,
                "leader": f"{column}_leader",
                "leader.name": f"{column}_leader",
                "leader.value": f"{column}_leader_value",
            }[field]
        field = field.rsplit(".", 1)[-1]
        return f"line {line}, {_CSV_NAMES.get(field, field)}"

    scenario = Reader(where).scenario(data)
    if conflicts:
        raise conflicts[0]
    return scenario


_CSV_NAMES = {"type": "battery_type", "name": "unit", "sides": "side"}


def _structure_lines(data: dict, places: dict[int, int]) -> list[tuple[str, int, str]]:
    """Paths of the nested data, most specific first, with the sheet line each came from and, for a command,
    its level (the column its name is in)."""
    found: list[tuple[str, int, str]] = []

    def walk(commands: list, path: str):
        for i, command in enumerate(commands):
            here = f"{path}.commands[{i}]"
            for kind in ("brigades", "batteries"):
                for j, unit in enumerate(command.get(kind, [])):
                    found.append((f"{here}.{kind}[{j}]", places.get(id(unit), 1), ""))
            walk(command.get("commands", []), here)
            found.append((here, places.get(id(command), 1), command["level"]))

    for s, side in enumerate(data["sides"]):
        walk(side["commands"], f"sides[{s}]")
        found.append((f"sides[{s}]", places.get(id(side), 1), "side"))
    return found
