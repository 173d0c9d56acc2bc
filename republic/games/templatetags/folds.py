"""A fold of an open row's form that a tap fetches (``steps.base.Step.folds``): drawn closed, it holds its summary
alone, and opening it asks for the fold drawn open (the row's address with ``?fold=``). A form's fields cost most of
what drawing an open row costs, so a row draws only the forms a player sees when it opens."""

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def fold_shown(context: Any, name: str, sent: Any = False) -> bool:
    """Whether the fold is drawn open: one of its forms was sent (its errors or its result are news), a tap fetched
    it, or a page drawn without scripts was asked for it (``folds_open``)."""
    return bool(sent) or name in (context.get("folds_open") or ())


@register.simple_tag(takes_context=True)
def fold_head(context: Any, name: str, shown: bool, classes: str = "") -> SafeString:
    """The fold's opening ``<details>``: open, or closed and fetched open by the first tap on its summary."""
    subject = context["subject"]
    if shown:
        return format_html('<details class="{}" id="fold-{}-{}" open>', classes, subject, name)
    address = reverse("games:row", args=[context["game"].pk, subject])
    return format_html(
        '<details class="{}" id="fold-{}-{}" hx-get="{}?fold={}" hx-target="this" hx-trigger="toggle once" '
        'hx-swap="outerHTML">',
        classes,
        subject,
        name,
        address,
        name,
    )


@register.simple_tag(takes_context=True)
def fold_link(context: Any, name: str) -> SafeString:
    """In a closed fold, the link a phone without scripts follows: the page with the row and the fold open."""
    subject = context["subject"]
    return format_html('<a href="?open={}&amp;fold={}#row-{}">Show it</a>', subject, name, subject)
