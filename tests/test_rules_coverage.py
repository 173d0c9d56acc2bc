"""The rules coverage table (republic/rules/coverage.yaml) kept in step with the code.

Each row is a rule of chapters 1.2-6.3 with a decision, roll, modifier or state change. A row the app applies
names the engine mechanic (if any), the step, the function of the table app that applies it and a test; a row
left to the players or not applied yet says why. These tests hold every name in the table to the code: the
mechanic exists, the function imports and lives with its step, the test is there, and an applied mechanic is
reached from the function the row names, found by following the calls in the source. So the table cannot
claim a rule the code has dropped, and a new mechanic cannot be added without a row saying where it is applied
or why not.
"""

import ast
import importlib
import re
import sys
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from republic.games.steps import STEPS
from republic.rules.catalog import MECHANICS
from republic.rules.results import Mechanic
from republic.rules.sequence import StepKey

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "republic" / "rules" / "coverage.yaml"
FIELDS = ("rule", "section", "lines", "mechanic", "step", "applied_by", "test", "status")
STATUSES = ("applied", "players", "not_yet")
SECTIONS = (
    *(f"1.{n}" for n in range(2, 8)),
    *(f"2.{n}" for n in range(1, 4)),
    *(f"3.{n}" for n in range(1, 7)),
    *(f"4.{n}" for n in range(1, 8)),
    *(f"5.{n}" for n in range(1, 7)),
    *(f"6.{n}" for n in range(1, 4)),
)
# "any": a correction or an action the table may take in any step; "setup": before the first step is played
STEP_VALUES = (*(key.value for key in StepKey), "any", "setup")
LINES = re.compile(r"R:(\d+)(?:-(\d+))?")
WALK = "republic.games.steps.walk"  # leaves every step, so it applies any step's closing effects


def _table() -> dict[str, Any]:
    return yaml.safe_load(TABLE.read_text())


def _rows() -> list[dict[str, Any]]:
    return _table()["rules"]


def _name(row: dict[str, Any]) -> str:
    return f"{row.get('section', '?')} {row.get('rule', '?')!r}"


# --- what a row names --------------------------------------------------------------------------------------


