"""Break-in tests: see security_world.py for the workshops, people and URLs they attack."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))

from socket_helpers import phone_settle  # noqa: E402, F401 (a fixture)

from tournament import gamestate, screencache  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The replay and screen caches are keyed by ids; ids restart with each test database.
    gamestate.clear_cache()
    screencache.clear()
    yield
    gamestate.clear_cache()
    screencache.clear()


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    # Rate limits count in the cache; each test starts with none spent.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
