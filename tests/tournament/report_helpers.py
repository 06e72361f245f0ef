"""The scripted workshop behind the report tests (tests/tournament/test_report.py) and the
report's browser screenshot (tests/e2e/test_report_browser.py); see test_report's docstring.
And a workshop that bots play through to the debrief (`bots_played`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from tournament_helpers import (
    HIGH,
    LOW,
    best_lead,
    claim_all,
    finish_trick,
    game_at,
    legal_card,
    make_workshop,
    play_until_claim,
    state_of,
    tables_of,
    to_home,
)

from games import five_tricks, kinds
from games.tricks import TrickRules, trick_winner
from tournament import gamestate, services, timers
from tournament.models import Dispute, Game, Player, Workshop

T0 = datetime(2030, 1, 6, 9, 0, tzinfo=UTC)


def play_two_rounds(w, ticks: int) -> None:
    """Study, home play and two scored rounds of `ticks` timer ticks each (the bots'
    code plays every bot's seat), the movement applied after each."""
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    for _ in range(2):
        rnd = services.round_start(workshop_id=w.pk)
        for _ in range(ticks):
            timers.tick(bot_delay=0)
        services.round_end_now(round_id=rnd.pk)
        services.movement_apply(round_id=rnd.pk)


def bots_played(
    owner,
    *,
    name="Bots",
    tables=2,
    seats=3,
    sheets=None,
    ticks=30,
    seed=None,
    game="five_tricks",
    mode="barnga",
) -> Workshop:
    """Bots at every seat of a workshop of `game` in `mode`, `sheets` ({table number:
    preset}) or the automatic ones: study, home play, two scored rounds of `ticks`
    timer ticks each with the movement after them, and the debrief."""
    w = services.workshop_create(
        name=name,
        facilitator=owner,
        table_count=tables,
        seats_per_table=seats,
        bots_enabled=True,
        seed=seed,
        game=game,
        mode=mode,
    )
    if sheets is not None:
        services.sheets_assign(workshop_id=w.pk, assignment=sheets)
    services.bots_fill(workshop_id=w.pk)
    services.players_seat_home(workshop_id=w.pk)
    play_two_rounds(w, ticks)
    services.workshop_start_debrief(workshop_id=w.pk)
    return Workshop.objects.get(pk=w.pk)


class Clock:
    def __init__(self, start):
        self.now = start

    def at(self, seconds: float):
        self.now = T0 + timedelta(seconds=seconds)
        return self.now

    def __call__(self):
        return self.now


def fix_seed(game, seed: int) -> Game:
    assert game.seq == 0
    Game.objects.filter(pk=game.pk).update(seed=seed)
    gamestate.clear_cache()
    game.refresh_from_db()
    return game


def clash_seed(game) -> int:
    """The first seed whose first trick, led for a dispute, the seats' sheets judge differently."""
    config = kinds.get("five_tricks").config(
        table_rules=game.table_rules, seat_rules=game.seat_rules, mode=game.mode
    )
    for seed in range(1, 500):
        state = five_tricks.new_game(config, seed=seed)
        while state.phase == "play":
            seat = state.to_act
            card = best_lead(state) if not state.current else legal_card(state, seat)
            state, _ = five_tricks.apply(state, {"type": "play", "seat": seat, "card": card})
        if len({trick_winner(state.current, r) for r in config.seat_rules}) > 1:
            return seed
    raise AssertionError("no clash seed")


def claim(game, seat: int, winner_seat: int):
    return services.game_claim(
        player_id=game.players[seat], winner_player_id=game.players[winner_seat]
    )


def seat_of(game, player) -> int:
    return game.players.index(player.pk)


def verdicts(state, game) -> list[int]:
    return [trick_winner(state.current, TrickRules.from_dict(r)) for r in game.seat_rules]


def clash_trick(game):
    """Give the fresh game a clash deal and play its first trick; every seat claims its own verdict."""
    game = fix_seed(game, clash_seed(game))
    state = play_until_claim(game, lead_for_dispute=True)
    v = verdicts(state, game)
    assert len(set(v)) == 2
    for seat in range(len(game.players)):
        claim(game, seat, v[seat])
    return game, v


def build_scripted(clock, user) -> dict:
    """The workshop of the module docstring; returns what the script knows to expect."""
    w = make_workshop(players=6, tables=2, seats=3, facilitator=user, dispute_seconds=45)
    services.sheets_assign(workshop_id=w.pk, assignment={1: HIGH, 2: LOW})
    to_home(w)
    P = {p.name: p for p in Player.objects.filter(workshop=w)}
    t1, t2 = tables_of(w)
    assert {p.name for p in Player.objects.filter(table=t1)} == {"P01", "P03", "P05"}

    # Round 1: at home, one unanimous trick per table, won by P01 and P02.
    clock.at(60)
    r1 = services.round_start(workshop_id=w.pk)
    for table, winner in ((t1, P["P01"]), (t2, P["P02"])):
        g = game_at(table)
        play_until_claim(g)
        claim_all(g, seat_of(g, winner))
    clock.at(300)
    services.round_end_now(round_id=r1.pk)
    services.movement_apply(round_id=r1.pk)

    # Round 2: P06 (LOW) is a newcomer at table 1, P01 (HIGH) at table 2.
    clock.at(600)
    r2 = services.round_start(workshop_id=w.pk)
    assert {p.name for p in Player.objects.filter(table=t1)} == {"P03", "P05", "P06"}
    assert {p.name for p in Player.objects.filter(table=t2)} == {"P01", "P02", "P04"}

    # Table 2 first: its time-outs come from timers.tick, which would also time out any
    # claim step left open at table 1.
    # D2 at table 2: nobody gives in; the time limit passes.
    clock.at(650)
    h1, v2 = clash_trick(game_at(t2))
    s01 = seat_of(h1, P["P01"])
    local_v2 = v2[seat_of(h1, P["P02"])]
    services.gesture_make(player_id=P["P01"].pk, kind="question")
    services.gesture_make(player_id=P["P02"].pk, kind="stop")
    d2 = Dispute.objects.get(game=h1)
    clock.now = d2.deadline + timedelta(seconds=1)
    assert timers.tick(now=clock.now, bot_delay=0).claims_timed_out == [h1.pk]

    # Trick 2 at table 2: P01 claims the leader, P02 someone else, P04 never claims.
    clock.at(700)
    state = play_until_claim(h1)
    leader2 = state.current[0][0]
    other2 = next(s for s, _ in state.current if s != leader2)
    claim(h1, s01, leader2)
    claim(h1, seat_of(h1, P["P02"]), other2)
    h1.refresh_from_db()
    clock.now = h1.claim_deadline + timedelta(seconds=1)
    assert timers.tick(now=clock.now, bot_delay=0).claims_timed_out == [h1.pk]
    services.gesture_make(player_id=P["P04"].pk, kind="smile")

    # D1: everyone claims their own verdict at 620 s; P06 gives in at 632.5 s.
    clock.at(620)
    g1, v1 = clash_trick(game_at(t1))
    s06 = seat_of(g1, P["P06"])
    local_v1 = v1[seat_of(g1, P["P03"])]
    assert v1[s06] != local_v1
    clock.at(632.5)
    claim(g1, s06, local_v1)
    # The rest of game 1: every trick goes to its leader, unanimously.
    while state_of(g1).phase != "over":
        finish_trick(g1)

    # D3: the next game at table 1; both locals give in to P06's verdict.
    clock.at(700)
    g2, v3 = clash_trick(game_at(t1))
    s03, s05, s06b = (seat_of(g2, P[n]) for n in ("P03", "P05", "P06"))
    newcomer_v3 = v3[s06b]
    services.gesture_make(player_id=P["P06"].pk, kind="question")
    clock.at(710)
    claim(g2, s03, newcomer_v3)
    clock.at(730)
    claim(g2, s05, newcomer_v3)
    assert state_of(g2).phase == "play"

    # D5: trick 2 of game 2; P06 and P05 claim the leader, P03 claims someone else; nobody gives in.
    clock.at(740)
    state = play_until_claim(g2)
    leader = state.current[0][0]
    other = next(s for s, _ in state.current if s != leader)
    claim(g2, s06b, leader)
    claim(g2, s05, leader)
    claim(g2, s03, other)
    services.gesture_make(
        player_id=P["P05"].pk, kind="drawing", payload={"points": [[0.1, 0.1], [0.5, 0.5]]}
    )
    assert state_of(g2).dispute

    clock.at(900)
    services.round_end_now(round_id=r2.pk)
    services.movement_apply(round_id=r2.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    return {
        "workshop": w,
        "P": P,
        "games": {"g1": g1, "g2": g2, "h1": h1},
        "seats": {
            "s06": s06,
            "s03": s03,
            "s05": s05,
            "s01": s01,
            "leader2": leader2,
            "other2": other2,
        },
        "winners": {"d1": local_v1, "d3": newcomer_v3, "d2": local_v2},
    }


def play_log(game, log) -> None:
    """Each action of an engine's `log` made through the services by its seat's player."""
    for a in log:
        move = {k: v for k, v in a.items() if k != "seat"}
        services.game_act(player_id=game.players[a["seat"]], move=move)


def words(html: str) -> str:
    """The text of `html`, its tags gone and its whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()
