"""Sockets' screens from parts cached per version (tournament.screencache).

A table change is rendered on every socket at the table: the table's part costs a
fixed handful of queries once per version per process, the workshop's part once
per workshop version, and each seat's own screen none at all. And a screen built
from cached parts is exactly the one the page load builds from the database.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from tournament_helpers import (
    HIGH,
    LOW,
    claim_all,
    expire,
    finish_trick,
    five_tricks_step,
    fresh,
    game_at,
    make_workshop,
    open_dispute,
    play_one,
    play_until_claim,
    set_seat_sheets,
    state_of,
    tables_of,
    to_home,
    to_scored_round,
)

from games import five_tricks
from tournament import screencache, selectors, services, timers
from tournament.errors import WrongPhase
from tournament.models import Dispute, Game, Player
from tournament.templatetags.cards import card_name

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_screencache():
    screencache.clear()
    yield
    screencache.clear()


def scored(players: int, tables: int):
    w = make_workshop(players=players, tables=tables, seats=5)
    rnd = to_scored_round(w)
    return w, rnd, tables_of(w)


def queries(fn, *args, **kw):
    with CaptureQueriesContext(connection) as ctx:
        result = fn(*args, **kw)
    return result, len(ctx.captured_queries)


def seat_screen(player_id: int) -> str:
    """The screen a page load shows this player now."""
    return render_to_string("play/_screen.html", selectors.player_screen(player_id, timezone.now()))


def render(player, wpart, tpart, now):
    return render_to_string(
        "play/_screen.html", selectors.compose_screen(player, wpart, tpart, now)
    )


def test_a_change_costs_the_table_part_once_and_each_seat_nothing():
    w, rnd, (t1, _) = scored(10, 2)
    play_one(game_at(t1))
    t1.refresh_from_db()
    wpart, n_workshop = queries(screencache.load_workshop, w.pk, 0)
    tpart, n_table = queries(screencache.load_table, t1.pk, t1.version, rnd.pk)
    # workshop, round, every player's row, the tables' versions, version re-check
    assert n_workshop <= 5
    assert n_table <= 6  # table, seated players, games, replay of new actions, re-check
    # The other sockets of the table find both parts cached…
    assert queries(screencache.load_table, t1.pk, t1.version, rnd.pk) == (tpart, 0)
    assert queries(screencache.load_workshop, w.pk, w.version) == (wpart, 0)
    # …and compose and render their own seat without a query.
    now = timezone.now()
    with CaptureQueriesContext(connection) as ctx:
        for pid in tpart["seated"]:
            player = screencache.player_from_row(wpart["players"][pid])
            assert 'data-action="play"' in render(player, wpart, tpart, now)
    assert len(ctx.captured_queries) == 0


def test_query_counts_do_not_grow_with_players_or_tables():
    counts = []
    for tables in (2, 8):
        screencache.clear()
        w, rnd, ts = scored(5 * tables, tables)
        play_one(game_at(ts[-1]))
        ts[-1].refresh_from_db()
        counts.append(
            (
                queries(screencache.load_workshop, w.pk, 0)[1],
                queries(screencache.load_table, ts[-1].pk, ts[-1].version, rnd.pk)[1],
            )
        )
    assert counts[0] == counts[1]


def test_cached_parts_render_exactly_the_page_loads_screen():
    w, rnd, (t1, t2) = scored(9, 2)
    game = game_at(t1)
    state = play_until_claim(game)
    claim_all(game, state.current[0][0])  # a finished trick: "last trick" and counts
    play_one(game)
    now = timezone.now() + timedelta(seconds=3)
    for table in (t1, t2):
        table.refresh_from_db()
        wpart = screencache.load_workshop(w.pk, 0)
        tpart = screencache.load_table(table.pk, table.version, rnd.pk)
        for player in Player.objects.filter(table=table):
            fresh = render_to_string("play/_screen.html", selectors.player_screen(player.pk, now))
            cached = render(
                screencache.player_from_row(wpart["players"][player.pk]), wpart, tpart, now
            )
            assert cached == fresh


def test_a_part_is_labelled_with_the_version_it_shows():
    """A change committed between a part's statements makes it read again, so a view
    never claims an older version than its content (the phone would look stale)."""
    w, rnd, (t1,) = scored(5, 1)
    game = game_at(t1)
    calls = []
    real = selectors._read_table_part

    def read_while_a_card_is_played(table_id, round_id):
        part = real(table_id, round_id)
        if not calls:  # the first read is overtaken by an action
            play_one(game)
        calls.append(part["version"])
        return part

    selectors._read_table_part = read_while_a_card_is_played
    try:
        part = selectors.table_part(t1.pk, round_id=rnd.pk)
    finally:
        selectors._read_table_part = real
    t1.refresh_from_db()
    assert len(calls) == 2 and calls[0] < calls[1]
    assert part["version"] == t1.version
    assert part["state"] == state_of(game)


def test_an_action_advances_this_processs_cached_table_part_without_reading_it(
    django_capture_on_commit_callbacks,
):
    """screencache.advance: after an action committed here, the cached part at the
    version before it plus that action is the part at the new version, and every
    seat's screen from it is exactly the one read fresh from the database."""
    w, rnd, (t1, _) = scored(10, 2)
    game = game_at(t1)
    t1.refresh_from_db()
    screencache.load_table(t1.pk, t1.version, rnd.pk)
    wpart = screencache.load_workshop(w.pk, 0)
    steps = 0
    while game_at(t1) is not None and game_at(t1).pk == game.pk and steps < 60:
        with django_capture_on_commit_callbacks(execute=True):
            five_tricks_step(game)
        steps += 1
        t1.refresh_from_db()
        if game_at(t1) is None or game_at(t1).pk != game.pk:
            # The game ended and the next was dealt: not advanced, read again.
            assert screencache.cached_table(t1.pk, t1.version, rnd.pk) is None
            break
        tpart, n = queries(screencache.cached_table, t1.pk, t1.version, rnd.pk)
        assert tpart is not None and n == 0, f"step {steps}: not advanced"
        now = timezone.now()
        for player in Player.objects.filter(table=t1):
            fresh = render_to_string("play/_screen.html", selectors.player_screen(player.pk, now))
            cached = render(player, wpart, tpart, now)
            assert cached == fresh, f"step {steps}, {player.name}"
    assert steps > 10


def _followed_moves(
    monkeypatch, capture, workshop, rnd, table, act, limit=80, ends_wanted=None
) -> tuple[int, int]:
    """Act at `table` (act(game), on the game in progress) again and again; after each
    action, a cache that holds only what it followed from the table's messages must
    render every seat exactly as a fresh read does, game after game: a game's last
    move and the next deal travel in the messages too. Stops after `limit` moves, or
    five moves into the game dealt after `ends_wanted` games' ends. Returns (moves
    followed, games whose end and next deal were followed)."""
    from tournament import broadcast, gamestate

    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: sent.append((group, message)))
    table.refresh_from_db()
    wpart = screencache.load_workshop(workshop.pk, 0)
    screencache.load_table(table.pk, table.version, rnd.pk)
    elsewhere = dict(screencache._tables)  # the other process's cache
    followed = ends = since_end = 0
    for _ in range(limit):
        game = game_at(table)
        sent.clear()
        with capture(execute=True):
            act(game)
        messages = [m for g, m in sent if g == broadcast.table_group(table.pk)]
        assert messages
        screencache.clear()
        screencache._tables.update(elsewhere)
        gamestate.clear_cache()
        for message in messages:
            screencache.follow(message)
        elsewhere = dict(screencache._tables)
        gamestate.clear_cache()  # the fresh screens below replay from the database
        table.refresh_from_db()
        tpart, n = queries(screencache.cached_table, table.pk, table.version, rnd.pk)
        assert tpart is not None and n == 0, f"move {followed + 1} not followed"
        followed += 1
        if game_at(table).pk != game.pk:  # that move ended the game; the next was dealt
            assert [("move" in m, "deal" in m) for m in messages] == [(True, False), (False, True)]
            ends += 1
            since_end = 0
        else:
            since_end += 1
        # What the screens show between rounds (games won) and the rows behind them
        # are the table's as read, not only what this round's screens render.
        read = selectors.table_part(table.pk, round_id=rnd.pk)
        assert (tpart["version"], tpart["previous"], tpart["played"], tpart["wins"]) == (
            read["version"],
            read["previous"],
            read["played"],
            read["wins"],
        )
        assert tpart["state"] == read["state"] and tpart["table"].barrier == read["table"].barrier
        for field in Game._meta.concrete_fields:
            assert getattr(tpart["game"], field.attname) == getattr(read["game"], field.attname), (
                field.name
            )
        now = timezone.now()
        for player in Player.objects.filter(table=table):
            fresh = render_to_string("play/_screen.html", selectors.player_screen(player.pk, now))
            assert render(player, wpart, tpart, now) == fresh, f"move {followed}, {player.name}"
        if ends == ends_wanted and since_end == 5:
            break
    return followed, ends


