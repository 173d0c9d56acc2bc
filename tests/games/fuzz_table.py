"""What the fuzzing tests hold every request to, and the games they fuzz: the demo battle at each step of the turn
sequence with work to do, the forms each page and each opened row draws there, and the checks that no answer is a
server error and that an answer which recorded no event changed nothing at all."""

import html
import re
from dataclasses import dataclass
from typing import Any

from django.db.models import Model
from django.test import Client
from django.urls import resolve

from republic.games.forms import VersionForm
from republic.games.ledger import snapshot
from republic.games.models import Command, Dispatch, Event, Game, Leader, Seat, Unit
from republic.games.scenario import create_game, parse_scenario
from republic.games.steps.assaults import declare
from republic.games.steps.assaults.state import state as assault_state
from republic.rules.sequence import STEPS
from republic.scenarios import DEMO_SCENARIO
from tests.bench_probe import form_data, rows_shown
from tests.bench_walk import prepare
from tests.games.conftest import HTMX, at_step, rolled_for_assault, set_state, state_matches_events
from tests.page_forms import Form, forms_of

HUGE = "9" * 100_000
# what a phone may send in place of a value: dice no d10 shows, words for numbers, nothing, far too much, markup,
# characters from elsewhere, numbers no database column holds
WRONG = [
    "0",
    "11",
    "-1",
    "x",
    "",
    " ",
    "1.5",
    "1e400",
    "NaN",
    "-9223372036854775809",
    "99999999999999999999999",
    "<script>alert(1)</script>",
    "é✓北\u202e",
    "\x00",
    "None",
    "[]",
    "on",
    HUGE,
]
# the actions that record no event when they work: the answer shows what was worked out, or a page to go to (the
# day's end and last turn are the club's timetable, the room screen's links the game master's: no battle's events)
RECORD_NOTHING = {
    "maneuver_movement",
    "follow",
    "join",
    "new_game",
    "start_scenario",
    "send_message",
    "revoke_seat",
    "new_join_code",
    "set_day",
    "make_room_link",
    "revoke_room_link",
}
_MESSAGE = re.compile(
    r'(?:alert-danger[^>]*>|invalid-feedback[^>]*>|class="errorlist[^>]*>|<h1>)(.*?)</(?:div|ul|h1)>', re.S
)


@dataclass(frozen=True)
class Drawn:
    """A form as one device saw it in one game."""

    game: int
    form: Form
    device: str = "master"


def url_name(url: str) -> str:
    """The address's name; a step's action's own name ('rally') for the one address of actions."""
    found = resolve(url.split("?")[0])
    return found.kwargs["action"] if found.url_name == "act" else found.url_name or ""


def game_of(url: str) -> int | None:
    found = re.match(r"/games/(\d+)/", url)
    return int(found.group(1)) if found else None


def rows_of(model: type[Model]) -> list[tuple[Any, ...]]:
    return list(model._default_manager.order_by("pk").values_list())


def whole_state(game_id: int | None) -> dict[str, Any]:
    """Everything a request could write: the addressed game's tracked rows, and every row count the app keeps."""
    counts = {m.__name__: m._default_manager.count() for m in (Game, Unit, Leader, Command, Event, Seat, Dispatch)}
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    rows = snapshot(game) if game else {}
    return {"counts": counts, "rows": rows, "games": rows_of(Game)}


def messages_of(body: str) -> str:
    """The words an answer says to the player about what it refused."""
    found = [re.sub(r"<[^>]+>", " ", text) for text in _MESSAGE.findall(body)]
    found += re.findall(r"Not yet: [^<]+", body)
    return " | ".join(" ".join(html.unescape(text).split()) for text in found if text.strip())


def send(device: Client, url: str, data: Any, htmx: bool, target: str = "", shown: str = "") -> Any:
    extra: dict[str, str] = {}
    if htmx:
        extra = {**HTMX, **({"HTTP_HX_TARGET": target, "HTTP_ROWS_SHOWN": shown} if target else {})}
    return device.post(url, data, **extra)  # type: ignore[arg-type]


