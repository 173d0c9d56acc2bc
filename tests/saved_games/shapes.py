"""The shape of what a saved game holds, as this server reads it: each kind's payload field by field down to the
engine's values (a field's path such as ``inputs.targets[].bases``, its type, its default when a file may leave it
out), the values of each of the engine's choices, and each section's fields as the file holds them. A version of
the format keeps the shape its files were saved in beside them (tests/saved_games/republic-game-N/shape.json);
``breaks`` lists what in today's code would read a file of that shape otherwise, each a reason for a new version
of the format (republic/games/archive/versions.py)."""

import dataclasses
import json
import types
import typing
from enum import Enum
from typing import Any, get_args, get_origin, get_type_hints

from django.db import models

from republic.games.archive.export import ROWS, event_fields, game_fields, row_fields
from republic.games.events.payload import KINDS
from republic.rules.codec import encode
from republic.rules.dice import Roll
from republic.rules.hits import Hits
from republic.rules.troops import Leader

Shape = dict[str, dict[str, Any]]
"""{"kinds": {kind: {path: field}}, "choices": {choice: [values]}, "rows": {section: {name: field}}}; a field is
{"type": ..., "required": true when it has no default, "default" when it has one, and a row's "choices"}."""

_LEAVES: dict[Any, str] = {
    bool: "true or false",
    int: "whole number",
    float: "number",
    str: "text",
    Any: "any",
    Roll: "roll",
    Hits: "hits",
    Leader: "leader",
}


class _Walk:
    """The fields of the payload types, and the choices they hold."""

    def __init__(self) -> None:
        self.choices: dict[str, list[str]] = {}

    def dataclass(self, cls: type, path: str, into: dict[str, Any], seen: frozenset[type]) -> None:
        hints = get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            at = f"{path}.{f.name}" if path else f.name
            default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            self.typed(hints[f.name], at, default is dataclasses.MISSING, into, seen | {cls})
            if default is not dataclasses.MISSING:
                into[at]["default"] = encode(default)

    def typed(self, tp: Any, path: str, required: bool, into: dict[str, Any], seen: frozenset[type]) -> None:
        """The field at ``path`` and the fields of the values it holds."""
        options = [tp]
        if get_origin(tp) in (typing.Union, types.UnionType):
            options = [a for a in get_args(tp) if a is not type(None)]
        shown = " or ".join(self.name(a) for a in options)
        into[path] = {"type": shown + (" or null" if options != [tp] and len(options) < len(get_args(tp)) else "")}
        into[path]["required"] = required
        for option in options:
            if get_origin(option) is tuple:
                self.typed(get_args(option)[0], f"{path}[]", True, into, seen)  # an item the file holds is whole
            elif option not in {*_LEAVES, *seen} and dataclasses.is_dataclass(option) and isinstance(option, type):
                self.dataclass(option, path, into, seen)

    def name(self, tp: Any) -> str:
        if get_origin(tp) is tuple:
            return f"list of {self.name(get_args(tp)[0])}"
        if tp in _LEAVES:
            return _LEAVES[tp]
        if isinstance(tp, type) and issubclass(tp, Enum):
            self.choices[tp.__name__] = sorted(str(member.value) for member in tp)
            return f"choice of {tp.__name__}"
        return tp.__name__ if isinstance(tp, type) else str(tp)


def _column(found: models.Field) -> dict[str, Any]:
    # as the loader reads a section's field: one a file leaves out takes its default, or is stamped on the way in
    optional = found.has_default() or getattr(found, "auto_now_add", False)
    field: dict[str, Any] = {"type": found.get_internal_type(), "required": not optional}
    if found.has_default():
        # a default made afresh for each row (a join code) is no value an older file's row would take
        field["default"] = f"made by {found.default.__name__}" if callable(found.default) else encode(found.default)
    if found.choices:
        field["choices"] = sorted(str(value) for value, _ in found.flatchoices)
    return field


def current() -> Shape:
    """Today's shape."""
    walk = _Walk()
    kinds: dict[str, dict[str, Any]] = {}
    for kind, cls in sorted(KINDS.items()):
        kinds[kind] = {}
        walk.dataclass(cls, "", kinds[kind], frozenset())
    sections = {"game": game_fields(), **{table: row_fields(model) for table, model in ROWS.items()}}
    sections["events"] = event_fields()
    rows = {name: {f.attname: _column(f) for f in fields} for name, fields in sections.items()}
    return {"kinds": kinds, "choices": dict(sorted(walk.choices.items())), "rows": rows}


def dumps(shape: Shape) -> str:
    """The shape as a file a reviewer reads: a line a field, so that a change shows as the lines it changed."""
    lines = ["{"]
    for i, (part, named) in enumerate(shape.items()):
        lines.append(f"  {json.dumps(part)}: {{")
        for j, (name, fields) in enumerate(named.items()):
            if part == "choices":
                lines.append(f"    {json.dumps(name)}: {json.dumps(fields)}" + ("," if j < len(named) - 1 else ""))
                continue
            lines.append(f"    {json.dumps(name)}: {{")
            lines += [
                f"      {json.dumps(path)}: {json.dumps(field, sort_keys=True)}," for path, field in fields.items()
            ]
            lines[-1] = lines[-1].rstrip(",")
            lines.append("    }" + ("," if j < len(named) - 1 else ""))
        lines.append("  }" + ("," if i < len(shape) - 1 else ""))
    return "\n".join([*lines, "}", ""])


def breaks(saved: Shape, now: Shape) -> list[str]:
    """What today's code reads otherwise in a file of the ``saved`` shape: a kind, a field or a choice gone, a field
    of another type or default, a field a file must now hold that it did not (a new field without a default)."""
    found: list[str] = []
    for part, what in (("kinds", "the payload of"), ("rows", "the section")):
        for name, fields in saved[part].items():
            if name not in now[part]:
                found.append(f"{what} {name} is gone")
                continue
            found += [f"{what} {name}: {problem}" for problem in _fields(fields, now[part][name])]
    for name, values in saved["choices"].items():
        gone = sorted(set(values) - set(now["choices"].get(name, ())))
        if gone:
            found.append(f"the choice {name} no longer takes {', '.join(gone)}")
    return found


def _fields(saved: dict[str, Any], now: dict[str, Any]) -> list[str]:
    found = []
    for path, was in saved.items():
        field = now.get(path)
        if field is None:
            found.append(f"{path} is gone")
            continue
        if field["type"] != was["type"]:
            found.append(f"{path} was {was['type']}, now {field['type']}")
        if "default" in was and field.get("default") != was["default"]:
            found.append(f"{path} defaulted to {was['default']!r}, now {field.get('default', 'to nothing')!r}")
        gone = sorted(set(was.get("choices", ())) - set(field.get("choices", ())))
        if gone:
            found.append(f"{path} no longer takes {', '.join(gone)}")
    for path, field in now.items():
        # a field below a new one is in no older file; below an older one, an older file's value lacks it
        parent = path[:-2] if path.endswith("[]") else path.rpartition(".")[0]
        if path not in saved and field["required"] and (not parent or parent in saved):
            found.append(f"{path} is new and has no default")
    return found
