"""A unit's map symbol on a page: a reference to its drawing in the page's sprite (games/parts/map_symbols.html),
named for a screen reader by its words."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from republic.games.text.map_symbols import MapSymbol, map_symbol

register = template.Library()


def map_symbol_of(symbol: MapSymbol) -> SafeString:
    return format_html(
        '<svg class="map-symbol" role="img" aria-label="{}"><use href="#{}"/></svg>', symbol.words, symbol.drawing
    )


@register.simple_tag
def unit_symbol(kind: str) -> SafeString:
    """The map symbol of a unit of that kind ('infantry', 'cavalry_mounted', 'artillery')."""
    return map_symbol_of(map_symbol(kind))
