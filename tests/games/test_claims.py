"""A shared answer is drawn by one request while the others that ask for it wait (``views/claims.py``), in the
store the server's processes share; a claim never holds anyone up for longer than it lasts."""

import threading
import time

import pytest
from django.core.cache import caches

from republic.games.views.claims import CLAIM_SECONDS, drawn_once

KEY = "republic:test-claim"


def kept():
    return caches["news"].get(KEY)


def drawing(answer, drawn):
    def draw():
        drawn.append(answer)
        caches["news"].set(KEY, answer, 60)
        return answer

    return draw


def test_an_answer_not_kept_is_drawn_once_and_kept_and_its_claim_let_go():
    drawn = []
    assert drawn_once(KEY, kept, drawing("news", drawn)) == "news"
    assert drawn_once(KEY, kept, drawing("news again", drawn)) == "news"
    assert drawn == ["news"]
    assert caches["news"].get(f"{KEY}:drawing") is None


def test_a_request_that_finds_the_answer_being_drawn_waits_for_it_and_draws_nothing():
    started = time.monotonic()  # before the claim, whose time runs from when it is made
    caches["news"].add(f"{KEY}:drawing", 1, CLAIM_SECONDS)

    def the_other_request():
        caches["news"].set(KEY, "their news", 60)
        caches["news"].delete(f"{KEY}:drawing")

    threading.Timer(0.2, the_other_request).start()
    drawn = []
    assert drawn_once(KEY, kept, drawing("my news", drawn)) == "their news"
    assert drawn == [] and 0.2 <= time.monotonic() - started < CLAIM_SECONDS


def test_a_request_draws_its_own_once_the_drawing_it_waited_for_ends_without_keeping_an_answer():
    caches["news"].add(f"{KEY}:drawing", 1, CLAIM_SECONDS)
    threading.Timer(0.2, lambda: caches["news"].delete(f"{KEY}:drawing")).start()
    drawn = []
    started = time.monotonic()
    assert drawn_once(KEY, kept, drawing("my news", drawn)) == "my news"
    assert drawn == ["my news"] and time.monotonic() - started < CLAIM_SECONDS


def test_the_claim_of_a_request_that_never_ends_lapses():
    started = time.monotonic()  # before the claim, whose time runs from when it is made
    caches["news"].add(f"{KEY}:drawing", 1, 0.3)  # as a process killed while drawing leaves it
    drawn = []
    assert drawn_once(KEY, kept, drawing("my news", drawn)) == "my news"
    assert drawn == ["my news"] and 0.3 <= time.monotonic() - started < CLAIM_SECONDS


def test_a_drawing_that_fails_lets_its_claim_go():
    def draw():
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        drawn_once(KEY, kept, draw)
    assert caches["news"].get(f"{KEY}:drawing") is None
    assert drawn_once(KEY, kept, drawing("news", [])) == "news"
