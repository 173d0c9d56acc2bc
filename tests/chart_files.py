"""Chart files for the tests: the shipped chart's text with cells changed, as a club would write its own, and the
one change of a cell that breaks each worked example of the rules."""

from collections.abc import Callable
from typing import Any

import yaml

from republic.charts import DEFAULT_CHART, chart_path

SHIPPED_TEXT = chart_path(DEFAULT_CHART).read_text(encoding="utf-8")

Edit = Callable[[dict[str, Any]], None]


def chart_text(*edits: Edit, name: str = "Our club's chart", version: str = "2025") -> str:
    """The shipped chart under another name and version, with each edit made to its data."""
    data = yaml.safe_load(SHIPPED_TEXT)
    data["name"], data["version"] = name, version
    for edit in edits:
        edit(data)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def cell(table: str, row: str, column: str, value: object) -> Edit:
    """A grid cell (or, with column "", a keyed entry) given a value the club's chart prints."""

    def edit(data: dict[str, Any]) -> None:
        found = data["tables"][table]
        place = found["rows"][row] if column else found["entries"]
        place[column or row] = {"value": value, "provenance": "provisional"}

    return edit


def band(table: str, n: int, value: object) -> Edit:
    """The band holding the number n given another value."""

    def edit(data: dict[str, Any]) -> None:
        for item in data["tables"][table]["bands"]:
            low, high = item.get("from"), item.get("to")
            if (low is None or n >= low) and (high is None or n <= high):
                item.update(value=value, provenance="provisional")
                item.pop("source", None)
                return
        raise AssertionError(f"no band of {table} holds {n}")

    return edit


BREAKS: dict[str, tuple[Edit, tuple[str, str]]] = {
    # each worked example, the change of a cell it pins that breaks it, and that cell as a result names it
    "T1": (cell("rally", "green", "rattled", 11), ("rally", "green, rattled")),
    "T2": (cell("rally", "green", "unformed", 15), ("rally", "green, unformed")),
    "T3": (cell("rally", "green", "unformed", 12), ("rally", "green, unformed")),
    "T4": (cell("rally", "green", "shaken", 10), ("rally", "green, shaken")),
    "T5": (cell("rally_leader_distance", "step_inches", "", 5), ("rally_leader_distance", "step_inches")),
    "T6": (cell("maneuver", "advance", "green", 4), ("maneuver", "advance, green")),
    "T7": (band("artillery_drift", 1, 3), ("artillery_drift", "1 or less")),
    "T8": (cell("artillery_die_modifiers", "battery_hit", "", -2), ("artillery_die_modifiers", "battery_hit")),
    "T13": (cell("hors_de_combat_modifiers", "each_base_hit", "", 2), ("hors_de_combat_modifiers", "each_base_hit")),
    "T14": (band("assault_pitched_battle", 6, "defender 2P"), ("assault_pitched_battle", "6")),
    "T15": (cell("assault_natural_points", "average", "", 2), ("assault_natural_points", "average")),
    "T16": (cell("assault_natural_points", "veteran", "", 1), ("assault_natural_points", "veteran")),
    "T18": (cell("panic_index", "veteran", "p2", "F"), ("panic_index", "veteran, p2")),
    "T19": (cell("panic_index", "untrained", "p2", "W"), ("panic_index", "untrained, p2")),
    "T20": (cell("panic_index", "average", "p4", "Rt 2"), ("panic_index", "average, p4")),
    "T21": (cell("forced_moves", "F", "", 9), ("forced_moves", "F")),
}


def table_key(table: str, key: str, value: object) -> Edit:
    """A key written inside a table beside its rows, entries or bands."""

    def edit(data: dict[str, Any]) -> None:
        data["tables"][table][key] = value

    return edit


BAD_CELLS: dict[str, tuple[Edit, tuple[str, str, str]]] = {
    # each kind of cell no table allows, and where the refusal must say it is: table, row, cell
    "nan-in-a-pinned-cell": (cell("forced_moves", "F", "", float("nan")), ("forced_moves", "F", "")),
    "nan-in-a-grid": (cell("rally", "green", "rattled", float("nan")), ("rally", "green", "rattled")),
    "inf-range": (cell("artillery_ranges", "r10", "", float("inf")), ("artillery_ranges", "r10", "")),
    "minus-inf": (cell("ground_scale", "medium", "", float("-inf")), ("ground_scale", "medium", "")),
    "negative-distance": (cell("movement_box", "foot", "", -10), ("movement_box", "foot", "")),
    "negative-die-score": (cell("maneuver", "assault", "green", -1), ("maneuver", "assault", "green")),
    "die-score-above-10": (cell("skirmish_attack", "crack", "r1", 11), ("skirmish_attack", "crack", "r1")),
    "zero-step": (cell("rally_leader_distance", "step_inches", "", 0), ("rally_leader_distance", "step_inches", "")),
    "too-many-functions": (cell("artillery_functions", "foot", "", 6), ("artillery_functions", "foot", "")),
    "a-bool": (cell("panic_pass", "crack", "", True), ("panic_pass", "crack", "")),
    "a-fraction-of-a-die": (cell("panic_pass", "green", "", 6.5), ("panic_pass", "green", "")),
    "a-loss-that-adds": (band("rally_losses", 30, 2), ("rally_losses", "band 6", "value")),
    "a-drift-off-the-table": (band("artillery_drift", 5, 99), ("artillery_drift", "band 3", "value")),
    "unknown-key-in-a-table": (table_key("rally", "colour", "red"), ("rally", "", "")),
    "hits-beyond-a-brigade": (cell("artillery", "h_rifle", "r1", "99M 1B"), ("artillery", "h_rifle", "r1")),
    "a-loss-beyond-a-brigade": (cell("panic_index", "green", "p4", "Rt 99"), ("panic_index", "green", "p4")),
    "a-crossing-off-the-table": (
        cell("terrain", "hedge", "", '-999" | n/a | artillery, horse | light | -'),
        ("terrain", "hedge", ""),
    ),
}
"""A club chart file with any one of these is refused, wherever it comes from."""