def checked(device: Client, url: str, data: Any, htmx: bool = False, target: str = "") -> tuple[Any, str, int]:
    """POST and hold the answer: never a server error; no event recorded, nothing changed; an event recorded, the
    rows still the setup plus the events. The answer, its message for a refusal ("" when it recorded an event)
    and the events it recorded."""
    game_id = game_of(url)
    before = whole_state(game_id)
    response = send(device, url, data, htmx, target)
    assert response.status_code < 500, f"POST {url} {short(data)}: {response.status_code}"
    after = whole_state(game_id)
    recorded = after["counts"]["Event"] - before["counts"]["Event"]
    if recorded == 0 and url_name(url) not in RECORD_NOTHING:
        assert after == before, f"POST {url} {short(data)} recorded no event but changed the game"
    if recorded:
        assert game_id is not None and state_matches_events(Game.objects.get(pk=game_id))
        return response, "", recorded
    if response.status_code == 302:
        # a plain POST refused: the page it sends the player to says why
        return response, messages_of(device.get(response["Location"]).content.decode()), 0
    return response, messages_of(response.content.decode()), 0


def short(data: Any) -> str:
    return repr({k: (v[:40] + "…" if isinstance(v, str) and len(v) > 40 else v) for k, v in dict(data).items()})


# --- the games fuzzed -------------------------------------------------------------------------------------------


def demo_game() -> Game:
    game = create_game(parse_scenario(DEMO_SCENARIO.read_text(encoding="utf-8")))
    prepare(game)
    return rolled_for_assault(game)


def declared(game: Game) -> Game:
    """An assault declared and not fought yet, so that its round, its end and its follow-up are drawn."""
    s = assault_state(game)
    attacker = next(u for u in s.side_units("attacker") if not u.battery and u.bases)
    defender = next(u for u in s.side_units("defender") if not u.battery and u.bases)
    contact = {"attackers": [attacker.key], "defenders": [defender.key]}  # all-out: the contact unticked
    form = declare.declare_form(s, form_data(declare.declare_form(s), **contact))
    assert form.is_valid(), form.errors
    declare.declare_assault(game, form, "test")
    return Game.objects.get(pk=game.pk)


def drawn_forms(device: Client, game: Game) -> list[Form]:
    """Every POST form the game page draws, and every form each of its step's rows, the folds of their forms and the
    folded parts of its panel draw once opened."""
    page = device.get(f"/games/{game.pk}/").content.decode()
    found = forms_of(page)
    addresses = [f"/games/{game.pk}/rows/{row}/" for row in rows_shown(page).split()]
    addresses += re.findall(rf'hx-get="(/games/{game.pk}/parts/[a-z-]+/)"', page)
    for address in addresses:
        opened = device.get(address, **HTMX).content.decode()  # type: ignore[arg-type]
        found += forms_of(opened)
        for fold in re.findall(rf'hx-get="(/games/{game.pk}/rows/[a-z]+-\d+/\?fold=[a-z-]+)"', opened):
            found += forms_of(device.get(fold, **HTMX).content.decode())  # type: ignore[arg-type]
    return found


def games_at_every_step(master: Client) -> list[Drawn]:
    """The demo at each step of the turn sequence with work to do (an assault declared at the assault step, the
    attacker's markers out at the skirmish step), and the forms drawn there; a division's page, the log and the
    end of the game and the question before going back to its start of the first; a game over; a game in set-up."""
    drawn: list[Drawn] = []
    for step in STEPS:
        game = demo_game()
        if step.key.value == "skirmish":
            for unit in Unit.objects.filter(game=game).of_side(game.attacker).brigades()[:2]:
                set_state(game, unit, skirmishers_deployed=1)
        game = at_step(game, step.key.value)
        if step.key.value == "assaults":
            game = declared(game)
        drawn += [Drawn(game.pk, form) for form in drawn_forms(master, game)]
    first = Game.objects.get(pk=drawn[0].game)
    division = Command.objects.filter(game=first, level="division").first()
    assert division is not None
    for tail in (f"divisions/{division.pk}/", "log/", "back/0/", "end/"):
        body = master.get(f"/games/{first.pk}/{tail}").content.decode()
        drawn += [Drawn(first.pk, form) for form in forms_of(body)]
    over = demo_game()
    master.post(f"/games/{over.pk}/end/", {"version": Game.objects.get(pk=over.pk).version, "winner": "draw"})
    assert Game.objects.get(pk=over.pk).over
    drawn += [Drawn(over.pk, form) for form in forms_of(master.get(f"/games/{over.pk}/").content.decode())]
    setting_up = create_game(parse_scenario(DEMO_SCENARIO.read_text().replace("first_attacker: Confederate\n", "")))
    drawn += [Drawn(setting_up.pk, form) for form in forms_of(master.get(f"/games/{setting_up.pk}/").content.decode())]
    return drawn


def version_form(game: Game) -> VersionForm:
    return VersionForm(initial={"version": game.version})
