import pytest

from republic.charts import shipped_chart


@pytest.fixture(scope="session")
def chart():
    """The chart the app ships: the game's decisions read it as a game does."""
    return shipped_chart()
