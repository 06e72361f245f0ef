"""Factories and drivers shared by the tournament service tests.

Plain functions (not fixtures) so tests can call them with arguments; conftest.py
re-exports `make_workshop` and `seated`.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from django.utils import timezone

from games import five_tricks
from games.tricks import trick_winner
from tournament import gamestate, services, timers
from tournament.errors import ServiceError
from tournament.models import (
    Action,
    Claim,
    Dispute,
    Game,
    GameState,
    Gesture,
    Movement,
    Player,
    Round,
    Seating,
    Table,
    TrickRecord,
    Workshop,
)

# RefusedAttempt is left out: a move the table's rules refuse is meant to leave one,
# written after the move rolled back (test_services_refusals); the game is unchanged.
MODELS = (
    Workshop,
    Table,
    Player,
    Round,
    Game,
    Action,
    TrickRecord,
    Dispute,
    Claim,
    Gesture,
    Movement,
    Seating,
)

# Two sheets that never disagree on what is legal (no trump, follow suit) but
# always disagree on who wins a trick with two cards of the led suit.
HIGH = {"ace": "high", "wins": "highest", "trump": None, "trump_when": "void"}
LOW = {"ace": "high", "wins": "lowest", "trump": None, "trump_when": "void"}


def make_workshop(*, players=8, tables=2, seats=4, seed=7, names=None, **kw):
    """A workshop whose players (P01, P02, … or `names`) have joined."""
    workshop = services.workshop_create(
        name="Test workshop", table_count=tables, seats_per_table=seats, seed=seed, **kw
    )
    for name in names or [f"P{i + 1:02d}" for i in range(players)]:
        services.player_join(workshop_id=workshop.pk, name=name)
    return workshop


def seated(table):
    return list(Player.objects.filter(table=table).order_by("seat"))


def tables_of(workshop) -> list[Table]:
    return list(Table.objects.filter(workshop_id=workshop.pk).order_by("number"))


def fresh(obj):
    obj.refresh_from_db()
    return obj


def snapshot() -> dict:
    """Every row of every tournament model: equal before and after a refused call."""
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in MODELS}


def assert_refused(
    call, error: type[ServiceError], code: str | None = None, *, case: object = None
) -> ServiceError:
    """`call()` raises `error` with a code and a readable message, and changes nothing.

    `case` names the input in failure messages when a test loops over many.
    """
    before = snapshot()
    try:
        call()
    except error as exc:
        caught = exc
    else:
        pytest.fail(f"{case!r}: no {error.__name__} raised")
    assert caught.code == (code or error.code), case
    assert isinstance(caught.message, str) and caught.message.strip(), case
    assert caught.as_dict() == {"code": caught.code, "message": caught.message}
    assert snapshot() == before, f"{case!r}: a refused call changed the database"
    return caught


def to_home(workshop, assignment: dict | None = None) -> Round:
    """Lobby → study → silent home play; returns the running home round.
    `assignment`: the facilitator's seating ({player id: table}), else automatic."""
    services.players_seat_home(workshop_id=workshop.pk, assignment=assignment)
    services.workshop_start_study(workshop_id=workshop.pk)
    return services.workshop_start_home(workshop_id=workshop.pk)


def to_scored_round(workshop, assignment: dict | None = None) -> Round:
    to_home(workshop, assignment)
    return services.round_start(workshop_id=workshop.pk)


def one_left_alone(workshop) -> dict:
    """The facilitator's seating of three players at two tables that leaves the last
    to join alone at table 2 (the automatic seating sits all three at table 1)."""
    ids = list(
        Player.objects.filter(workshop=workshop).order_by("join_order").values_list("pk", flat=True)
    )
    assert len(ids) == 3
    return {ids[0]: 1, ids[1]: 1, ids[2]: 2}


def game_at(table, *, state=GameState.PLAYING) -> Game | None:
    return Game.objects.filter(table=table, state=state).order_by("-pk").first()


def state_of(game) -> five_tricks.State:
    game.refresh_from_db()
    return gamestate.load_state(game)


def best_lead(state) -> str:
    """A card for the leader such that another seat must follow suit (so a LOW and a
    HIGH sheet disagree on the winner)."""
    seat = state.to_act
    hand = state.hands[seat]

    def followers(card):
        return sum(
            1 for s, h in enumerate(state.hands) if s != seat and any(c[-1] == card[-1] for c in h)
        )

    return max(hand, key=lambda c: (followers(c), c))


def legal_card(state, seat: int) -> str:
    return five_tricks.legal_actions(state, seat)[0]["card"]


def play_one(game, *, lead_for_dispute=False, **kw):
    """The seat to act at `game` plays a legal card through the service."""
    state = state_of(game)
    seat = state.to_act
    assert seat is not None, f"nobody to act in phase {state.phase}"
    if lead_for_dispute and not state.current:
        card = best_lead(state)
    else:
        card = legal_card(state, seat)
    return services.game_play(player_id=game.players[seat], card=card, **kw)


