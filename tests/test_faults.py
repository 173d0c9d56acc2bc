"""The fault script's bookkeeping (tests/faults.py): an action it was told was done is looked for in the log under
the piece it acted on."""

from tests.faults import acted_on


def test_an_action_is_looked_for_under_the_piece_its_address_names_else_its_row():
    assert acted_on("/games/1/act/save-fire/unit-6/", "unit-5") == "unit-6"
    assert acted_on("http://127.0.0.1:8000/games/1/act/rally/leader-12/?x=1", "unit-5") == "leader-12"
    assert acted_on("/games/1/next/", "unit-5") == "unit-5"
