"""The pieces of `manage.py loadtest` that need no servers (the whole run: tests/load/)."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command
from django.db import connection
from tournament_helpers import (
    game_at,
    make_workshop,
    play_until_claim,
    state_of,
    tables_of,
    to_scored_round,
)

from games import five_tricks
from tournament import gamestate, selectors, services
from tournament.loadtest import run as loadtest_run
from tournament.loadtest.bots import choose, choose_act
from tournament.models import Action, Player

pytestmark = pytest.mark.django_db


def screen_html(player_id: int) -> str:
    from django.template.loader import render_to_string

    return render_to_string("play/_screen.html", selectors.player_screen(player_id))


def test_a_bot_reads_the_same_taps_a_phone_offers():
    w = make_workshop(players=5, tables=1, seats=5)
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    rng = random.Random(1)
    state = play_until_claim(game)  # everyone has played: now everyone claims
    for seat, pid in enumerate(game.players):
        suggested = game.players[five_tricks.view(state, seat)["suggested_claim"]]
        tap = choose(screen_html(pid), rng)
        assert tap == {"action": "claim", "winner": suggested}  # the confirm button
        services.game_claim(player_id=pid, winner_player_id=tap["winner"])
        if state_of(game).phase == "claim":  # (the last claim ends the trick)
            assert choose(screen_html(pid), rng) is None  # claimed: nothing left to tap
    state = state_of(game)
    taps = {pid: choose(screen_html(pid), rng) for pid in game.players}
    leader = game.players[state.to_act]
    assert [pid for pid, tap in taps.items() if tap] == [leader]  # only the leader may play
    legal = {a["card"] for a in five_tricks.legal_actions(state, state.to_act)}
    assert taps[leader]["action"] == "play" and taps[leader]["card"] in legal


@pytest.mark.parametrize("kind,seats", [("seven_up", 3), ("all_fives", 3)])
def test_a_bot_plays_the_other_games_by_what_their_screens_offer(kind, seats):
    """`--game`: only the seat to play finds a tap on its screen, and the tap is a move
    the game takes, through a game and into the next (bids, stands and begs, legal
    cards; never a disabled control or a revoke call)."""
    from games import kinds

    w = services.workshop_create(
        name="Bots", game=kind, table_count=1, seats_per_table=seats, bots_enabled=True, seed=2
    )
    services.bots_fill(workshop_id=w.pk)
    to_scored_round(w)
    (table,) = tables_of(w)
    first = game_at(table).pk
    rng = random.Random(3)
    types = set()
    for _ in range(3000):
        game = game_at(table)
        if game.pk != first:
            break
        to_act = {game.players[s] for s in kinds.get(kind).to_act(gamestate.load_state(game))}
        taps = {pid: choose_act(screen_html(pid), rng) for pid in game.players}
        # (All Fives: every seat may call a revoke after a trick; only the seat to
        # play finds a tap, the bots call none.)
        tapping = {pid for pid, tap in taps.items() if tap}
        assert len(tapping) == 1 and tapping <= to_act
        (pid,) = tapping
        move = taps[pid]["move"]
        assert taps[pid]["action"] == "act" and move["type"] != "call_revoke"
        services.game_act(player_id=pid, move=move)  # taken: no ServiceError
        types.add(move["type"])
    assert game_at(table).pk != first  # the bots played a whole game
    assert "play" in types and len(types) > 1, types


def test_a_bot_skips_disabled_controls_and_those_that_need_picked_cards():
    rng = random.Random(1)
    html = (
        '<button type="button" class="card red" data-action="act" data-card="5H" '
        """data-move='{"type":"play","card":"5H"}' aria-disabled="true">5</button>"""
        '<button type="button" class="primary" data-action="act" data-move=\'{"type":"lay"}\' '
        "data-with-picks disabled>Lay</button>"
        """<button type="button" class="af-call" data-action="act" data-move='{"type":"call_revoke","accused":1}'>Call</button>"""
    )
    assert choose_act(html, rng) is None
    # Five Tricks' own taps are not act controls: choose() reads those.
    five_tricks = (
        '<button class="card red legal" data-action="play" data-card="5H" '
        """data-move='{"type":"play","card":"5H"}'>5</button>"""
        '<button class="primary" data-action="claim" data-winner="2">Confirm</button>'
    )
    assert choose_act(html + five_tricks, rng) is None
    bid = '<button type="button" data-action="act" data-move="{&quot;type&quot;: &quot;bid&quot;, &quot;bid&quot;: 2}">2</button>'
    assert choose_act(html + bid, rng) == {"action": "act", "move": {"type": "bid", "bid": 2}}


def _sends_in(mode: str, seconds: float, rate: int) -> list[float]:
    """When one seat that may always act again (acknowledged at once, a card always
    playable) sent, over `seconds`."""
    import asyncio

    from tournament.loadtest.bots import Worker

    sent_at = []

    async def scenario():
        seat_spec = {"player_id": 1, "url": "", "origin": "", "cookie": None}
        worker = Worker(
            {
                "mode": mode,
                "think_ms": 0,
                "seconds": seconds,
                "rate": rate,
                "tables": [{"key": 0, "seats": [seat_spec]}],
            }
        )
        (table,) = worker.tables
        (seat,) = table.seats
        seat.ws = object()
        seat.html = '<button class="card red legal" data-action="play" data-card="5H">'
        worker.running = True

        async def send(seat, text):
            sent_at.append(asyncio.get_running_loop().time())
            seat.inflight = None
            seat.v += 1
            await asyncio.sleep(0)
            worker.fire(table, seat)

        worker.send = send
        seat.v = 0
        worker.fire(table, seat)
        await asyncio.sleep(seconds)
        worker.running = False
        if seat.timer:
            seat.timer.cancel()

    asyncio.run(scenario())
    return sent_at


def test_a_bot_keeps_under_the_servers_flood_limit_when_it_acts_again_and_again():
    """At --think-ms 0 a seat that acts several times running must not pass the
    server's per-socket limit: a message past it is dropped unanswered (RateWindow).
    The bare echo, which has no such limit, is not held back."""
    sent_at = _sends_in("game", 1.3, rate=4)
    assert len(sent_at) == 8  # 4 at once, 4 more a second later
    assert all(b - a >= 0.99 for a, b in zip(sent_at, sent_at[4:], strict=False))
    assert len(_sends_in("echo", 0.3, rate=4)) > 50


def test_a_bot_takes_a_claimed_mark_as_the_next_screen_and_resyncs_when_it_does_not_follow():
    import asyncio

    from tournament.loadtest.bots import Worker

    class Socket:  # what the bot sends, instead of a server
        def __init__(self):
            self.sent = []

        async def send(self, text):
            self.sent.append(json.loads(text))

    seat = {"player_id": 1, "url": "ws://x", "origin": "http://x", "cookie": None}
    worker = Worker(
        {
            "mode": "game",
            "think_ms": 0,
            "seconds": 1,
            "tables": [{"key": 1, "seats": [seat, {**seat, "player_id": 2}]}],
        }
    )
    table = worker.tables[0]
    a, b = table.seats
    for s in (a, b):
        s.ws = Socket()
        worker.on_view(table, s, {"v": 5, "html": "<div>claim step</div>"}, 1.0)
    table.waiting.append((6, 0.5, "claim"))  # a's claim made version 6

    async def marks():
        worker.on_claimed_mark(table, b, {"t": "claimed", "v": 6, "from": 5, "seat": 0}, 2.0)
        assert b.v == 6 and b.html == "<div>claim step</div>" and b.reached(6) == 2.0
        assert table.waiting == [(6, 0.5, "claim")]  # a has not shown 6 yet
        worker.on_view(table, a, {"v": 6, "html": "<div>claimed</div>"}, 2.5)
        assert table.waiting == [] and worker.latencies == [2000.0]
        # A mark for a screen the bot does not show: it asks for the whole screen.
        worker.on_claimed_mark(table, b, {"t": "claimed", "v": 9, "from": 8, "seat": 0}, 3.0)
        await asyncio.sleep(0)
        assert b.v == 6 and b.ws.sent == [{"action": "sync"}]
        assert worker.errors == {"claimed:not_following": 1} and worker.marks == 2

    asyncio.run(marks())


def test_lost_and_duplicated_compare_acks_with_the_stored_log():
    w = make_workshop(players=5, tables=1, seats=5)
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    state = gamestate.load_state(game)
    pid = game.players[state.to_act]
    card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
    services.game_play(player_id=pid, card=card, client_action_id="lt1")
    assert Action.objects.filter(client_action_id="lt1").count() == 1
    assert loadtest_run.check_log(w.pk, [(pid, "lt1")]) == (0, 0)
    assert loadtest_run.check_log(w.pk, [(pid, "lt1"), (pid, "lt2")]) == (1, 0)
    assert loadtest_run.check_log(w.pk, [(pid, "lt1"), (pid, "lt1")]) == (0, 1)


@pytest.mark.django_db(transaction=True)
def test_a_stored_echo_is_one_row_per_message_held_against_the_acks():
    """`loadtest --baseline-store`: what the servers store, the run compares with what
    the clients had acknowledged, as it does a game's log."""
    from tournament.loadtest import echo

    echo.create_tables()
    try:
        echo.store(7, 1, "lt1")
        echo.store(7, 2, "lt2")
        echo.store(8, 1, "lt1")  # another table's client may reuse an id
        assert sorted(echo.stored_keys()) == [(7, "lt1"), (7, "lt2"), (8, "lt1")]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT key, v FROM {echo.VERSIONS} ORDER BY key")
            assert cursor.fetchall() == [(7, 2), (8, 1)]  # each table's row, upserted
        stored = echo.stored_keys()
        assert loadtest_run.compare([(7, "lt1"), (7, "lt2"), (8, "lt1")], stored) == (0, 0)
        assert loadtest_run.compare([(7, "lt1"), (7, "lt3")], stored) == (1, 0)
        assert loadtest_run.compare([(8, "lt1"), (8, "lt1")], stored) == (0, 1)
    finally:
        echo.drop_tables()
    assert not {echo.VERSIONS, echo.LOG} & set(connection.introspection.table_names())


