"""The news store keeps what a server process has read from it for some seconds in the process's memory
(``republic/news_store.py``): a kept answer never changes, and forty phones ask for it in the same seconds. A claim to
draw one is read from the disk every time, and what the store forgets the memory forgets too."""

from django.core.cache import caches

from republic import news_store, remembered
from republic.news_store import CLAIMED, REMEMBERED_MOST, REMEMBERED_SECONDS


def on_disk_alone(key):
    """The store's own disk copy of ``key``, read past the process's memory."""
    store = caches["news"]
    return store._cache.get(store.make_key(key))


def test_an_answer_read_is_kept_in_memory_for_some_seconds_then_read_from_the_disk_again(monkeypatch):
    store = caches["news"]
    now = [1000.0]
    monkeypatch.setattr(remembered.time, "monotonic", lambda: now[0])
    store.set("answer", b"the news", 60)
    assert store.get("answer") == b"the news"
    store._cache.delete(store.make_key("answer"))  # as the disk copy lapses, or another process's clear
    assert on_disk_alone("answer") is None
    assert store.get("answer") == b"the news"
    assert store.get_many(["answer", "none"]) == {"answer": b"the news"}
    now[0] += REMEMBERED_SECONDS
    assert store.get("answer") is None
    assert store.get("answer", "missing") == "missing"


def test_a_claim_is_read_from_the_disk_every_time():
    store = caches["news"]
    assert store.add(f"answer{CLAIMED}", 1, 60)
    assert store.get(f"answer{CLAIMED}") == 1
    store._cache.delete(store.make_key(f"answer{CLAIMED}"))
    assert store.get(f"answer{CLAIMED}") is None


def test_what_the_store_deletes_or_clears_is_forgotten_in_memory():
    store = caches["news"]
    store.set_many({"one": b"1", "two": b"2"}, 60)
    assert store.get_many(["one", "two"]) == {"one": b"1", "two": b"2"}
    store.delete("one")
    assert store.get("one") is None
    store.clear()
    assert store.get("two") is None


def test_the_memory_holds_a_bounded_number_of_answers():
    store = caches["news"]
    store.set_many({f"answer-{i}": b"x" for i in range(REMEMBERED_MOST + 50)}, 60)
    for i in range(REMEMBERED_MOST + 50):
        store.get(f"answer-{i}")
    assert len(news_store._remembered.kept) == REMEMBERED_MOST
    store._cache.delete(store.make_key("answer-0"))
    assert store.get("answer-0") is None  # the first read, pushed out of memory by the last ones
