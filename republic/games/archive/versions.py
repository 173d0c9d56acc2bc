"""The versions of the saved game's format, and the steps that carry a file of an earlier version to this one.

A saved game replays to its setup plus its events' changes, read through this server's models (the rows' fields),
the payload types of its kinds (``KINDS``: what each event's payload must decode to, for the log, the report and
the steps that read the turn's events) and the charts its events name by checksum. A change to the app that would
make a file saved today read or replay otherwise is a change of format: a row's field removed, renamed or given
another meaning; a payload field removed, renamed, retyped, or added without a default; a kind removed or
renamed; a choice a field held no longer offered. Such a change raises ``VERSION`` and either adds to ``STEPS``
the named step that rewrites a file of the version before into the new one, tested on the files of that version
kept in tests/saved_games/, or adds none, so that a file of the version before is refused, saying why. Never is
an older file read as though it were of the new version: it would load into another battle than the one saved.

What needs no new version: a payload field or a row's field added with a default (an older file lacks it and
takes the default, which is what the game was before the field existed), a new kind of event, a new chart (a
file names its charts by checksum and is refused when this server has none of them).

A file of a later version than this server's is refused: it may hold what this server would read otherwise."""

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from republic.games.archive.remap import ArchiveError

NAME = "republic-game"
VERSION = 1
SCHEMA = f"{NAME}/{VERSION}"
_FORM = re.compile(rf"^{NAME}/([1-9]\d{{0,5}})$")


@dataclass(frozen=True)
class Step:
    """What carries a file of one version to the next: its name, said in the tests and the code that calls it, and
    the rewrite of the file's data."""

    name: str
    rewrite: Callable[[dict[str, Any]], dict[str, Any]]


STEPS: dict[int, Step] = {}
"""The step from each earlier version to the next, by the version it starts from. None yet: every game saved so far
is a republic-game/1 file."""


def version_of(schema: Any) -> int:
    found = _FORM.match(schema) if isinstance(schema, str) else None
    if found is None:
        raise ArchiveError(f"The file's schema version is {schema!r}: it is not a game saved by this app ({SCHEMA}).")
    return int(found.group(1))


def brought_up_to_date(
    data: dict[str, Any], version: int = VERSION, steps: Mapping[int, Step] = STEPS
) -> dict[str, Any]:
    """The file's data at this server's version: as it is, or rewritten by each step from its version on; a file
    of a later version, or of an earlier one no step carries across, is refused."""
    found = version_of(data.get("schema"))
    if found > version:
        raise ArchiveError(
            f"The file was saved by a later version of the app ({NAME}/{found}): this server reads saved games up to "
            f"{NAME}/{version}. Load it on a server whose app is that version or later."
        )
    carried = data
    while found < version:
        step = steps.get(found)
        if step is None:
            raise ArchiveError(
                f"The file is a {NAME}/{found} saved game, and this server reads {NAME}/{version}: the rules engine "
                f"changed since in a way no step carries a {NAME}/{found} game across, so it would load as another "
                "battle here. Load it on a server whose app is the version that saved it."
            )
        carried = step.rewrite(copy.deepcopy(carried))
        found += 1
        carried["schema"] = f"{NAME}/{found}"
    return carried
