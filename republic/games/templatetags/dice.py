"""Dice as the table sees them: the pad of ten faces a player taps to send the die he rolled, and a die of a
result drawn as a small die showing its face.

A form that takes one die draws its faces as submit buttons: one tap sends the face and the rest of the form, with
or without scripts. A form that takes several draws each die's faces as radio buttons; the tap that completes
the last pad sends the form (static/js/republic.js), and without scripts its Resolve button does. A face sent and
refused (another field missing) is drawn chosen again; for a one-die form it also rides in a hidden field, so that
"Roll for me" pressed next is refused rather than throwing the table's die away (forms.DiceForm). Drawn in few
bytes (no quotes where a value needs none): an assault round's answer draws two pads within its 20 KB."""

from collections.abc import Iterable

from django import template
from django.forms import BoundField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from republic.games.events.payload import LabelledRoll
from republic.games.forms import FACES, DiceForm
from republic.rules.dice import RollSource

register = template.Library()
_PRESSED, _CHECKED = SafeString(" aria-pressed=true"), SafeString(" checked")


def _chosen(field: BoundField, cleared: bool) -> int | None:
    value = "" if cleared else str(field.value() or "").strip()
    return int(value) if value.isdigit() and int(value) in FACES else None


def _faces(field: BoundField, chosen: int | None, alone: bool) -> SafeString:
    name = field.html_name
    if alone:
        return format_html_join(
            "",
            "<button class=die-face name={} value={}{}>{}</button>",
            ((name, n, _PRESSED if n == chosen else "", n) for n in FACES),
        )
    return format_html_join(
        "",
        "<label class=die-face><input type=radio name={} value={}{}>{}</label>",
        ((name, n, _CHECKED if n == chosen else "", n) for n in FACES),
    )


def _pad(form: DiceForm, name: str, alone: bool) -> SafeString:
    field = form[name]
    chosen = _chosen(field, name in form.cleared)
    errors = " ".join(str(error) for error in field.errors)
    said = format_html('<div class="invalid-feedback d-block" id="{}-said">{}</div>', field.auto_id, errors)
    # Its label is drawn from its aria-label (static/css/republic.css), once in the answer
    return format_html(
        '<div class=die-field id=div_{}>{}<div class="die-pad{}" role=group aria-label="{}"{}>{}</div>{}</div>',
        field.auto_id,
        format_html("<input type=hidden name={} value={}>", field.html_name, chosen) if alone and chosen else "",
        " is-invalid" if errors else "",
        field.label,
        format_html(' aria-describedby="{}-said"', field.auto_id) if errors else "",
        _faces(field, chosen, alone),
        said if errors else "",
    )


@register.simple_tag
def die_pads(form: DiceForm) -> SafeString:
    """A pad for each die the form takes, in the order of its ``dice_fields``."""
    alone = len(form.dice_fields) == 1
    return format_html_join("", "{}", ((_pad(form, name, alone),) for name in form.dice_fields))


@register.simple_tag
def dice_faces(rolls: Iterable[LabelledRoll] = ()) -> SafeString:
    """The faces of a result's rolls as dice, before the sentence a row's result says: the sentence names the
    dice in words, so a screen reader skips these."""
    faces = [face for r in rolls for face in r.roll.faces]
    if not faces:
        return SafeString("")
    drawn = format_html_join("", "<span class=die>{}</span>", ((face,) for face in faces))
    return format_html("<span class=dice-faces aria-hidden=true>{}</span> ", drawn)


def _die(face: int) -> SafeString:
    """A rolled face as a small die; a screen reader hears "die 7"."""
    return format_html("<span class=die><span class=visually-hidden>die </span>{}</span>", face)


@register.simple_tag
def dice_line(rolls: Iterable[LabelledRoll]) -> SafeString:
    """Each roll of a result with its label, its faces drawn as dice, and how it was obtained: the result card's
    and the turn log's dice line (words as text.terms.dice has them, the PDF's)."""
    return format_html_join(
        "; ",
        "{} {}, {}",
        (
            (
                r.label,
                format_html_join("", "{}", ((_die(face),) for face in r.roll.faces)),
                "typed" if r.roll.source is RollSource.TYPED else "rolled by the app",
            )
            for r in rolls
        ),
    )