def _imported(dotted: str) -> Any:
    """The object a dotted name stands for: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            found = getattr(found, attr)
        return found
    raise ImportError(dotted)


@cache
def _test_names(path: str) -> frozenset[str]:
    """The test functions a test file defines, at its top level or in its classes, as Class::name or name."""
    file = ROOT / path
    if not file.is_file():
        return frozenset()
    names = set()
    for node in ast.parse(file.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}::{sub.name}" for sub in node.body if isinstance(sub, ast.FunctionDef)}
    return frozenset(names)


def _test_problem(node_id: str) -> str:
    path, _, name = node_id.partition("::")
    if not path.startswith("tests/") or not (ROOT / path).is_file():
        return f"its test file {path!r} is not there"
    if name.split("[")[0] not in _test_names(path):
        return f"{path} defines no test {name!r}"
    return ""


def _lines_problem(lines: str, count: int) -> str:
    cited = [part.strip() for part in str(lines).split(",")]
    for part in cited:
        match = LINES.fullmatch(part)
        if match is None:
            return f"lines {lines!r} are not written R:NNN or R:NNN-MMM"
        first, last = int(match[1]), int(match[2] or match[1])
        if not 1 <= first <= last <= count:
            return f"lines {part} are not within the rules text's {count} lines"
    return ""


# --- the calls the source makes ------------------------------------------------------------------------------

Def = tuple[str, str]  # (module, name) of a function or class defined at a module's top level


class _Module:
    """One module's top-level definitions and the names it imports, read from its source."""

    def __init__(self, name: str, path: Path):
        tree = ast.parse(path.read_text())
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        self.defs: dict[str, ast.AST] = {}
        self.imports: dict[str, tuple[str, str | None]] = {}  # local name: (module, name), None for a module
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.defs[node.name] = node
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    above = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*above, base] if base else above)
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (base, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = (alias.name, None)


@cache
def _modules() -> dict[str, _Module]:
    found = {}
    for path in (ROOT / "republic").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = _Module(name, path)
    return found


def _meaning(module: str, name: str, seen: frozenset[Def] = frozenset()) -> Def | str | None:
    """What a name in a module stands for: a definition, a module (its dotted name), or None (not ours)."""
    modules = _modules()
    here = modules.get(module)
    if here is None or (module, name) in seen:
        return None
    if name in here.defs:
        return (module, name)
    if name not in here.imports:
        return None
    source, imported = here.imports[name]
    if imported is None or f"{source}.{imported}" in modules:
        return source if imported is None else f"{source}.{imported}"
    return _meaning(source, imported, seen | {(module, name)})


@cache
def _calls(definition: Def) -> frozenset[Def]:
    """The definitions a function or class refers to in its body (a call, or a function handed on as a value);
    a class brings in all its methods."""
    module, name = definition
    found: set[Def] = set()
    for node in ast.walk(_modules()[module].defs[name]):
        meant: Def | str | None = None
        if isinstance(node, ast.Name):
            meant = _meaning(module, node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = _meaning(module, node.value.id)
            meant = _meaning(owner, node.attr) if isinstance(owner, str) else None
        if isinstance(meant, tuple):
            found.add(meant)
    return frozenset(found)


def _reached(start: Def) -> set[Def]:
    seen: set[Def] = set()
    todo = [start]
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo.extend(_calls(here) - seen)
    return seen


def _is_function(definition: Def) -> bool:
    module, name = definition
    return isinstance(_modules()[module].defs[name], ast.FunctionDef)


def _entries(mechanic: Mechanic) -> set[Def]:
    """Where the app may enter a mechanic: its resolve function, or a public function of its own module that
    the resolve hands its work to (through private helpers): the table often calls that function directly,
    as the division panic step calls ``division_panic_test``, which ``resolve_division_panic`` wraps."""
    home = mechanic.resolve.__module__
    resolve = (home, mechanic.resolve.__name__)
    found, todo, seen = {resolve}, [resolve], set()
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        for called in _calls(here):
            if called[0] != home or not _is_function(called):
                continue
            if called[1].startswith("_"):
                todo.append(called)
            else:
                found.add(called)
    return found


def reaches(applied_by: str, mechanic: Mechanic) -> bool:
    """Whether the function or class ``applied_by`` calls the mechanic, directly or through other code."""
    module, _, name = applied_by.rpartition(".")
    here = _modules().get(module)
    if here is None or name not in here.defs:
        return False  # a method or a name imported from elsewhere: name its class or its own module instead
    return bool(_reached((module, name)) & _entries(mechanic))


# --- where each step lives -----------------------------------------------------------------------------------


def _package(module: str) -> str:
    return ".".join(module.split(".")[:4])  # republic.games.steps.<step module or package>


@cache
def _homes(step: StepKey) -> frozenset[str]:
    """The modules of the table app that make up a step: where its Step is defined and where its state is read."""
    found = {_package(STEPS[step].state.__module__)}
    for name, module in list(sys.modules.items()):
        if name.startswith("republic.games.steps.") and getattr(module, "STEP", None) is STEPS[step]:
            found.add(_package(name))
    return frozenset(found)


def _step_problem(row: dict[str, Any]) -> str:
    step, applied_by = row["step"], row["applied_by"]
    if step not in {key.value for key in StepKey} or not applied_by.startswith("republic.games.steps."):
        return ""
    homes = _homes(StepKey(step))
    if _package(applied_by) in homes or applied_by.startswith(f"{WALK}."):
        return ""
    return f"{applied_by} is not part of the {step} step ({', '.join(sorted(homes))})"


# --- one row -------------------------------------------------------------------------------------------------


def problems(row: dict[str, Any], line_count: int) -> Iterator[str]:
    """What is wrong with one row of the table, each problem naming the row."""
    name = _name(row)
    missing = [f for f in FIELDS if f not in row]
    unknown = sorted(set(row) - {*FIELDS, "why"})
    if missing or unknown:
        yield f"{name}: missing fields {missing}, unknown fields {unknown}"
        return
    if row["status"] not in STATUSES:
        yield f"{name}: status {row['status']!r} is not one of {STATUSES}"
        return
    if row["section"] not in SECTIONS:
        yield f"{name}: section {row['section']!r} is not a section of chapters 1.2-6.3"
    if problem := _lines_problem(row["lines"], line_count):
        yield f"{name}: {problem}"
    if row["mechanic"] and row["mechanic"] not in MECHANICS:
        yield f"{name}: no mechanic {row['mechanic']!r} in the catalog"
    if row["step"] and row["step"] not in STEP_VALUES:
        yield f"{name}: step {row['step']!r} is not a step of the turn sequence, 'any' or 'setup'"
    applied = row["status"] == "applied"
    if not applied and not str(row.get("why", "")).strip():
        yield f"{name}: a {row['status']} row says why"
    if applied and not (row["step"] and row["applied_by"] and row["test"]):
        yield f"{name}: an applied row names its step, what applies it and its test"
    yield from _named_code(row, name, applied)


def _named_code(row: dict[str, Any], name: str, applied: bool) -> Iterator[str]:
    applied_by, test = row["applied_by"], row["test"]
    if test and (problem := _test_problem(test)):
        yield f"{name}: {problem}"
    if not applied_by:
        return
    if not applied_by.startswith("republic.games."):
        yield f"{name}: {applied_by} is not in the table app (republic.games)"
        return
    try:
        _imported(applied_by)
    except (ImportError, AttributeError):
        yield f"{name}: {applied_by} does not import"
        return
    if applied and (problem := _step_problem(row)):
        yield f"{name}: {problem}"
    mechanic = MECHANICS.get(row["mechanic"])
    if applied and mechanic is not None and not reaches(applied_by, mechanic):
        yield f"{name}: {applied_by} never calls the {row['mechanic']} mechanic ({mechanic.resolve.__name__})"


def _all_problems(rows: Iterable[dict[str, Any]], line_count: int) -> list[str]:
    return [problem for row in rows for problem in problems(row, line_count)]


# --- the table -----------------------------------------------------------------------------------------------


def test_every_row_names_real_code_and_an_applied_mechanic_is_reached_from_its_step():
    table = _table()
    assert _all_problems(table["rules"], table["rules_text"]["lines"]) == []


def test_every_mechanic_of_the_engine_has_a_row():
    named = {row["mechanic"] for row in _rows()}
    assert sorted(set(MECHANICS) - named) == []


def test_each_rule_has_one_row():
    seen: dict[str, int] = {}
    for row in _rows():
        seen[_name(row)] = seen.get(_name(row), 0) + 1
    assert [name for name, n in seen.items() if n > 1] == []


# --- the checks themselves -----------------------------------------------------------------------------------

GOOD = {
    "rule": "Rally roll",
    "section": "2.3",
    "lines": "R:528-550",
    "mechanic": "rally",
    "step": "rally",
    "applied_by": "republic.games.steps.rally.rally",
    "test": "tests/games/test_rally.py::test_a_plain_post_redirects_to_the_game_page",
    "status": "applied",
}


def test_a_good_row_has_no_problem():
    assert list(problems(GOOD, 1899)) == []


@pytest.mark.parametrize(
    ("change", "found"),
    [
        ({"mechanic": "panic"}, "never calls the panic mechanic (resolve_panic)"),
        ({"mechanic": "no_such"}, "no mechanic 'no_such'"),
        ({"applied_by": "republic.games.steps.rally.no_such"}, "does not import"),
        ({"applied_by": "republic.rules.rally.resolve_rally"}, "is not in the table app"),
        ({"step": "move"}, "is not part of the move step"),
        ({"step": "dawn"}, "step 'dawn' is not a step"),
        ({"test": "tests/games/test_rally.py::test_no_such[1]"}, "defines no test 'test_no_such[1]'"),
        ({"test": "tests/games/test_no_such.py::test_x"}, "is not there"),
        ({"lines": "R:2000-2001"}, "not within the rules text's 1899 lines"),
        ({"lines": "1679"}, "not written R:NNN"),
        ({"section": "7.1"}, "not a section of chapters 1.2-6.3"),
        ({"status": "not_yet"}, "a not_yet row says why"),
        ({"status": "maybe"}, "status 'maybe'"),
        ({"applied_by": ""}, "names its step, what applies it and its test"),
    ],
)
def test_a_row_at_fault_is_named_with_its_problem(change, found):
    listed = list(problems({**GOOD, **change}, 1899))
    section = change.get("section", GOOD["section"])
    assert len(listed) == 1 and listed[0].startswith(f"{section} 'Rally roll': ") and found in listed[0]


def test_a_mechanic_is_reached_through_the_function_its_resolve_wraps_and_not_through_a_stranger():
    assert reaches("republic.games.steps.division_panic.roll_panic_test", MECHANICS["division_panic_test"])
    assert reaches("republic.games.steps.assaults.rounds.resolve_round", MECHANICS["assault_losses"])
    assert not reaches("republic.games.steps.rally.rally", MECHANICS["division_panic_test"])
    assert not reaches("republic.games.steps.move.brigades.roll_maneuver", MECHANICS["leader_move"])
