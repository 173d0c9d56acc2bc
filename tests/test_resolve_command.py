"""`manage.py resolve`: the engine from the command line, for scripts and checks."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from republic.charts import chart_path
from republic.rules.catalog import MECHANICS

ROOT = Path(__file__).resolve().parent.parent


def resolve(*args) -> dict:
    out = StringIO()
    call_command("resolve", *args, stdout=out)
    return json.loads(out.getvalue())


def test_resolve_prints_the_result_with_its_breakdown():
    data = resolve("panic", "--json", '{"grade": "veteran", "panic_hits": 2}')
    assert data["result"]["move"] == "W"
    assert data["result"]["cells"][0]["provenance"] == "confirmed"
    assert data["result"]["provisional"] is False


def test_list_names_every_mechanic_with_its_input_fields():
    out = StringIO()
    call_command("resolve", "--list", stdout=out)
    listed = {m["name"]: m for m in json.loads(out.getvalue())}
    assert set(listed) == set(MECHANICS)
    assert all(m["inputs"] for m in listed.values())


@pytest.mark.parametrize("name", sorted(MECHANICS))
def test_every_listed_example_resolves_from_the_command_line(name):
    out = StringIO()
    call_command("resolve", "--list", stdout=out)
    example = next(m["example"] for m in json.loads(out.getvalue()) if m["name"] == name)
    data = resolve(name, "--json", json.dumps(example))
    assert data["mechanic"] == name and "provisional" in data["result"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["panic", "--json", '{"grade": "elite", "panic_hits": 2}'], "grade: expected one of"),
        (["panic", "--json", '{"grade": "green"}'], "panic_hits: missing"),
        (["panic", "--json", "{grade"], "--json: not valid JSON"),
        (["panic", "--json", "[1]"], "--json: the input must be a JSON object"),
        (["volley", "--json", "{}"], "no mechanic 'volley'"),
        (["panic"], "--json: give the input"),
    ],
)
def test_bad_input_is_one_line_naming_the_problem(args, message):
    with pytest.raises(CommandError, match=message) as err:
        call_command("resolve", *args)
    assert "\n" not in str(err.value)
    assert err.value.returncode == 2


def test_a_broken_chart_file_is_refused_naming_table_row_and_cell(tmp_path):
    broken = chart_path("republic-1.0-provisional").read_text().replace("p2: D, p3: W", "p2: Q, p3: W", 1)
    path = tmp_path / "broken.yaml"
    path.write_text(broken)
    with pytest.raises(CommandError, match="table 'panic_index', row 'crack', cell 'p2'"):
        call_command("resolve", "panic", "--chart", str(path), "--json", '{"grade": "crack", "panic_hits": 2}')


def test_the_command_exits_non_zero_with_one_line_on_stderr():
    proc = subprocess.run(
        [sys.executable, "manage.py", "resolve", "panic", "--json", '{"grade": "green", "panic_hits": 0}'],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0
    assert "panic_hits" in proc.stderr