def test_another_process_follows_a_game_from_the_table_messages(
    django_capture_on_commit_callbacks, monkeypatch
):
    """screencache.follow: a process that only hears the `table.changed` messages
    (no action of its own, no replay cache) advances its cached part by each move."""
    w, rnd, (t1, _) = scored(10, 2)
    followed, ends = _followed_moves(
        monkeypatch, django_capture_on_commit_callbacks, w, rnd, t1, five_tricks_step, limit=120
    )
    # A game of five tricks at a table of five is 50 actions: two ends, two deals.
    assert followed == 120 and ends == 2


@pytest.mark.parametrize("kind,seats", [("seven_up", 4), ("all_fives", 3), ("three_tricks", 2)])
def test_the_other_games_are_followed_too(
    kind, seats, django_capture_on_commit_callbacks, monkeypatch
):
    from games import kinds
    from tournament import gamestate

    w = services.workshop_create(
        name="Follow", game=kind, table_count=1, seats_per_table=seats, bots_enabled=True, seed=3
    )
    services.bots_fill(workshop_id=w.pk)
    rnd = to_scored_round(w)
    (table,) = tables_of(w)

    def act(game):
        game.refresh_from_db()
        state = gamestate.load_state(game)
        seat = kinds.get(kind).to_act(state)[0]
        assert services.game_bot_act(player_id=game.players[seat]) is not None

    # A game's length depends on its deal (seeded at random when dealt): follow until
    # one has ended and the next was dealt, and five moves into that one.
    followed, ends = _followed_moves(
        monkeypatch,
        django_capture_on_commit_callbacks,
        w,
        rnd,
        table,
        act,
        limit=3000,
        ends_wanted=1,
    )
    # The game's own moves (one at least: the one that ended it) and five into the
    # next. A game of 3 Tricks can end in five moves, so nothing more is certain.
    assert ends == 1 and followed >= 6


def test_a_followed_row_is_a_copy_of_its_own_as_copy_copy_makes_it():
    import copy

    w = make_workshop(players=5, tables=1, seats=5)
    to_scored_round(w)
    (table,) = tables_of(w)
    game = game_at(table)
    assert game.round is not None  # now a cached relation: the copy keeps it, in a cache of its own
    mine, theirs = screencache._copy_row(game), copy.copy(game)
    fields = [f.attname for f in type(game)._meta.concrete_fields]
    assert [getattr(mine, f) for f in fields] == [getattr(theirs, f) for f in fields]
    assert mine._state.db == game._state.db and mine._state.adding is False
    assert mine._state is not game._state
    assert mine._state.fields_cache == game._state.fields_cache
    assert mine._state.fields_cache is not game._state.fields_cache
    mine.seq += 1
    mine._state.fields_cache.clear()
    assert game.seq == theirs.seq and "round" in game._state.fields_cache
    # A binary value (none of the followed rows has one today) comes back as a
    # memoryview, as copy.copy gives it, not as pickling's side list.
    game.blob = memoryview(b"\x00\x01")
    mine, theirs = screencache._copy_row(game), copy.copy(game)
    assert "_memoryview_attrs" not in mine.__dict__
    assert isinstance(mine.blob, memoryview) and mine.blob == theirs.blob == game.blob


def test_a_claim_other_than_the_suggestion_is_shown_beside_the_button_to_change_it():
    w, rnd, (t1,) = scored(4, 1)
    game = game_at(t1)
    state = play_until_claim(game)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    # A seat whose own sheet names another player's card.
    seat = next(s for s in range(4) if five_tricks.view(state, s)["suggested_claim"] != s)
    me = game.players[seat]
    suggested = game.players[five_tricks.view(state, seat)["suggested_claim"]]
    other = next(pid for pid in game.players if pid not in (suggested, me))

    button = f'class="primary" data-action="claim" data-winner="{suggested}"'
    assert button in seat_screen(me) and "You said" not in seat_screen(me)
    services.game_claim(player_id=me, winner_player_id=other)
    # Her own claim is said in words, not only by her seat's mark; the button still
    # offers her own sheet's winner.
    html = seat_screen(me)
    assert f"You said: <bdi>{names[other]}</bdi> won." in html and button in html
    services.game_claim(player_id=me, winner_player_id=suggested)
    html = seat_screen(me)
    assert f"You said: <bdi>{names[suggested]}</bdi> won." in html and button not in html


def test_a_phone_calls_its_own_player_you_in_the_claim_step():
    """A screen reader read the phone's own card as "played by <own name>", and the
    suggestion said "<own name> won" to that very player."""
    w, rnd, (t1,) = scored(4, 1)
    game = game_at(t1)
    state = play_until_claim(game)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    top = five_tricks.view(state, 0)["suggested_claim"]
    assert five_tricks.view(state, top)["suggested_claim"] == top  # one sheet at the table
    winner = game.players[top]
    loser = next(pid for pid in game.players if pid != winner)

    html = seat_screen(winner)
    # The offer is the student's own rules' answer, and says so (no other seat's).
    by_mine = '<span class="by-rules">, by my&nbsp;rules</span>'
    assert f'<span aria-hidden="true">✓ </span>I won{by_mine}' in html
    assert "played by you: claim it won" in html and f"played by {names[winner]}" not in html
    assert '<span class="by"><bdi>you</bdi></span>' in html
    assert f'<span class="by"><bdi>{names[loser]}</bdi></span>' in html
    html = seat_screen(loser)
    assert f'<span aria-hidden="true">✓ </span><bdi>{names[winner]}</bdi> won{by_mine}' in html
    assert f"played by {names[winner]}: claim it won" in html
    services.game_claim(player_id=winner, winner_player_id=winner)
    assert "You said you won." in seat_screen(winner)
    # Claims that differ: each seat's line says whom it named, the phone's player as "you".
    services.game_claim(player_id=loser, winner_player_id=loser)
    for pid in game.players:
        if pid not in (winner, loser):
            services.game_claim(player_id=pid, winner_player_id=winner)
    assert Dispute.objects.filter(game=game, resolved_at__isnull=True).exists()
    badge = '<span class="badge claim-badge">'
    html = seat_screen(winner)
    assert html.count(badge) == 4 and html.count(" <bdi>you</bdi></span>") == 2, html
    # Its own line, a claim on its own card: "→ you won", heard "you say you won".
    assert (
        '<span class="visually-hidden">you say you won</span><span aria-hidden="true">→ you won'
        in html
    ), html
    assert f" <bdi>{names[loser]}</bdi></span>" in html
    html = seat_screen(loser)
    assert html.count(" <bdi>you</bdi></span>") == 0 and "→ you won" in html
    assert html.count(f" <bdi>{names[winner]}</bdi></span>") == 3
    # Its own line, a claim on another's card: heard "you say the trick went to
    # <name>" (it was "<own name> (you) says the trick went to <name>").
    third = next(pid for pid in game.players if pid not in (winner, loser))
    own = re.search(r'<li class="seat me[^"]*">(.*?)</li>', seat_screen(third), re.S).group(1)
    assert (
        '<span class="visually-hidden">you say the trick went to</span> '
        f"<bdi>{names[winner]}</bdi></span>" in own
    ), own
    assert "says the trick went to" not in own, own
    # A claim on one's own card is said as a person says it, not "Loser says Loser
    # won" (the claims' line) nor "… says the trick went to Loser" (the seat's line).
    said = re.search(r"Claims: (.*?)</p>", seat_screen(winner)).group(1)
    assert f"<bdi>{names[loser]}</bdi> says they won" in said, said
    assert f"says <bdi>{names[loser]}</bdi> won" not in said, said
    assert "you say <bdi>you</bdi> won" in said, said
    badge = re.search(
        r'<span class="badge claim-badge">(<span class="visually-hidden">[^<]*</span>'
        rf'<span aria-hidden="true">→ <bdi>{names[loser]}</bdi></span>)</span>',
        seat_screen(winner),
    )
    assert badge and "says they won" in badge.group(1), seat_screen(winner)


def test_the_trick_and_game_lines_a_phone_announces_carry_their_numbers():
    """A phone's screen reader says each [data-announce] line when it is new
    (static/js/table.js). A trick's and a game's result name their number, so the
    same player taking the next one is new too."""
    w, rnd, (t1,) = scored(4, 1)
    game = game_at(t1)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    me = game.players[1]

    leader = game.players[state_of(game).to_act]
    for n in (1, 2):
        finish_trick(game, winner_seat=game.players.index(leader))
        line = (
            f'<summary data-announce="first">Trick {n} won by <bdi>{names[leader]}</bdi></summary>'
        )
        assert line in seat_screen(me)
    while game_at(t1).pk == game.pk:
        finish_trick(game, winner_seat=game.players.index(leader))
    game.refresh_from_db()
    assert game.winners == [leader]
    html = seat_screen(me)
    # Said before the game dealt after it ("earliest"): its lines come first on the screen.
    assert (
        '<p class="last-game" data-announce="earliest">Last game<span class="visually-hidden">'
        f" (game 1)</span>: won by <bdi>{names[leader]}</bdi>"
    ) in html
    # The winner's own line calls them "you", not by their own name; the emoji is seen,
    # not read out ('party popper').
    mine = seat_screen(leader)
    assert 'won by <bdi>you</bdi><span aria-hidden="true"> 🎉</span>.<span' in mine
    assert f"won by <bdi>{names[leader]}</bdi>" not in mine
    # Heard with each player's tricks in it (the next game's screen has the new game's).
    tricks = fresh(game).tricks_won
    heard = ", ".join(
        f"<bdi>{'you' if pid == leader else names[pid]}</bdi> {n}"
        for pid, n in zip(game.players, tricks, strict=True)
    )
    assert f'<span class="visually-hidden"> Tricks: {heard}.</span></p>' in mine


