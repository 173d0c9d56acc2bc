"""The scenarios shipped with the app, as the new-game page lists them: each read once while its file is unchanged."""

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from republic.games.scenario import ScenarioError, parse_scenario
from republic.games.scenario_specs import Scenario
from republic.scenarios import SCENARIO_DIR


@dataclass(frozen=True)
class Shipped:
    """A shipped file: its scenario, or the problem that keeps it from being played (it is listed, not started)."""

    key: str
    scenario: Scenario | None
    problem: str = ""

    @property
    def players(self) -> tuple[int, int]:
        return self.scenario.players() if self.scenario else (0, 0)


def shipped() -> list[Shipped]:
    """Every shipped scenario, the demo first, then by title."""
    found = [_read(path, path.stat().st_mtime_ns) for path in SCENARIO_DIR.glob("*.yaml")]
    return sorted(found, key=lambda s: (not (s.scenario and s.scenario.demo), s.scenario.title if s.scenario else ""))


def shipped_one(key: str) -> Shipped | None:
    return next((s for s in shipped() if s.key == key), None)


@lru_cache(maxsize=32)
def _read(path: Path, changed: int) -> Shipped:
    """The file at ``path``; ``changed`` (its time of change) is part of the cache's key, so an edited file is
    read again."""
    try:
        return Shipped(path.stem, parse_scenario(path.read_text(encoding="utf-8")))
    except (ScenarioError, UnicodeDecodeError) as exc:
        return Shipped(path.stem, None, f"{path.name}, {exc}")
