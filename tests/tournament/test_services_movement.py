"""Movement between tables after a scored round: the preview, the facilitator's edits,
applying it once (RULES.md §2 "Movement"; issue 3)."""

from __future__ import annotations

from collections import Counter

import pytest
from tournament_helpers import (
    assert_refused,
    finish_trick,
    fresh,
    game_at,
    make_workshop,
    seated,
    tables_of,
    to_home,
    to_scored_round,
)

from tournament import services
from tournament.errors import InvalidInput, NotFound, WrongPhase
from tournament.models import Movement, Phase, Player, RoundState
from tournament.services.common import sizes_after
from tournament.services.workshops import _planned_change

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended():
    """Round 1 over at two tables of four: at table 1 engine seat 0 took a trick, at
    table 2 engine seat 1 did. Returns (workshop, round, t1, t2, g1, g2)."""
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    g1, g2 = game_at(t1), game_at(t2)
    finish_trick(g1, 0)
    finish_trick(g2, 1)
    services.round_end_now(round_id=rnd.pk)
    return w, fresh(rnd), t1, t2, g1, g2


def where(w) -> dict[int, tuple[int, int]]:
    return {
        p.pk: (p.table.number, p.seat)
        for p in Player.objects.filter(workshop=w, table__isnull=False).select_related("table")
    }


def assert_seats_compact(w):
    for t in tables_of(w):
        assert [p.seat for p in seated(t)] == list(range(len(seated(t))))


def test_apply_moves_the_previewed_players_once(ended):
    w, rnd, t1, t2, g1, g2 = ended
    up = g1.players[0]
    moves = {m["player"]: (m["from"], m["to"]) for m in rnd.movement_preview["moves"]}
    assert moves[up] == (1, 2)
    down = next(pid for pid, (f, t) in moves.items() if (f, t) == (2, 1))
    before = where(w)
    own_sheets = dict(Player.objects.values_list("pk", "rules"))
    homes = dict(Player.objects.values_list("pk", "home_table"))

    records = services.movement_apply(round_id=rnd.pk)
    assert {(r.player_id, r.from_table, r.to_table, r.edited) for r in records} == {
        (up, 1, 2, False),
        (down, 2, 1, False),
    }
    assert Movement.objects.filter(round=rnd).count() == 2
    after = where(w)
    assert after[up][0] == 2 and after[down][0] == 1
    for pid in before:
        if pid not in (up, down):
            assert after[pid][0] == before[pid][0]
    assert_seats_compact(w)
    # Arrivals sit after those who stayed.
    assert after[up][1] == 3 and after[down][1] == 3
    # Their own sheet and home table go with them unchanged.
    assert dict(Player.objects.values_list("pk", "rules")) == own_sheets
    assert dict(Player.objects.values_list("pk", "home_table")) == homes
    assert fresh(rnd).movement_applied_at is not None

    assert_refused(lambda: services.movement_apply(round_id=rnd.pk), WrongPhase)
    assert_refused(lambda: services.movement_edit(round_id=rnd.pk, moves=[]), WrongPhase)


def test_after_movement_a_newcomer_brings_a_different_sheet_to_the_table(ended):
    w, rnd, t1, t2, g1, g2 = ended
    services.movement_apply(round_id=rnd.pk)
    r2 = services.round_start(workshop_id=w.pk)
    game = game_at(t2)
    assert game.round_id == r2.pk
    newcomer = g1.players[0]
    assert newcomer in game.players
    seat = game.players.index(newcomer)
    assert game.seat_rules[seat] == t1.rules != t2.rules
    assert game.table_rules == t2.rules
    others = [r for i, r in enumerate(game.seat_rules) if i != seat]
    assert all(r == t2.rules for r in others)


