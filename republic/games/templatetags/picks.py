"""A picker (``forms.PickField``) drawn in one pass: a fire row offers a side's 200 units, and a template loop over
200 choices costs more than the rest of the form. Each choice is a radio or check box with its name as its label;
many are grouped by division, each group folded, with a filter a script lets the player type into
(static/js/pick.js); those not offered are listed with why, one tap away."""

from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from django import template
from django.forms import BoundField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from republic.games.forms import PICK_GROUPS, Pick, PickField, Refused, html_text

register = template.Library()


def _items(field: BoundField, picks: Sequence[Pick], chosen: set[str], grouped: bool) -> SafeString:
    spec: PickField = field.field  # type: ignore[assignment]
    kind = "checkbox" if spec.widget.many else "radio"  # type: ignore[attr-defined]
    aside = spec.aside
    later = _later(spec, grouped)
    name = field.html_name
    drawn = [(p, _drawn(kind, name, p, grouped)) for p in picks]
    return mark_safe(
        "".join(
            f"{box}{' checked' if p.key in chosen else ''}{label}"
            f"{aside(p, p.key in chosen) if aside and (p.key in chosen or not later) else ''}</div>"
            for p, (box, label) in drawn
        )
    )


@lru_cache(maxsize=16_384)
def _drawn(kind: str, name: str, pick: Pick, grouped: bool) -> tuple[str, str]:
    """A choice's box and its label, escaped, drawn once for each state of each choice a server process meets: a
    1,000-unit declaration draws 1,000, the same at every version but for the few units that changed, and Django's
    escaping of each cost more than the rest of its answer."""
    box = f'<div class="pick-item"><label><input type="{kind}" name="{html_text(name)}" value="{html_text(pick.key)}"'
    return box, f">{html_text(pick.name)}{_note(pick, grouped)}</label>"


def _later(spec: PickField, grouped: bool) -> bool:
    """Whether the choices' asides are drawn for the chosen alone, and by the script for one ticked, from the
    picker's template: a 1,000-unit battle's assault lists 500 defenders, and their asides would double the page.
    Without scripts, a choice's aside comes with the form drawn again after it is sent."""
    return grouped and spec.aside is not None and spec.aside_by_key


def _template(spec: PickField, grouped: bool) -> SafeString:
    if spec.aside is None or not _later(spec, grouped):
        return mark_safe("")
    return format_html('<template class="pick-aside-template">{}</template>', spec.aside(Pick("", ""), False))


def _note(pick: Pick, grouped: bool) -> str:
    """How it stands, under its name; its division too when the list is not grouped by division."""
    words = pick.note if grouped else " · ".join(filter(None, (pick.group, pick.note)))
    return f"<small>{html_text(words)}</small>" if words else ""


def _not_offered(refused: Sequence[Refused]) -> SafeString:
    """Those not offered, one line for each reason: a club battle's side may leave 190 units out for one."""
    if not refused:
        return mark_safe("")
    reasons = ((why[:1].upper() + why[1:], ", ".join(names)) for why, names in _by([(r.name, r.why) for r in refused]))
    lines = format_html_join("", "<li><strong>{}</strong>: {}</li>", reasons)
    return format_html(
        '<details class="pick-not small"><summary>Not offered ({})</summary><ul class="mb-1 ps-3">{}</ul></details>',
        len(refused),
        lines,
    )


T = TypeVar("T")


def _by(found: Sequence[tuple[T, str]]) -> list[tuple[str, list[T]]]:
    """What was found, by the second of each pair, in the order each first came: brigades come before batteries in
    an order of battle, and a division's batteries join its brigades."""
    grouped: dict[str, list[T]] = {}
    for item, key in found:
        grouped.setdefault(key, []).append(item)
    return list(grouped.items())


def _chosen(field: BoundField) -> set[str]:
    value = field.value()
    values = value if isinstance(value, list | tuple) else [value]
    spec: PickField = field.field  # type: ignore[assignment]
    keys = {str(v) for v in values if v}
    # a name sent by an older page is shown chosen as its key
    return {spec.key_of(k) or k for k in keys}


@register.simple_tag
def pick(field: BoundField) -> SafeString:
    """The field's picker, with its label, help, errors and those not offered."""
    spec: PickField = field.field  # type: ignore[assignment]
    chosen = _chosen(field)
    errors = " ".join(str(error) for error in field.errors)
    picks = list(spec.picks)
    grouped = len(picks) > PICK_GROUPS and any(p.group for p in picks)
    if grouped:
        groups = _by([(p, p.group) for p in picks])
        body = format_html(
            '<input type="search" class="form-control pick-filter mb-1" hidden aria-label="Filter: {}" '
            'placeholder="Type a few letters of a name" autocomplete="off">{}',
            field.label,
            # written in one pass, not through format_html per group: a club battle's side has a hundred divisions
            mark_safe(
                "".join(
                    f'<details class="pick-group"{" open" if any(p.key in chosen for p in found) else ""}>'
                    f"<summary>{html_text(group or 'Others')} ({len(found)})</summary>"
                    f"{_items(field, found, chosen, True)}</details>"
                    for group, found in groups
                )
            ),
        )
    else:
        body = _items(field, picks, chosen, False)
    none = ""
    if not spec.required and not spec.widget.many:  # type: ignore[attr-defined]
        none = format_html(
            '<div class="pick-item"><label><input type="radio" name="{}" value=""{}>None</label></div>',
            field.html_name,
            mark_safe(" checked") if not chosen else "",
        )
    return format_html(
        '<fieldset class="pick mb-3{}" data-pick="{}" id="pick-{}"><legend class="form-label">{}</legend>{}{}{}{}{}{}{}'
        "</fieldset>",
        " is-invalid" if field.errors else "",
        field.html_name,
        field.html_name,
        field.label,
        format_html('<div class="form-text mt-0 mb-1">{}</div>', field.help_text) if field.help_text else "",
        format_html('<div class="invalid-feedback d-block">{}</div>', errors) if errors else "",
        none,
        body,
        _template(spec, grouped),
        mark_safe('<p class="small text-muted mb-1">Nothing to choose here now.</p>') if not picks else "",
        _not_offered(spec.refused),
    )
