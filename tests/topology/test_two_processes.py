"""The production topology on loopback: 2 Daphne processes + Redis channel layer + PostgreSQL.

A player whose socket is on process A sees an action made through process B, and
when a round's deadline passes, both processes' timer loops race to end it and it
ends exactly once (one "finalised by timer" line over both logs, one finished
round in the database).

Nothing here uses the test database: the servers share a fresh PostgreSQL database,
and the test reads and writes it the way an operator would, through
`manage.py shell -c` driver scripts.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid

import pytest
import websockets

from tournament.loadtest.bots import PLAY
from tournament.loadtest.servers import (
    free_port,
    fresh_database,
    run_manage,
    start_daphne,
    stop,
    wait_healthy,
)
from tournament.templatetags.cards import card_face

pytestmark = [pytest.mark.slow, pytest.mark.redis]

SETUP = """
import json
from tournament import gamestate, services
from tournament.identity import COOKIE, signed_cookie_value
from tournament.models import Game, GameState, Player
w = services.workshop_create(name="Two processes", table_count=1, seats_per_table=4,
                             round_seconds=600, study_seconds=600, home_seconds=600)
for i in range(4):
    services.player_join(workshop_id=w.pk, name=f"Player {i + 1}")
services.players_seat_home(workshop_id=w.pk)
services.workshop_start_study(workshop_id=w.pk)
services.workshop_start_home(workshop_id=w.pk)
rnd = services.round_start(workshop_id=w.pk)
game = Game.objects.get(round=rnd, state=GameState.PLAYING)
state = gamestate.load_state(game)
print(json.dumps({
    "round": rnd.pk,
    "to_act": game.players[state.to_act],
    "cookies": {p.pk: f"{COOKIE}={signed_cookie_value(p.token)}"
                for p in Player.objects.filter(workshop=w)},
}))
"""

EXPIRE = """
from datetime import timedelta
from django.utils import timezone
from tournament.models import Round
Round.objects.filter(pk={round_id}).update(deadline=timezone.now() - timedelta(seconds=1))
"""

STATE = """
import json
from tournament.models import Game, GameState, Round
r = Round.objects.select_related("workshop").get(pk={round_id})
print(json.dumps({{
    "state": r.state, "finished_by": r.finished_by, "phase": r.workshop.phase,
    "playing": Game.objects.filter(round=r, state=GameState.PLAYING).count(),
    "cut": Game.objects.filter(round=r, state=GameState.CUT).count(),
}}))
"""


@pytest.fixture
def two_processes(redis_url, postgres_url, tmp_path):
    db = fresh_database(postgres_url, "topology_" + uuid.uuid4().hex[:8])
    env = {
        "DATABASE_URL": db,
        "REDIS_URL": redis_url,
        "BARNGA_RUN_TIMERS": "1",
        "BARNGA_TIMER_INTERVAL": "0.2",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "INFO",
    }
    run_manage(["migrate", "-v0"], env)
    procs, urls, logs = [], [], []
    try:
        for name in ("a", "b"):
            port = free_port()
            logs.append(tmp_path / f"daphne-{name}.log")
            procs.append(start_daphne(port, env, logs[-1]))
            urls.append(f"127.0.0.1:{port}")
        for proc, url in zip(procs, urls, strict=True):
            wait_healthy(f"http://{url}", proc, timeout=60)
        yield env, urls, logs, procs
    finally:
        for proc in procs:
            stop(proc)


def driver(env: dict, code: str) -> dict | None:
    out = run_manage(["shell", "-v0", "-c", code], env)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else None


async def connect(host: str, cookie: str):
    ws = await websockets.connect(
        f"ws://{host}/ws/play/", origin=f"http://{host}", additional_headers=[("Cookie", cookie)]
    )
    return ws


async def next_message(ws, t: str, *, until=lambda m: True, timeout: float = 15) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {t!r} message in {timeout} s")
        msg = json.loads(await asyncio.wait_for(ws.recv(), left))
        if msg.get("t") == t and until(msg):
            return msg


async def test_an_action_through_b_reaches_a_and_the_timer_ends_the_round_once(two_processes):
    env, (host_a, host_b), logs, procs = two_processes
    setup = driver(env, SETUP)
    cookies = {int(k): v for k, v in setup["cookies"].items()}
    actor = setup["to_act"]
    watcher = next(pid for pid in cookies if pid != actor)

    on_a = await connect(host_a, cookies[watcher])
    on_b = await connect(host_b, cookies[actor])
    try:
        seen = await next_message(on_a, "view")
        mine = await next_message(on_b, "view")
        card = PLAY.findall(mine["html"])[0]
        await on_b.send(
            json.dumps({"action": "play", "card": card, "version": mine["v"], "id": "b1"})
        )
        ack = await next_message(on_b, "ack")
        assert ack["id"] == "b1" and ack["v"] > mine["v"]
        # Process A's socket hears of it through Redis and renders the played card.
        after = await next_message(on_a, "view", until=lambda m: m["v"] >= ack["v"])
        assert after["v"] > seen["v"]
        assert card_face(card) in after["html"]

        # The deadline passes; both processes' timer loops see it within 0.2 s.
        driver(env, EXPIRE.format(round_id=setup["round"]))
        over = await next_message(on_a, "view", until=lambda m: 'data-phase="between"' in m["html"])
        assert "Round over" in over["html"]
        await next_message(on_b, "view", until=lambda m: 'data-phase="between"' in m["html"])
    finally:
        await on_a.close()
        await on_b.close()

    await asyncio.sleep(1.0)  # several more ticks of both loops: none may end it again
    state = driver(env, STATE.format(round_id=setup["round"]))
    assert state == {
        "state": "finished",
        "finished_by": "timer",
        "phase": "between",
        "playing": 0,
        "cut": 1,
    }
    for proc in procs:
        stop(proc)
    line = re.compile(rf"round {setup['round']} finalised by timer \(pid (\d+)\)")
    found = [m.group(1) for log in logs for m in line.finditer(log.read_text())]
    assert len(found) == 1, found
    assert int(found[0]) in {p.pid for p in procs}
    for log in logs:
        assert "Traceback" not in log.read_text()
