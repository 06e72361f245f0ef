import pytest

from tournament import gamestate, services
from tournament.models import Player


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The replay cache is keyed by game id; ids restart with each test database.
    gamestate.clear_cache()
    yield
    gamestate.clear_cache()


def make_workshop(*, players=8, tables=2, seats=4, seed=7, **kw):
    workshop = services.workshop_create(
        name="Test workshop", table_count=tables, seats_per_table=seats, seed=seed, **kw
    )
    for i in range(players):
        services.player_join(workshop_id=workshop.pk, name=f"P{i + 1:02d}")
    return workshop


def seated(table):
    return list(Player.objects.filter(table=table).order_by("seat"))


@pytest.fixture
def workshop(db):
    return make_workshop()
