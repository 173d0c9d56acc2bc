"""Scenario files shipped with the app."""

from pathlib import Path

SCENARIO_DIR = Path(__file__).parent
DEMO_SCENARIO = SCENARIO_DIR / "gettysburg-1863-07-01-morning.yaml"
