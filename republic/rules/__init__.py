"""The Republic rules engine: pure functions from state, dice and table knowledge to explained results.

Modules follow the rulebook's chapters so that a reader holding the rules finds the code by name.
Nothing here imports Django, reads a clock or rolls hidden dice.
"""