def test_sockets_are_spread_round_robin_as_the_proxy_does():
    urls = ["http://a", "http://b"]
    tables = 200
    placed = [
        [loadtest_run.server_for(urls, t, s) for s in range(loadtest_run.SEATS)]
        for t in range(tables)
    ]
    counts = {u: sum(row.count(u) for row in placed) for u in urls}
    assert counts == {"http://a": 500, "http://b": 500}  # a fixed 3/2 split gave 600/400
    # Every table still spans both processes: a move made through one reaches the other.
    assert all(set(row) == set(urls) for row in placed)
    assert [loadtest_run.server_for(["http://only"], t, 3) for t in range(3)] == ["http://only"] * 3


def test_percentiles_are_nearest_rank():
    values = list(range(1, 101))
    assert loadtest_run.percentile(values, 50) == 50
    assert loadtest_run.percentile(values, 95) == 95
    assert loadtest_run.percentile(values, 99) == 99
    assert loadtest_run.percentile([], 99) == 0.0


def test_the_workshop_is_set_up_at_tables_of_five_in_a_long_scored_round():
    workshop_id, tables = loadtest_run.setup_workshop(23, seconds=60)
    assert [len(t) for t in tables] == [5, 5, 5, 4, 4]
    _, threes = loadtest_run.setup_workshop(7, seconds=60, game="all_fives")
    assert [len(t) for t in threes] == [3, 2, 2]
    players = Player.objects.filter(workshop_id=workshop_id)
    assert players.count() == 23 and not players.filter(table__isnull=True).exists()
    from tournament.models import Round, Workshop

    rnd = Round.objects.filter(workshop_id=workshop_id).order_by("-number").first()
    assert Workshop.objects.get(pk=workshop_id).phase == "round" and rnd.kind == "scored"
    assert (rnd.deadline - rnd.started_at).total_seconds() >= 60 + 120


