"""A multiple choice of dozens (leaders, units) is the phone's own pick list: few choices stay check boxes, many
are one select drawn in one pass, with what was chosen still chosen and every name escaped; a unit is picked by a
tap among those offered, many grouped by division with a filter, those not offered listed with why."""

from django import forms

from republic.games.forms import (
    AS_BOXES,
    PICK_GROUPS,
    ListedChoice,
    Pick,
    PickField,
    PickList,
    Refused,
    offer,
    offer_many,
    offer_picks,
)
from republic.games.templatetags.picks import pick


class Choosing(forms.Form):
    leaders = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, count: int, **kwargs):
        super().__init__(*args, **kwargs)
        offer_many(self, "leaders", [(str(n), f"Leader {n} <E{n % 4}>") for n in range(1, count + 1)])


def test_a_few_choices_stay_check_boxes():
    form = Choosing(count=AS_BOXES)
    assert isinstance(form.fields["leaders"].widget, forms.CheckboxSelectMultiple)
    assert str(form["leaders"]).count('type="checkbox"') == AS_BOXES


def test_dozens_are_one_pick_list_with_the_chosen_still_chosen_and_names_escaped():
    form = Choosing({"leaders": ["2", "40"]}, count=40)
    assert isinstance(form.fields["leaders"].widget, PickList)
    assert form.is_valid() and form.cleaned_data["leaders"] == ["2", "40"]
    drawn = str(form["leaders"])
    assert (
        drawn.startswith("<select ")
        and ' name="leaders"' in drawn
        and " multiple>" in drawn
        and 'id="id_leaders"' in drawn
    )
    assert drawn.count("<option") == 40 and drawn.count(" selected") == 2
    assert '<option value="2" selected>Leader 2 &lt;E2&gt;</option>' in drawn
    assert '<option value="3">Leader 3 &lt;E3&gt;</option>' in drawn


class Moving(forms.Form):
    leader = forms.ChoiceField(label="Leader")

    def __init__(self, *args, count: int, **kwargs):
        super().__init__(*args, **kwargs)
        offer(self, "leader", [("", "Choose a leader")] + [(str(n), f"Leader {n} <E{n % 4}>") for n in range(1, count)])


def test_one_choice_of_dozens_is_a_list_drawn_in_one_pass_as_django_draws_it():
    """A rally step's 130 leaders, each drawn through a template of its own, took longer than the rest of the part."""
    few, many = Moving(count=AS_BOXES), Moving({"leader": "40"}, count=41)
    assert type(few.fields["leader"].widget) is forms.Select
    assert isinstance(many.fields["leader"].widget, ListedChoice)
    assert many.is_valid() and many.cleaned_data["leader"] == "40"
    drawn = str(many["leader"])
    assert drawn.startswith("<select ") and ' name="leader"' in drawn and 'id="id_leader"' in drawn
    assert " required" in drawn and " multiple" not in drawn
    assert drawn.count("<option") == 41 and drawn.count(" selected") == 1
    assert '<option value="40" selected>Leader 40 &lt;E0&gt;</option>' in drawn
    assert '<option value="">Choose a leader</option>' in drawn


def test_a_choice_not_offered_is_refused():
    form = Choosing({"leaders": ["41"]}, count=40)
    assert not form.is_valid() and "leaders" in form.errors


class Aiming(forms.Form):
    target = PickField(label="Main target", what="enemy unit")

    def __init__(self, *args, picks, refused=(), **kwargs):
        super().__init__(*args, **kwargs)
        offer_picks(self, ["target"], picks, refused)


def test_a_few_units_are_radio_boxes_labelled_with_their_names_escaped():
    picks = [Pick("unit:1", "Smith's <Brigade>", "Division <1>", "Shaken & 4 bases"), Pick("unit:2", "Jones & Co")]
    drawn = str(pick(Aiming({"target": "unit:2"}, picks=picks)["target"]))
    assert drawn.startswith('<fieldset class="pick mb-3" data-pick="target"') and "<legend" in drawn
    assert (
        '<div class="pick-item"><label><input type="radio" name="target" value="unit:1">Smith&#x27;s &lt;Brigade&gt;'
        "<small>Division &lt;1&gt; · Shaken &amp; 4 bases</small></label></div>" in drawn
    )
    assert '<input type="radio" name="target" value="unit:2" checked>Jones &amp; Co' in drawn
    assert "pick-filter" not in drawn and "pick-group" not in drawn and "<input list" not in drawn


def test_many_units_are_grouped_by_division_with_a_filter_and_those_not_offered_say_why():
    picks = [Pick(f"unit:{n}", f"Brigade {n}", f"Division {n % 3}", "Formed") for n in range(1, PICK_GROUPS + 2)]
    refused = [Refused("unit:99", "Lame Brigade", "demoralized"), Refused("unit:98", "Slow Brigade", "demoralized")]
    drawn = str(pick(Aiming({"target": "unit:4"}, picks=picks, refused=refused)["target"]))
    assert (
        drawn.count('<details class="pick-group"') == 3
        and '<input type="search" class="form-control pick-filter' in drawn
    )
    assert '<details class="pick-group" open><summary>Division 1 (5)</summary>' in drawn  # unit 4's, chosen
    assert (
        "<summary>Not offered (2)</summary>" in drawn
        and "<strong>Demoralized</strong>: Lame Brigade, Slow Brigade" in drawn
    )


def test_a_unit_is_taken_by_key_or_by_name_with_any_apostrophe_and_one_not_offered_is_refused_naming_why():
    picks = [Pick("unit:1", "Archer's Brigade"), Pick("unit:2", "Davis's Brigade")]
    refused = [Refused("unit:3", "Heth's Brigade", "no roll")]
    for sent in ("unit:1", "Archer's Brigade", "archer\u2019s  brigade"):
        form = Aiming({"target": sent}, picks=picks)
        assert form.is_valid() and form.cleaned_data["target"] == "unit:1"
    assert Aiming({"target": "unit:3"}, picks=picks, refused=refused).errors["target"] == [
        "Heth's Brigade is not offered: no roll."
    ]
    assert Aiming({"target": "unit:7"}, picks=picks).errors["target"] == [
        "That enemy unit is not one to choose here: choose one from the list."
    ]
    assert Aiming({"target": "Nobody"}, picks=picks).errors["target"] == [
        "No enemy unit to choose here is called “Nobody”: choose one listed."
    ]
