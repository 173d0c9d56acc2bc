"""The words of the table: every sentence a phone, the log or a print shows of an event or a result comes
from this package, so they all say the same. The words of each phase's events are in the module of that phase
(``command``, ``maneuver``, ``fire``, ``assault``, ``panic``; ``game`` for what belongs to no phase), each with
a table of one function per kind; ``describe`` picks an event's words from them and draws its result card.
``terms`` words the small things every sentence is made of (a roll, a condition, a chart cell); ``report_words``
the battle report's, ``charts`` a chart's as a whole.

A chart cell is worded in the rule's terms: its table's title, then its row and column as the rules name
them, never the chart file's keys.
"""
