import pytest

from republic.charts import shipped_chart


@pytest.fixture(scope="session")
def chart():
    """The chart the app ships: every worked example of the rules must hold against it."""
    return shipped_chart()
