"""Every mechanic, as a script or the table reaches it: it resolves its example, encodes to JSON, and
meets any malformed input with a RulesInputError that names a field, never a crash deep inside."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from republic.rules.catalog import MECHANICS
from republic.rules.codec import decode, encode
from republic.rules.errors import RulesInputError
from republic.rules.examples import EXAMPLES

NAMES = sorted(MECHANICS)


def resolve(chart, name, data):
    found = MECHANICS[name]
    return found.resolve(chart, decode(found.inputs, data))


def test_every_mechanic_has_an_example():
    assert set(EXAMPLES) == set(MECHANICS)


@pytest.mark.parametrize("name", NAMES)
def test_each_example_resolves_to_an_explained_json_result(chart, name):
    data = encode(resolve(chart, name, EXAMPLES[name]))
    json.dumps(data)
    assert {"modifiers", "cells", "notes", "provisional"} <= set(data)
    assert data["provisional"] == any(c["provenance"] == "provisional" for c in data["cells"])


def leaf_paths(data, path=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*path, key)
            yield from leaf_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield (*path, index)
            yield from leaf_paths(value, (*path, index))


def with_value(data, path, value):
    changed = copy.deepcopy(data)
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return changed


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-1000, 1000)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["", "E9", "2M 9X", "crack", "Rt", "demoralized", "-1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def mutated_inputs(draw):
    name = draw(st.sampled_from(NAMES))
    example = EXAMPLES[name]
    path = draw(st.sampled_from(list(leaf_paths(example))))
    return name, with_value(example, path, draw(JSON_VALUES))


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_inputs())
def test_malformed_input_is_refused_naming_a_field_or_resolved(chart, case):
    name, data = case
    try:
        result = resolve(chart, name, data)
    except RulesInputError as err:
        assert err.field or err.problem
        assert "\n" not in str(err)
    else:
        json.dumps(encode(result))


@pytest.mark.parametrize("name", NAMES)
def test_each_required_field_left_out_is_named(name):
    from republic.rules.codec import describe

    for field in describe(MECHANICS[name].inputs):
        if field.get("required"):
            data = {k: v for k, v in EXAMPLES[name].items() if k != field["name"]}
            with pytest.raises(RulesInputError) as err:
                decode(MECHANICS[name].inputs, data)
            assert err.value.field == field["name"]
