"""An action's rows written as one round trip on PostgreSQL (tournament.rawsql.Writes).

Whole games through the services, with disputes decided by the claim timer: every
row agrees with the replay of the log (tournament.integrity), JSON is stored as
JSON (not as a string of it), a duplicate changes nothing, and an ordinary play
costs three statements between BEGIN and COMMIT: the lock, the read, and its
three writes as one (WITH clauses), each of them prepared on the server once per
connection; a game's last action adds only the next deal's three.
"""

from __future__ import annotations

import pytest
from fault_cluster import fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)

DRIVER = """
    from datetime import timedelta
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from games import five_tricks
    from tournament import gamestate, integrity
    from tournament.errors import DuplicateAction
    from tournament.models import Action, Claim, Dispute, Game, Table, TrickRecord

    def next_action(game, n):
        state = gamestate.load_state(game)
        if state.phase != "claim":
            seat = state.to_act
            card = five_tricks.legal_actions(state, seat)[0]["card"]
            return lambda: services.game_play(player_id=game.players[seat], card=card,
                                              client_action_id=f"a{n}")
        if state.dispute:
            return lambda: services.game_claim_timeout(
                game_id=game.pk, at=game.claim_deadline + timedelta(seconds=1))
        seat = next(s for s, c in enumerate(state.claims) if c is None)
        winner = state.current[0][0]
        if seat == 0 and len(state.completed) % 2 == 0:
            winner = state.current[1][0]  # every other trick, seat 0 disagrees
        return lambda: services.game_claim(player_id=game.players[seat],
                                           winner_player_id=game.players[winner],
                                           client_action_id=f"a{n}")

    play_statements = set()  # what an ordinary play (not a game's first or last) sends
    end_statements = set()  # what a game's last action sends (it deals the next game)
    n = 0
    while Game.objects.filter(state="over").count() < 2 and n < 500:
        game = Game.objects.filter(state="playing").get()
        plain_play = gamestate.load_state(game).phase == "play" and game.seq > 0
        act = next_action(game, n)
        with CaptureQueriesContext(connection) as ctx:
            act()
        sent = tuple(q["sql"].split()[0] for q in ctx.captured_queries)
        if not Game.objects.filter(pk=game.pk, state="playing").exists():
            end_statements.add(sent)
        elif plain_play:
            play_statements.add(sent)
        n += 1

    # The action's lock and read, run dozens of times on this connection, are
    # prepared statements there (rawsql.prepared_cursor); Django's are not. (Before
    # the refusal below: psycopg forgets its prepared statements on a rollback.)
    with connection.cursor() as cur:
        cur.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cur.fetchall()]

    # A duplicate (same client id) is refused and writes nothing.
    last = Action.objects.filter(client_action_id__isnull=False).latest("pk")
    game = last.game
    before = (Action.objects.count(), Table.objects.get(pk=game.table_id).version)
    state = gamestate.load_state(game)
    try:
        if state.phase == "claim":
            services.game_claim(player_id=last.actor_id, winner_player_id=last.actor_id,
                                client_action_id=last.client_action_id)
        else:
            services.game_play(player_id=last.actor_id, card="2C",
                               client_action_id=last.client_action_id)
        duplicate = "accepted"
    except DuplicateAction:
        duplicate = "refused"
    after = (Action.objects.count(), Table.objects.get(pk=game.table_id).version)

    with connection.cursor() as cur:
        cur.execute(
            "SELECT"
            " (SELECT count(*) FROM tournament_action WHERE jsonb_typeof(payload) <> 'object'"
            "   OR jsonb_typeof(events) <> 'array'),"
            " (SELECT count(*) FROM tournament_trickrecord WHERE jsonb_typeof(cards) <> 'array'"
            "   OR jsonb_typeof(claims) <> 'array' OR jsonb_typeof(verdicts) <> 'array'),"
            " (SELECT count(*) FROM tournament_dispute WHERE jsonb_typeof(initial_claims) <> 'array'"
            "   OR jsonb_typeof(final_claims) <> 'array')"
        )
        not_json = list(cur.fetchone())
    checked, problems = integrity.workshop_problems(w.pk)
    claims_logged = Action.objects.filter(kind="claim", actor__isnull=False).count()
    result = {
        "games_checked": checked,
        "problems": problems,
        "over": Game.objects.filter(state="over").count(),
        "claims": [Claim.objects.count(), claims_logged],
        "tricks": TrickRecord.objects.count(),
        "disputes": Dispute.objects.count(),
        "unresolved": Dispute.objects.filter(resolved_at__isnull=True).count(),
        "timeouts": TrickRecord.objects.filter(resolution="timeout").count(),
        "not_json": not_json,
        "duplicate": duplicate,
        "unchanged": before == after,
        "play_statements": sorted(play_statements),
        "end_statements": sorted(end_statements),
        "prepared": sorted({
            ("lock" if "FOR NO KEY UPDATE OF t" in sql else
             "read" if "EXISTS(SELECT 1 FROM tournament_action" in sql else
             "play" if sql.startswith('WITH w0 AS (INSERT INTO "tournament_action"')
             and sql.count(" AS (") == 2 and 'UPDATE "tournament_game"' in sql
             and 'UPDATE "tournament_table"' in sql else "other")
            for sql in prepared
        }),
    }
"""


