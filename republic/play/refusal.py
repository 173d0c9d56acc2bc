"""A refusal of the game's decisions: what a side asked for is not one it may do now."""


class Refused(Exception):
    """The reason an action is not open now, in the table's words."""