def test_a_game_the_round_cut_short_says_so_between_rounds():
    """The round's end cuts the game in progress; it counts with the tricks taken so
    far (RULES). The phone's last-game line says it was cut short, or with no trick
    yet "no winner" would read as a finished game nobody won."""
    from tournament.models import Round

    w, rnd, (t1,) = scored(4, 1)
    game = game_at(t1)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    finish_trick(game, winner_seat=2)
    services.round_end_now(round_id=rnd.pk)
    winner = game.players[2]
    assert fresh(game).winners == [winner]
    line = f'Last game<span class="visually-hidden"> (game 1)</span>, cut short: won by <bdi>{names[winner]}</bdi>.'
    assert line in seat_screen(game.players[0])
    assert "cut short: won by" in seat_screen(winner)

    # Next round, cut before any trick (a card played): nobody had won yet.
    services.movement_apply(round_id=rnd.pk)
    services.round_start(workshop_id=w.pk)
    nxt = Round.objects.filter(workshop=w).order_by("-number").first()
    play_one(game_at(t1))
    services.round_end_now(round_id=nxt.pk)
    html = seat_screen(game.players[0])
    assert ", cut short: no winner yet when it stopped." in html, html
    # A game played to its end says neither.
    services.movement_apply(round_id=nxt.pk)
    services.round_start(workshop_id=w.pk)
    game = game_at(t1)
    while fresh(game).state != "over":
        finish_trick(game, winner_seat=0)
    html = seat_screen(game.players[1])
    assert (
        "cut short" not in html and f"</span>: won by <bdi>{names[game.players[0]]}</bdi>." in html
    )


def test_a_game_cut_when_a_player_left_names_them_on_the_others_phones():
    """Leave policy "skip": the leaver's game stops and a new one is dealt at once.
    The others saw a new hand and "cut short" with no word why."""
    w, rnd, (t1,) = scored(4, 1)
    game = game_at(t1)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    finish_trick(game, winner_seat=2)
    leaver = game.players[0]
    services.player_leave(player_id=leaver, policy="skip")
    assert game_at(t1).pk != game.pk
    line = (
        f'Last game<span class="visually-hidden"> (game 1)</span>, cut short when '
        f"<bdi>{names[leaver]}</bdi> left: won by <bdi>{names[game.players[2]]}</bdi>"
    )
    for pid in game.players[1:]:
        if pid != game.players[2]:
            assert line in seat_screen(pid)
    assert line.replace(f"<bdi>{names[game.players[2]]}</bdi>", "<bdi>you</bdi>") in seat_screen(
        game.players[2]
    )
    # The new game, dealt and cut by the round's end before anyone played in it, is no
    # last game between rounds: the one before it is, still naming who left.
    services.round_end_now(round_id=rnd.pk)
    html = seat_screen(game.players[1])
    assert line in html and "(game 2)" not in html


def test_a_seat_a_bot_plays_for_a_student_who_left_says_so_on_the_tables_phones():
    """Removed, a bot playing the seat: the other phones at the table named her in the
    seats' lines and in "With you: …" as if she still sat there."""
    w = make_workshop(players=8, tables=2, seats=4, leave_policy="bot")
    rnd = to_scored_round(w)
    t1 = tables_of(w)[0]
    # Nobody wins a game: ranked by name, the second and third at table 1 stay.
    _, gone, stayer, _ = sorted(Player.objects.filter(table=t1), key=lambda p: p.name)
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)
    note = f"{gone.name} (left; a bot plays the seat)"

    def words(player) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", seat_screen(player.pk)).split())

    assert note in words(stayer)  # on its seat's line in the game
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    said = words(stayer)
    assert note in re.search(r"You stay at table 1\. With you: (.*?)\.", said).group(1)
    # The seats of those who are there are named as before.
    assert f"{stayer.name} (left" not in said


def test_between_rounds_a_game_dealt_and_cut_at_once_is_not_the_last_game():
    """The round ended right after a deal: the phone said "Last game (game 2), cut
    short: no winner yet when it stopped" of a game nobody touched. Between rounds
    the last game is the last one anyone played in, or there is none."""
    from tournament.models import Round

    w, rnd, (t1,) = scored(4, 1)
    game = game_at(t1)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    while fresh(game).state != "over":
        finish_trick(game, winner_seat=0)
    untouched = game_at(t1)
    assert untouched.number == 2
    services.round_end_now(round_id=rnd.pk)
    assert fresh(untouched).state == "cut" and fresh(untouched).seq == 0
    winner = game.players[0]
    for pid in game.players[1:]:
        html = seat_screen(pid)
        assert (
            '<p class="last-game" data-announce="first">Last game<span class="visually-hidden">'
            f" (game 1)</span>: won by <bdi>{names[winner]}</bdi>."
        ) in html
        assert "(game 2)" not in html and "cut short" not in html
    # A round whose only game was dealt and cut at once: no last-game line at all.
    services.movement_apply(round_id=rnd.pk)
    services.round_start(workshop_id=w.pk)
    nxt = Round.objects.filter(workshop=w).order_by("-number").first()
    only = game_at(t1)
    services.round_end_now(round_id=nxt.pk)
    assert fresh(only).state == "cut" and fresh(only).seq == 0
    for pid in only.players:
        assert 'class="last-game"' not in seat_screen(pid)


def test_study_and_silent_play_whose_time_is_up_say_so_on_the_phone():
    """The phase stays when its time is up, and the projector says "Time is up"; the
    phone showed the rules, or the cut last game, with no word of it."""
    from tournament_helpers import expire

    w = make_workshop(players=4, tables=1, seats=4)
    me = Player.objects.filter(workshop=w).first().pk
    services.players_seat_home(workshop_id=w.pk)
    study = services.workshop_start_study(workshop_id=w.pk)
    assert "Time is up" not in seat_screen(me)
    expire(study)
    timers.tick()
    line = (
        '<p class="notice time-up" data-announce>Time is up: your rules stay here. '
        "Wait for the facilitator to go on.</p>"
    )
    assert line in seat_screen(me) and "Your rules" in seat_screen(me)
    home = services.workshop_start_home(workshop_id=w.pk)
    assert "Time is up" not in seat_screen(me)
    expire(home)
    timers.tick()
    assert (
        '<p class="notice time-up" data-announce>Time is up. Wait for the facilitator to go on.</p>'
        in seat_screen(me)
    )
    services.round_start(workshop_id=w.pk)
    assert "Time is up" not in seat_screen(me)


def test_the_tab_says_what_the_lobby_and_the_debrief_wait_for():
    """The tab's title leads with the screen's data-title (table.js): in the lobby and
    the debrief it had none, the tab only "Barnga · Ana"."""
    w = make_workshop(players=4, tables=1, seats=4)
    me = Player.objects.filter(workshop=w).first().pk
    assert 'data-title="Waiting to start"' in seat_screen(me)
    to_scored_round(w)
    assert 'data-title="Waiting to start"' not in seat_screen(me)
    services.workshop_start_debrief(workshop_id=w.pk)
    assert 'data-title="The tournament is over"' in seat_screen(me)


def test_a_paused_round_is_a_line_the_phone_announces():
    w, rnd, (t1,) = scored(4, 1)
    me = game_at(t1).players[0]

    line = '<p class="visually-hidden" data-announce>The facilitator has paused the round.</p>'
    assert line not in seat_screen(me)
    services.round_pause(round_id=rnd.pk)
    assert line in seat_screen(me)
    assert 'data-resumed-said="The round continues."' in seat_screen(me)
    assert 'aria-label="Time left in the round"' in seat_screen(me)
    services.round_resume(round_id=rnd.pk)
    assert line not in seat_screen(me)


