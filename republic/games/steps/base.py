"""What every step of the turn sequence (1.7) gives the game page and the walk.

A step reads its state once per request (``state``); the work still to do before the game may move on
(``pending``) and the panel the page draws (``panel``) are both made from that one reading. ``leave`` applies
a step's closing effects inside the StepAdvanced event and says what they were. Forms a failed POST bound are
passed back in ``bound``, by prefix, so the panel draws them with their errors.

A step whose work is one action per unit, leader or division lists that work as ``rows``: one short line
each, whatever the battle's size, and only a row the player opens draws its form (``opened`` gives the
form's context, ``form`` is its template). So a page grows with the step's work, not with its forms, and an
action's answer redraws just the rows it touched. A step whose rows are a whole side's units gives them
unfilled (a subject and a command, to order and count them) and ``fill`` reads what the rows a request draws
show, so that reading grows with the rows drawn, not with the battle.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

from django.urls import reverse

from republic.games.forms import VersionForm, filled
from republic.games.ledger import Action
from republic.games.models import Command, Event, Game, Leader, Unit
from republic.games.pieces import Piece
from republic.games.text.map_symbols import MapSymbol, map_symbol
from republic.prepared import prepared
from republic.rules.morale import Condition

S = TypeVar("S")
U = TypeVar("U", Unit, Leader, Command)
Bound = dict[str, Any]
"""Forms a failed POST bound, by prefix (and a worked-out movement allowance under "<prefix>-result")."""


@dataclass
class Row:
    """One piece of a step's work, on one unit, leader or division."""

    subject: str  # the name of the piece it is about ('unit-12', republic.games.pieces): its element is 'row-unit-12'
    title: str
    facts: str = ""
    verb: str = ""  # what opening the row does, in a word: 'Rally', 'Fire'
    condition: Condition | None = None
    command: int | None = None  # the division (or the leader's command) it belongs to, to follow
    opened: dict[str, Any] | None = field(default=None)  # the form's context, once the row is open
    others: bool = False  # the first row outside what this device follows
    address: str = ""  # where a tap fetches the row, open (set by the page, which knows the game)
    symbol: MapSymbol | None = None  # a unit's map symbol
    bases: str = ""  # a brigade's bases ('6/8 bases')
    theirs: str = ""  # who acts on it, drawn for a device that may not (set by the page): its form is not drawn
    # it still asks for its step's main work (a die, a fire): the first such row a seated player may act on is drawn
    # open on his phone by itself, his next die one tap away (``views.page.next_work``)
    due: bool = False
    by_itself: bool = False  # drawn open as the next work, not by a tap: the answer's focus stays where he tapped
    # what it shows is read (``Step.fill``), once for every request that shares its listing: so a step's ``fill``
    # sets each of a row's fields once, whole, as another request may copy the row while it is filled in
    filled: bool = field(default=False, compare=False)
    # its head as drawn closed, by what a device's copy of it adds (``templatetags.work_rows``): the copies of a
    # listed row share it, and after Next step forty phones of a battle draw mostly the same rows
    heads: dict[tuple[str, bool, bool], Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def condition_words(self) -> str:
        return self.condition.value.capitalize() if self.condition else ""


def row_of(row: Row, among: Iterable[U]) -> U:
    """The unit, leader or division an open row is about, among the step's."""
    return next(found for found in among if found.piece.name == row.subject)


class Shown(Protocol):
    """What a unit's row shows of it: a unit, or the few columns of it a step reads for its rows."""

    @property
    def piece(self) -> Piece: ...
    @property
    def name(self) -> str: ...
    @property
    def division_id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def condition(self) -> Condition: ...
    @property
    def battery(self) -> bool: ...
    @property
    def bases(self) -> int: ...
    @property
    def bases_start(self) -> int: ...


def unit_row(unit: Shown, facts: str = "", verb: str = "", title: str = "", due: bool = False) -> Row:
    return shows_unit(Row(unit.piece.name, title or unit.name, facts, verb, command=unit.division_id, due=due), unit)


def shows_unit(row: Row, unit: Shown) -> Row:
    """The row shows its unit as every unit is shown: its name (unless the row has its own title), its map
    symbol, its condition by colour and word, and a brigade's bases (a battery's strength is its damage)."""
    row.title = row.title or unit.name
    row.symbol, row.condition = map_symbol(unit.kind), unit.condition
    row.bases = "" if unit.battery else f"{unit.bases}/{unit.bases_start} bases"
    return row


class Who(Enum):
    """Who may take an action, or use an address of a game (``views.access`` holds each request to it)."""

    SEATED = "any seated player of the game"
    PHASING = "the attacking side's players"  # the side whose player turn it is
    DEFENDING = "the defending side's players"
    OWNER = "the players of the side whose unit, leader or division it is"
    MASTER = "the game master"


@dataclass(frozen=True)
class Act:
    """An action a step offers: its name (in its address), the kind of piece it is about ('unit', 'leader',
    'command', 'assault'; 'game' for the step as a whole), who may take it, and ``take(game, piece, data, actor)``:
    the one call into the step (the piece being the unit's, leader's or division's row, an assault's number, or the
    game), which reads what it needs of the step's state, binds the POST's data with the factory the step draws
    the form with, checks it (``forms.filled``) and records the action's event, so the step's module is entered
    once on the way in. ``elsewhere``: what the table is told of it while the game is at another step, or how to
    say it of the piece (a unit that "has no skirmish attack to make now"). One view finds, allows, takes and
    answers every action (``views/act.py``)."""

    name: str
    about: str
    who: Who
    take: Callable[[Game, Any, Any, str], Event]
    elsewhere: str | Callable[[Any], str] = ""  # what the table is told when the game is not at the step


def versioned(name: str, about: str, who: Who, run: Callable[[Game, Any, int, str], Event], elsewhere: str = "") -> Act:
    """An action with nothing to fill in but the game version its page was drawn at: its form is the version
    alone, so the step is entered once, at ``run(game, piece, version, actor)``."""

    def take(game: Game, piece: Any, data: Any, actor: str) -> Event:
        with filled(VersionForm(data)) as sent:
            return run(game, piece, sent.cleaned_data["version"], actor)

    return Act(name, about, who, take, elsewhere)


def address(game: Game, action: str, piece: Piece) -> str:
    """Where a form of the action is sent: '/games/5/act/rally/unit-12/'."""
    return reverse("games:act", args=[game.pk, action, piece.name])


@dataclass(frozen=True)
class Step(Generic[S]):
    template: str
    state: Callable[[Game], S]
    pending: Callable[[S], list[str]]
    panel: Callable[[S, Bound], dict[str, Any]]
    leave: Callable[[Action, S], dict[str, Any]] | None = None
    rows: Callable[[S], list[Row]] | None = None
    form: str = ""  # the template of an open row
    opened: Callable[[S, Row, Bound], dict[str, Any]] | None = None
    fill: Callable[[S, list[Row]], None] | None = None
    # the folded parts of its panel: partials of its template, each drawn once open and named after the action its
    # form sends, which folds it again once taken
    parts: tuple[str, ...] = ()
    folds: tuple[str, ...] = ()  # the folds of an open row's form: partials of ``form``, each drawn once open
    actions: tuple[Act, ...] = ()
    # why nobody has anything to do in the step ('no leader lost'), '' while anyone may still act in it: a step the
    # table arrives at idle passes by itself (``walk.move_on``); a step without it always waits for Next step
    idle: Callable[[S], str] | None = None
    # an action that leaves it idle moves the game on by itself (``walk.after_action``): a step whose every piece
    # of work is one action nobody may add to (a fallen leader replaced), not one the table may still act in
    done_passes: bool = False
    # the row an action sent from its panel brings to life ('' for none), drawn open in the answer, since it is
    # where the player goes next: a declared assault's card, its first round to fight
    opens: Callable[[Event], str] | None = None


def nothing_pending(state: Any) -> list[str]:
    """No work left that the step bar names: a step whose work the table does alone, or play not begun (whose
    work the walk names, ``walk.not_in_play``)."""
    return []


def _no_panel(state: Game, bound: Bound) -> dict[str, Any]:
    return {}


NOTHING_TO_RESOLVE: Step[Game] = Step("games/steps/reminder.html", lambda game: game, nothing_pending, _no_panel)
"""A step with nothing for the engine to resolve (the defenders' messages: the page's message form sends them)."""


def current(pk: int) -> Unit:
    """The unit's row as it stands inside an action, with its division."""
    found = _CURRENT(pk)
    if not found:
        raise Unit.DoesNotExist(f"No unit has the key {pk}.")
    return found[0]


# read by every action on a unit: its SQL is made once per process
_CURRENT = prepared(lambda pk: Unit.objects.select_related("division").filter(pk=pk))
