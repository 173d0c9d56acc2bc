"""A multiple choice of dozens (leaders, units) is the phone's own pick list: few choices stay check boxes, many
are one select drawn in one pass, with what was chosen still chosen and every name escaped; a list of units to
name one from is drawn in one pass too."""

from django import forms

from republic.games.forms import AS_BOXES, PickList, offer_many
from republic.games.templatetags.unit_lists import unit_list


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


def test_a_choice_not_offered_is_refused():
    form = Choosing({"leaders": ["41"]}, count=40)
    assert not form.is_valid() and "leaders" in form.errors


def test_a_list_of_units_offers_each_name_with_how_it_stands_escaped():
    options = [("unit:1", "Smith's <Brigade>", "Division 1 · Shaken, 4 bases"), ("unit:2", "Jones & Co", "Guns")]
    drawn = str(unit_list("fire-unit-9-targets", options))
    assert drawn == (
        '<datalist id="fire-unit-9-targets">'
        '<option value="Smith&#x27;s &lt;Brigade&gt;">Division 1 · Shaken, 4 bases</option>'
        '<option value="Jones &amp; Co">Guns</option></datalist>'
    )
