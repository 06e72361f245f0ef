"""The facilitator's roster on PostgreSQL beside a move at the same instant.

A move locks its table and, when it commits, its Action's foreign key takes a
key-share lock on the mover's row. Rename (services.roster.player_rename) updated
the name, which is in a unique index (a key update: a FOR UPDATE lock on the
row), and only then locked the table: holding the row, it waited for the move's
table, and the move's commit waited for the row. PostgreSQL cancelled one of them
("deadlock detected"). Rename now locks the table before it writes the name.
Remove writes the device's token (a key too) once it holds the table's lock, and
the PIN's rejoin writes it waiting for no table a move may hold: both kept so.
"""

from __future__ import annotations

import textwrap

import pytest
from fault_cluster import UNTIL_A_LOCK_WAITS, fresh_database, run_python, running_round

pytestmark = pytest.mark.django_db(transaction=False)

# The move is held just after it has locked its table (services.play._active_game
# runs next), until the other transaction waits for a lock, or 5 s have passed.
# The move then writes and commits as it always does.
HOLD_THE_MOVE = (
    UNTIL_A_LOCK_WAITS
    + """
from tournament.services import play

table_locked = threading.Event()
_active_game = play._active_game

def _held_active_game(player, table):
    found = _active_game(player, table)
    table_locked.set()
    until_a_lock_waits()
    return found

play._active_game = _held_active_game
"""
)


# The facilitator's (or the student's new phone's) call on the mover's row, and what
# it left on the row.
ROSTER = {
    "rename": (
        'services.player_rename(workshop_id=w.pk, player_id=pid, name="Renamed")',
        "row.name",
        "Renamed",
    ),
    "remove": (
        "services.player_kick(workshop_id=w.pk, player_id=pid)",
        "[row.has_left, row.pin]",
        [True, ""],
    ),
    "rejoin": (
        "services.player_rejoin(code=w.code, name=row.name, pin=row.pin)",
        "row.token != token",
        True,
    ),
}


@pytest.mark.parametrize("call", list(ROSTER))
def test_the_roster_beside_the_players_move_waits_not_deadlocks(postgres_url, redis_url, call):
    action, after, expected = ROSTER[call]
    env = {"REDIS_URL": redis_url}
    url = fresh_database(postgres_url, f"barnga_roster_move_{call}")
    result = run_python(
        running_round(
            HOLD_THE_MOVE
            + f"CALL = {action!r}\nAFTER = {after!r}\n"
            + textwrap.dedent(
                """
        from games import five_tricks
        from tournament import gamestate, services
        from tournament.models import Game, GameState, Player

        game = Game.objects.filter(state=GameState.PLAYING, table__workshop=w).first()
        state = gamestate.load_state(game)
        pid = game.players[state.to_act]
        card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
        row = Player.objects.get(pk=pid)
        token = row.token
        out = {}

        def roster():
            try:
                assert table_locked.wait(10)
                eval(CALL)
                out["roster"] = "ok"
            except Exception as exc:
                out["roster"] = repr(exc)[:300]
            finally:
                connection.close()

        t = threading.Thread(target=roster)
        t.start()
        try:
            services.game_play(player_id=pid, card=card)
            out["move"] = "ok"
        except Exception as exc:
            out["move"] = repr(exc)[:300]
        t.join(30)
        row = Player.objects.get(pk=pid)
        out["after"] = eval(AFTER)
        out["seq"] = Game.objects.get(pk=game.pk).seq
        result = out
        """
            ),
            tables=1,
            seats=4,
        ),
        {**env, "DATABASE_URL": url},
    )
    # Both done, in turn: the move kept (never cancelled), then the roster's change.
    assert result == {"roster": "ok", "move": "ok", "after": expected, "seq": 1}, result