def test_edit_changes_the_preview_and_marks_edited_moves(ended):
    w, rnd, t1, t2, g1, g2 = ended
    computed = rnd.movement_preview["computed"]
    keep = computed[0]
    stay_put = g1.players[2]  # sits at table 1; the facilitator moves them up as well
    other = g2.players[3]
    preview = services.movement_edit(
        round_id=rnd.pk,
        moves=[
            {"player": keep["player"], "to": keep["to"]},
            {"player": stay_put, "to": 2},
            {"player": other, "to": 2},  # already at table 2: not a move
        ],
    )
    moves = {m["player"]: m for m in preview["moves"]}
    assert set(moves) == {keep["player"], stay_put}
    assert moves[keep["player"]]["edited"] is False
    assert moves[stay_put]["edited"] is True and moves[stay_put]["from"] == 1
    assert fresh(rnd).movement_preview["computed"] == computed  # kept for comparison

    records = services.movement_apply(round_id=rnd.pk)
    by_player = {r.player_id: r for r in records}
    assert set(by_player) == {keep["player"], stay_put}
    assert by_player[stay_put].edited and not by_player[keep["player"]].edited
    sizes = Counter({1: 4, 2: 4})
    for m in moves.values():
        sizes[m["from"]] -= 1
        sizes[m["to"]] += 1
    assert Counter(n for n, _ in where(w).values()) == sizes
    assert_seats_compact(w)


def test_edit_to_nobody_moving(ended):
    w, rnd, *_ = ended
    before = where(w)
    assert services.movement_edit(round_id=rnd.pk, moves=[])["moves"] == []
    assert services.movement_apply(round_id=rnd.pk) == []
    assert where(w) == before
    assert not Movement.objects.exists()


def test_edit_refuses_bad_moves(ended):
    w, rnd, t1, t2, g1, g2 = ended
    p = g1.players[0]
    cases = [
        "everyone up",
        [1, 2],
        [{"player": 999999, "to": 2}],
        [{"player": str(p), "to": 2}],
        [{"player": True, "to": 2}],
        [{"to": 2}],
        [{"player": p, "to": 3}],
        [{"player": p, "to": 0}],
        [{"player": p, "to": "2"}],
        [{"player": p}],
        [{"player": p, "to": 2}, {"player": p, "to": 1}],
        [{"player": p, "to": 2}, {"player": p, "to": 2}],
    ]
    for moves in cases:
        assert_refused(
            lambda moves=moves: services.movement_edit(round_id=rnd.pk, moves=moves),
            InvalidInput,
            case=moves,
        )


def test_edit_refuses_a_table_the_engine_cannot_deal_to():
    w = make_workshop(players=10, tables=2, seats=5)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    t1, t2 = tables_of(w)
    everyone_to_1 = [{"player": p.pk, "to": 1} for p in seated(t2)]
    exc = assert_refused(
        lambda: services.movement_edit(round_id=rnd.pk, moves=everyone_to_1), InvalidInput
    )
    assert "Table 1 would have 10 players" in exc.message
    # Eight is still fine.
    services.movement_edit(round_id=rnd.pk, moves=everyone_to_1[:3])
    services.movement_apply(round_id=rnd.pk)
    assert len(seated(t1)) == 8
    services.round_start(workshop_id=w.pk)
    assert len(game_at(t1).players) == 8


