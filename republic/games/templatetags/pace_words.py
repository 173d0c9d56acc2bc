"""The day's pace in a page's words: ``{{ pace|projection }}``, ``{{ spent|minutes }}``."""

from datetime import timedelta

from django import template

from republic.games.pace import Pace
from republic.games.text import pace as words

register = template.Library()


@register.filter
def projection(pace: Pace) -> str:
    return words.projection(pace.projection, pace.now, pace.in_progress)


@register.filter
def minutes(spent: timedelta | None) -> str:
    return words.minutes(spent)
