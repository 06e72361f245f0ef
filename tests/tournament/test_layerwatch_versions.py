"""The version check (tournament.layerwatch.check_versions) shows a phone a change
whose announcement died with its process. A facilitator's socket is registered with
layerwatch too (for the Redis resets), and the check read it as a phone's: every
check stopped on an AttributeError ('FacilitatorConsumer' has no 'table_id'), so in
any process with a panel open, which is every class, nothing unannounced was shown."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db.models import F
from socket_helpers import facilitator_socket, phone_socket, receive_type
from test_facilitator_consumer import owned_workshop, regions, session_cookie
from tournament_helpers import tables_of, to_scored_round

from tournament import layerwatch
from tournament.models import Player, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.redis]


@pytest.fixture
def watched(settings, redis_url):
    # layerwatch registers sockets only where Redis carries the layer; its own loop's
    # checks are put off, so that this test makes each one.
    settings.REDIS_URL = redis_url
    settings.BARNGA_VERSION_CHECK_SECONDS = 3600
    settings.BARNGA_LAYER_CHECK_SECONDS = 3600


async def test_a_change_never_announced_is_shown_with_a_facilitator_connected(watched):
    cookie = await session_cookie("ada")
    w = await owned_workshop("ada", players=4, tables=1)
    await database_sync_to_async(to_scored_round)(w)
    (table,) = await database_sync_to_async(tables_of)(w)
    player = await database_sync_to_async(Player.objects.filter(table=table).first)()

    fac = facilitator_socket(w.pk, cookie)
    assert (await fac.connect())[0]
    await regions(fac)
    phone = phone_socket(player)
    assert (await phone.connect())[0]
    shown = (await receive_type(phone, "view"))["v"]
    assert {type(c).__name__ for c in layerwatch._open_members()} >= {
        "FacilitatorConsumer",
        "PlayerConsumer",
    }

    # A change committed, its announcement lost (its process died after the commit).
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(version=F("version") + 1)
    suspects = await layerwatch.check_versions(({}, {}))
    assert suspects[0] == {table.pk: shown + 1}
    # Still unheard at the next check: the phone is shown it.
    await layerwatch.check_versions(suspects)
    assert (await receive_type(phone, "view"))["v"] == shown + 1
    await phone.disconnect()
    await fac.disconnect()


async def test_a_phone_that_missed_a_change_its_neighbour_got_is_shown_it(watched):
    """One socket of a table missed a message the others got (the list-based layer
    lost one as another socket closed). The check took the newest version any socket
    of the table had heard, so the neighbour's hid the miss: seen once, a phone left
    on a game's end while the phone beside it, reconnected, showed the next deal."""
    from channels.layers import get_channel_layer

    from tournament.broadcast import table_group

    await session_cookie("ada")  # the facilitator's account
    w = await owned_workshop("ada", players=4, tables=1)
    await database_sync_to_async(to_scored_round)(w)
    (table,) = await database_sync_to_async(tables_of)(w)
    ana, bea = await database_sync_to_async(lambda: list(Player.objects.filter(table=table)[:2]))()
    phones = {p.name: phone_socket(p) for p in (ana, bea)}
    for phone in phones.values():
        assert (await phone.connect())[0]
    shown = (await receive_type(phones[ana.name], "view"))["v"]
    assert (await receive_type(phones[bea.name], "view"))["v"] == shown
    sockets = {c.player_id: c for c in layerwatch._open_members() if hasattr(c, "player_id")}

    # A change whose message reaches Ana's socket only.
    layer = get_channel_layer()
    await layer.group_discard(table_group(table.pk), sockets[bea.pk].channel_name)
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(version=F("version") + 1)
    await layer.group_send(
        table_group(table.pk), {"type": "table.changed", "table": table.pk, "version": shown + 1}
    )
    assert (await receive_type(phones[ana.name], "view"))["v"] == shown + 1
    assert await phones[bea.name].receive_nothing(timeout=0.3)

    suspects = await layerwatch.check_versions(({}, {}))
    assert suspects[0] == {table.pk: shown + 1}
    await layerwatch.check_versions(suspects)
    assert (await receive_type(phones[bea.name], "view"))["v"] == shown + 1
    assert await phones[ana.name].receive_nothing(timeout=0.3)  # it had it
    for phone in phones.values():
        await phone.disconnect()
