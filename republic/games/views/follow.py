"""Following: a device may follow one side, corps or division of a game (kept in its session), and the game
page lists that command's work first. A player commanding a corps from a phone sees his own brigades at the
top of a 400-unit battle."""

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest

from republic.games.forms import whole_number
from republic.games.models import Command, Game
from republic.games.readings import read_once

FOLLOW_KEY = "republic_follow"


@dataclass(frozen=True)
class Followed:
    name: str  # '' when the device follows the whole battle
    commands: frozenset[int]  # the followed command and every command under it (a side: all of its commands)


EVERYTHING = Followed("", frozenset())


@read_once
def command_tree(game: Game) -> list[tuple[int, int | None, int, str, str]]:
    """Every command of the game: its id, its parent's, its side's, its name and its side's name."""
    return list(Command.objects.filter(game=game).values_list("pk", "parent_id", "side_id", "name", "side__name"))


def followed(request: HttpRequest, game: Game) -> Followed:
    chosen = request.session.get(FOLLOW_KEY, {}).get(str(game.pk), "")
    return following(chosen, lambda: command_tree(game))


def following(chosen: str, tree: Callable[[], list[tuple[int, int | None, int, str, str]]]) -> Followed:
    """What a device follows, by its choice ('side-3', 'command-12') in the game's ``tree`` of commands (read
    only when it follows one)."""
    kind, _, written = chosen.partition("-")
    number = whole_number(written)
    if kind not in ("side", "command") or number is None:
        return EVERYTHING
    commands = tree()
    if kind == "side":
        names = [side for _, _, side_id, _, side in commands if side_id == int(number)]
        found = {pk for pk, _, side_id, _, _ in commands if side_id == int(number)}
        return Followed(names[0], frozenset(found)) if names else EVERYTHING
    below: dict[int | None, list[int]] = {}
    for pk, parent, *_ in commands:
        below.setdefault(parent, []).append(pk)
    top = next((c for c in commands if c[0] == int(number)), None)
    if top is None:
        return EVERYTHING
    found, waiting = set(), [top[0]]
    while waiting:
        pk = waiting.pop()
        found.add(pk)
        waiting.extend(below.get(pk, []))
    return Followed(top[3], frozenset(found))