@pytest.mark.parametrize("phase", ["study", "home"])
def test_a_paused_study_or_silent_play_is_said_as_plays_pause_not_a_rounds(phase):
    """A student in study or silent play reads "Study the rules" or "Silent play at
    home tables", never a round: their pause was said "The facilitator has paused the
    round.", their turn waited "when the round continues" and the clock was "Time left
    in the round". Now play's words; a tap is refused in them too. (A scored round's
    are the round's: above.)"""
    w = make_workshop(players=4, tables=1, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    rnd = services.workshop_start_study(workshop_id=w.pk)
    if phase == "home":
        rnd = services.workshop_start_home(workshop_id=w.pk)
    game = game_at(tables_of(w)[0])
    me = game.players[state_of(game).to_act]
    clock = "Time left to study" if phase == "study" else "Time left in silent play"
    assert f'aria-label="{clock}"' in seat_screen(me)
    services.round_pause(round_id=rnd.pk)
    paused = seat_screen(me)
    assert '<p class="visually-hidden" data-announce>The facilitator has paused play.</p>' in paused
    assert 'data-paused-said="The facilitator has paused play."' in paused
    assert 'data-resumed-said="Play continues."' in paused
    assert "Your turn when play continues." in paused
    for rounds_words in ("paused the round", "the round continues", "in the round"):
        assert rounds_words not in paused
    card = state_of(game).hands[state_of(game).to_act][0]
    with pytest.raises(WrongPhase, match="^The facilitator has paused play.$"):
        services.game_play(player_id=me, card=card)


def test_a_paused_rounds_claim_time_stands_still_on_the_phone():
    """The claim's countdown kept running under "Paused" (to 0:00, while claims were
    refused), then jumped back on resume: paused, it shows what was left, stopped."""
    w = make_workshop(players=4, tables=1, seats=4, dispute_seconds=30)
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    play_until_claim(game)
    me = game.players[0]
    countdown = re.compile(
        r'<span class="countdown" data-seconds="(\d+)" data-running="(\d)"[^>]*>([^<]*)<'
    )
    seconds, running, text = countdown.search(seat_screen(me)).groups()
    assert running == "1" and text == "" and 25 <= int(seconds) <= 30
    services.round_pause(round_id=rnd.pk)
    paused = timezone.now()
    for later in (0, 60, 600):
        html = render_to_string(
            "play/_screen.html", selectors.player_screen(me, paused + timedelta(seconds=later))
        )
        left, running, text = countdown.search(html).groups()
        assert running == "0" and left == seconds, later
        assert text == f"0:{int(seconds):02d}"
    services.round_resume(round_id=rnd.pk)
    left, running, _ = countdown.search(seat_screen(me)).groups()
    assert running == "1" and int(seconds) - 1 <= int(left) <= int(seconds)


def test_between_rounds_a_phone_says_what_its_player_won_and_where_to_go():
    """The round's winner at table 1 moves up: the phone still counts the game won
    at table 1 (it counted only the new table's games: 0) and says to go to table 2;
    one who stays is told so."""
    from tournament.models import Round

    w, rnd, (t1, t2) = scored(8, 2)
    game = game_at(t1)
    while fresh(game).state != "over":
        finish_trick(game, winner_seat=0)
    winner = game.players[0]
    assert "Silence — gestures and drawings only" in seat_screen(winner)  # in the round
    services.round_end_now(round_id=rnd.pk)
    before = seat_screen(winner)
    assert "You won 1 game this round." in before
    # The workshop knows no planned number of rounds: this may have been the last.
    assert "Wait for the next round" not in before
    assert (
        "Wait for the facilitator: if there is another round, you may move to another table."
        in before
    )
    # Still silent, but the gestures and the pad are not on this screen: not offered.
    assert 'data-can-gesture="0"' in before
    assert "Silence — no talking, still" in before and "gestures and drawings" not in before
    services.movement_apply(round_id=rnd.pk)
    rnd = Round.objects.get(pk=rnd.pk)
    moved = {m["player"]: m for m in rnd.movement_preview["moves"]}
    assert moved[winner]["to"] == 2
    after = seat_screen(winner)
    assert (
        '<p class="moved go-to" data-announce="first"><strong>Go to table&nbsp;2.</strong></p>'
        in after
    )
    # Each table's number kept on the line of its word (at 360 px "1)." was alone).
    assert "You move up from table&nbsp;1. At table&nbsp;2: " in after
    assert "You won 1 game this round." in after
    stayer = next(p for p in Player.objects.filter(table=t1) if p.pk not in moved)
    # Nor does the movement applied (it may be the last round's, for the report).
    assert "You stay at table 1. With you: " in seat_screen(stayer.pk)
    assert "next round" not in seat_screen(stayer.pk) and "next round" not in after
    assert "Wait there for the facilitator." in after
    # In the next round the phone still says so (one asleep between rounds, or a
    # demo starting the round at once, never saw 'Go to table 2').
    services.round_start(workshop_id=w.pk)
    line = "You moved up to table&nbsp;2 (from table&nbsp;1)."
    assert line in seat_screen(winner)
    assert "You moved" not in seat_screen(stayer.pk)
    down = next(m for m in moved.values() if m["to"] < m["from"])
    assert "You moved down to table&nbsp;1 (from table&nbsp;2)." in seat_screen(down["player"])
    # A round later, after a movement that kept them there: not any more.
    nxt = Round.objects.filter(workshop=w).order_by("-number").first()
    services.round_end_now(round_id=nxt.pk)
    services.movement_edit(round_id=nxt.pk, moves=[{"player": winner, "to": 2}])
    services.movement_apply(round_id=nxt.pk)
    services.round_start(workshop_id=w.pk)
    assert Player.objects.get(pk=winner).table.number == 2
    assert "You moved" not in seat_screen(winner)


def test_a_screen_reader_hears_the_cards_on_the_table_and_whole_sentences():
    """A card on the table is an image with its name (a labelled plain div's label is
    dropped: '7♠ Bot A' was read); a notice's heading and text are two sentences
    ('The tournament is overThank you…' was heard)."""
    w, rnd, (t1,) = scored(4, 1)
    game = game_at(t1)
    play_one(game)
    game.refresh_from_db()
    html = seat_screen(game.players[2])
    assert '<div class="trick" role="group" aria-label="Cards on the table" data-patch>' in html
    assert re.search(r'<div class="card \w+" role="img" aria-label="[\w ]+ played by P\d\d">', html)
    # ...and heard with whose turn it is, as the sighted see it land.
    assert re.search(
        r'<p class="whose" data-announce>.*<span class="visually-hidden"> On the table: '
        r"[\w ]+ by <bdi>P\d\d</bdi>\.</span></p>",
        html,
    )
    services.workshop_start_debrief(workshop_id=w.pk)
    assert "<h1>The tournament is over</h1> <p>" in seat_screen(game.players[2])


def test_a_trick_the_time_limit_decided_says_so_on_every_phone():
    """After a dispute times out everyone read only 'Trick 1 won by Ana', as if the
    table had agreed; then "(time ran out: not agreed)", without the claims every
    seat had seen: it says how many claimed the card that won."""
    w, rnd, (t1,) = scored(4, 1)
    game = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    claims = list(open_dispute(game).claims)
    dispute = Dispute.objects.get(game=game)
    timers.tick(now=dispute.deadline + timedelta(seconds=1))
    taken = state_of(game).completed[-1]
    assert (taken.resolution, taken.disputed) == ("timeout", True)
    assert claims.count(taken.winner) == 3
    for pid in game.players:
        line = r"Trick \d won by (<bdi>P\d\d</bdi>|you) \(time ran out: 3 of 4 claimed it\)"
        assert re.search(line, seat_screen(pid))


def test_a_dispute_ended_by_agreeing_says_so_on_every_phone():
    """A watcher heard "(claims differed, then agreed)" and the report counts it, but
    the players' own phones said only "Trick 1 won by Ana": the dispute vanished. Their
    line says how it was settled, once (the trick's summary, said when it changes); a
    trick claimed alike at once says nothing more."""
    w, rnd, (t1,) = scored(4, 1)
    game = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    state = open_dispute(game)
    claims = list(state.claims)
    lone = next(s for s, c in enumerate(claims) if claims.count(c) == 1)
    claim_all(game, claims[lone])
    taken = state_of(game).completed[-1]
    assert (taken.resolution, taken.disputed) == ("unanimous", True)
    summary = re.compile(r'<summary data-announce="first">(Trick \d won by .*?)</summary>')
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    for seat, pid in enumerate(game.players):
        who = "you" if seat == taken.winner else f"<bdi>{names[game.players[taken.winner]]}</bdi>"
        assert summary.findall(seat_screen(pid)) == [
            f"Trick 1 won by {who} (claims differed, then agreed)"
        ]
    # The next trick, claimed alike at once: no such words.
    finish_trick(game, winner_seat=0)
    assert not state_of(game).completed[-1].disputed
    html = seat_screen(game.players[1])
    assert summary.findall(html) == [f"Trick 2 won by <bdi>{names[game.players[0]]}</bdi>"]


@pytest.mark.parametrize(
    ("game", "players", "seats"),
    # (3 Tricks is two to a table, so nobody joins one with a game in progress.)
    [("five_tricks", 3, 4), ("seven_up", 3, 4), ("all_fives", 2, 3)],
)
def test_a_student_seated_during_a_game_watches_it(game, players, seats):
    """A late joiner's phone said only "You play from the next game": at the table
    nothing tied them to the game played there (found by a review). They see what
    anyone there sees: the game's number, who is to act and the cards face up in the
    middle; never a hand (nor, as before, a control)."""
    from tournament import gamestate

    w = make_workshop(players=players, tables=1, seats=seats, game=game)
    to_home(w)
    g = Game.objects.get(table__workshop=w, state="playing")
    kind = gamestate.kind_of(g)
    rng = random.Random(3)
    # A few moves in, so that something may be in the middle.
    for _ in range(4):
        state = gamestate.load_state(g)
        seat = kind.to_act(state)[0]
        move = kind.bot_action(state, seat, rng)
        if move is None or move["type"] in ("claim", "timeout"):
            break
        if game == "five_tricks":
            services.game_play(player_id=g.players[seat], card=move["card"])
        else:
            services.game_act(
                player_id=g.players[seat], move={k: v for k, v in move.items() if k != "seat"}
            )
        g.refresh_from_db()
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert late.pk not in g.players and Player.objects.get(pk=late.pk).table_id == g.table_id
    html = render_to_string("play/_screen.html", selectors.player_screen(late.pk))
    assert "You play from the next game." in html
    watching = re.search(r'<section class="watching".*?</section>', html, re.S).group(0)
    assert f"Game {g.number}" in watching
    state = gamestate.load_state(g)
    to_act = kind.to_act(state)
    if game == "five_tricks" and state.phase == "claim":
        assert "the players say who won the trick" in watching, watching
        assert [card_name(c) for _, c in state.current] == re.findall(
            r'aria-label="([^"]+) played by', watching
        )
    else:
        names = dict(Player.objects.filter(pk__in=g.players).values_list("pk", "name"))
        assert f"<bdi>{names[g.players[to_act[0]]]}</bdi> to play" in watching, watching
    # Never a card of a hand, and nothing to tap.
    for hand in state.hands:
        for card in hand:
            assert f'data-card="{card}"' not in html
            assert f"{card_name(card)} played by" not in watching
    assert not re.search(r'data-action="(play|claim|act)"', html)


WHOSE = re.compile(r'<p class="watching-whose" data-announce>(.*?)</p>', re.S)
LAST = re.compile(r'<span class="muted" data-announce="first">(.*?)</span>', re.S)


def watching_section(g, state, names: dict) -> tuple[str, str]:
    """The screen of a student waiting at `g`'s table (seat 0's, its game swapped for
    the one watched) and its watching section."""
    ctx = selectors.player_screen(g.players[0])
    ctx.update(game=None, waiting_for_next_game=True, watching=selectors.watching(g, state, names))
    html = render_to_string("play/_screen.html", ctx)
    return html, re.search(r'<section class="watching".*?</section>', html, re.S).group(0)


@pytest.mark.parametrize(
    ("game", "seats"), [("five_tricks", 3), ("all_fives", 3), ("seven_up", 3), ("three_tricks", 2)]
)
def test_every_games_watching_lines_say_who_acts_and_what_just_happened(game, seats):
    """The lines a watching student's phone says as the game goes on (the table's log
    reads them: play/_screen.html): who is to act, in the game's words (a bid is not a
    card played), with what is in the middle; and once the middle is empty, who took
    the trick just played, or 3 Tricks' last move. Never a card of a hand."""
    from games import kinds
    from tournament import gamestate

    w = make_workshop(players=seats, tables=1, seats=seats, game=game)
    to_home(w)
    g = Game.objects.get(table__workshop=w, state="playing")
    kind = kinds.get(game)
    names = dict(Player.objects.filter(pk__in=g.players).values_list("pk", "name"))
    rng = random.Random(3)
    lasts = []
    for _ in range(12):
        state = gamestate.load_state(g)
        html, section = watching_section(g, state, names)
        whose = re.sub(r"<[^>]+>", "", WHOSE.search(section).group(1))
        seat = kind.to_act(state)[0]
        doing = {"bid": "to bid", "beg": "to stand or beg", "dealer": "to answer the beg"}
        if getattr(state, "phase", "") == "claim":
            assert whose.startswith(f"Game {g.number}: the players say who won the trick."), whose
        else:
            verb = doing.get(state.phase, "to play")
            assert whose.startswith(f"Game {g.number}: {names[g.players[seat]]} {verb}."), whose
        middle = selectors.watching(g, state, names)["current"]
        assert ("On the table:" in whose) == bool(middle), whose
        if not middle and (last := LAST.search(section)):
            lasts.append((re.sub(r"<[^>]+>", "", last.group(1)), state))
        for hand in state.hands:
            for card in hand:
                assert f'data-card="{card}"' not in html
                assert card_name(card) not in whose or any(c["card"] == card for c in middle)
        move = kind.bot_action(state, seat, rng)
        player = g.players[seat]
        if move["type"] == "play" and game == "five_tricks":
            services.game_play(player_id=player, card=move["card"])
        elif move["type"] == "claim":
            services.game_claim(player_id=player, winner_player_id=g.players[move["winner"]])
        else:
            services.game_act(player_id=player, move={k: v for k, v in move.items() if k != "seat"})
        g.refresh_from_db()
        if g.state != "playing":
            break
    assert lasts, "no move's line was shown"
    for said, state in lasts:
        if game == "three_tricks":
            kind_of_move, seat = state.last[0], state.last[1]
            words = {"lay": "laid a trick", "pass": "passed", "swap": "swapped"}
            assert said.startswith(f"{names[g.players[seat]]} "), said
            assert words.get(kind_of_move, "blocked") in said, said
        else:
            tricks = state.completed if game == "five_tricks" else state.tricks
            winner = names[g.players[tricks[-1].winner]]
            assert said == f"Trick {len(tricks)} taken by {winner}.", said


BIDS = re.compile(r'<p class="watching-bids">(.*?)</p>', re.S)
BID_SAID = re.compile(r'<span class="visually-hidden" data-announce="first"> (.*?)</span>', re.S)


def test_a_watcher_sees_each_7up_bid_as_it_is_made_and_hears_it_once():
    """A student watching 7Up7Down heard "Ana to bid", "Bea to bid", and never what Ana
    bid, though every seat's phone shows each bid as it is made (RULES §3: bids are
    made aloud at the table). The watching box names every seat with its bid (or none
    yet) all deal, and says the bid just made, until the deal's first card; never the
    trump or a hand."""
    from games import kinds
    from tournament import gamestate

    w = make_workshop(players=3, tables=1, seats=3, game="seven_up")
    to_home(w)
    g = Game.objects.get(table__workshop=w, state="playing")
    kind = kinds.get("seven_up")
    names = dict(Player.objects.filter(pk__in=g.players).values_list("pk", "name"))
    seat_name = [names[pid] for pid in g.players]
    rng = random.Random(3)
    heard, deals = [], set()
    for _ in range(28):  # the first deal (3 bids, 7 cards each), the second's bids and lead
        state = gamestate.load_state(g)
        html, section = watching_section(g, state, names)
        bids = BIDS.search(section)
        assert bids, section
        shown = re.sub(
            r"<[^>]+>",
            "",
            re.sub(r'<span class="visually-hidden[^"]*">.*?</span>', "", bids.group(1)),
        )
        assert re.sub(r"\s+", " ", shown).startswith(
            "Bids: "
            + " · ".join(
                f"{seat_name[s]} {'–' if b is None else b}" for s, b in enumerate(state.bids)
            )
        ), shown
        # The same bids as a player's phone shows on its seats' lines.
        theirs = seat_screen(g.players[0])
        assert re.findall(r'bid <strong class="su-bid">(.*?)</strong>', theirs) == [
            "–" if b is None else str(b) for b in state.bids
        ]
        said = BID_SAID.findall(bids.group(1))
        # Read on from the list, the bid just made is a sentence of its own.
        listed = bids.group(1).split('<span class="visually-hidden" data-announce')
        if len(listed) > 1:
            assert re.sub(r"<[^>]+>", "", listed[0]).rstrip().endswith("."), listed[0]
        made = [s for s, b in enumerate(state.bids) if b is not None]
        if made and not state.tricks and not state.current:
            latest = (state.dealer + len(made)) % 3
            assert said == [f"<bdi>{seat_name[latest]}</bdi> bid {state.bids[latest]}."], said
            heard.append((state.deal_no, said[0]))
        else:
            assert said == [], said
        for hand in state.hands:
            for card in hand:
                assert card_name(card) not in bids.group(1)
        assert not re.search("spades|hearts|diamonds|clubs|[Tt]rump", bids.group(1))
        deals.add(state.deal_no)
        seat = kind.to_act(state)[0]
        move = kind.bot_action(state, seat, rng)
        services.game_act(
            player_id=g.players[seat], move={k: v for k, v in move.items() if k != "seat"}
        )
        g.refresh_from_db()
    # Each bid heard as made, each line its own (the dealer's, the last, until the
    # first card: the same line on those screens, so said once).
    for deal in (0, 1):
        lines = [line for d, line in heard if d == deal]
        assert len(set(lines)) == 3 and lines[:3] == list(dict.fromkeys(lines)), heard
    assert deals == {0, 1}


def test_a_game_without_bids_shows_no_bids_line():
    w = make_workshop(players=3, tables=1, seats=3, game="all_fives")
    to_home(w)
    g = Game.objects.get(table__workshop=w, state="playing")
    from tournament import gamestate

    names = dict(Player.objects.filter(pk__in=g.players).values_list("pk", "name"))
    _, section = watching_section(g, gamestate.load_state(g), names)
    assert "watching-bids" not in section and "Bids:" not in section


NEW_HAND = re.compile(
    r'<span class="muted watching-new-hand" data-announce="first">(.*?)</span>(?=\s*</div>)', re.S
)


@pytest.mark.parametrize(("game", "seats"), [("all_fives", 3), ("seven_up", 3)])
def test_a_watched_hands_end_is_said_with_its_last_trick_and_what_began(game, seats):
    """A watching student heard nothing of a hand's (a deal's) end: the lines went from
    the last trick's first card to "Ana to stand or beg", the trick count restarting
    unsaid. From its end to the next one's first card the middle's place says who took
    the last trick, (All Fives) the players' points, and the next one in its phones'
    words, once; never a hand's cards."""
    from games import kinds
    from tournament import gamestate

    w = make_workshop(players=seats, tables=1, seats=seats, game=game)
    to_home(w)
    g = Game.objects.get(table__workshop=w, state="playing")
    kind = kinds.get(game)
    names = dict(Player.objects.filter(pk__in=g.players).values_list("pk", "name"))
    seat_name = [names[pid] for pid in g.players]
    rng = random.Random(3)
    said = []
    for _ in range(80):
        state = gamestate.load_state(g)
        html, section = watching_section(g, state, names)
        line = NEW_HAND.search(section)
        if not (state.history and not state.tricks and not state.current):
            assert line is None, section
            if said:
                break  # the new hand's first card is down: the line has gone
        else:
            assert line, section
            text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line.group(1)))
            ended = state.history[-1]
            last = ended.tricks[-1]
            if game == "all_fives":
                assert state.hand_no == ended.hand + 1
                points = "; ".join(
                    f"{seat_name[s]} {ended.points[s]}"
                    + (f" (penalty {ended.penalties[s]})" if ended.penalties[s] else "")
                    + f", total {ended.scores[s]}"
                    for s in range(seats)
                )
                assert text == (
                    f"Hand {ended.hand} over: trick {len(ended.tricks)} taken by "
                    f"{seat_name[last.winner]}. Points: {points}. "
                    f"Hand {state.hand_no}: {seat_name[state.dealer]} deals."
                ), text
            else:
                # The deal's result in the players' "Deal 1 scored" words (bids are
                # said to all as they come, tricks taken in view), and the new trump;
                # not its points: a bid's worth is the table's rule, on its score sheet.
                assert (ended.number, state.deal_no, len(ended.tricks)) == (0, 1, 7)
                scored = "; ".join(
                    f"{seat_name[s]} bid {ended.bids[s]}, took {ended.tricks_won[s]}, "
                    + ("made it" if ended.bids[s] == ended.tricks_won[s] else "missed")
                    for s in range(seats)
                )
                trump = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
                assert text == (
                    f"Deal 1 over: trick 7 taken by {seat_name[last.winner]}. "
                    f"Scored: {scored}. "
                    f"Deal 2 of 14: 6 cards each, {seat_name[state.dealer]} deals. "
                    f"Trump: {trump[state.trump_card[-1]]}."
                ), text
            # Shown, its points, result and trump heard only (the middle keeps its height).
            shown = re.sub(
                r'<span class="visually-hidden">.*?</span>', "", line.group(1), flags=re.S
            )
            assert "<bdi>" in line.group(1)
            assert not re.search("Points|Scored|Trump", shown), shown
            said.append(text)
            for hand in state.hands:
                for card in hand:
                    assert card_name(card) not in section
        seat = kind.to_act(state)[0]
        move = kind.bot_action(state, seat, rng)
        services.game_act(
            player_id=g.players[seat], move={k: v for k, v in move.items() if k != "seat"}
        )
        g.refresh_from_db()
    # Said while the stand or beg (the bids) went on, as one unchanged line, then gone.
    assert len(said) > 1 and len(set(said)) == 1, said


