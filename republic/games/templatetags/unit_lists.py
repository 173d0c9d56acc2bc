"""The list of units a name field offers (``<datalist>``), drawn in one pass: a target is chosen among 200
enemy units, and a template loop over 200 options costs more than the rest of the form."""

from collections.abc import Sequence

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def unit_list(list_id: str, options: Sequence[tuple[str, str, str]]) -> SafeString:
    """Each unit's name, which the field takes, with its division and how it stands, which a phone also
    matches as the player types."""
    names = format_html_join("", '<option value="{}">{}</option>', ((name, now) for _, name, now in options))
    return format_html('<datalist id="{}">{}</datalist>', list_id, names)
