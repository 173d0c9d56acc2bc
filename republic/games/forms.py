"""Form pieces every action shares."""

from django import forms


class VersionForm(forms.Form):
    """Every action form carries the game version it was drawn for, so a stale form changes nothing."""

    version = forms.IntegerField(widget=forms.HiddenInput)
