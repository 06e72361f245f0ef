"""A claim that changes the other seats' screens only in its "claimed" mark.

Those sockets send the mark (`{"t": "claimed", "v", "from", "seat"}`) instead of a
screen; what static/js/table.js makes of it must be the screen a render would show
(here a Python copy of its markClaimed; tests/e2e/test_claim_marks_browser.py runs
the script itself in Chromium).
"""

import re

import pytest
from channels.db import database_sync_to_async
from socket_helpers import phone_socket, receive_type
from tournament_helpers import make_workshop, play_until_claim

from tournament import services
from tournament.models import Game, GameState, Player

pytestmark = [pytest.mark.django_db(transaction=True)]

CLAIM = re.compile(r'class="primary" data-action="claim" data-winner="(\d+)"')
MARK = '<span aria-hidden="true">✓</span><span class="visually-hidden">claimed</span>'
PLACE = f'<span class="badge unclaimed-mark" aria-hidden="true">{MARK}</span>'
SEAT_ITEM = re.compile(r'<li class="seat[^"]*">.*?</li>', re.S)


def marked(html: str, seat: int, v: int) -> str:
    """static/js/table.js markClaimed, on the HTML: the seat's item gets the mark in
    its place (unless it has the mark: the phone asks for the screen when it has
    neither), the screen the new version."""
    item = list(SEAT_ITEM.finditer(html))[seat]
    if PLACE in item.group(0):
        marked_item = item.group(0).replace(
            PLACE, f'<span class="badge claimed-badge">{MARK}</span>'
        )
        html = html[: item.start()] + marked_item + html[item.end() :]
    else:
        assert f'<span class="badge claimed-badge">{MARK}</span>' in item.group(0)
    return re.sub(r'data-version="\d+"', f'data-version="{v}"', html, count=1)


def normal(html: str) -> str:
    """Markup as a browser shows it: whitespace between tags and the countdowns'
    starting seconds (read when drawn) do not count."""
    html = re.sub(r'data-seconds="[^"]*"', 'data-seconds=""', html)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


def at_claim_step(players=4):
    w = make_workshop(players=players, tables=1, seats=players)
    services.workshop_start_study(workshop_id=w.pk)
    game = Game.objects.get(state=GameState.PLAYING)
    play_until_claim(game)
    game.refresh_from_db()
    by_id = {p.pk: p for p in Player.objects.filter(pk__in=game.players)}
    return game, [by_id[pid] for pid in game.players]


started_at_claim_step = database_sync_to_async(at_claim_step)


async def connect_all(seats):
    comms, screens = [], []
    for player in seats:
        comm = phone_socket(player)
        assert (await comm.connect())[0]
        comms.append(comm)
        screens.append(await receive_type(comm, "view"))
    return comms, screens


async def claim(comm, screen, cid):
    winner = int(CLAIM.search(screen["html"]).group(1))
    await comm.send_json_to(
        {"action": "claim", "winner": winner, "version": screen["v"], "id": cid}
    )


