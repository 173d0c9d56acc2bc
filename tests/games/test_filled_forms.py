"""A form is filled in as its action needs or it is drawn again with its errors (``forms.filled``): an invalid form
never reaches the action, and the engine's refusal of an input inside the action lands at the field it names."""

import pytest
from django import forms

from republic.games.forms import Unfilled, VersionForm, filled
from republic.rules.errors import RulesInputError


class Aiming(VersionForm):
    targets = forms.CharField()


def test_a_valid_form_is_given_to_the_action():
    form = Aiming({"version": "3", "targets": "unit:4"})
    with filled(form) as sent:
        assert sent is form and sent.cleaned_data == {"version": 3, "targets": "unit:4"}


def test_an_invalid_form_never_reaches_the_action():
    reached = []
    with pytest.raises(Unfilled) as unfilled, filled(Aiming({"version": "3"})):
        reached.append(True)
    assert not reached
    assert unfilled.value.form.errors == {"targets": ["This field is required."]}


def test_an_engine_error_naming_one_target_lands_at_the_targets_field():
    form = Aiming({"version": "3", "targets": "unit:4"})
    with pytest.raises(Unfilled) as unfilled, filled(form):
        raise RulesInputError("targets[1].bases", "A target has at least one base.")
    assert unfilled.value.form is form
    assert form.errors == {"targets": ["A target has at least one base."]}
    assert isinstance(unfilled.value.__cause__, RulesInputError)


def test_an_engine_error_naming_no_field_of_the_form_is_the_forms_own():
    form = Aiming({"version": "3", "targets": "unit:4"})
    with pytest.raises(Unfilled), filled(form):
        raise RulesInputError("range", "Out of range.")
    assert form.non_field_errors() == ["Out of range."] and "targets" not in form.errors


def test_a_refusal_other_than_the_engines_passes_through_untouched():
    form = Aiming({"version": "3", "targets": "unit:4"})
    with pytest.raises(ValueError, match="not an input"), filled(form):
        raise ValueError("not an input")
    assert form.errors == {}