def test_apply_refuses_a_plan_a_late_joiner_has_overfilled_and_changes_nothing():
    """3 Tricks deals to two: a student removed at table 2 and a latecomer sat in
    their place after the round; the plan (made before) then put three at table 2.
    Applied, nothing could move anyone again and no round could start. Apply refuses,
    the facilitator changes the plan, and the next round starts."""
    w = make_workshop(players=6, tables=3, seats=2, game="three_tricks", leave_policy="skip")
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    t1, t2, t3 = tables_of(w)
    plan = fresh(rnd).movement_preview["moves"]
    arriving = [m for m in plan if m["to"] == 2]
    leaving = [m for m in plan if m["from"] == 2]
    assert arriving and leaving
    # Table 2 loses a player who stays there under the plan, if any, else one who leaves.
    stayer = next((p for p in seated(t2) if p.pk not in {m["player"] for m in leaving}), None)
    services.player_kick(workshop_id=w.pk, player_id=(stayer or seated(t2)[0]).pk)
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert fresh(late).table_id == t2.pk
    sizes = Counter(
        next((m["to"] for m in plan if m["player"] == p.pk), p.table.number)
        for p in Player.objects.filter(workshop=w, table__isnull=False).select_related("table")
    )
    assert sizes[2] > 2, sizes  # the plan now overfills table 2 (else pick another seed)
    before = where(w)
    exc = assert_refused(lambda: services.movement_apply(round_id=rnd.pk), InvalidInput)
    assert f"Table 2 would have {sizes[2]} players" in exc.message
    assert "Change the plan" in exc.message
    assert where(w) == before and fresh(rnd).movement_applied_at is None
    # Late goes to the table with room instead; then it applies and a round starts.
    roomy = min((n for n in (1, 3) if sizes[n] < 2), default=None)
    here = set(Player.objects.filter(workshop=w, table__isnull=False).values_list("pk", flat=True))
    moves = [{"player": m["player"], "to": m["to"]} for m in plan if m["player"] in here]
    moves.append({"player": late.pk, "to": roomy})
    services.movement_edit(round_id=rnd.pk, moves=moves)
    services.movement_apply(round_id=rnd.pk)
    assert sorted(len(seated(t)) for t in (t1, t2, t3)) == [2, 2, 2]
    services.round_start(workshop_id=w.pk)


def test_round_start_refuses_a_table_of_more_than_eight_cleanly():
    # Nine at one table cannot be dealt to. Chosen by hand, seating refuses it; two
    # full tables of eight and a seventeenth who joined in the lobby, the study's start.
    w = make_workshop(players=9, tables=2, seats=5)
    exc = assert_refused(
        lambda: services.players_seat_home(
            workshop_id=w.pk, assignment={p.pk: 1 for p in w.players.all()}
        ),
        InvalidInput,
    )
    assert "at most 8" in exc.message
    w = make_workshop(players=16, tables=2, seats=8)
    services.players_seat_home(workshop_id=w.pk)
    services.player_join(workshop_id=w.pk, name="Seventeen")
    exc = assert_refused(lambda: services.workshop_start_study(workshop_id=w.pk), InvalidInput)
    assert "at most 8" in exc.message
    assert fresh(w).phase == Phase.LOBBY


def test_edit_refuses_a_player_of_another_workshop(ended):
    w, rnd, *_ = ended
    other = make_workshop(players=2, tables=1)
    services.players_seat_home(workshop_id=other.pk)
    stranger = other.players.first()
    assert_refused(
        lambda: services.movement_edit(round_id=rnd.pk, moves=[{"player": stranger.pk, "to": 2}]),
        InvalidInput,
    )


def test_movement_refused_before_a_scored_round_has_ended():
    w = make_workshop(players=8, tables=2)
    home = to_home(w)
    services.round_end_now(round_id=home.pk)
    assert_refused(lambda: services.movement_apply(round_id=home.pk), WrongPhase)
    assert_refused(lambda: services.movement_edit(round_id=home.pk, moves=[]), WrongPhase)
    rnd = services.round_start(workshop_id=w.pk)
    assert fresh(rnd).state == RoundState.RUNNING
    assert_refused(lambda: services.movement_apply(round_id=rnd.pk), WrongPhase)
    assert_refused(lambda: services.movement_edit(round_id=rnd.pk, moves=[]), WrongPhase)
    assert_refused(lambda: services.movement_apply(round_id=55555), NotFound)
    assert_refused(lambda: services.movement_edit(round_id=55555, moves=[]), NotFound)


def test_next_round_refused_until_the_movement_is_applied(ended):
    w, rnd, *_ = ended
    assert fresh(w).phase == Phase.BETWEEN
    exc = assert_refused(lambda: services.round_start(workshop_id=w.pk), WrongPhase)
    assert "movement" in exc.message.lower()
    services.movement_edit(round_id=rnd.pk, moves=[])
    assert_refused(lambda: services.round_start(workshop_id=w.pk), WrongPhase)
    services.movement_apply(round_id=rnd.pk)
    assert services.round_start(workshop_id=w.pk).scored_number == 2


