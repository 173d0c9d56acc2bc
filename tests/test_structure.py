"""The shape of the code: the imports of republic/ form no circle, and no module of the app or its tests is
over 500 lines (the layers themselves are held by the import-linter contracts in pyproject.toml)."""

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def _cycle(graph: grimp.ImportGraph) -> list[str]:
    """One circle of imports, or [] when there is none."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = "open"
        path.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if not imported.startswith("republic"):
                continue
            if state.get(imported) == "open":
                return [*path[path.index(imported) :], imported]
            if imported not in state and (found := visit(imported)):
                return found
        state[module] = "done"
        path.pop()
        return []

    for module in sorted(graph.modules):
        if module.startswith("republic") and module not in state and (found := visit(module)):
            return found
    return []


def test_the_imports_of_republic_form_no_circle():
    assert _cycle(grimp.build_graph("republic")) == []


def test_a_circle_is_found_when_there_is_one():
    graph = grimp.ImportGraph()
    for module in ("republic.a", "republic.b", "republic.c"):
        graph.add_module(module)
    graph.add_import(importer="republic.a", imported="republic.b")
    graph.add_import(importer="republic.b", imported="republic.c")
    graph.add_import(importer="republic.c", imported="republic.a")
    assert _cycle(graph) == ["republic.a", "republic.b", "republic.c", "republic.a"]


def test_no_module_of_the_app_or_its_tests_is_over_500_lines():
    long = {
        str(path.relative_to(ROOT)): n
        for folder in ("republic", "tests")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts and (n := len(path.read_text().splitlines())) > 500
    }
    assert long == {}
