import pytest
from hypothesis import settings

from tests.devices import master_device

# Property tests run the same examples on every machine: a red build means a real counterexample,
# reproducible by anyone, never a lucky draw.
settings.register_profile("republic", derandomize=True, deadline=None, max_examples=200)
settings.load_profile("republic")


@pytest.fixture
def client(db):
    """The table's device in most tests: the game master's, who may do anything in any game. Who else may do
    what is tested with seats of its own (tests/games/test_access.py)."""
    return master_device()


def pytest_configure(config):
    # The tests draw pages without collecting the static files first: their links are the files' own names, as
    # in development. The server a club runs (manage.py serve) collects them and links to their hashed copies,
    # and the tests that start it check those.
    from django.conf import settings as django_settings

    django_settings.STORAGES = {
        **django_settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
