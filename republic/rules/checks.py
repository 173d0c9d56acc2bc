"""Checks for the fields of mechanics' inputs built by hand or decoded from JSON: each names the field."""

from enum import StrEnum

from republic.rules.errors import RulesInputError
from republic.rules.hits import Hits
from republic.rules.morale import condition_for


def check_count(value: object, field: str, minimum: int = 0) -> int:
    """The value, once it is a whole number of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesInputError(field, f"expected a whole number, got {value!r}")
    if value < minimum:
        raise RulesInputError(field, f"must be {minimum} or more, got {value}")
    return value


def check_m_hits(value: object, field: str = "m_hits") -> None:
    m_hits = check_count(value, field)
    try:
        condition_for(m_hits)
    except RulesInputError as exc:
        raise RulesInputError(field, exc.problem) from None


def check_kind(value: object, kind: type, field: str) -> None:
    if not isinstance(value, kind):
        choices = ", ".join(str(m.value) for m in kind) if issubclass(kind, StrEnum) else kind.__name__
        raise RulesInputError(field, f"expected {choices}, got {value!r}")


def check_hits(value: object, field: str) -> None:
    if not isinstance(value, Hits):
        raise RulesInputError(field, f"hits are written like '2M 1B', got {value!r}")
