import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from socket_helpers import phone_settle  # noqa: F401 (a fixture, for the consumer tests)
from tournament_helpers import make_workshop, seated  # noqa: F401 (re-exported for tests)

from tournament import gamestate, reportcache


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The replay cache is keyed by game id; ids restart with each test database (the
    # kept reports' keys hold the workshop's creation time too, but each test starts
    # with none kept).
    gamestate.clear_cache()
    reportcache.forget()
    yield
    gamestate.clear_cache()
    reportcache.forget()


@pytest.fixture
def workshop(db):
    return make_workshop()


@pytest.fixture
def owner(db):
    """A facilitator's account."""
    return get_user_model().objects.create_user("ada", password="a-long-pass-123")


@pytest.fixture
def fac(owner):
    """A browser logged in as `owner` (a module may define its own `fac` instead)."""
    client = Client()
    client.force_login(owner)
    return client