WATCHED_END = re.compile(
    r'<p class="visually-hidden watched-end" data-announce="first">(.*?)</p>', re.S
)


@pytest.mark.parametrize("phase", ["home", "round"])
def test_a_watched_game_the_rounds_end_cuts_is_said_to_its_watcher(phase):
    """A student watching a game heard the round's end ("Round over", or "Time is up")
    and nothing of the game they watched: the watching section went unsaid. Cut by the
    round's end with no game after it, it is said first, in the words of the players'
    own last-game line, to whoever sat at the table when it stopped and was not in it
    (not to its players, who hear their own line, nor to anyone who came since)."""
    w = make_workshop(players=3, tables=1, seats=4)
    rnd = to_home(w) if phase == "home" else to_scored_round(w)
    (t1,) = tables_of(w)
    game = game_at(t1)
    finish_trick(game, winner_seat=1)
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert Player.objects.get(pk=late.pk).table_id == t1.pk
    assert WATCHED_END.search(seat_screen(late.pk)) is None  # still watching it
    services.round_end_now(round_id=rnd.pk)
    winner = fresh(game).winners
    assert winner == [game.players[1]]
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    html = seat_screen(late.pk)
    assert ("Time is up" in html) if phase == "home" else ("Round over" in html)
    assert [m.group(1) for m in WATCHED_END.finditer(html)] == [
        f"Game 1 is over, cut short: won by <bdi>{names[game.players[1]]}</bdi>."
    ], html
    assert "Last game" not in html and "Your game starts" not in html
    for pid in game.players:  # its players hear their own "Last game …, cut short" line
        mine = seat_screen(pid)
        assert WATCHED_END.search(mine) is None and "Last game" in mine
    # Whoever joins the table since did not watch it.
    since = services.player_join(workshop_id=w.pk, name="Since")
    assert Player.objects.get(pk=since.pk).table_id == t1.pk
    assert WATCHED_END.search(seat_screen(since.pk)) is None
    assert WATCHED_END.search(seat_screen(late.pk))


