"""The words of the table: every sentence a phone, the log or a print shows of an event or a result comes
from this package, one function per kind of event (events.py), so they all say the same. terms.py words the
small things every sentence is made of (a roll, a condition, a chart cell); rounds.py what an assault round
tells the table to do with each unit.

A chart cell is worded in the rule's terms: its table's title, then its row and column as the rules name
them, never the chart file's keys.
"""
