"""roster.player_let_back_in: a student removed by mistake gets a new rejoin PIN, and
with it (services.player_rejoin) their seat back from the bot, or a seat as a late
joiner when theirs went."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
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

from tournament import gamestate, names, selectors, services, timers
from tournament.errors import InvalidInput, NotFound, WrongPhase
from tournament.models import GameState, Phase, Player

pytestmark = pytest.mark.django_db


def removed_then_let_in(w, player) -> Player:
    """Remove `player`, check their PIN went, and let them back in."""
    old_pin = player.pin
    services.player_kick(workshop_id=w.pk, player_id=player.pk)
    assert fresh(player).pin == ""
    back = services.player_let_back_in(workshop_id=w.pk, player_id=player.pk)
    assert back.pk == player.pk and back.pin and back.let_in_at is not None
    # The PIN of before the removal brings nothing back; only the new one does.
    if old_pin != back.pin:
        assert_refused(
            lambda: services.player_rejoin(code=w.code, name=player.name, pin=old_pin),
            InvalidInput,
        )
    return back


def test_let_back_in_mid_round_with_a_bot_in_the_seat_gives_the_seat_back(
    django_capture_on_commit_callbacks,
):
    w = make_workshop(players=4, tables=1, seats=4)
    assert w.leave_policy == "bot"
    to_scored_round(w)
    table = tables_of(w)[0]
    game = game_at(table)
    state = gamestate.load_state(game)
    p = Player.objects.get(pk=game.players[state.to_act])  # the seat the game waits for
    seat = p.seat
    back = removed_then_let_in(w, p)
    # Nothing at the table changes until the student is back: the bot still plays.
    p = fresh(p)
    assert p.has_left and p.table_id == table.pk and p.seat == seat
    version = fresh(table).version
    with django_capture_on_commit_callbacks(execute=True):
        again = services.player_rejoin(code=w.code, name=p.name, pin=back.pin)
    again = fresh(again)
    assert not again.has_left and again.table_id == table.pk and again.seat == seat
    assert again.pin and again.pin != back.pin and again.token
    assert len(again.absences) == 1  # the report gives the bot the games in between
    # The game goes on, not cut, with them in their seat.
    assert game_at(table).pk == game.pk and fresh(game).state == GameState.PLAYING
    # The other phones are drawn again: they stop saying a bot plays the seat.
    assert fresh(table).version > version
    other = Player.objects.filter(table=table).exclude(pk=p.pk).first()
    seat_lines = selectors.player_screen(other.pk)["neighbours"]
    mine = next(n for n in seat_lines if n["id"] == p.pk)
    assert not mine["left"]
    # No bot plays it now: the game waits for the student's own move.
    seq = fresh(game).seq
    timers.tick(timezone.now() + timedelta(seconds=30), bot_delay=0)
    assert fresh(game).seq == seq
    assert gamestate.load_state(fresh(game)).to_act == seat


def test_let_back_in_mid_round_when_the_seat_went_seats_them_as_a_late_joiner():
    w = make_workshop(players=8, tables=2, seats=4, leave_policy="skip")
    to_scored_round(w)
    t1, t2 = tables_of(w)
    p = Player.objects.get(pk=game_at(t1).players[0])
    back = removed_then_let_in(w, p)
    p = fresh(p)
    assert p.has_left and p.table_id is None
    # Table 1 plays on with three (redealt when they left); table 2 is not touched.
    game1, game2 = game_at(t1), game_at(t2)
    assert p.pk not in game1.players
    services.player_rejoin(code=w.code, name=p.name, pin=back.pin)
    p = fresh(p)
    # The smallest table (table 1, three players) seats them at its end; neither game
    # in progress is cut or dealt again for it.
    assert not p.has_left and p.table_id == t1.pk and p.seat == 4
    assert game_at(t1).pk == game1.pk and game_at(t2).pk == game2.pk
    assert p.pk not in fresh(game1).players


@pytest.mark.parametrize("policy", ["bot", "skip"])
def test_let_back_in_between_rounds(policy):
    w = make_workshop(players=8, tables=2, seats=4, leave_policy=policy)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    assert fresh(w).phase == Phase.BETWEEN
    t1 = tables_of(w)[0]
    p = Player.objects.filter(table=t1).order_by("seat").first()
    seat = p.seat
    back = removed_then_let_in(w, p)
    services.player_rejoin(code=w.code, name=p.name, pin=back.pin)
    p = fresh(p)
    assert not p.has_left and p.table_id is not None
    if policy == "bot":
        assert (p.table_id, p.seat) == (t1.pk, seat)  # their own seat, from the bot
    else:  # the smallest table once the movement planned is applied, as a late joiner
        assert p.table.workshop_id == w.pk and p.seat is not None


def test_let_back_in_in_silent_play():
    w = make_workshop(players=4, tables=1, seats=4)
    to_home(w)
    p = Player.objects.get(name="P02")
    back = removed_then_let_in(w, p)
    services.player_rejoin(code=w.code, name="P02", pin=back.pin)
    assert not fresh(p).has_left


def test_let_back_in_refusals_change_nothing():
    w = make_workshop(players=4, tables=1, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk)
    # The lobby: Remove deleted the player, and nobody removed is there to let in.
    in_lobby = Player.objects.get(name="P01")
    exc = assert_refused(
        lambda: services.player_let_back_in(workshop_id=w.pk, player_id=in_lobby.pk), WrongPhase
    )
    assert "lobby" in exc.message
    to_scored_round(w)
    # A player still in the workshop.
    exc = assert_refused(
        lambda: services.player_let_back_in(workshop_id=w.pk, player_id=in_lobby.pk),
        InvalidInput,
    )
    assert exc.message == "P01 was not removed: they are still in the workshop."
    # Let back in already: asked again, the PIN is not changed under the student.
    p = Player.objects.get(name="P02")
    removed_then_let_in(w, p)
    exc = assert_refused(
        lambda: services.player_let_back_in(workshop_id=w.pk, player_id=p.pk), InvalidInput
    )
    assert "can already come back" in exc.message
    # Another workshop's player, and no player at all.
    other = make_workshop(players=4, tables=1, seats=4)
    to_home(other)
    stranger = Player.objects.get(workshop=other, name="P03")
    services.player_kick(workshop_id=other.pk, player_id=stranger.pk)
    for pid in (stranger.pk, 999999, "x"):
        assert_refused(
            lambda pid=pid: services.player_let_back_in(workshop_id=w.pk, player_id=pid),
            NotFound,
        )
    # The debrief: the tournament is over.
    gone = Player.objects.get(workshop=w, name="P03")
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    exc = assert_refused(
        lambda: services.player_let_back_in(workshop_id=w.pk, player_id=gone.pk), WrongPhase
    )
    assert "over" in exc.message


def test_a_removed_bot_is_not_let_back_in():
    w = make_workshop(players=2, tables=1, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    to_scored_round(w)
    bot = Player.objects.filter(workshop=w, is_bot=True).first()
    services.player_kick(workshop_id=w.pk, player_id=bot.pk)
    assert fresh(bot).has_left
    exc = assert_refused(
        lambda: services.player_let_back_in(workshop_id=w.pk, player_id=bot.pk), InvalidInput
    )
    assert exc.message == f"{bot.name} is a bot: only a student can be let back in."


def test_the_join_form_asks_a_student_let_back_in_for_their_pin():
    """Typing their name again on the join form, they are asked whether it is them
    (then the PIN), not seated a second time as "P01 2"; while removed, not asked."""
    w = make_workshop(players=4, tables=1, seats=4)
    to_home(w)
    p = Player.objects.get(name="P01")
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    assert selectors.name_in_use(w.code, "p01") is None
    services.player_let_back_in(workshop_id=w.pk, player_id=p.pk)
    assert selectors.name_in_use(w.code, "p01") == "P01"
    assert names.name_key("P01") == fresh(p).name_key


def test_the_export_and_the_report_record_a_let_back_in():
    """Neither the export nor the report said a student was removed and let back in:
    the report read "left during Round 1, back during Round 1" as if they had walked
    out. The JSON keeps `let_in_at` (and players.csv its column), and section 5 says
    who removed them ("removed …, let back in …"), back or not yet."""
    from django.template.loader import render_to_string

    from tournament import export, report

    w = make_workshop(players=4, tables=1, seats=4)
    to_scored_round(w)
    p, q = Player.objects.filter(workshop=w).order_by("seat")[:2]
    back = removed_then_let_in(w, p)
    services.player_rejoin(code=w.code, name=p.name, pin=back.pin)
    removed_then_let_in(w, q)  # not back yet

    doc = json.loads(json.dumps(export.workshop_document(fresh(w))))
    rows = {x["id"]: x for x in doc["players"]}
    assert rows[p.pk]["let_in_at"] == fresh(p).let_in_at.isoformat()
    assert rows[q.pk]["let_in_at"] == fresh(q).let_in_at.isoformat()
    assert {x["let_in_at"] for i, x in rows.items() if i not in (p.pk, q.pk)} == {None}
    header, lines = export.csv_tables(doc)["players"]
    assert header[-2:] == ["away", "let_in_at"]
    cells = {r[0]: dict(zip(header, r, strict=True)) for r in lines}
    assert cells[p.pk]["let_in_at"] == rows[p.pk]["let_in_at"]
    assert cells[q.pk]["let_in_at"] == rows[q.pk]["let_in_at"]

    rep = report.build_report(doc)
    said = {x["id"]: x for x in rep["players"]}
    assert said[p.pk]["away"] == [
        "removed during Round 1, let back in during Round 1, back during Round 1"
    ]
    assert not said[p.pk]["left"]
    assert said[q.pk]["left"] and said[q.pk]["left_when"] == (
        "removed during Round 1, let back in during Round 1, not back yet"
    )
    html = render_to_string("report/page.html", {"r": rep, "workshop": fresh(w)})
    assert "“Removed …, let back in …”: the facilitator removed the player" in html
    # One who left on their own, and came back, is not said to have been removed.
    w = make_workshop(players=4, tables=1, seats=4)
    to_scored_round(w)
    r = Player.objects.filter(workshop=w).first()
    services.player_leave(player_id=r.pk)
    services.player_rejoin(code=w.code, name=r.name, pin=fresh(r).pin)
    rep = report.build_report(json.loads(json.dumps(export.workshop_document(fresh(w)))))
    assert [x["away"] for x in rep["players"] if x["id"] == r.pk] == [
        ["left during Round 1, back during Round 1"]
    ]
    assert "let back in" not in render_to_string(
        "report/page.html", {"r": rep, "workshop": fresh(w)}
    )


def test_a_student_let_back_in_twice_is_said_removed_both_times():
    """Only the latest let-back-in is the player's (`let_in_at`): the first removal read
    "left during Round 1, back during Round 1" as if they had walked out. Each time
    away keeps its own (`absences[].let_in`)."""
    from tournament import export, report

    w = make_workshop(players=4, tables=1, seats=4)
    to_scored_round(w)
    p = Player.objects.filter(workshop=w).order_by("seat").first()
    for _ in range(2):
        back = removed_then_let_in(w, p)
        services.player_rejoin(code=w.code, name=p.name, pin=back.pin)
    # Then they leave on their own and come back: no let-back-in said there.
    services.player_leave(player_id=p.pk)
    services.player_rejoin(code=w.code, name=p.name, pin=fresh(p).pin)

    doc = json.loads(json.dumps(export.workshop_document(fresh(w))))
    away = next(x for x in doc["players"] if x["id"] == p.pk)["absences"]
    assert [bool(a.get("let_in")) for a in away] == [True, True, False]
    assert away[0]["let_in"] < away[1]["let_in"] == fresh(p).let_in_at.isoformat()
    said = next(x for x in report.build_report(doc)["players"] if x["id"] == p.pk)["away"]
    removed = "removed during Round 1, let back in during Round 1, back during Round 1"
    assert said == [removed, removed, "left during Round 1, back during Round 1"]


def round_ended_with_seats_going():
    """Two tables of four whose seats go when a player leaves, between rounds after a
    scored round (a trick each, its movement planned, not applied): the workshop, the
    round and the two tables."""
    w = make_workshop(players=8, tables=2, seats=4, leave_policy="skip")
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    finish_trick(game_at(t1), 0)
    finish_trick(game_at(t2), 1)
    services.round_end_now(round_id=rnd.pk)
    return w, rnd, t1, t2


def test_a_student_back_between_rounds_after_their_seat_went_sits_out_of_the_plan():
    """The seat went: a student let back in between rounds, before the movement is
    applied, sits at the table the plan leaves smallest, as a late joiner does. The
    plan's move the rule had made for them (from the table they played at) no longer
    applies: kept, it moved them on Apply from the table they had just been given, and
    the rule's move they 'did not make' was recorded as the facilitator's choice. The
    others' moves are as planned."""
    w, rnd, t1, t2 = round_ended_with_seats_going()
    plan = fresh(rnd).movement_preview
    down = next(m for m in plan["moves"] if m["from"] == 1)  # table 1's loser, to table 2
    others = [m for m in plan["moves"] if m["player"] != down["player"]]
    p = Player.objects.get(pk=down["player"])
    back = removed_then_let_in(w, p)
    services.player_rejoin(code=w.code, name=p.name, pin=back.pin)
    p = fresh(p)
    # Table 2 gives one and gains none now: it is the smaller after the plan.
    assert p.table.number == 2
    after = fresh(rnd).movement_preview
    assert [m["player"] for m in after["moves"]] == [m["player"] for m in others]
    assert p.pk not in {m["player"] for m in after["computed"]}
    records = services.movement_apply(round_id=rnd.pk)
    assert p.pk not in {r.player_id for r in records}
    assert {r.player_id for r in records} == {m["player"] for m in others}
    assert fresh(p).table.number == 2
    assert p.pk not in {k["player"] for k in fresh(rnd).movement_preview["kept"]}
    assert (len(seated(t1)), len(seated(t2))) == (4, 4)


def test_a_student_back_where_the_plan_did_not_send_them_stays_there():
    """A late joiner took the room the plan had left at table 2, where the rule sent
    the student whose seat went: back, they sit at table 1 (both four after the plan,
    the lower number), and Apply leaves them there, not at table 2 as their old move
    said (five players there, and a phone that had said table 1)."""
    w, rnd, t1, t2 = round_ended_with_seats_going()
    down = next(m for m in fresh(rnd).movement_preview["moves"] if m["from"] == 1)
    p = Player.objects.get(pk=down["player"])
    back = removed_then_let_in(w, p)
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert fresh(late).table == t2
    services.player_rejoin(code=w.code, name=p.name, pin=back.pin)
    assert fresh(p).table == t1
    services.movement_apply(round_id=rnd.pk)
    assert fresh(p).table == t1
    assert (len(seated(t1)), len(seated(t2))) == (5, 4)