def test_movement_with_five_players_a_table_moves_two_each_way():
    w = make_workshop(players=15, tables=3, seats=5)
    rnd = to_scored_round(w)
    ts = tables_of(w)
    for t in ts:
        finish_trick(game_at(t), 0)
    services.round_end_now(round_id=rnd.pk)
    rnd.refresh_from_db()
    moves = rnd.movement_preview["moves"]
    by_route = Counter((m["from"], m["to"]) for m in moves)
    assert by_route == {(1, 2): 2, (2, 3): 2, (2, 1): 2, (3, 2): 2}
    services.movement_apply(round_id=rnd.pk)
    sizes = [len(seated(t)) for t in ts]
    assert sizes == [5, 5, 5]
    assert_seats_compact(w)
    assert Movement.objects.filter(round=rnd).count() == 8


def test_a_player_who_left_between_rounds_does_not_block_the_movement(ended):
    w, rnd, t1, t2, g1, g2 = ended
    mover = g1.players[0]
    services.player_leave(player_id=mover, policy="skip")
    records = services.movement_apply(round_id=rnd.pk)
    assert mover not in {r.player_id for r in records}
    assert fresh(Player.objects.get(pk=mover)).table_id is None
    assert_seats_compact(w)
    services.round_start(workshop_id=w.pk)


def test_late_joiner_between_rounds_is_seated_and_moved_by_nobody(ended):
    """Their phone said 'You won 0 games this round. Wait for the facilitator: if
    there is another round, you may move to another table': they played no game in
    it and nobody moves them."""
    from django.template.loader import render_to_string

    from tournament import selectors

    def screen():
        return render_to_string("play/_screen.html", selectors.player_screen(late.pk))

    w, rnd, t1, t2, *_ = ended
    late = services.player_join(workshop_id=w.pk, name="Late")
    number = fresh(late).table.number
    for _ in ("before the movement", "after it"):
        html = screen()
        assert f"You joined after it: your seat is at table {number}." in html
        assert "You won" not in html and "you may move" not in html
        if fresh(rnd).movement_applied_at is None:
            records = services.movement_apply(round_id=rnd.pk)
    assert late.pk not in {r.player_id for r in records}
    assert fresh(late).table.number == number
    assert_seats_compact(w)


def test_a_late_joiner_between_rounds_sits_where_the_plan_leaves_most_room(ended):
    """Two tables of four; the facilitator's plan brings two of table 2 to table 1
    (six and two next round). A student who joins now sat at the smallest table as
    it was (table 1, the lower number of two fours): seven and two. They sit where
    the plan leaves fewest, table 2: six and three; the plan and its moves are as
    saved, and it applies."""
    w, rnd, t1, t2, *_ = ended
    two = [p.pk for p in seated(t2)][:2]
    services.movement_edit(round_id=rnd.pk, moves=[{"player": pk, "to": 1} for pk in two])
    plan = fresh(rnd).movement_preview
    # What the join counts on: each table's change by the plan, not its size after it.
    assert +_planned_change(fresh(w)) == {1: 2} and -_planned_change(fresh(w)) == {2: 2}
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert fresh(late).table_id == t2.pk
    assert fresh(rnd).movement_preview == plan
    services.movement_apply(round_id=rnd.pk)
    assert (len(seated(t1)), len(seated(t2))) == (6, 3)
    assert_seats_compact(w)


def test_sizes_after_a_plan_count_who_stays_who_moves_and_not_who_left():
    seated = {10: 1, 11: 1, 12: 1, 20: 2, 21: 2}
    moves = [
        {"player": 10, "to": 2},  # moves
        {"player": 20, "to": 2},  # "moves" where they sit
        {"player": 99, "to": 1},  # left since the plan: lapses
    ]
    assert sizes_after(seated, moves) == {1: 2, 2: 3}
    assert sizes_after(seated, []) == {1: 3, 2: 2}


