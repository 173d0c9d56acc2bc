"""The ledger's promise, held for random runs of play: whatever the table does through the app's own forms (dice,
choices, corrections, moving on, undoing), the rows are the setup with the events replayed; undoing an event gives
back exactly the state before it, every field of every unit, leader, command and the game itself; and taking the
game back to where the run began gives back the state it began from."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from republic.games.ledger import replay, snapshot, standing, undo_to
from republic.games.models import Game, Unit, setup_of
from republic.games.steps.walk import undo
from republic.rules.sequence import STEPS
from republic.rules.units import Correction
from tests.bench_probe import rows_shown
from tests.devices import master_device
from tests.games.conftest import at_step, state_matches_events
from tests.games.fuzz_table import demo_game
from tests.page_forms import filled, forms_of

MOVES = ("form", "form", "form", "correct", "next", "undo")


class ReplayHolds(TestCase):
    game_id: int

    @classmethod
    def setUpTestData(cls) -> None:
        cls.game_id = demo_game().pk

    def setUp(self) -> None:
        self.master = master_device()

    def game(self) -> Game:
        return Game.objects.get(pk=self.game_id)

    def move(self, move: str, rng: random.Random, began_at: int) -> None:
        """One thing the table does, through the app's own addresses; an undo takes back only what the run did,
        so that going back to where it began gives back the state it began from."""
        game = self.game()
        url = f"/games/{game.pk}/"
        if move == "undo" and not standing(game).filter(seq__gt=began_at).exists():
            move = "correct"
        if move == "next":
            self.master.post(f"{url}next/anyway/", {"version": game.version})
        elif move == "undo":
            self.master.post(f"{url}undo/", {"version": game.version})
        elif move == "correct":
            unit = rng.choice(list(Unit.objects.filter(game=game).order_by("pk")))
            self.master.post(f"{url}units/{unit.pk}/{rng.choice(list(Correction)).value}/", {"version": game.version})
        else:
            page = self.master.get(url).content.decode()
            forms = [f for f in forms_of(page) if not f.action.endswith(("/next/", "/next/anyway/", "/undo/"))]
            for row in rows_shown(page).split()[:3]:
                forms += forms_of(self.master.get(f"{url}rows/{row}/", HTTP_HX_REQUEST="true").content.decode())
            if forms:
                form = rng.choice(forms)
                self.master.post(form.action, filled(form, rng))

    @settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
    @given(
        step=st.sampled_from([s.key.value for s in STEPS]),
        moves=st.lists(st.tuples(st.sampled_from(MOVES), st.booleans()), min_size=1, max_size=10),
        seed=st.integers(0, 2**16),
    )
    def test_the_rows_replay_and_each_event_undoes_to_the_state_before_it(self, step, moves, seed) -> None:
        rng = random.Random(seed)
        start = at_step(self.game(), step)
        began, began_at = snapshot(start), start.version
        for move, take_back in moves:
            before = snapshot(self.game())
            version = self.game().version
            self.move(move, rng, began_at)
            game = self.game()
            assert state_matches_events(game), (move, game.step)
            if game.version == version:
                assert snapshot(game) == before, f"{move} recorded nothing but changed the game"
            elif take_back and move != "undo":
                undo(game, game.version, "test")  # as the table's Undo: a Next step with the steps it passed
                assert snapshot(self.game()) == before, f"undoing {move} did not give back the state before it"
        undo_to(self.game(), began_at, None, "test")
        game = self.game()
        assert snapshot(game) == began and state_matches_events(game)
        assert replay(game) == {key: values for key, values in snapshot(game).items() if key in setup_of(game)}