def test_latency_is_broken_down_by_action_kind_and_the_ack():
    results = [
        {
            "latencies": [10.0, 20.0, 300.0],
            "kinds": ["play", "play", "claim"],
            "ack_ms": [["play", 5.0], ["play", 7.0], ["claim", 200.0]],
        },
        {"latencies": [40.0], "kinds": ["claim"], "ack_ms": [["claim", 9.0]]},
    ]
    line = loadtest_run.latency_breakdown(results)
    assert line == (
        "latency p50/p95 by kind: claim 40/300 ms (n=2; sent to ack 9/200 ms)"
        " · play 10/20 ms (n=2; sent to ack 5/7 ms)"
    )
    assert loadtest_run.latency_breakdown([{"latencies": []}]) is None


def test_latency_is_shown_window_by_window():
    results = [
        {"latencies": [5.0, 900.0, 7.0], "when": [1.0, 12.0, 25.0]},
        {"latencies": [9.0, 30.0], "when": [3.0, 11.0]},
    ]
    assert loadtest_run.latency_over_time(results) == "p95 ms per 10 s: 9 900 7"
    assert loadtest_run.latency_over_time([{"latencies": []}]) is None


def test_the_command_prints_one_json_line_and_fails_on_lost_actions(monkeypatch, capsys):
    figures = {
        "players": 10,
        "actions": 5,
        "actions_per_s": 1.0,
        "p50_ms": 1.0,
        "p95_ms": 2.0,
        "p99_ms": 3.0,
        "errors": 0,
        "lost": 0,
        "duplicated": 0,
    }
    from tournament.management.commands import loadtest as command

    monkeypatch.setattr(command, "run", lambda **kw: dict(figures))
    call_command("loadtest", "--players", "10", "--seconds", "5")
    assert json.loads(capsys.readouterr().out.strip()) == figures
    monkeypatch.setattr(command, "run", lambda **kw: {**figures, "lost": 1})
    with pytest.raises(SystemExit) as exit_info:
        call_command("loadtest", "--players", "10", "--seconds", "5")
    assert exit_info.value.code == 1
    assert json.loads(capsys.readouterr().out.strip())["lost"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "--players must be at least 2"),
        (["--players", "1251"], "--players must be at most 1250 (a workshop has up to 250 tables"),
        (["--players", "10", "--seconds", "0"], "--seconds must be from 1 to 3000"),
        (["--players", "10", "--think-ms", "-1"], "--think-ms must not be negative"),
        (["--players", "10", "--servers", "0"], "--servers and --client-procs must be at least 1"),
        (
            ["--players", "10", "--baseline-store", "--url", "http://127.0.0.1:1"],
            "--baseline-store starts its own servers: not with --url",
        ),
        (
            ["--players", "751", "--game", "all_fives"],
            "--players must be at most 750 (a workshop has up to 250 tables of 3)",
        ),
        (
            ["--players", "10", "--baseline", "--game", "seven_up"],
            "--game chooses the game the bots play: not with an echo baseline",
        ),
        (
            ["--players", "10", "--baseline-store", "--facilitator"],
            "--facilitator opens a workshop's panel: not with an echo baseline",
        ),
    ],
)
def test_the_command_refuses_bad_figures_in_one_line_before_it_starts(monkeypatch, args, message):
    """A workshop past its 250 tables was refused by the service after the servers had
    started, as a traceback."""
    from django.core.management.base import CommandError

    from tournament.management.commands import loadtest as command

    monkeypatch.setattr(command, "run", lambda **kw: pytest.fail("the run started"))
    with pytest.raises(CommandError) as info:
        call_command("loadtest", "--seconds", "5", *args)  # a later --seconds overrides
    assert str(info.value).startswith(message)