@pytest.mark.asyncio
async def test_other_seats_get_the_mark_and_it_makes_the_rendered_screen():
    game, seats = await started_at_claim_step()
    comms, screens = await connect_all(seats)
    v0 = screens[0]["v"]
    assert all(s["v"] == v0 for s in screens)
    assert "claimed-badge" not in screens[1]["html"]

    await claim(comms[0], screens[0], "c0")
    ack = await receive_type(comms[0], "ack")
    assert ack["v"] == v0 + 1
    own = await receive_type(comms[0], "view", "claimed")
    assert own["t"] == "view" and own["v"] == v0 + 1  # the claimer's own screen changed
    # Her claim in words (her own card's winning is "you").
    winner = int(CLAIM.search(screens[0]["html"]).group(1))
    assert ("You said you won." if winner == seats[0].pk else "You said: ") in own["html"]
    for seat in (1, 2, 3):
        mark = await receive_type(comms[seat], "view", "claimed")
        assert mark == {"t": "claimed", "v": v0 + 1, "from": v0, "seat": 0}
        # The mark on the screen it follows is the screen a render of v0 + 1 shows.
        await comms[seat].send_json_to({"action": "sync"})
        fresh = await receive_type(comms[seat], "view")
        assert fresh["v"] == v0 + 1 and fresh["force"]
        assert normal(marked(screens[seat]["html"], 0, v0 + 1)) == normal(fresh["html"])
        assert fresh["html"].count("claimed-badge") == 1
        screens[seat] = fresh
    screens[0] = own

    # The next claim: seat 0's screen (a view) and the others' (a mark, then a
    # render) both follow the new version the same way.
    await claim(comms[1], screens[1], "c1")
    await receive_type(comms[1], "ack")
    screens[1] = await receive_type(comms[1], "view")
    for seat in (0, 2, 3):
        mark = await receive_type(comms[seat], "view", "claimed")
        assert mark == {"t": "claimed", "v": v0 + 2, "from": v0 + 1, "seat": 1}
        await comms[seat].send_json_to({"action": "sync"})
        fresh = await receive_type(comms[seat], "view")
        assert normal(marked(screens[seat]["html"], 1, v0 + 2)) == normal(fresh["html"])
        assert fresh["html"].count("claimed-badge") == 2
        screens[seat] = fresh

    # The last claim ends the trick: every screen changes, so every seat gets one.
    await claim(comms[2], screens[2], "c2")
    await receive_type(comms[2], "ack")
    await claim(comms[3], screens[3], "c3")
    await receive_type(comms[3], "ack")
    for comm in comms:
        last = await receive_type(comm, "view", "claimed")
        while last["v"] < v0 + 4:
            last = await receive_type(comm, "view", "claimed")
        assert last["t"] == "view" and "claimed-badge" not in last["html"]
    for comm in comms:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_socket_that_missed_a_version_gets_the_screen_not_the_mark(monkeypatch):
    game, seats = await started_at_claim_step()
    comms, screens = await connect_all(seats)
    v0 = screens[0]["v"]
    # Seat 2's claim is stored but its announcement is lost (its process died
    # between the commit and the publish): the phones still show v0.
    from tournament import broadcast

    announce = broadcast.table_changed_on_commit
    monkeypatch.setattr(broadcast, "table_changed_on_commit", lambda **kw: None)
    winner = int(CLAIM.search(screens[2]["html"]).group(1))
    await database_sync_to_async(services.game_claim)(
        player_id=seats[2].pk, winner_player_id=winner
    )
    monkeypatch.setattr(broadcast, "table_changed_on_commit", announce)
    # Seat 0's claim only adds a mark to v0 + 1, which the others never showed:
    # they get the whole screen of v0 + 2, with both marks.
    await claim(comms[0], screens[0], "c0")
    assert (await receive_type(comms[0], "ack"))["v"] == v0 + 2
    for seat in (1, 3):
        got = await receive_type(comms[seat], "view", "claimed")
        assert got["t"] == "view" and got["v"] == v0 + 2
        assert got["html"].count("claimed-badge") == 2
    # Seat 2 (its own claim unseen, seat 0's new) gets the screen too.
    got = await receive_type(comms[2], "view", "claimed")
    said = "You said you won." if winner == seats[2].pk else "You said: "
    assert got["t"] == "view" and said in got["html"]
    for comm in comms:
        await comm.disconnect()


def test_only_claims_that_keep_the_step_waiting_without_a_dispute_are_marks(monkeypatch):
    """Which claims the service says change the other screens only in a mark."""
    from tournament import broadcast

    sent = []
    announce = broadcast.table_changed_on_commit
    monkeypatch.setattr(
        broadcast,
        "table_changed_on_commit",
        lambda **kw: (sent.append(kw.get("move")), announce(**kw))[1],
    )
    game, seats = at_claim_step()
    leader_id, other_id = game.players[0], game.players[1]
    sent.clear()
    # A first claim, a changed claim before everyone has claimed, another claim:
    # each keeps the step waiting, no dispute.
    services.game_claim(player_id=seats[0].pk, winner_player_id=leader_id)
    services.game_claim(player_id=seats[0].pk, winner_player_id=other_id)
    services.game_claim(player_id=seats[1].pk, winner_player_id=leader_id)
    assert [m["mark_claimed_by"] for m in sent] == [seats[0].pk, seats[0].pk, seats[1].pk]
    # The last seats disagree: the dispute opens and every screen shows the claims.
    services.game_claim(player_id=seats[2].pk, winner_player_id=leader_id)
    services.game_claim(player_id=seats[3].pk, winner_player_id=leader_id)
    assert "mark_claimed_by" in sent[3] and "mark_claimed_by" not in sent[4]
    # In the dispute, a changed claim ends it unanimously: no mark either.
    services.game_claim(player_id=seats[0].pk, winner_player_id=leader_id)
    assert "mark_claimed_by" not in sent[5]
    assert Game.objects.get(pk=game.pk).state == GameState.PLAYING
