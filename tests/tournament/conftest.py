import pytest
from tournament_helpers import make_workshop, seated  # noqa: F401 (re-exported for tests)

from tournament import gamestate


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The replay cache is keyed by game id; ids restart with each test database.
    gamestate.clear_cache()
    yield
    gamestate.clear_cache()


@pytest.fixture
def workshop(db):
    return make_workshop()