@pytest.mark.parametrize("ending", ["won", "tie"])
def test_a_watched_game_the_rounds_end_cuts_is_said_in_its_players_words(ending):
    """Cut by the round's end with every player tied, its players' "Last game" line
    says "a draw" (RULES §1: each is a co-winner; the kind's drawn()), and so does the
    watcher's, not "won by" all of them; a game one player leads is theirs on both."""
    w = make_workshop(players=3, tables=1, seats=4)
    rnd = to_scored_round(w)
    (t1,) = tables_of(w)
    game = game_at(t1)
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert Player.objects.get(pk=late.pk).table_id == t1.pk
    for seat in (0, 1, 2) if ending == "tie" else (1, 1):
        finish_trick(game, winner_seat=seat)
    services.round_end_now(round_id=rnd.pk)
    cut = fresh(game)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    if ending == "tie":
        assert sorted(cut.winners) == sorted(game.players)
        words, theirs = "a draw", "a draw — a game won for each of you"
    else:
        assert cut.winners == [game.players[1]]
        words = theirs = f"won by <bdi>{names[game.players[1]]}</bdi>"
    html = seat_screen(late.pk)
    assert WATCHED_END.findall(html) == [f"Game 1 is over, cut short: {words}."], html
    other = next(pid for pid in game.players if pid != game.players[1])
    assert f"(game 1)</span>, cut short: {theirs}." in seat_screen(other)


def cut_while_watched(stop) -> tuple:
    """A game at a table of three with a student seated during it (Late), its first
    trick won by seat 1, then `stop(round)` (paused, or its time up) and its seat 0 gone
    (leave policy "skip"): cut, and no game dealt after it. Returns the round, the
    table, the game, Late and the words after "Game 1 is over" its players hear."""
    w = make_workshop(players=3, tables=1, seats=5)
    rnd = to_scored_round(w)
    (t1,) = tables_of(w)
    game = game_at(t1)
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert Player.objects.get(pk=late.pk).table_id == t1.pk
    finish_trick(game, winner_seat=1)
    stop(rnd)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    leaver = game.players[0]
    services.player_leave(player_id=leaver, policy="skip")
    cut = fresh(game)
    assert (cut.state, cut.cut_by, game_at(t1)) == ("cut", "player_left", None)
    said = (
        f", cut short when <bdi>{names[leaver]}</bdi> left: "
        f"won by <bdi>{names[game.players[1]]}</bdi>."
    )
    return rnd, t1, game, late, said


def test_a_watched_game_cut_when_a_player_left_is_said_to_its_watcher():
    """A skip-leave cuts the game; while the round is paused no game is dealt after it,
    and the watching section went unsaid. Its watcher (at the table when it was cut, not
    in it) hears it in its players' own words, who left and who won, never its scores;
    not its players (their own line), nor anyone who came to the table since."""
    rnd, t1, game, late, said = cut_while_watched(lambda rnd: services.round_pause(round_id=rnd.pk))
    w = rnd.workshop
    html = seat_screen(late.pk)
    assert WATCHED_END.findall(html) == [f"Game 1 is over{said}"], html
    assert "Tricks:" not in html and "Last game" not in html
    other = game.players[2]
    mine = seat_screen(other)
    assert f"(game 1)</span>{said}" in mine and WATCHED_END.search(mine) is None
    since = services.player_join(workshop_id=w.pk, name="Since")
    assert Player.objects.get(pk=since.pk).table_id == t1.pk and game_at(t1) is None
    assert WATCHED_END.search(seat_screen(since.pk)) is None
    assert WATCHED_END.findall(seat_screen(late.pk)) == [f"Game 1 is over{said}"]
    # Resumed, the next game is dealt to all who are left: the watcher's is "dealt in".
    services.round_resume(round_id=rnd.pk)
    html = seat_screen(late.pk)
    assert WATCHED_END.search(html) is None and "Your game starts" in html


