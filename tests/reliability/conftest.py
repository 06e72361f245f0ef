"""Fault tests: real processes on loopback (see fault_cluster.py), plus in-process time travel."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))

from fault_cluster import Cluster, RedisServer, clone_database, ensure_template  # noqa: E402

from tournament import gamestate  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The replay cache is keyed by game id; ids restart with each test database.
    gamestate.clear_cache()
    yield
    gamestate.clear_cache()


@pytest.fixture(scope="session")
def fault_template(postgres_url):
    """A migrated PostgreSQL database, cloned for each fault test."""
    return ensure_template(postgres_url)


@pytest.fixture
def cluster(postgres_url, fault_template, request):
    """A fresh database and a private Redis; the test starts the web processes it wants."""
    name = "fault_" + uuid.uuid4().hex[:8]
    url = clone_database(postgres_url, fault_template, name)
    redis = RedisServer()
    redis.start()
    c = Cluster(database_url=url, redis=redis, name=request.node.name)
    try:
        yield c
    finally:
        c.stop_all(kill=True)  # a throwaway database: no need to wait for a clean exit
        redis.close()
