"""The versions of the saved game's format: a file of a later version, or of an earlier one no named step carries
across, is refused saying so, and one that steps carry is rewritten by each in turn; a file tampered with so that
it would stand otherwise than it was saved is refused, never loaded into another battle."""

import gzip
import json
from typing import Any

import pytest

from republic.games.archive.load import import_game
from republic.games.archive.remap import ArchiveError
from republic.games.archive.versions import NAME, VERSION, Step, brought_up_to_date
from tests.games.test_archive_refused import counts
from tests.games.test_saved_games import CORPUS

SAVED = CORPUS / f"{NAME}-1" / "demo-two-game-turns.json.gz"


def saved() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress(SAVED.read_bytes()))
    return data


def refused(data: dict[str, Any]) -> str:
    before = counts()
    with pytest.raises(ArchiveError) as found:
        import_game(json.dumps(data).encode())
    assert counts() == before, "a refused file left rows behind"
    return str(found.value)


def test_a_file_of_a_later_version_is_refused_and_makes_nothing(db):
    data = {**saved(), "schema": f"{NAME}/{VERSION + 1}"}
    assert f"saved by a later version of the app ({NAME}/{VERSION + 1})" in refused(data)


def test_a_file_of_an_earlier_version_no_step_carries_is_refused_saying_so():
    with pytest.raises(ArchiveError, match=f"is a {NAME}/1 saved game, and this server reads {NAME}/2: .* no step"):
        brought_up_to_date(saved(), version=2, steps={})


def test_the_named_steps_carry_a_file_across_in_turn_leaving_the_file_read_as_it_was():
    def renamed(data: dict[str, Any]) -> dict[str, Any]:
        data["units"] = [{**unit, "strength": unit.pop("bases")} for unit in data["units"]]
        return data

    def counted(data: dict[str, Any]) -> dict[str, Any]:
        data["game"]["units"] = len(data["units"])
        return data

    steps = {1: Step("bases become strength", renamed), 2: Step("the game counts its units", counted)}
    data = saved()
    carried = brought_up_to_date(data, version=3, steps=steps)
    assert carried["schema"] == f"{NAME}/3" and carried["game"]["units"] == len(data["units"])
    assert [u["strength"] for u in carried["units"]] == [u["bases"] for u in data["units"]]
    assert data["schema"] == f"{NAME}/1" and "strength" not in data["units"][0]  # the file's own data untouched
    assert brought_up_to_date(data, version=1, steps=steps) is data  # a file of this server's version, as it is


def _last_change(data: dict[str, Any], field: str) -> dict[str, Any]:
    """The last change any event made to this field of a row: what the row holds at the end."""
    return [change for event in data["events"] for change in event["changes"] if change["field"] == field][-1]


@pytest.mark.parametrize(
    ("tamper", "problem"),
    [
        (lambda d: d["units"][0].update(m_hits=d["units"][0]["m_hits"] + 3), "do not replay to the file's rows"),
        (lambda d: _last_change(d, "m_hits").update(after=9), "do not replay to the file's rows"),
        (lambda d: d["events"][-1]["payload"].pop("winner"), "its payload is not a GameEnded: winner: missing"),
        (lambda d: d["events"][0].update(kind="StepRetreated"), "'StepRetreated' is no kind of event"),
        (lambda d: d["game"].update(chart_checksum="f" * 64), "this server does not have"),
    ],
    ids=["a row", "an event's change", "a payload's field", "a kind", "the chart"],
)
def test_a_tampered_file_is_refused_not_loaded_into_another_battle(db, tamper, problem):
    data = saved()
    tamper(data)
    assert problem in refused(data)