def test_a_watched_game_cut_when_a_player_left_in_a_running_round_is_said_to_its_watcher():
    """Not paused: in a running round the game cut when a player left is followed by
    none when the round's time is up (its end not yet ticked), and the watching section
    went. (Too few left to deal cannot be what stops it while someone watches: the
    watcher is seated, so at least as many are left as the game had.) Its watcher hears
    it in its players' words, and still does once the round has ended."""
    from tournament.models import Round, RoundState

    rnd, _t1, game, late, said = cut_while_watched(expire)
    assert Round.objects.get(pk=rnd.pk).state == RoundState.RUNNING
    said = f"Game 1 is over{said}"
    html = seat_screen(late.pk)
    assert WATCHED_END.findall(html) == [said], html
    assert "Tricks:" not in html and "Last game" not in html
    # Its players have their own line, not the watcher's.
    assert WATCHED_END.search(seat_screen(game.players[2])) is None
    # The timer ends the round: still said to the watcher, once.
    timers.tick()
    assert Round.objects.get(pk=rnd.pk).state == RoundState.FINISHED
    assert WATCHED_END.findall(seat_screen(late.pk)) == [said]


def test_seated_before_counts_from_the_latest_return():
    """A player who came back with their PIN sat down again then, not when they joined."""
    joined = timezone.now() - timedelta(minutes=10)
    cut = joined + timedelta(minutes=5)
    row = Player(created_at=joined, absences=[])
    assert selectors._seated_before(row, cut)
    assert not selectors._seated_before(Player(created_at=cut + timedelta(seconds=1)), cut)
    back = {"left": joined.isoformat(), "back": (cut + timedelta(seconds=1)).isoformat()}
    assert not selectors._seated_before(Player(created_at=joined, absences=[back]), cut)
    early = {"left": joined.isoformat(), "back": (cut - timedelta(seconds=1)).isoformat()}
    assert selectors._seated_before(Player(created_at=joined, absences=[early]), cut)


def test_a_watched_game_cut_before_any_card_is_said_with_no_winner():
    """Cut before anyone played, the players' line speaks of the last game anyone played
    in; the watcher hears of the game they watched."""
    w = make_workshop(players=3, tables=1, seats=4)
    rnd = to_scored_round(w)
    (t1,) = tables_of(w)
    late = services.player_join(workshop_id=w.pk, name="Late")
    services.round_end_now(round_id=rnd.pk)
    html = seat_screen(late.pk)
    assert [m.group(1) for m in WATCHED_END.finditer(html)] == [
        "Game 1 is over, cut short: no winner yet when it stopped."
    ], html


DEALT_IN = re.compile(r'<p class="visually-hidden dealt-in" data-announce="first">(.*?)</p>', re.S)


@pytest.mark.parametrize("ending", ["won", "draw", "left"])
def test_a_watched_game_followed_by_the_watchers_own_says_who_won_it_once(ending):
    """A game that ends with the watcher's own dealt is said once, by "Your game
    starts", and (the watcher saw every trick, then heard only "Game 1 is over" while
    its players' phones said "Last game: won by Bea") how it ended, in the words of its
    players' own line: its winners by name, a draw, cut short when a player left;
    never its scores (the players' line has them)."""
    w = make_workshop(players=4, tables=1, seats=5)
    to_scored_round(w)
    (t1,) = tables_of(w)
    game = game_at(t1)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert Player.objects.get(pk=late.pk).table_id == t1.pk
    assert DEALT_IN.search(seat_screen(late.pk)) is None  # still watching it
    finish_trick(game, winner_seat=2)
    winner = names[game.players[2]]
    if ending == "left":
        leaver = game.players[0]
        services.player_leave(player_id=leaver, policy="skip")
        how = f", cut short when <bdi>{names[leaver]}</bdi> left: won by <bdi>{winner}</bdi>"
        theirs = f"(game 1)</span>{how}."
    else:
        while fresh(game).state == "playing":
            finish_trick(game, winner_seat=2)
        how = f": won by <bdi>{winner}</bdi>"
        theirs = f"(game 1)</span>{how}."
        if ending == "draw":  # everyone a co-winner (a tie of all)
            Game.objects.filter(pk=game.pk).update(winners=game.players)
            screencache.clear()
            how = ": a draw"
            theirs = "(game 1)</span>: a draw — a game won for each of you."
    mine = game_at(t1)
    assert mine.pk != game.pk and late.pk in mine.players
    html = seat_screen(late.pk)
    assert DEALT_IN.findall(html) == [
        f"Game 1 is over{how}. Your game starts: you play in game {mine.number}."
    ], html
    assert html.count("Game 1 is over") == 1 and "Tricks:" not in html, html
    assert "Last game" not in html and WATCHED_END.search(html) is None
    # The players' own line for it, in the same words.
    other = next(pid for pid in game.players[1:] if pid != game.players[2])
    assert theirs in seat_screen(other)


@pytest.mark.parametrize("ending", ["timeout", "agreed"])
def test_a_watched_dispute_and_how_it_ended_are_said_to_the_watcher(ending):
    """A student watching Five Tricks saw "the players say who won the trick", then who
    took it: of a dispute, the table arguing in silence, nothing, nor how it ended. The
    claim step's line says the claims differ, once (a claim changed meanwhile leaves it
    as it was), without the cards said with the claim step's line, nor anyone's claim;
    then who took the trick says how, in the players' words."""
    w, rnd, (t1,) = scored(4, 1)
    game = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert Player.objects.get(pk=late.pk).table_id == t1.pk and late.pk not in game.players
    state = play_until_claim(game, lead_for_dispute=True)
    whose = WHOSE.search(seat_screen(late.pk)).group(1)
    assert whose.startswith(f"Game {game.number}: the players say who won the trick."), whose
    assert "On the table:" in whose

    state = open_dispute(game)
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    html = seat_screen(late.pk)
    section = re.search(r'<section class="watching".*?</section>', html, re.S).group(0)
    opened = WHOSE.search(section).group(1)
    assert opened == f"Game {game.number}: claims differ — the players show who won.", opened
    # The cards stay in the middle, shown; nobody's claim, as the players' phones show them.
    assert [card_name(c) for _, c in state.current] == re.findall(
        r'aria-label="([^"]+) played by', section
    )
    assert "says" not in html and "Claims:" not in html and "claim-badge" not in html
    assert LAST.search(section) is None

    # A claim changed, still split: the line is as it was, so it is not said again.
    claims = list(state.claims)
    lone = next(s for s, c in enumerate(claims) if claims.count(c) == 1)
    changer = next(s for s in range(4) if s != lone and claims[s] != claims[lone])
    services.game_claim(
        player_id=game.players[changer], winner_player_id=game.players[claims[lone]]
    )
    assert state_of(game).dispute
    assert WHOSE.search(seat_screen(late.pk)).group(1) == opened

    trick = len(state.completed) + 1
    if ending == "timeout":
        dispute = Dispute.objects.get(game=game, resolved_at__isnull=True)
        timers.tick(now=dispute.deadline + timedelta(seconds=1))
        how = " (time ran out: not agreed)"
    else:
        claim_all(game, claims[lone])
        how = " (claims differed, then agreed)"
    game.refresh_from_db()
    assert game.state == "playing"  # still watched
    taken = state_of(game).completed[-1]
    assert len(state_of(game).completed) == trick and taken.disputed
    section = re.search(r'<section class="watching".*?</section>', seat_screen(late.pk), re.S)
    winner = names[game.players[taken.winner]]
    assert LAST.findall(section.group(0)) == [
        f"Trick {trick} taken by <bdi>{winner}</bdi>{how}."
    ], section.group(0)
    assert "show who won" not in section.group(0)


