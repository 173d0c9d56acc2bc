"""Chart files shipped with the app, one YAML file per chart version."""

from functools import cache
from pathlib import Path

from republic.rules.catalog import load_chart
from republic.rules.chart import Chart

CHART_DIR = Path(__file__).parent
DEFAULT_CHART = "republic-1.0-provisional"


def chart_path(name: str) -> Path:
    return CHART_DIR / f"{name}.yaml"


@cache
def shipped_chart(name: str = DEFAULT_CHART) -> Chart:
    return load_chart(chart_path(name).read_text(encoding="utf-8"))
