"""What every event shares: the payload base, a unit event, a named unit and a labelled roll; the kinds by name
(``KINDS``), and how a payload is stored and read back typed (``stored``, ``payload_of``, ``read_all``,
``named_in``). The kinds themselves are in the module of their phase."""

from collections.abc import Iterable
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Protocol, TypeVar

from republic.rules.codec import decode, encode
from republic.rules.dice import Roll
from republic.rules.results import Explained

KINDS: dict[str, type["Payload"]] = {}
"""Every kind of event, by name: each payload type no other payload type is made from. A kind is known once the
module of its phase is loaded, and loading any module of the package loads every phase's (``__init__``)."""


@dataclass(frozen=True)
class LabelledRoll:
    """A roll as the log shows it: what it was for, its faces and how they were obtained."""

    label: str
    roll: Roll


@dataclass(frozen=True)
class Payload:
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        KINDS[cls.__name__] = cls
        for base in cls.__mro__[1:]:
            KINDS.pop(base.__name__, None)  # a base (a unit event) is what kinds are made of, never a kind itself

    def rolls(self) -> tuple[LabelledRoll, ...]:
        return ()


@dataclass(frozen=True)
class UnitEvent(Payload):
    """An event about one unit: its key ('unit:12') and its name."""

    unit: str
    name: str


class Stored(Protocol):
    kind: str

    @property
    def payload(self) -> Any: ...


@dataclass(frozen=True)
class NamedUnit:
    unit: str
    name: str


def kind_of(payload: Payload) -> str:
    return type(payload).__name__


def stored(payload: Payload) -> dict[str, Any]:
    data: dict[str, Any] = encode(payload)
    return data


_DECODED: dict[tuple[Any, ...], Payload] = {}
DECODED_KEPT = 50_000
"""How many decoded payloads a server process keeps: a club day's events, a few kilobytes each."""


def payload_of(event: Stored) -> Payload:
    """The event's payload, as its kind's type.

    A recorded event never changes, and forty phones polling one game draw the same rows from the same events
    every few seconds: each process decodes an event once. It is known by its id and the moment it was recorded
    (an id alone may come back after a rolled-back transaction); an event not yet saved is decoded every time."""
    fields = vars(event)
    key = (fields.get("id"), fields.get("created"), event.kind)
    if key[0] is not None and key[1] is not None:
        found = _DECODED.get(key)
        if found is not None:
            return found
    payload: Payload = decode(KINDS[event.kind], event.payload)
    if key[0] is not None and key[1] is not None:
        if len(_DECODED) >= DECODED_KEPT:
            _DECODED.clear()
        _DECODED[key] = payload
    return payload


P = TypeVar("P", bound=Payload)


def read_all(found: Iterable[Stored], kind: type[P]) -> list[P]:
    """The payloads of the events of this kind among ``found``, in order."""
    return [payload for event in found if event.kind == kind.__name__ if isinstance(payload := payload_of(event), kind)]


def named_in(found: Iterable[Stored], kind: type[Payload], name: str) -> list[Any]:
    """One plain field (a unit's key) of the payloads of this kind, read without decoding the rest (cheap)."""
    if name not in {f.name for f in fields(kind)}:
        raise AttributeError(f"{kind.__name__} has no field {name}")
    return [event.payload[name] for event in found if event.kind == kind.__name__]


def results(value: Any) -> list[Explained]:
    """The engine results a payload holds, each with its own modifiers, cells and notes."""
    if isinstance(value, Explained):
        return [value]
    if isinstance(value, tuple | list):
        return [found for item in value for found in results(item)]
    if is_dataclass(value) and not isinstance(value, type):
        return [found for f in fields(value) for found in results(getattr(value, f.name))]
    return []