def test_whole_games_written_in_one_round_trip_per_action_agree_with_their_logs(
    postgres_url, redis_url
):
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_writes")
    r = run_python(running_round(DRIVER, tables=1, seats=4), {**env, "DATABASE_URL": url})
    assert r["problems"] == [] and r["games_checked"] >= 3  # two over, one in play
    assert r["over"] == 2
    assert r["claims"][0] == r["claims"][1] > 0
    assert r["tricks"] >= 10
    assert r["disputes"] > 0 and r["unresolved"] <= 1 and r["timeouts"] > 0
    assert r["not_json"] == [0, 0, 0]
    assert r["duplicate"] == "refused" and r["unchanged"]
    # Lock, read, and the writes (INSERT action; UPDATE game; UPDATE table) as one.
    assert r["play_statements"] == [["BEGIN", "SELECT", "SELECT", "WITH", "COMMIT"]]
    # A game's last action (here the claim timer's, which reads the game too): after
    # its reads, its rows and the game's result as one, then the next deal (the
    # seated players, the new game, the table's version again).
    assert r["end_statements"]
    for sent in r["end_statements"]:
        writes = sent.index("WITH")
        assert sent[0] == "BEGIN" and set(sent[1:writes]) == {"SELECT"}, sent
        assert sent[writes:] == ["WITH", "SELECT", "INSERT", "UPDATE", "COMMIT"], sent
    # Prepared on the server: the action's lock and read, and a play's writes.
    assert {"lock", "read", "play"} <= set(r["prepared"]), r["prepared"]


def test_a_unique_violation_in_the_writes_is_a_refused_duplicate_on_postgres(
    postgres_url, redis_url
):
    """Two actions with one seq (what the table lock and the client-id check should
    never let through): the second's writes fail as an IntegrityError the action
    turns into DuplicateAction, and roll back whole: its table version (another
    clause of the same statement) is not written, and the connection serves the
    next action. Ten times over, so the statement is prepared by then."""
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, "barnga_writes_dup")
    result = run_python(
        running_round(
            """
        from django.db import transaction
        from django.utils import timezone
        from games import five_tricks
        from tournament import gamestate, rawsql
        from tournament.errors import DuplicateAction
        from tournament.models import Action, Game, Table
        from tournament.services import play

        game = Game.objects.get(state="playing")
        outcomes = []
        for i in range(10):
            state = gamestate.load_state(game)
            if state.phase == "play":
                seat = state.to_act
                card = five_tricks.legal_actions(state, seat)[0]["card"]
                services.game_play(player_id=game.players[seat], card=card, client_action_id=f"p{i}")
            else:  # everyone agrees: no dispute
                seat = next(s for s, c in enumerate(state.claims) if c is None)
                winner = state.current[0][0]
                services.game_claim(player_id=game.players[seat],
                                    winner_player_id=game.players[winner], client_action_id=f"p{i}")
            game.refresh_from_db()
            table = Table.objects.get(pk=game.table_id)
            before = (Action.objects.count(), table.version, game.seq)
            try:
                with transaction.atomic():
                    game.seq += 1  # as play._apply does; the row below takes the last seq
                    writes = rawsql.Writes()
                    writes.insert(Action, game_id=game.pk, seq=game.seq - 1, actor_id=None,
                                  kind="play", payload={}, events=[], client_action_id=None,
                                  created_at=timezone.now())
                    writes.update(Table, {"id": table.pk}, version=table.version + 1)
                    play._send_action(writes, game)
                outcomes.append("written")
            except DuplicateAction:
                outcomes.append("refused")
            table.refresh_from_db()
            after = (Action.objects.count(), table.version, game.seq)  # seq as it was
            outcomes.append(before == after)
            game.refresh_from_db()
        result = {"outcomes": outcomes}
        """,
            tables=1,
            seats=4,
        ),
        {**env, "DATABASE_URL": url},
    )
    assert result == {"outcomes": ["refused", True] * 10}
