"""The turn log as its page and its PDF read it: a game's events filtered by side, division and phase, grouped by
game turn, player turn and phase, each in its result card's words, with the messages of the copy's side.

A filter is one condition on the events' table, whatever the battle's size: a division (or a side) is the keys
its units, leaders and commands go by in the payloads ('unit:12', 'leader:3', 'command:5', a leader's or a
division's number), matched in the payload's text by one pattern. An undo is kept with the event it took back."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django import forms
from django.db.models import OuterRef, Q, QuerySet, Subquery, TextField
from django.db.models.functions import Cast
from django.http import QueryDict

from republic.games.dispatches import for_log
from republic.games.models import Command, Dispatch, Event, Game, Leader, Side, Unit
from republic.games.text.describe import result_card
from republic.games.views.query import UnreadableQuery
from republic.rules.sequence import STEPS, Phase

LOG_PAGE = 100  # events a page of the turn log holds
OUTSIDE_THE_PHASES = ("FirstAttackerRolled", "FirstAttackerAgreed", "FirstAttackerChosen", "GameEnded")


def _select() -> forms.Select:
    return forms.Select(attrs={"class": "form-select"})


class LogFilterForm(forms.Form):
    side = forms.TypedChoiceField(label="Side", required=False, coerce=int, empty_value=None, widget=_select())
    division = forms.TypedChoiceField(label="Division", required=False, coerce=int, empty_value=None, widget=_select())
    phase = forms.ChoiceField(
        label="Phase",
        required=False,
        choices=[("", "Every phase"), *((p.value, p.value.capitalize()) for p in Phase)],
        widget=_select(),
    )

    def __init__(self, data: QueryDict, sides: list[Side], divisions: list[Command]) -> None:
        super().__init__(data)
        side_field, division_field = self.fields["side"], self.fields["division"]
        assert isinstance(side_field, forms.ChoiceField) and isinstance(division_field, forms.ChoiceField)
        side_field.choices = [("", "Both sides"), *((s.pk, s.name) for s in sides)]
        division_field.choices = [
            ("", "Every division"),
            *((s.name, [(d.pk, d.name) for d in divisions if d.side_id == s.pk]) for s in sides),
        ]


@dataclass(frozen=True)
class Chosen:
    """What the log is filtered by (None: everything) and the form that chose it."""

    form: LogFilterForm
    side: Side | None = None
    division: Command | None = None
    phase: Phase | None = None

    @property
    def any(self) -> bool:
        return bool(self.side or self.division or self.phase)

    @property
    def named(self) -> str:
        """The filters in words, as a copy of the filtered log is named ('' for the whole log)."""
        side, division = self.side.name if self.side else "", self.division.name if self.division else ""
        return " ".join(word for word in (side, division, f"{self.phase.value} phase" if self.phase else "") if word)


FILTERS_TAKE = {"side": "one of this game's sides", "division": "one of this game's divisions", "phase": "a phase"}


def chosen(data: QueryDict, game: Game) -> Chosen:
    """The filters asked for; a value that is not one of this game's is refused with 400 naming it, as every
    query parameter the app cannot read is (``views/query.py``)."""
    sides = list(game.sides.all())
    divisions = list(Command.objects.filter(game=game, level=Command.Level.DIVISION).order_by("side__order", "order"))
    form = LogFilterForm(data, sides, divisions)
    if not form.is_valid():
        name = next(iter(form.errors))
        raise UnreadableQuery(f"?{name}= takes {FILTERS_TAKE[name]}; got {data.get(name, '')[:20]!r}.")
    found = form.cleaned_data
    phase = found.get("phase")
    return Chosen(
        form,
        next((s for s in sides if s.pk == found.get("side")), None),
        next((d for d in divisions if d.pk == found.get("division")), None),
        Phase(phase) if phase else None,
    )


def _pattern(units: Iterable[int], leaders: Iterable[int], commands: Iterable[int]) -> str:
    """The keys a payload names these rows by, as one pattern of its text: a unit's key may carry a skirmish
    marker's number ('unit:12#1'); a correction names a leader or a command by its key too."""
    parts = []
    for kind, pks, end in (("unit", units, '[#"]'), ("leader", leaders, '"'), ("command", commands, '"')):
        numbers = "|".join(str(pk) for pk in sorted(set(pks)))
        if numbers:
            parts.append(f'"{kind}:(?:{numbers}){end}')
    return "|".join(parts)


def _naming(at: str, pattern: str, leaders: list[int], divisions: list[int]) -> Q:
    """The events (``at`` '': themselves, 'undoes__': the event an undo took back) that name one of these: by a
    key in their text, or by a leader's or a division's number in a field of their own."""
    text = "undone_text" if at else "log_text"
    named = Q(**{f"{text}__regex": pattern}) if pattern else Q(pk__in=[])
    if leaders:
        named |= Q(**{f"{at}payload__leader__in": leaders})
    if divisions:
        keys = [*divisions, *(str(pk) for pk in divisions)]  # the panic phase names a division by its number as text
        named |= Q(**{f"{at}payload__division__in": keys})
    return named


def _matching(at: str, chosen: Chosen, pattern: str, leaders: list[int], divisions: list[int]) -> Q:
    found = Q()
    if chosen.phase is not None:
        steps = [s.key.value for s in STEPS if s.phase is chosen.phase]
        found &= Q(**{f"{at}step__in": steps}) & ~Q(**{f"{at}kind__in": OUTSIDE_THE_PHASES})
    if chosen.side is not None or chosen.division is not None:
        named = _naming(at, pattern, leaders, divisions)
        if chosen.division is None:
            named |= Q(**{f"{at}side": chosen.side})  # a side's log: what its players did, and what was done to it
        found &= named
    return found


