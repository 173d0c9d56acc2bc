"""A demo game played far enough for the turn log to have something of everything: a Union message, rolls typed
and rolled by the app, an undo, actions on both sides' units, leaders and divisions, two game turns; and the PDF
read back as text."""

import subprocess
from dataclasses import dataclass

from django.test import Client

from republic.games.events.command import HorsDeCombatSkipped
from republic.games.events.panic import AdjoiningDeclared
from republic.games.ledger import act
from republic.games.models import Event, Game, Seat
from tests.devices import seated_device
from tests.games.conftest import HTMX, at_step, brigade, division, fresh, leader, set_state
from tests.games.move_helpers import at_move, roll_post

SECRET = "Hold the ridge at all costs"


@dataclass
class Played:
    game: Game
    master: Client
    bob: Client  # Union, wrote to Carl
    carl: Client  # Union
    ann: Client  # Confederate
    typed: Event  # Brockenbrough's maneuver roll, typed
    app: Event  # Davis's maneuver roll, rolled by the app, then undone
    undo: Event


def play(master: Client, demo: Game) -> Played:
    bob = seated_device(demo, "Union", name="Bob")
    carl = seated_device(demo, "Union", name="Carl")
    ann = seated_device(demo, "Confederate", name="Ann")
    carl_seat = Seat.objects.get(game=demo, name="Carl")
    bob.post(f"/games/{demo.pk}/messages/", {"dispatch-recipient": carl_seat.pk, "dispatch-text": SECRET}, **HTMX)
    game = at_move(demo)
    roll_post(master, game, brigade(game, "Brockenbrough's Brigade"), die="3")
    typed = Event.objects.get(game=game, seq=fresh(game).version)
    roll_post(master, game, brigade(game, "Davis's Brigade"), die="", roll="app")
    app = Event.objects.get(game=game, seq=fresh(game).version)
    master.post(f"/games/{game.pk}/undo/", {"version": fresh(game).version})
    undo = Event.objects.get(game=game, seq=fresh(game).version)
    assert undo.undoes == app
    # the Union's units, leaders and divisions, by the Union's player and by the game master
    cutler = brigade(game, "Cutler's Brigade")
    bob.post(f"/games/{game.pk}/units/{cutler.pk}/m_plus/", {"version": fresh(game).version})
    buford = division(game, "Buford's Cavalry Division")
    master.post(f"/games/{game.pk}/divisions/{buford.pk}/orders/", {"version": fresh(game).version, "orders": "hold"})
    at_step(game, "skirmish")
    set_state(game, leader(game, "John Buford"), hors_de_combat=True)
    with act(game, None, "test") as action:
        wadsworth = leader(game, "James S. Wadsworth")
        action.record(HorsDeCombatSkipped(wadsworth.pk, wadsworth.name))
    at_step(game, "adjoining_panic")
    with act(game, None, "test") as action:
        wadsworths = division(game, "Wadsworth's Division")
        action.record(AdjoiningDeclared(str(wadsworths.pk), wadsworths.name, (), ()))
    set_state(game, fresh(game), game_turn=2, step="rally")
    set_state(game, brigade(game, "Gamble's Brigade"), m_hits=1)
    return Played(fresh(game), master, bob, carl, ann, typed, app, undo)


def pdf_text(response) -> str:
    """The PDF's text as pdftotext reads it, pages apart by form feeds, every run of spaces one space."""
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf", response.status_code
    done = subprocess.run(["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True)
    pages = done.stdout.decode().split("\f")
    return "\f".join(" ".join(page.split()) for page in pages)


def pdf_info(response) -> str:
    done = subprocess.run(["pdfinfo", "-"], input=response.content, capture_output=True, check=True)
    return done.stdout.decode()
