"""Resolve one mechanic of the rules from JSON, for scripts and for checking the engine by hand.

python manage.py resolve --list
python manage.py resolve rally --json '{"grade": "green", "m_hits": 2, "roll": 6, ...}'
"""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from republic.charts import shipped_chart
from republic.rules.catalog import MECHANICS, load_chart
from republic.rules.catalog import mechanic as mechanic_named
from republic.rules.chart import ChartError
from republic.rules.codec import decode, describe, encode
from republic.rules.errors import RulesInputError
from republic.rules.examples import EXAMPLES


class Command(BaseCommand):
    help = "Resolve a Republic mechanic from JSON input and print the result with its breakdown as JSON."

    def add_arguments(self, parser):
        parser.add_argument("mechanic", nargs="?", help="mechanic name (see --list)")
        parser.add_argument("--json", dest="data", help="the mechanic's input as a JSON object")
        parser.add_argument("--list", action="store_true", help="name every mechanic with its input fields")
        parser.add_argument("--chart", help="a chart file to use instead of the shipped default")

    def handle(self, *args, mechanic: str | None, data: str | None, list: bool, chart: str | None, **options):
        if list:
            self.stdout.write(json.dumps(_catalog(), indent=2))
            return
        if not mechanic:
            raise CommandError("name a mechanic, or use --list to see them", returncode=2)
        try:
            found = mechanic_named(mechanic)
            inputs = decode(found.inputs, _parse_json(data))
            used = _chart(chart)
            result = found.resolve(used, inputs)
        except (RulesInputError, ChartError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(json.dumps({"mechanic": found.name, "chart": used.name, "result": encode(result)}, indent=2))


def _catalog() -> list[dict]:
    return [
        {
            "name": m.name,
            "section": m.section,
            "summary": m.summary,
            "inputs": describe(m.inputs),
            "example": EXAMPLES[m.name],
        }
        for m in MECHANICS.values()
    ]


def _parse_json(data: str | None) -> dict:
    if data is None:
        raise RulesInputError("--json", "give the input as a JSON object")
    try:
        raw = json.loads(data)
    except json.JSONDecodeError as exc:
        raise RulesInputError("--json", f"not valid JSON: {exc.msg} at character {exc.pos}") from None
    if not isinstance(raw, dict):
        raise RulesInputError("--json", "the input must be a JSON object")
    return raw


def _chart(path: str | None):
    if path is None:
        return shipped_chart(settings.REPUBLIC_CHART)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ChartError(f"cannot read {path}: {exc.strerror}") from None
    return load_chart(text)