def test_cpu_per_action_splits_web_clients_and_the_rest_of_the_machine():
    from tournament.loadtest import cpu

    start = cpu.Snapshot(servers=[10.0, 20.0], machine=100.0)
    end = cpu.Snapshot(servers=[13.0, 22.0], machine=110.0)  # web 5 s of 10 s busy
    line = cpu.per_action(start, end, clients_s=1.0, actions=1000, wall_s=10.0, cores=2)
    assert line == (
        "cpu ms per action: web 5.00 · bot clients 1.00 · rest of machine 4.00 "
        "(database, Redis, others); machine busy 50 % of 2 cores"
    )
    # Servers elsewhere (--url): only the machine as a whole.
    line = cpu.per_action(
        cpu.Snapshot([], 100.0),
        cpu.Snapshot([], 104.0),
        clients_s=None,
        actions=200,
        wall_s=4.0,
        cores=2,
    )
    assert line == "cpu ms per action: whole machine 20.00; machine busy 50 % of 2 cores"
    assert cpu.per_action(start, end, clients_s=1.0, actions=0, wall_s=10.0) is None


def test_cpu_seconds_are_read_for_a_live_process_and_the_machine():
    import os
    import time

    from tournament.loadtest import cpu

    before = cpu.process_seconds(os.getpid())
    machine = cpu.machine_seconds()
    assert before is not None and machine is not None
    spin = time.process_time() + 0.3
    while time.process_time() < spin:
        pass
    assert cpu.process_seconds(os.getpid()) - before >= 0.2
    assert cpu.machine_seconds() - machine >= 0.2
    assert cpu.process_seconds(2**22 + 7) is None  # no such process
