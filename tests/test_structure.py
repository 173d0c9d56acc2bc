"""The shape of the code: the imports of republic/ form no circle, and the length of a module of the app or its
tests is watched (the layers themselves are held by the import-linter contracts in pyproject.toml).

A module over 500 lines is named in a warning (``LongModule``, in pytest's summary): a hint to look whether it
holds more than one concept, never a reason to split one, since a concept cut by length (kinds of events split
across modules glued by re-exports) is harder to find than a long module. A module over 1,000 lines fails: that is
no longer one concept a reader holds in mind, and a warning alone would let a module grow without bound."""

import re
import warnings
from pathlib import Path

import grimp
import pytest

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


WARNED_OVER = 500
FAILED_OVER = 1_000


class LongModule(UserWarning):
    """A module over ``WARNED_OVER`` lines."""


def _lengths() -> dict[str, int]:
    return {
        str(path.relative_to(ROOT)): len(path.read_text().splitlines())
        for folder in ("republic", "tests")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    }


def _watched(lengths: dict[str, int]) -> dict[str, int]:
    """The modules over the hard bound; each module over the warned length is named in a warning."""
    for path, n in sorted(lengths.items()):
        if n > WARNED_OVER:
            warnings.warn(
                f"{path}: {n} lines, over {WARNED_OVER}: does it hold more than one concept?", LongModule, stacklevel=2
            )
    return {path: n for path, n in lengths.items() if n > FAILED_OVER}


def test_no_module_of_the_app_or_its_tests_is_over_1000_lines_and_one_over_500_is_named():
    assert _watched(_lengths()) == {}


def test_a_module_over_500_lines_is_named_in_a_warning_and_only_one_over_1000_fails():
    with pytest.warns(LongModule) as warned:
        over = _watched({"short.py": 500, "long.py": 501, "longer.py": 1_000, "too_long.py": 1_001})
    assert [str(w.message).split(":")[0] for w in warned] == ["long.py", "longer.py", "too_long.py"]
    assert over == {"too_long.py": 1_001}


# a piece spelled by hand: f"unit:{pk}", f"unit-{pk}", f"hdc-leader:{pk}", f"unit_{pk}" (republic/games/pieces.py)
HAND_SPELLED = re.compile(r"""f["'](?:[a-z]+-)?(?:game|side|command|leader|unit|objective|assault)[:_-]\{""")


def test_only_the_pieces_module_spells_a_piece_of_the_game():
    found = [
        f"{path}:{number}: {line.strip()}"
        for path in sorted(Path("republic/games").rglob("*.py"))
        if "migrations" not in path.parts and path.name != "pieces.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if HAND_SPELLED.search(line)
    ]
    assert not found, "\n".join(found)
