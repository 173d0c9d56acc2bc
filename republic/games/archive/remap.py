"""The references by row id inside a saved game, carried over to the rows a fresh game gives them.

A game names its own rows by id in four places: the setup's keys and foreign-key values ('unit:12': {...,
'division_id': 4}), each event's changes ({'model': 'unit', 'id': 12, 'field': 'division_id', ...}), each event's
subject ('unit-12') and its payload. In a payload a unit is always its key, text of the form 'unit:12' (a skirmish
marker adds '#2'), found by that form wherever it stands; a side, leader or division is a plain number (or the
number as text, as the panic phase keeps a division) in a field listed in ``PAYLOAD_REFS``. Event sequence numbers
(an undo's target, an assault's number) are kept as they are: the fresh game's events keep their numbers.

``Refs`` holds, for each kind of row, the file's id to the fresh game's; an id it does not hold is an
``ArchiveError`` naming where it was met, so the same walk that carries references over also checks them.
"""

import re
from typing import Any

from django.db import models

from republic.games.ledger import TRACKED, tracked_fields
from republic.games.models import Command, Leader, Side
from republic.games.pieces import Piece


class ArchiveError(ValueError):
    """A saved game this server cannot take: the message says what is wrong and where."""


PAYLOAD_REFS: dict[tuple[str, str], type[models.Model]] = {
    ("FirstAttackerRolled", "sides[]"): Side,
    ("FirstAttackerAgreed", "side"): Side,
    ("FirstAttackerAgreed", "by"): Side,
    ("FirstAttackerChosen", "side"): Side,
    ("GameEnded", "winner"): Side,
    ("OrdersChanged", "division"): Command,
    ("UnitReassigned", "left"): Command,
    ("UnitReassigned", "joined"): Command,
    ("DivisionPanicTested", "division"): Command,
    ("AdjoiningDeclared", "division"): Command,
    ("AdjoiningDeclared", "adjoining[]"): Command,
    ("LeaderReplaced", "leader"): Leader,
    ("LeaderMoved", "leader"): Leader,
    ("LeaderCheckedForCasualty", "leader"): Leader,
    ("HorsDeCombatSkipped", "leader"): Leader,
    ("AssaultRoundResolved", "conditions.attacker_leaders[]"): Leader,
    ("AssaultRoundResolved", "conditions.defender_leaders[]"): Leader,
}
"""Where a payload names a side, a division or a leader by its id, by kind and path ('[]': each item of a list)."""

_TABLES = "|".join(TRACKED)
KEY_FORM = re.compile(rf"^({_TABLES}):(\d+)(#\d+)?$")
"""A row's key as events keep it, 'unit:12' (a skirmish marker: 'unit:12#2')."""
SUBJECT_FORM = re.compile(rf"^({_TABLES})-(\d+)$")


def foreign_keys(model: type[models.Model]) -> dict[str, type[models.Model]]:
    """A model's foreign keys by their column name ('division_id'), with the model each points at."""
    return {
        f.attname: f.related_model
        for f in model._meta.concrete_fields
        if f.is_relation and isinstance(f.related_model, type)
    }


# the tracked foreign keys of each tracked row, as the setup and the changes hold them
TRACKED_FKS: dict[str, dict[str, type[models.Model]]] = {
    key: {name: to for name, to in foreign_keys(model).items() if name in tracked_fields(model)}
    for key, model in TRACKED.items()
}