def five_tricks_step(game) -> None:
    """One action at a Five Tricks table: the next card, or the next seat's claim
    that the leader won."""
    state = state_of(game)
    if state.phase == "claim":
        seat = next(s for s, c in enumerate(state.claims) if c is None)
        services.game_claim(
            player_id=game.players[seat], winner_player_id=game.players[state.current[0][0]]
        )
    else:
        play_one(game)


def play_until_claim(game, *, lead_for_dispute=False) -> five_tricks.State:
    """Play cards until the trick is complete (claim phase, or awarded in referee mode)."""
    tricks_before = len(state_of(game).completed)
    while True:
        state = state_of(game)
        if state.phase != "play" or len(state.completed) > tricks_before:
            return state
        play_one(game, lead_for_dispute=lead_for_dispute)


def claim_all(game, winner_seat: int):
    """Every seat claims `winner_seat`: the trick is awarded unanimously."""
    result = None
    for seat, pid in enumerate(game.players):
        state = state_of(game)
        if state.phase != "claim":
            break
        if state.claims[seat] == winner_seat:
            continue
        result = services.game_claim(player_id=pid, winner_player_id=game.players[winner_seat])
    return result


def finish_trick(game, winner_seat: int | None = None) -> five_tricks.State:
    """Play one trick; in Barnga mode everyone claims `winner_seat` (default: the leader)."""
    state = play_until_claim(game)
    if state.phase == "claim":
        if winner_seat is None:
            winner_seat = state.current[0][0]
        claim_all(game, winner_seat)
    return state_of(game)


def verdict(state, rules: dict) -> int:
    from games.tricks import TrickRules

    return trick_winner(state.current, TrickRules.from_dict(rules))


def set_seat_sheets(table, sheets: list[dict]) -> Game:
    """Cut the game in progress at `table` and deal a new one in which engine seat i
    plays by `sheets[i]`, which also becomes that player's own sheet. Test setup,
    before the new game's first action."""
    from tournament.models import CutBy
    from tournament.services.play import game_start
    from tournament.services.rounds import cut_game

    game = game_at(table)
    rnd = game.round
    cut_game(game, CutBy.ROUND_END)  # as the words before "cut_by" had it
    new = game_start(table=Table.objects.get(pk=table.pk), rnd=rnd)
    assert new is not None and len(new.players) == len(sheets)
    for pid, sheet in zip(new.players, sheets, strict=True):
        Player.objects.filter(pk=pid).update(rules=sheet)
    Game.objects.filter(pk=new.pk).update(seat_rules=sheets)
    gamestate.clear_cache()
    new.refresh_from_db()
    # About one deal in 300,000 (four seats) gives the leader a whole suit: nobody can follow its
    # lead, it wins every trick alone, every sheet names the same winner and
    # open_dispute found no dispute in seven tricks. Deal again until another seat
    # holds each suit the leader holds: whatever it leads first, with HIGH and LOW
    # (follow suit, no trump) a second card of that suit is played and the sheets part.
    while not leader_is_followed(state_of(new)):
        new = fix_seed(new, secrets.randbits(62))
    return new


def leader_is_followed(state) -> bool:
    """Every suit in the leader's hand is in another seat's hand too."""
    held = [{card[-1] for card in hand} for hand in state.hands]
    others = set().union(*(suits for seat, suits in enumerate(held) if seat != state.leader))
    return held[state.leader] <= others


def fix_seed(game, seed: int) -> Game:
    """Test setup before any action: a known deal instead of a random one."""
    assert game.seq == 0
    Game.objects.filter(pk=game.pk).update(seed=seed)
    gamestate.clear_cache()
    return fresh(game)


def open_dispute(game):
    """Play tricks, everyone claiming by their own sheet, until the claims disagree."""
    for _ in range(7):
        state = play_until_claim(game, lead_for_dispute=True)
        for seat, pid in enumerate(game.players):
            mine = verdict(state, fresh(game).seat_rules[seat])
            v = five_tricks.view(state_of(game), seat)
            assert v["suggested_claim"] == mine  # the pre-selection is the own sheet's winner
            services.game_claim(player_id=pid, winner_player_id=game.players[mine])
        now_state = state_of(game)
        if now_state.phase == "claim" and now_state.dispute:
            return now_state
    pytest.fail("no dispute arose")


def expire(rnd: Round, seconds: float = 1) -> None:
    """Move a running round's deadline into the past (as if its time ran out)."""
    from django.utils import timezone

    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))


def after(dt, seconds: float = 1):
    return dt + timedelta(seconds=seconds)


def play_until_finished(w, *, games: int = 1, limit: int = 3000) -> None:
    """Bots act (tick after tick) until `games` games of the workshop are over."""
    for _ in range(limit):
        if Game.objects.filter(table__workshop=w, state=GameState.OVER).count() >= games:
            return
        timers.tick(timezone.now(), bot_delay=0)
    pytest.fail("the bots did not finish a game")
