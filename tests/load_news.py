"""How soon an action reaches the other phones of its game, for the load benchmark (tests/load.py).

A game's version goes up with each action recorded. Each game keeps the moment each version was first answered to
a phone that acted, and the moments each of its phones first held a version (the ``since`` of the poll its screen
shows: brought by a poll mostly, else by a page it opened or by its own action's answer). An action's delay to
another phone is the time from its answer to the moment that phone first held its version or a later one: what
the player sees of it then is the game as it stands, that action included."""

from bisect import bisect_left
from dataclasses import dataclass, field


@dataclass
class News:
    """One game's versions as answered to the phones that acted, and as each of its phones held them."""

    answered: dict[int, tuple[float, int]] = field(default_factory=dict)  # version: moment, the phone that acted
    held: dict[int, tuple[list[float], list[int]]] = field(default_factory=dict)  # phone: moments, versions (rising)

    def acted(self, phone: int, version: int, moment: float) -> None:
        """An accepted action's answer showed ``version``: two actions in flight at once may both show the later
        one, whose first answer counts."""
        if version not in self.answered or moment < self.answered[version][0]:
            self.answered[version] = (moment, phone)
        self.hold(phone, version, moment)

    def hold(self, phone: int, version: int, moment: float) -> None:
        """An answer showed ``phone`` the game at ``version``: kept when it is newer than what the phone held."""
        moments, versions = self.held.setdefault(phone, ([], []))
        if not versions or version > versions[-1]:
            moments.append(moment)
            versions.append(version)

    def delays(self, start: float, end: float) -> tuple[list[float], int]:
        """The seconds from each version answered from ``start`` to ``end`` to the moment each other phone first
        held it or a later one, and how many times a phone had not held it by the last answer it got. A poll
        drawn after the action was recorded may reach a phone before the action's own answer reaches the phone
        that acted: that phone had the news no later than the answer, a delay of 0."""
        found: list[float] = []
        missing = 0
        for version, (moment, actor) in self.answered.items():
            if not start <= moment < end:
                continue
            for phone, (moments, versions) in self.held.items():
                if phone == actor:
                    continue
                first = bisect_left(versions, version)
                if first == len(versions):
                    missing += 1
                else:
                    found.append(max(0.0, moments[first] - moment))
        return found, missing
