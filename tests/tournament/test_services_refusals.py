"""Refused moves kept for the report (services.play._keeps_refusals): a person's move
the table's rules refused, on their turn, in referee mode and in the games without
per-seat sheets. Written after the move's transaction rolled back; at most
REFUSALS_KEPT per player and game; never a bot's; no query on a legal move's path."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from tournament_helpers import (
    fix_seed,
    fresh,
    game_at,
    make_workshop,
    play_one,
    state_of,
    tables_of,
    to_scored_round,
)

from games import five_tricks, three_tricks
from games.three_tricks import Config
from tournament import gamestate, services
from tournament.errors import IllegalMove
from tournament.limits import REFUSALS_KEPT
from tournament.models import Action, Player, RefusedAttempt

pytestmark = pytest.mark.django_db


def illegal_turn(game, limit=40):
    """Play legal cards until the seat to act holds a card the table's sheet forbids:
    (state, seat, that card)."""
    for _ in range(limit):
        state = state_of(game)
        seat = state.to_act
        legal = {a["card"] for a in five_tricks.legal_actions(state, seat)}
        bad = [c for c in state.hands[seat] if c not in legal]
        if bad:
            return state, seat, bad[0]
        play_one(game)
    pytest.fail("no seat ever held a card it could not play")


def referee_game(**kw):
    w = make_workshop(players=8, tables=2, mode="referee", **kw)
    to_scored_round(w)
    return w, game_at(tables_of(w)[0])


def test_a_card_the_tables_sheet_refuses_is_kept_with_the_reason_the_student_was_told():
    w, game = referee_game()
    state, seat, card = illegal_turn(game)
    actions = Action.objects.filter(game=game).count()
    with pytest.raises(IllegalMove) as refused:
        services.game_play(player_id=game.players[seat], card=card.lower())
    # The move itself left nothing: the log and the game are as they were.
    assert Action.objects.filter(game=game).count() == actions
    assert fresh(game).seq == state.seq
    (kept,) = RefusedAttempt.objects.all()
    assert (kept.workshop_id, kept.table_id, kept.game_id, kept.round_id) == (
        w.pk,
        game.table_id,
        game.pk,
        game.round_id,
    )
    assert (kept.player_id, kept.seat) == (game.players[seat], seat)
    assert kept.action == {"type": "play", "seat": seat, "card": card}
    assert kept.reason == refused.value.message and "suit" in kept.reason
    assert kept.created_at is not None
    # At their home table the player's own sheet is the table's: a slip, not a clash.
    assert kept.own_rules_allow is False

    # A legal card keeps nothing.
    play_one(game)
    assert RefusedAttempt.objects.count() == 1


def test_a_card_the_players_own_sheet_allows_is_marked_a_rule_they_never_saw():
    _, game = referee_game()
    _, seat, card = illegal_turn(game)
    table = game.table_rules
    # Their home sheet lets them trump the card's suit although they hold the led one.
    own = {**table, "trump": card[-1], "trump_when": "any"}
    Player.objects.filter(pk=game.players[seat]).update(rules=own)
    with pytest.raises(IllegalMove):
        services.game_play(player_id=game.players[seat], card=card)
    assert RefusedAttempt.objects.get().own_rules_allow is True


def test_a_move_out_of_turn_is_not_kept_nor_a_barnga_mode_refusal():
    _, game = referee_game()
    state = state_of(game)
    waiting = next(s for s in range(len(game.players)) if s != state.to_act)
    with pytest.raises(IllegalMove, match="not your turn"):
        services.game_play(player_id=game.players[waiting], card=state.hands[waiting][0])
    assert not RefusedAttempt.objects.exists()

    # Barnga mode: the player's own sheet refused; their clashes are the claims.
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    _, seat, card = illegal_turn(game)
    with pytest.raises(IllegalMove):
        services.game_play(player_id=game.players[seat], card=card)
    assert not RefusedAttempt.objects.exists()


def test_a_student_hammering_a_card_fills_at_most_the_cap_and_is_told_every_time():
    _, game = referee_game()
    _, seat, card = illegal_turn(game)
    for _ in range(REFUSALS_KEPT + 5):
        with pytest.raises(IllegalMove):
            services.game_play(player_id=game.players[seat], card=card)
    assert RefusedAttempt.objects.filter(player_id=game.players[seat]).count() == REFUSALS_KEPT


def test_a_bots_refused_move_is_not_kept():
    _, game = referee_game()
    _, seat, card = illegal_turn(game)
    Player.objects.filter(pk=game.players[seat]).update(is_bot=True)
    with pytest.raises(IllegalMove):
        services.game_play(player_id=game.players[seat], card=card)
    # A player who left, their seat played by a bot, likewise.
    Player.objects.filter(pk=game.players[seat]).update(is_bot=False, has_left=True)
    with pytest.raises(IllegalMove):
        services.game_play(player_id=game.players[seat], card=card)
    assert not RefusedAttempt.objects.exists()


def test_a_three_tricks_lay_the_tables_rules_refuse_is_kept():
    w = services.workshop_create(
        name="3 Tricks", game="three_tricks", table_count=2, seats_per_table=2, seed=7
    )
    for name in ("Ana", "Bea", "Cai", "Dev"):
        services.player_join(workshop_id=w.pk, name=name)
    to_scored_round(w)
    game = fix_seed(game_at(tables_of(w)[0]), 11)
    state = gamestate.load_state(game)
    seat = state.to_act
    hand = state.hands[seat]
    bad = next(list(p) for p in combinations(hand, 2) if not three_tricks.is_trick(p, Config()))
    with pytest.raises(IllegalMove) as refused:
        services.game_act(player_id=game.players[seat], move={"type": "lay", "cards": bad})
    (kept,) = RefusedAttempt.objects.all()
    assert kept.action == {"type": "lay", "seat": seat, "cards": bad}
    assert kept.reason == refused.value.message


def test_a_legal_move_makes_no_more_queries_than_before_and_none_on_refusals():
    """A legal card costs the queries it cost before refusals were kept (measured on
    that code): its path has no query of its own for them."""
    _, game = referee_game()
    play_one(game)  # the lead: the next card must follow
    state = state_of(game)
    seat = state.to_act
    card = five_tricks.legal_actions(state, seat)[0]["card"]
    with CaptureQueriesContext(connection) as queries:
        services.game_play(player_id=game.players[seat], card=card)
    sql = [q["sql"].lower() for q in queries.captured_queries]
    assert not any("refusedattempt" in q for q in sql)
    assert len(sql) == LEGAL_PLAY_QUERIES[connection.vendor], "\n".join(sql)


# Measured on the code before refusals were kept: the savepoint and its release (the
# test's transaction), the table's lock, the reads, the action, the game, the table's
# version. PostgreSQL sends the action's rows in one statement (rawsql.Writes).
LEGAL_PLAY_QUERIES = {"sqlite": 7, "postgresql": 5}


def test_the_dealers_bid_the_hook_forbids_is_kept_for_a_newcomer_without_the_hook():
    w = services.workshop_create(
        name="Seven up", game="seven_up", table_count=1, seats_per_table=4, seed=5
    )
    services.sheets_assign(workshop_id=w.pk, assignment={"1": "classic"})
    for i in range(4):
        services.player_join(workshop_id=w.pk, name=f"P{i + 1}")
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    state = gamestate.load_state(game)
    cards = state.cards
    for seat in range(3):  # seat 3 deals and bids last
        services.game_act(player_id=game.players[seat], move={"type": "bid", "bid": 0})
    dealer = game.players[3]
    # Their own sheet has no hook: bidding the whole deal is a rule they never saw.
    Player.objects.filter(pk=dealer).update(rules={**game.table_rules, "hook": False})
    with pytest.raises(IllegalMove, match="hook rule") as refused:
        services.game_act(player_id=dealer, move={"type": "bid", "bid": cards})
    kept = RefusedAttempt.objects.get()
    assert kept.action == {"type": "bid", "seat": 3, "bid": cards}
    assert kept.reason == refused.value.message and kept.own_rules_allow is True
