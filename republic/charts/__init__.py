"""Chart files shipped with the app, one YAML file per chart version, each known by the sha256 of its text."""

import hashlib
from functools import cache
from pathlib import Path

from republic.rules.catalog import load_chart
from republic.rules.chart import Chart

CHART_DIR = Path(__file__).parent
DEFAULT_CHART = "republic-1.0-provisional"


def chart_path(name: str) -> Path:
    return CHART_DIR / f"{name}.yaml"


def checksum_of(text: str) -> str:
    """A chart's identity: the sha256 of its text, so that two charts with the same name and version but one
    cell apart are never taken for each other."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def shipped_chart(name: str = DEFAULT_CHART) -> Chart:
    return load_chart(chart_path(name).read_text(encoding="utf-8"))


@cache
def shipped_checksums() -> dict[str, str]:
    """Each shipped chart's file name by the checksum of its text."""
    return {checksum_of(path.read_text(encoding="utf-8")): path.stem for path in sorted(CHART_DIR.glob("*.yaml"))}


def shipped_checksum(name: str) -> str:
    """The checksum of a shipped chart's file; '' when no such file ships."""
    return next((checksum for checksum, stem in shipped_checksums().items() if stem == name), "")
