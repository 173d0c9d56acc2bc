"""The assault results mechanics by name and from JSON, and bad input to them refused naming the field."""

import pytest

from republic.rules.assault_fixed_hits import BreakOffInput, BridgingInput, PassageInput, SupportingBrigadeInput
from republic.rules.assault_results import AssaultLossesInput
from republic.rules.catalog import mechanic
from republic.rules.codec import decode, encode
from republic.rules.errors import RulesInputError
from tests.rules.units_taking_hits import unit

# --- registration and codec ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["assault_losses", "passage_of_lines", "supporting_brigade", "break_off", "bridging_hits"]
)
def test_mechanics_are_registered(name):
    assert mechanic(name).name == name


def test_assault_losses_resolve_from_json_and_say_they_read_provisional_cells(chart):
    m = mechanic("assault_losses")
    inputs = decode(
        m.inputs,
        {"units": [{"id": "1st", "kind": "infantry", "grade": "green", "bases": 5}], "hits": "1B 3P", "natural_m": 1},
    )
    data = encode(m.resolve(chart, inputs))
    assert data["units"][0]["bases_after"] <= 4 and data["provisional"] is True


# --- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            {
                "units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}] * 2
                + [{"id": "c", "kind": "infantry", "grade": "green", "bases": 0}]
            },
            "units[2].bases",
        ),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "elite", "bases": 3}]}, "units[0].grade"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3, "m_hits": 5}]}, "units[0].m_hits"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3, "damage": 1}]}, "units[0].damage"),
        (
            {"units": [{"id": "a", "kind": "cavalry_mounted", "grade": "green", "bases": 3, "limbered": True}]},
            "units[0].limbered",
        ),
        (
            {"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3, "natural_m": -1}]},
            "units[0].natural_m",
        ),
        ({"units": [{"id": "", "kind": "infantry", "grade": "green", "bases": 3}]}, "units[0].id"),
        ({"units": []}, "units"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}], "hits": "2X"}, "hits"),
        ({"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}], "natural_m": -2}, "natural_m"),
        (
            {"units": [{"id": "a", "kind": "infantry", "grade": "green", "bases": 3}], "all_out_extra_m": -1},
            "all_out_extra_m",
        ),
    ],
)
def test_bad_assault_losses_input_names_the_field(data, field):
    with pytest.raises(RulesInputError) as err:
        decode(AssaultLossesInput, data)
    assert err.value.field == field


def test_a_unit_listed_twice_is_refused_by_its_position():
    with pytest.raises(RulesInputError) as err:
        AssaultLossesInput((unit("a"), unit("b"), unit("a")))
    assert err.value.field == "units[2].id"


@pytest.mark.parametrize(
    ("cls", "data", "field"),
    [
        (PassageInput, {"passers": [], "grade": "green"}, "passers"),
        (
            PassageInput,
            {"passers": [{"m_hits": 3, "move": "Re", "distance": -1}], "grade": "green"},
            "passers[0].distance",
        ),
        (
            PassageInput,
            {"passers": [{"m_hits": 3, "move": "Re", "distance": 1}], "grade": "green", "m_hits": 7},
            "m_hits",
        ),
        (SupportingBrigadeInput, {"grade": "green", "bases": 6, "supporting_bases": 3}, "supporting_bases"),
        (SupportingBrigadeInput, {"grade": "green", "bases": 6, "supporting_bases": 0}, "supporting_bases"),
        (SupportingBrigadeInput, {"grade": "green", "bases": 6, "supporting_bases": 2, "move": "Re"}, "move"),
        (BreakOffInput, {"grade": "green", "m_hits": -1}, "m_hits"),
        (BridgingInput, {"assaults": ["2M"]}, "assaults"),
        (BridgingInput, {"assaults": ["2M", "1Q"]}, "assaults[1]"),
    ],
)
def test_bad_input_to_the_other_mechanics_names_the_field(cls, data, field):
    with pytest.raises(RulesInputError) as err:
        decode(cls, data)
    assert err.value.field == field