def events(game: Game, chosen: Chosen) -> "QuerySet[Event]":
    """The game's events the filters keep, in order, each with the number of the undo that took it back
    (``undone_in``)."""
    undone_by = Event.objects.filter(undoes=OuterRef("pk")).values("seq")[:1]
    found = game.events.select_related("undoes").annotate(undone_in=Subquery(undone_by)).order_by("seq")
    if not chosen.any:
        return found
    pattern, leaders, divisions = "", [], []
    if chosen.division is not None or chosen.side is not None:
        units = Unit.objects.filter(game=game)
        commands = Command.objects.filter(game=game)
        if chosen.division is not None:
            units, commands = units.filter(division=chosen.division), commands.filter(pk=chosen.division.pk)
        else:
            units, commands = units.filter(division__side=chosen.side), commands.filter(side=chosen.side)
        command_pks = list(commands.values_list("pk", flat=True))
        leaders = list(Leader.objects.filter(command__in=command_pks).values_list("pk", flat=True))
        pattern = _pattern(units.values_list("pk", flat=True), leaders, command_pks)
        divisions = command_pks
        found = found.annotate(log_text=Cast("payload", TextField()), undone_text=Cast("undoes__payload", TextField()))
    own = _matching("", chosen, pattern, leaders, divisions)
    taken_back = _matching("undoes__", chosen, pattern, leaders, divisions)
    return found.filter((Q(undoes__isnull=True) & own) | (Q(undoes__isnull=False) & taken_back))


# --- the groups -----------------------------------------------------------------------------------------------


def _attackers(game: Game) -> dict[int, str]:
    """The side that attacks in each player turn (1.6), once the first attacker is known."""
    sides = list(game.sides.all())
    first = next((s.name for s in sides if s.pk == game.first_attacker_id), "")
    other = next((s.name for s in sides if s.pk != game.first_attacker_id), "")
    return {1: first, 2: other} if first else {}


def _player_turn(
    game: Game, game_turn: int, player_turn: int, attackers: dict[int, str], times: dict[tuple[int, int], timedelta]
) -> dict[str, Any]:
    return {
        "number": player_turn,
        "attacker": attackers.get(player_turn, ""),
        "spent": times.get((game_turn, player_turn)),
        "playing": game.in_progress and (game.game_turn, game.player_turn) == (game_turn, player_turn),
        "phases": [],
        "letters": [],
    }


def grouped(
    game: Game, found: Iterable[Event], letters: Iterable[Dispatch], times: dict[tuple[int, int], timedelta]
) -> list[dict[str, Any]]:
    """The events as game turns of player turns of phases of result cards; each message is put at the head of its
    player turn, a player turn with no event shown yet added after the last. Each player turn says how long the
    table took over it (``times``, from the day's pace)."""
    attackers = _attackers(game)
    turns: list[dict[str, Any]] = []
    for event in found:
        card = result_card(event)
        assert card is not None
        if not turns or turns[-1]["number"] != event.game_turn:
            turns.append({"number": event.game_turn, "player_turns": []})
        player_turns = turns[-1]["player_turns"]
        if not player_turns or player_turns[-1]["number"] != event.player_turn:
            player_turns.append(_player_turn(game, event.game_turn, event.player_turn, attackers, times))
        phases = player_turns[-1]["phases"]
        if not phases or phases[-1]["name"] != card["phase"]:
            phases.append({"name": card["phase"], "entries": []})
        phases[-1]["entries"].append(card)
    for letter in sorted(letters, key=lambda d: (d.game_turn, d.player_turn, d.created, d.pk)):
        place = next(
            (
                pt
                for gt in turns
                if gt["number"] == letter.game_turn
                for pt in gt["player_turns"]
                if pt["number"] == letter.player_turn
            ),
            None,
        )
        if place is None:
            if not turns or turns[-1]["number"] != letter.game_turn:
                turns.append({"number": letter.game_turn, "player_turns": []})
            place = _player_turn(game, letter.game_turn, letter.player_turn, attackers, times)
            turns[-1]["player_turns"].append(place)
        place["letters"].append(letter)
    return turns


def letters(
    game: Game, master: bool, side_id: int | None, chosen: Chosen, shown: list[Event], last: bool
) -> list[Dispatch]:
    """The messages this copy of the log holds beside these events: those of the player turns they are in, and on
    the last page those of any later one (written in a player turn that has no event yet). A message belongs to
    the command phase and names no unit: a division filter or another phase leaves it out."""
    if chosen.division is not None or chosen.phase not in (None, Phase.COMMAND):
        return []
    found = for_log(game, master, side_id)
    if chosen.side is not None:
        found = found.filter(sender__side=chosen.side)
    turns = {(e.game_turn, e.player_turn) for e in shown}
    near = Q(pk__in=[])
    for game_turn, player_turn in turns:
        near |= Q(game_turn=game_turn, player_turn=player_turn)
    if last:
        newest = max(turns, default=(0, 0))
        near |= Q(game_turn__gt=newest[0]) | Q(game_turn=newest[0], player_turn__gt=newest[1])
    return list(found.filter(near))
