"""One identity for a piece of the game: its key, its name, its row's element and its forms' prefixes all read back
to it, and nothing else reads as a piece."""

from hypothesis import given
from hypothesis import strategies as st

from republic.games.pieces import KINDS, Piece, keys_in

pieces = st.builds(Piece, st.sampled_from(KINDS), st.integers(min_value=1, max_value=10**18 - 1))


@given(pieces)
def test_every_rendering_of_a_piece_reads_back_to_it(piece):
    assert Piece.of(piece.key) == Piece.of(piece.name) == Piece.of(piece.row) == piece
    assert Piece.at(piece.name) == piece and Piece.named(piece.key, piece.kind) == piece
    assert piece.prefix("rally") == f"rally-{piece.name}"


def test_the_renderings_of_a_unit():
    unit = Piece("unit", 12)
    assert (unit.key, unit.name, unit.row, unit.prefix("rally")) == (
        "unit:12",
        "unit-12",
        "row-unit-12",
        "rally-unit-12",
    )


def test_what_is_not_a_piece_reads_as_none():
    for spelled in ("", "unit", "unit:", "unit:x", "unit_12", "brigade:3", "unit:12#1", " unit:12", "unit:-1", "row-"):
        assert Piece.of(spelled) is None, spelled
    assert Piece.named("leader:3", "unit") is None


def test_a_payload_names_the_units_its_values_are_the_keys_of():
    payload = {
        "unit": "unit:3",
        "targets": [{"unit": "unit:4"}, "unit:4#1"],
        "leader": "leader:5",
        "note": "unit:6 fled",
    }
    assert keys_in(payload) == {"unit:3", "unit:4"}
