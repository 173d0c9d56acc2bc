"""A step row's head (its opening tag and the link that opens it) drawn in Python: a page draws 40 rows, and a
template included 40 times costs more than the rest of the page. Its form, when open, is a template
(games/parts/row.html)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from republic.games.steps.base import Row
from republic.games.templatetags.map_symbols import map_symbol_of

register = template.Library()

_HEAD = (
    '<li class="{}" id="row-{}"{}><a class="work-open" href="{}" hx-get="{}" hx-target="#row-{}" '
    'hx-swap="outerHTML" aria-expanded="{}"><span class="work-title">{}</span><span class="work-line">{}{}'
    '<span class="work-facts">{}</span>{}</span></a>'
)


_THEIRS = (
    '<li class="{}" id="row-{}"{}><div class="work-theirs"><span class="work-title">{}</span>'
    '<span class="work-line">{}<span class="work-facts">{}</span></span><span class="work-whose small">{}</span></div>'
)


@register.simple_tag
def row_head(row: Row, oob: bool = False) -> SafeString:
    """The row's ``<li>`` (left open for what follows it) and its link: title, a unit's map symbol, condition by
    colour and word, a brigade's bases, the facts and the verb; a tap fetches the row open (or closed again), and
    without scripts the link draws the page with it open. A closed row's head, once filled in, is drawn once for
    the rows that share its listing (``Row.heads``)."""
    if row.opened or not row.filled:
        return _head(row, oob)
    seen = (row.theirs, row.by_itself, oob)
    if seen not in row.heads:
        row.heads[seen] = _head(row, oob)
    drawn: SafeString = row.heads[seen]
    return drawn


def _head(row: Row, oob: bool) -> SafeString:
    opened = bool(row.opened)
    classes = "work-row" + (f" condition-{row.condition.value}" if row.condition else "") + (" is-open" * opened)
    badge = format_html('<span class="condition-badge">{}</span>', row.condition_words) if row.condition else ""
    if row.theirs:
        # a row of the other side's: what is happening and who acts, nothing to open
        return format_html(
            _THEIRS,
            classes,
            row.subject,
            mark_safe(' hx-swap-oob="true"') if oob else "",
            row.title,
            badge,
            row.facts,
            row.theirs,
        )
    verb = format_html('<span class="work-verb">{}</span>', "Close" if opened else row.verb) if row.verb else ""
    attributes = mark_safe(' hx-swap-oob="true"') if oob else SafeString("")
    if row.by_itself and not opened:
        # the player's next work, its head drawn in an answer to his action: his phone fetches it open at once
        attributes += format_html(
            ' data-next hx-get="{}?next=1" hx-trigger="load" hx-target="this" hx-swap="outerHTML"', row.address
        )
    return format_html(
        _HEAD,
        classes,
        row.subject,
        attributes,
        f"?{'' if opened else f'open={row.subject}'}#row-{row.subject}",
        row.address + ("?close=1" if opened else ""),
        row.subject,
        "true" if opened else "false",
        row.title,
        map_symbol_of(row.symbol) if row.symbol else "",
        badge,
        " · ".join(filter(None, (row.bases, row.facts))),
        verb,
    )