def test_movement_refused_once_the_debrief_has_begun(ended):
    w, rnd = ended[0], ended[1]
    services.workshop_start_debrief(workshop_id=w.pk)
    assert_refused(lambda: services.movement_apply(round_id=rnd.pk), WrongPhase, "wrong_phase")
    assert_refused(
        lambda: services.movement_edit(round_id=rnd.pk, moves=[]), WrongPhase, "wrong_phase"
    )


def test_a_move_the_facilitator_cancelled_is_recorded_as_their_choice(ended):
    """The rule moved the winner of table 1 up; the facilitator kept them there. No
    Movement row says so: the round keeps it, and the export, the report and the
    panel show 'stayed (changed)', not an ordinary stay."""
    import json

    from django.contrib.auth.models import User
    from django.test import Client

    from tournament import export, report
    from tournament.models import Workshop

    w, rnd, *_ = ended
    computed = rnd.movement_preview["computed"]
    cancelled = computed[0]
    moves = [{"player": m["player"], "to": m["to"]} for m in computed[1:]]
    moves.append({"player": cancelled["player"], "to": cancelled["from"]})
    services.movement_edit(round_id=rnd.pk, moves=moves)
    services.movement_apply(round_id=rnd.pk)
    kept = [{"player": cancelled["player"], "table": cancelled["from"], "rule": cancelled["to"]}]
    assert fresh(rnd).movement_preview["kept"] == kept
    doc = json.loads(json.dumps(export.workshop_document(w)))
    exported = next(r for r in doc["rounds"] if r["number"] == rnd.number)
    assert exported["kept"] == kept
    assert all(r["kept"] == [] for r in doc["rounds"] if r["number"] != rnd.number)
    rows = [
        p
        for rd in report.results(doc, report.Index(doc))
        if rd["round"] == rnd.number
        for t in rd["tables"]
        for p in t["players"]
    ]
    row = next(p for p in rows if p["id"] == cancelled["player"])
    assert (row["moved"], row["edited"]) == ("", True)
    assert sum(p["edited"] for p in rows) == 1
    # The report's moves table lists it too (it was in the results alone), not as a move.
    mv = report.movement(doc, report.Index(doc))
    assert cancelled["player"] not in {m["player"] for m in mv["moves"]}
    listed = [m for m in mv["listed"] if m["player"] == cancelled["player"]]
    assert [(m["from"], m["to"], m["direction"], m["edited"]) for m in listed] == [
        (
            cancelled["from"],
            cancelled["from"],
            f"stayed (the rule said table {cancelled['to']})",
            True,
        )
    ]
    assert len(mv["listed"]) == len(mv["moves"]) + 1
    owner = User.objects.create_user("ada", password="a-long-pass-123")
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    client = Client()
    client.force_login(owner)
    panel = client.get(f"/workshops/{w.pk}/").content.decode()
    name = Player.objects.get(pk=cancelled["player"]).name
    assert (
        f"<bdi>{name}</bdi>: stays at table {cancelled['from']} (your change; the rule said table "
        f"{cancelled['to']})" in panel
    )


def test_a_table_nobody_sits_at_is_neither_the_top_nor_taken_into_the_movement():
    """Five at three tables of four sit 3 and 2, table 3 empty (the automatic seating
    keeps a small class together). Counted as the top table, table 3 took table 2's
    winner alone and left one player at table 2: two tables too small for a game."""
    w = make_workshop(players=5, tables=3, seats=4)
    rnd = to_scored_round(w)
    t1, t2, t3 = tables_of(w)
    assert [len(seated(t)) for t in (t1, t2, t3)] == [3, 2, 0]
    for t in (t1, t2):
        finish_trick(game_at(t), 0)  # a game's first trick: a winner at each table
    services.round_end_now(round_id=rnd.pk)
    moves = fresh(rnd).movement_preview["moves"]
    assert all(m["to"] != 3 for m in moves)
    # Table 1's winner and table 2's loser change places; table 2's winner stays on top.
    assert sorted((m["from"], m["to"]) for m in moves) == [(1, 2), (2, 1)]
    after = sizes_after(services.common.seated_tables(fresh(w)), moves)
    assert after == Counter({1: 3, 2: 2})
