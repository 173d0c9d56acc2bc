"""Each kind of event of ``maneuver_events`` in one sentence: a brigade mounting or dismounting."""

from collections.abc import Callable
from typing import Any

from republic.games.maneuver_events import MountChanged
from republic.games.payload import Payload


def _mount(p: MountChanged) -> str:
    if p.inputs.reacting:
        return f"{p.name} dismounts in reaction to the enemy's move (3.5)"
    return f"{p.name} {'mounts' if p.inputs.mount else 'dismounts'}: a formation change (3.5)"


MANEUVER_WORDS: dict[type[Payload], Callable[[Any], str]] = {MountChanged: _mount}