class Refs:
    """The file's id of each row to the fresh game's, by model."""

    def __init__(self, ids: dict[type[models.Model], dict[int, int]]):
        self.ids = ids

    def of(self, model: type[models.Model], value: Any, where: str) -> int:
        found = self.ids.get(model, {}).get(value) if isinstance(value, int) and not isinstance(value, bool) else None
        if found is None:
            raise ArchiveError(f"{where}: names {model._meta.verbose_name} {value!r}, which the file does not hold")
        return found

    def maybe(self, model: type[models.Model], value: Any, where: str) -> int | None:
        return None if value is None else self.of(model, value, where)

    def key(self, key: Any, where: str) -> str:
        """'unit:12' in the file is 'unit:<its new id>'."""
        found = KEY_FORM.match(key) if isinstance(key, str) else None
        if found is None:
            raise ArchiveError(f"{where}: {key!r} is not a row of the game such as 'unit:12'")
        name, pk, marker = found.groups()
        return f"{name}:{self.of(TRACKED[name], int(pk), where)}{marker or ''}"

    def fields(self, table: str, values: dict[str, Any], where: str) -> dict[str, Any]:
        """A row's fields as the setup holds them, each foreign key carried over."""
        fks = TRACKED_FKS[table]
        return {
            name: self.maybe(fks[name], value, f"{where}.{name}") if name in fks else value
            for name, value in values.items()
        }

    def setup(self, setup: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key, values in setup.items():
            where = f"setup.{key}"
            new_key = self.key(key, where)
            if not isinstance(values, dict):
                raise ArchiveError(f"{where}: expected the row's fields")
            found[new_key] = self.fields(Piece.at(new_key).kind, values, where)
        return found

    def change(self, change: Any, where: str) -> dict[str, Any]:
        if not isinstance(change, dict) or set(change) != {"model", "id", "field", "before", "after"}:
            raise ArchiveError(f"{where}: expected a change with model, id, field, before and after")
        table = change["model"]
        if table not in TRACKED:
            raise ArchiveError(f"{where}.model: {table!r} is not a kind of row of a game")
        model = TRACKED[table]
        to = TRACKED_FKS[table].get(change["field"])
        return {
            "model": table,
            "id": self.of(model, change["id"], f"{where}.id"),
            "field": change["field"],
            "before": self.maybe(to, change["before"], f"{where}.before") if to else change["before"],
            "after": self.maybe(to, change["after"], f"{where}.after") if to else change["after"],
        }

    def subject(self, subject: Any, where: str) -> Any:
        found = SUBJECT_FORM.match(subject) if isinstance(subject, str) else None
        if found is None:
            return subject  # no row, or a step's own name for a row that is no row of the game
        name, pk = found.groups()
        return f"{name}-{self.of(TRACKED[name], int(pk), where)}"

    def payload(self, kind: str, payload: Any, where: str) -> Any:
        return self._walk(kind, payload, "", where)

    def _walk(self, kind: str, value: Any, path: str, where: str) -> Any:
        model = PAYLOAD_REFS.get((kind, path))
        if model is not None:
            if isinstance(value, str) and value.isascii() and value.isdigit():
                return str(self.of(model, int(value), f"{where}.{path}"))
            return self.maybe(model, value, f"{where}.{path}")
        if isinstance(value, str):
            return self.key(value, f"{where}.{path}") if KEY_FORM.match(value) else value
        if isinstance(value, list):
            return [self._walk(kind, item, f"{path}[]", where) for item in value]
        if isinstance(value, dict):
            walked = {k: self._walk(kind, v, f"{path}.{k}" if path else str(k), where) for k, v in value.items()}
            if kind == "CorrectionMade" and path == "":
                walked["fields"] = self._corrected(value, walked.get("fields"), where)
            return walked
        return value

    def _corrected(self, original: dict[str, Any], fields: Any, where: str) -> Any:
        """A correction that set a foreign key by hand ('first_attacker_id') names a row by id in its value."""
        found = KEY_FORM.match(original.get("target", "")) if isinstance(original.get("target"), str) else None
        if found is None or not isinstance(fields, list):
            return fields
        fks = {**TRACKED_FKS[found.group(1)]}
        fks.update({name.removesuffix("_id"): to for name, to in list(fks.items())})
        return [
            {**item, "value": self.maybe(fks[item["field"]], item.get("value"), f"{where}.fields.value")}
            if isinstance(item, dict) and item.get("field") in fks
            else item
            for item in fields
        ]