@pytest.mark.parametrize("ending", ["referee", "alike", "disputed_timeout", "unclaimed_timeout"])
def test_only_a_dispute_ended_by_agreeing_says_then_agreed(ending):
    """ "(claims differed, then agreed)" is for a dispute its players ended by changing
    claims. A trick the referee's sheet decided, one claimed alike at once, and one the
    time limit decided (after a dispute, or with claims not all in) never say it: on
    every player's phone and on the watcher's line, in the same words."""
    w = make_workshop(
        players=4, tables=1, seats=5, mode="referee" if ending == "referee" else "barnga"
    )
    to_scored_round(w)
    (t1,) = tables_of(w)
    game = game_at(t1)
    if ending == "disputed_timeout":
        game = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    late = services.player_join(workshop_id=w.pk, name="Late")
    assert Player.objects.get(pk=late.pk).table_id == t1.pk and late.pk not in game.players
    if ending in ("referee", "alike"):
        finish_trick(game)
        how = ""
    elif ending == "disputed_timeout":
        open_dispute(game)
        dispute = Dispute.objects.get(game=game, resolved_at__isnull=True)
        timers.tick(now=dispute.deadline + timedelta(seconds=1))
        # Its players saw every claim: they hear how many claimed the winner.
        how = " (time ran out: 3 of 4 claimed it)"
        watched = " (time ran out: not agreed)"
    else:
        state = play_until_claim(game)
        services.game_claim(
            player_id=game.players[0], winner_player_id=game.players[state.current[0][0]]
        )
        timers.tick(now=fresh(game).claim_deadline + timedelta(seconds=1))
        how = " (time ran out: not agreed)"
    if ending != "disputed_timeout":
        watched = how
    taken = state_of(game).completed[-1]
    trick = len(state_of(game).completed)
    expected = {
        "referee": ("rules", False),
        "alike": ("unanimous", False),
        "disputed_timeout": ("timeout", True),
        "unclaimed_timeout": ("timeout", False),
    }[ending]
    assert (taken.resolution, taken.disputed) == expected
    assert fresh(game).state == "playing"
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    winner = names[game.players[taken.winner]]
    summary = re.compile(r'<summary data-announce="first">(Trick \d won by .*?)</summary>')
    for seat, pid in enumerate(game.players):
        who = "you" if seat == taken.winner else f"<bdi>{winner}</bdi>"
        assert summary.findall(seat_screen(pid)) == [f"Trick {trick} won by {who}{how}"]
    section = re.search(r'<section class="watching".*?</section>', seat_screen(late.pk), re.S)
    # A watcher, no seat in the dispute, was shown no claim: not how many either.
    assert LAST.findall(section.group(0)) == [
        f"Trick {trick} taken by <bdi>{winner}</bdi>{watched}."
    ]


def test_how_many_claimed_the_winner_is_said_only_of_a_dispute_time_ended():
    """selectors._claimed: after a dispute (its claims shown to the table) the time
    limit decided, the count of claims on the winner, and a tie when another card had
    as many; nothing for claims never shown (None) or a trick claimed alike."""

    def trick(claims, resolution="timeout", winner=1):
        return {"claims": claims, "resolution": resolution, "winner": winner}

    assert selectors._claimed(trick([1, 1, 0, 1])) == {"n": 3, "of": 4, "tie": False}
    assert selectors._claimed(trick([1, 0, 2, 1, 0])) == {"n": 2, "of": 5, "tie": True}
    assert selectors._claimed(trick(None)) is None
    assert selectors._claimed(trick([1, 1, 1], resolution="unanimous")) is None


def test_how_a_trick_was_settled_is_worked_out_once_for_phones_and_watchers():
    """selectors._settled, which both the players' phones and the watchers' line use:
    "agreed" only for a dispute ended by claims alike; "timeout" for the time limit,
    disputed or not; nothing for a trick refereed or claimed alike at once."""

    def trick(resolution, disputed):
        return five_tricks.Trick(
            leader=0,
            cards=((0, "2S"), (1, "3S"), (2, "4S")),
            winner=2,
            verdicts=(2, 2, 2),
            table_verdict=2,
            resolution=resolution,
            claims=(),
            disputed=disputed,
        )

    assert selectors._settled(trick("rules", False)) is None
    assert selectors._settled(trick("unanimous", False)) is None
    assert selectors._settled(trick("unanimous", True)) == "agreed"
    assert selectors._settled(trick("timeout", True)) == "timeout"
    assert selectors._settled(trick("timeout", False)) == "timeout"


def test_watching_works_out_how_only_the_last_trick_was_settled(monkeypatch):
    """The watching section shows the last trick taken, and how it was settled: it is
    built for every watching student at each move, and worked out how each trick of
    the game was settled, to show one."""
    w = make_workshop(players=3, tables=1, seats=3)
    to_home(w)
    (t1,) = tables_of(w)
    game = game_at(t1)
    for winner in (1, 2, 0):
        finish_trick(game, winner_seat=winner)
    state = state_of(game)
    assert len(state.completed) == 3 and fresh(game).state == "playing"
    settled = []
    real = selectors._settled
    monkeypatch.setattr(selectors, "_settled", lambda t: settled.append(t) or real(t))
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    last = selectors.watching(game, state, names)["last"]
    assert settled == [state.completed[-1]]
    assert last == {"trick": 3, "who": names[game.players[0]], "how": None}


def test_a_game_cut_when_a_player_left_is_not_said_to_one_the_movement_brought():
    """Cut when a player left, a table's last game of the round stays its last between
    rounds: whoever the movement brings to the table sat elsewhere and watched nothing
    of it (they joined before the cut, so their joining time alone could not tell)."""
    w = make_workshop(players=6, tables=2, seats=5)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    game = game_at(t1)
    finish_trick(game, winner_seat=1)
    services.round_pause(round_id=rnd.pk)
    services.player_leave(player_id=game.players[0], policy="skip")
    assert fresh(game).cut_by == "player_left" and game_at(t1) is None
    from_t2 = set(Player.objects.filter(table=t2).values_list("pk", flat=True))
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    brought = [p for p in Player.objects.filter(table=t1) if p.pk in from_t2]
    assert brought, "the movement brings someone down from table 2"
    for p in brought:
        assert WATCHED_END.search(seat_screen(p.pk)) is None


PREVIOUS_TRICK = re.compile(
    r'<details class="last-trick previous-trick">\s*<summary data-announce="earliest">(.*?)</summary>'
    r"\s*<ul>(.*?)</ul>",
    re.S,
)


@pytest.mark.parametrize("ending", ["alike", "timeout", "agreed"])
def test_a_games_last_trick_is_shown_and_said_until_the_next_games_first_is_taken(ending):
    """The last trick's claim ends a Five Tricks game and deals the next at once: the
    new game's screen had no last trick, so who took it, and how a dispute on it
    ended, was never shown nor said. Its players' phones show it, in the words of the
    trick line (with the game's number), before the last-game line (both said
    earliest, in that order), until the new game's first trick is taken; so does the
    phone of a student who watched that game and is dealt into the next."""
    w, rnd, (t1,) = scored(4, 1)
    game = set_seat_sheets(t1, [HIGH, HIGH, HIGH, LOW])
    names = dict(Player.objects.filter(table=t1).values_list("pk", "name"))
    while sum(map(len, state_of(game).hands)) > 4:
        finish_trick(game)
    late = services.player_join(workshop_id=w.pk, name="Late")
    state = play_until_claim(game)
    assert state.phase == "claim" and not any(state.hands)
    if ending == "alike":
        claim_all(game, 0)
        how = ""
    else:
        for seat, pid in enumerate(game.players):
            services.game_claim(player_id=pid, winner_player_id=game.players[min(seat, 1)])
        assert state_of(game).dispute
        if ending == "timeout":
            dispute = Dispute.objects.get(game=game, resolved_at__isnull=True)
            timers.tick(now=dispute.deadline + timedelta(seconds=1))
            how = " (time ran out: 3 of 4 claimed it)"
        else:
            claim_all(game, 1)
            how = " (claims differed, then agreed)"
    final = state_of(game)
    taken = final.completed[-1]
    assert fresh(game).state == "over" and taken.winner == (0 if ending == "alike" else 1)
    new = game_at(t1)
    assert new.pk != game.pk and late.pk in new.players

    for seat, pid in enumerate(game.players):
        html = seat_screen(pid)
        winner = (
            "you" if seat == taken.winner else f"<bdi>{names[game.players[taken.winner]]}</bdi>"
        )
        found = PREVIOUS_TRICK.findall(html)
        assert [line for line, _ in found] == [
            f"Trick 7 of game {game.number} won by {winner}{how}"
        ], html
        cards = re.findall(
            r"<li>(.*?): <span class=\"\w+\" role=\"img\" aria-label=\"([^\"]+)\"", found[0][1]
        )
        assert cards == [
            ("You" if s == seat else f"<bdi>{names[game.players[s]]}</bdi>", card_name(c))
            for s, c in taken.cards
        ]
        # Said before the last-game line (both "earliest"), as a trick's line is.
        assert html.index("previous-trick") < html.index('<p class="last-game"')
    # The student who watched it, dealt in, sees and hears it too, in its players'
    # words for those at the table: nobody is "you" (they played no card of it).
    found = PREVIOUS_TRICK.findall(seat_screen(late.pk))
    winner = f"<bdi>{names[game.players[taken.winner]]}</bdi>"
    if ending == "timeout":  # no seat in its dispute: shown no claim, nor how many
        how = " (time ran out: not agreed)"
    assert [line for line, _ in found] == [f"Trick 7 of game {game.number} won by {winner}{how}"]
    assert "You" not in found[0][1] and "you" not in found[0][0]

    # Shown as the new game's first trick is played, gone once it is taken.
    play_one(new)
    assert len(PREVIOUS_TRICK.findall(seat_screen(game.players[2]))) == 1
    finish_trick(new)
    html = seat_screen(game.players[2])
    assert PREVIOUS_TRICK.search(html) is None
    assert '<summary data-announce="first">Trick 1 won by' in html
