"""Engine values to and from JSON-shaped data, for scripts, stored events and the table's forms.

Inputs are frozen dataclasses with typed fields; decoding follows the type hints and names the exact
field (``targets[1].bases``) when a value does not fit.
"""

import dataclasses
import functools
import math
import types
import typing
from enum import Enum
from typing import Any, NotRequired, TypedDict, TypeVar, get_args, get_origin, get_type_hints

from republic.rules.dice import Roll, RollSource
from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.troops import Leader

E = TypeVar("E", bound=Enum)


def decode(cls: type, data: Any, path: str = "") -> Any:
    origin = get_origin(cls)
    if origin in (typing.Union, types.UnionType):
        options = get_args(cls)
        if data is None and type(None) in options:
            return None
        real = [o for o in options if o is not type(None)]
        if len(real) == 1:
            return decode(real[0], data, path)
        if set(real) == {int, float}:
            return data if isinstance(data, int) and not isinstance(data, bool) else decode(float, data, path)
        raise TypeError(f"unsupported union {cls}")  # a programming error in an input class
    if origin is tuple:
        args = get_args(cls)
        if not isinstance(data, list | tuple):
            raise RulesInputError(path, f"expected a list, got {_shown(data)}")
        item = args[0]
        return tuple(decode(item, value, f"{path}[{i}]") for i, value in enumerate(data))
    if cls is Any:
        return data
    if cls is bool:
        if not isinstance(data, bool):
            raise RulesInputError(path, f"expected true or false, got {_shown(data)}")
        return data
    if cls is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise RulesInputError(path, f"expected a whole number, got {_shown(data)}")
        return data
    if cls is float:
        if isinstance(data, bool) or not isinstance(data, int | float) or not math.isfinite(data):
            raise RulesInputError(path, f"expected a number, got {_shown(data)}")
        return float(data)
    if cls is str:
        if not isinstance(data, str):
            raise RulesInputError(path, f"expected text, got {_shown(data)}")
        return data
    if isinstance(cls, type) and issubclass(cls, Enum):
        return _enum(cls, data, path)
    if cls is Roll:
        return _roll(data, path)
    if cls is Leader:
        try:
            return Leader.parse(data, path) if isinstance(data, str) else _dataclass(Leader, data, path)
        except RulesInputError as exc:
            raise RulesInputError(path, exc.problem) from None
    if cls is Hits:
        if not isinstance(data, str):
            raise RulesInputError(path, f"hits are written like '2M 1B', got {_shown(data)}")
        try:
            return Hits.parse(data)
        except ValueError as exc:
            raise RulesInputError(path, str(exc)) from None
    if dataclasses.is_dataclass(cls):
        return _dataclass(cls, data, path)
    raise TypeError(f"no decoding for {cls}")


def _shown(data: Any) -> str:
    return "nothing" if data is None else repr(data)


def _enum(cls: type[E], data: Any, path: str) -> E:
    for member in cls:
        if isinstance(data, str) and data.strip().lower() in (str(member.value).lower(), member.name.lower()):
            return member
    choices = ", ".join(str(m.value) for m in cls)
    raise RulesInputError(path, f"expected one of {choices}, got {_shown(data)}")


def _roll(data: Any, path: str) -> Roll:
    """A roll is a face (7), a list of faces ([5, 5]) or {"faces": [...], "source": "typed"|"app"}."""
    source = RollSource.TYPED
    if isinstance(data, dict):
        source = _enum(RollSource, data.get("source", "typed"), f"{path}.source")
        data = data.get("faces")
    faces = data if isinstance(data, list) else [data]
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int):
            raise RulesInputError(path, f"a die face is a whole number from 1 to 10, got {_shown(face)}")
    try:
        return Roll(tuple(faces), source)
    except RulesInputError as exc:
        raise RulesInputError(path, exc.problem) from None


@functools.cache
def _shape(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """A dataclass's type hints and init fields, worked out once per class: a page that reads a step's two
    hundred stored results would otherwise resolve the same hints two hundred times."""
    return get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls) if f.init}


def _dataclass(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise RulesInputError(path, f"expected an object with fields, got {_shown(data)}")
    hints, fields = _shape(cls)
    derived = {name for name in data if isinstance(getattr(cls, name, None), property)}  # encode adds them
    unknown = sorted(set(data) - set(fields) - derived)
    if unknown:
        raise RulesInputError(path, f"unknown field {unknown[0]!r}; expected one of {', '.join(fields)}")
    values = {}
    for name, f in fields.items():
        field_path = _join(path, name)
        if name in data:
            values[name] = decode(hints[name], data[name], field_path)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise RulesInputError(field_path, "missing")
    try:
        return cls(**values)
    except RulesInputError as exc:
        raise RulesInputError(_join(path, exc.field), exc.problem) from None


def _join(path: str, name: str) -> str:
    if not name:
        return path
    return f"{path}.{name}" if path else name


def encode(value: Any) -> Any:
    """JSON-shaped data for any engine value; results also say whether they used a provisional cell."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Roll):
        return {"faces": list(value.faces), "source": value.source.value}
    if isinstance(value, Hits | Leader):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if hasattr(value, "provisional"):
            data["provisional"] = value.provisional
        return data
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(encode(k)): encode(v) for k, v in value.items()}
    return value


class FieldDescription(TypedDict):
    """One field of an input class, as ``describe`` gives it: a default (JSON-shaped) or required."""

    name: str
    type: str
    default: NotRequired[Any]
    required: NotRequired[bool]


def describe(cls: type) -> list[FieldDescription]:
    """The fields of an input class, for ``resolve --list`` and for building forms."""
    hints = get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        entry = FieldDescription(name=f.name, type=_type_name(hints[f.name]))
        if f.default is not dataclasses.MISSING:
            entry["default"] = encode(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            entry["default"] = encode(f.default_factory())
        else:
            entry["required"] = True
        out.append(entry)
    return out


def _type_name(tp: Any) -> str:
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        real = [a for a in get_args(tp) if a is not type(None)]
        return f"{_type_name(real[0])} or null"
    if origin is tuple:
        return f"list of {_type_name(get_args(tp)[0])}"
    if isinstance(tp, type) and issubclass(tp, Enum):
        return " | ".join(str(m.value) for m in tp)
    if tp is Roll:
        return "roll (face, [faces] or {faces, source})"
    if tp is Hits:
        return "hits like '2M 1B'"
    if tp is Leader:
        return "leader like 'E2'"
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):  # hints are classes, never dataclass instances
        return f"{tp.__name__} {{{', '.join(f['name'] for f in describe(tp))}}}"
    return getattr(tp, "__name__", str(tp))
