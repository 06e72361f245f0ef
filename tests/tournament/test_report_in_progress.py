"""The debrief report read mid-round, a game of a kind other than Five Tricks in
progress: it has stored no score yet (a score is stored when the game ends or a
round's end cuts it), and the report showed nought for every seat ("blocked tricks
Ana 0, Bob 0" with a pile of two) and added nought to the table's totals. It now
shows the score so far, replayed from the game's record, as a cut would count it."""

from __future__ import annotations

import json

import pytest
from report_helpers import play_log, words
from tournament_helpers import fix_seed, fresh, game_at, tables_of, to_scored_round

from games import all_fives as af
from games import three_tricks as tt
from games.kinds.all_fives import KIND as ALL_FIVES
from games.kinds.three_tricks import PRESETS
from tournament import export, report, services
from tournament.models import GameState, Player
from tournament.names import said_as_list

pytestmark = pytest.mark.django_db


def two_players(owner, game: str, **knobs):
    w = services.workshop_create(
        name="Mid-round", facilitator=owner, game=game, table_count=1, seats_per_table=2,
        seed=7, **knobs,
    )  # fmt: skip
    for name in ("Ana", "Bob"):
        services.player_join(workshop_id=w.pk, name=name)
    return w


def table_results(w) -> tuple[dict, dict]:
    """Round 1's results at table 1 and its game in progress, from the report of the
    export."""
    r = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    rd = next(rd for rd in r["results"] if rd["scored"])
    t = next(t for t in rd["tables"] if t["table"] == 1)
    return t, next(g for g in t["games"] if g["state"] == "playing")


def test_a_3_tricks_game_in_progress_shows_its_blocked_piles_so_far(fac, owner):
    w = two_players(owner, "three_tricks")
    services.sheets_assign(workshop_id=w.pk, assignment={"1": "seed"})
    to_scored_round(w)
    game = fix_seed(game_at(tables_of(w)[0]), 258)
    _, log = tt.play_game(PRESETS["seed"], 258)
    # The first moment a pile holds a blocked trick.
    k = next(
        k for k in range(len(log))
        if any(tt.replay(PRESETS["seed"], log[:k], seed=258).blocked)
    )  # fmt: skip
    play_log(game, log[:k])
    game = fresh(game)
    assert game.state == GameState.PLAYING and game.scores == []
    piles = [len(p) for p in tt.replay(PRESETS["seed"], log[:k], seed=258).blocked]
    names = dict(Player.objects.filter(workshop=w).values_list("pk", "name"))
    expected = {names[pid]: piles[s] for s, pid in enumerate(game.players)}
    assert sorted(expected.values()) != [0, 0]

    t, g = table_results(w)
    assert {x["name"]: x["tricks"] for x in g["tricks"]} == expected
    assert {p["name"]: p["tricks"] for p in t["players"]} == expected
    text = words(fac.get(f"/workshops/{w.pk}/report/").content.decode())
    seats = said_as_list([f"{names[pid]} {piles[s]}" for s, pid in enumerate(game.players)])
    assert f"blocked tricks {seats}" in text, text[text.find("Game 1") :][:200]


def test_an_all_fives_game_in_progress_shows_its_points_so_far(owner):
    w = two_players(owner, "all_fives")
    to_scored_round(w)
    game = fix_seed(game_at(tables_of(w)[0]), 11)
    config = ALL_FIVES.config(
        table_rules=game.table_rules, seat_rules=game.seat_rules, mode=game.mode
    )
    _, log = af.play_game(config, 11)
    # Two hands in, the game not over: points scored and none stored.
    k = next(
        k for k in range(len(log))
        if af.replay(config, log[:k], seed=11).hand_no == 3
    )  # fmt: skip
    play_log(game, log[:k])
    game = fresh(game)
    so_far = list(af.replay(config, log[:k], seed=11).scores)
    assert game.state == GameState.PLAYING and game.scores == [] and any(so_far)

    _, g = table_results(w)
    assert [x["tricks"] for x in g["tricks"]] == so_far


def test_a_7up7down_match_in_progress_shows_its_points_so_far(owner):
    import random

    from games import seven_up as su
    from games.kinds.seven_up import KIND as SEVEN_UP

    w = services.workshop_create(
        name="Mid-round", facilitator=owner, game="seven_up", table_count=1, seats_per_table=3,
        seed=7,
    )  # fmt: skip
    for name in ("Ana", "Bob", "Cai"):
        services.player_join(workshop_id=w.pk, name=name)
    to_scored_round(w)
    game = game_at(tables_of(w)[0])
    state = SEVEN_UP.new_state(
        table_rules=game.table_rules, seat_rules=game.seat_rules, mode=game.mode, seed=game.seed
    )
    rng = random.Random(3)
    log = []
    # Three deals played (7, 6 and 5 cards each), the match not over; more while every
    # total is still nought (the game's seed is random: CI once drew one).
    while state.deal_no < 4 or (not any(su.result(state)["totals"]) and state.deal_no < 10):
        seat = SEVEN_UP.to_act(state)[0]
        action = SEVEN_UP.bot_action(state, seat, rng)
        state, _ = SEVEN_UP.apply(state, action)
        log.append(action)
    play_log(game, log)
    game = fresh(game)
    so_far = list(su.result(state)["totals"])
    assert game.state == GameState.PLAYING and game.scores == [] and any(so_far)

    _, g = table_results(w)
    assert [x["tricks"] for x in g["tricks"]] == so_far
