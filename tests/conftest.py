import pytest
from django.core.cache import caches
from hypothesis import settings

from republic.games.pace import forget_sums
from republic.games.readings import forget_shared
from republic.games.views.shared_news import forget_listings
from tests.devices import master_device
from tests.static_files import uncollected

# Property tests run the same examples on every machine: a red build means a real counterexample,
# reproducible by anyone, never a lucky draw.
settings.register_profile("republic", derandomize=True, deadline=None, max_examples=200)
settings.load_profile("republic")


@pytest.fixture
def client(db):
    """The table's device in most tests: the game master's, who may do anything in any game. Who else may do
    what is tested with seats of its own (tests/games/test_access.py)."""
    return master_device()


@pytest.fixture(autouse=True)
def readings_of_other_tests_forgotten():
    """A test's database is made afresh: what this process read from the last one's games, and the news it drew
    for their phones, are not kept for it (a game of the same key and version may be another game now)."""
    forget_shared()
    forget_listings()
    forget_sums()
    caches["news"].clear()


def pytest_configure(config):
    uncollected()
