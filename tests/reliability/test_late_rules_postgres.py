"""A latecomer's first move in a scored round folds their unread sheet
(services.play._folds_late_rules) on PostgreSQL, while Remove (or the PIN's rejoin)
holds their row: those lock the workshop, the player's row, then the table's; a move
locks the table's. The fold first updated the player's row inside the move, holding
the table's lock: the two deadlocked, and PostgreSQL cancelled the move (the student
told it may be lost). It now folds after the move has committed."""

from __future__ import annotations

import pytest
from fault_cluster import fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.mark.parametrize("unread", [True, False], ids=["sheet-unread", "sheet-read"])
def test_a_latecomers_first_move_waits_for_a_lock_on_their_row_not_deadlocks(
    postgres_url, redis_url, unread
):
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, f"barnga_late_rules_{int(unread)}")
    result = run_python(
        f"UNREAD = {unread}\n"
        + running_round(
            """
        import threading, time
        from django.db import connection, transaction
        from games import five_tricks
        from tournament import gamestate, services
        from tournament.models import Game, GameState, Player, Table
        from tournament.services.common import lock_workshop
        from tournament.services.roster import _lock_member

        game = Game.objects.filter(state=GameState.PLAYING, table__workshop=w).first()
        state = gamestate.load_state(game)
        pid = game.players[state.to_act]
        Player.objects.filter(pk=pid).update(rules_unread=UNREAD)
        card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
        out = {}
        locked = threading.Event()

        def remove_like():
            # Remove's order (services.roster): the workshop, the player's row, then,
            # while the move below waits for nothing of it, the table's.
            try:
                with transaction.atomic():
                    member = _lock_member(lock_workshop(w.pk), pid)
                    locked.set()
                    time.sleep(1.0)
                    Table.objects.select_for_update(no_key=True).get(pk=member.table_id)
                out["other"] = "ok"
            except Exception as exc:
                out["other"] = repr(exc)[:200]
            finally:
                connection.close()

        t = threading.Thread(target=remove_like)
        t.start()
        assert locked.wait(10)
        try:
            r = services.game_play(player_id=pid, card=card)
            out["move"] = ["ok", r.rules_folded]
        except Exception as exc:
            out["move"] = repr(exc)[:200]
        t.join()
        out["unread_after"] = Player.objects.get(pk=pid).rules_unread
        out["played"] = Game.objects.get(pk=game.pk).seq
        result = out
        """,
            tables=1,
            seats=4,
        ),
        {**env, "DATABASE_URL": url},
    )
    assert result["other"] == "ok", result
    assert result["move"] == ["ok", unread], result
    assert result["unread_after"] is False and result["played"] >= 1, result
