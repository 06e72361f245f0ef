"""3 Tricks' endings in the debrief report and the exports. A level count (both
players passed at 0-0, or drawing stopped at 9-9) is stored as both seats in
`winners`, and the report said "won by Eve, Ana" of a game of two passes, and never
how any 3 Tricks game ended, while the phones say "a draw" and how. The stored
Game.ended_by was in neither export."""

from __future__ import annotations

import csv
import io

import pytest
from report_helpers import play_log, words
from tournament_helpers import fix_seed, fresh, game_at, tables_of, to_scored_round

from games import three_tricks as tt
from games.kinds.three_tricks import PRESETS
from tournament import check_export, export, services
from tournament.models import GameState, Player

pytestmark = pytest.mark.django_db


def test_a_drawn_3_tricks_game_is_a_draw_and_every_game_says_how_it_ended(fac, owner):
    w = services.workshop_create(
        name="Three endings", facilitator=owner, game="three_tricks", table_count=1,
        seats_per_table=2, seed=7,
    )  # fmt: skip
    for name in ("Ana", "Eve"):
        services.player_join(workshop_id=w.pk, name=name)
    services.sheets_assign(workshop_id=w.pk, assignment={"1": "seed"})
    rnd = to_scored_round(w)
    table = tables_of(w)[0]

    # Game 1: a deal on which the bots play until drawing stops, one pile the larger.
    g1 = fix_seed(game_at(table), 258)
    end, log = tt.play_game(PRESETS["seed"], 258)
    assert (end.outcome, tt.result(end)["draw"]) == ("drawing_stopped", False)
    play_log(g1, log)
    g1 = fresh(g1)
    # Game 2: both players pass at once, 0-0: a draw.
    g2 = game_at(table)
    first = tt.new_game(PRESETS["seed"], seed=g2.seed).to_act
    play_log(g2, [{"type": "pass", "seat": first}, {"type": "pass", "seat": 1 - first}])
    g2 = fresh(g2)
    assert (g1.state, g2.state) == (GameState.OVER, GameState.OVER)
    assert (g1.ended_by, g2.ended_by) == ("drawing_stopped", "both_passed")
    assert sorted(g2.winners) == sorted(g2.players) and g2.scores == [0, 0]
    services.round_end_now(round_id=rnd.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    names = dict(Player.objects.filter(workshop=w).values_list("pk", "name"))

    def piles(g) -> str:
        return ", ".join(f"{names[p]} {n}" for p, n in zip(g.players, g.scores, strict=True))

    text = words(fac.get(f"/workshops/{w.pk}/report/").content.decode())
    (won_by,) = (names[p] for p in g1.winners)
    assert (
        f"Game 1: won by {won_by} (drawing stopped: the blocked tricks were counted)"
        f" · blocked tricks {piles(g1)}" in text
    ), text
    assert (
        "Game 2: a draw, a game won for each (both players passed: the blocked tricks were"
        f" counted) · blocked tricks {piles(g2)}" in text
    ), text
    assert "won by Ana, Eve" not in text and "won by Eve, Ana" not in text

    doc = export.workshop_document(fresh(w))
    assert [(g["number"], g["ended_by"]) for g in doc["games"] if g["state"] == "over"] == [
        (1, "drawing_stopped"),
        (2, "both_passed"),
    ]
    # A game cut short (the home round's, the one dealt after game 2) has none.
    assert {g["ended_by"] for g in doc["games"] if g["state"] != "over"} == {None}
    assert [c.line() for c in check_export.check_document(doc) if not c.ok] == []
    # check_export compares it with the replay's ending.
    record = next(g for g in doc["games"] if g["id"] == g2.pk)
    record["ended_by"] = "three_tricks"
    (bad,) = [c.line() for c in check_export.check_document(doc) if not c.ok]
    assert "ended by: replay 'both_passed', stored 'three_tricks'" in bad
    # A game finished before ended_by was stored (migration 0013) exports null: noted.
    record["ended_by"] = None
    (check,) = [c for c in check_export.check_document(doc) if c.game_id == g2.pk]
    assert check.ok and check.notes == [
        "how it ended was not recorded (the replay says 'both_passed')"
    ]
    body = fac.get(f"/workshops/{w.pk}/report/games.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [(r["game_number"], r["ended_by"]) for r in rows if r["state"] == "over"] == [
        ("1", "drawing_stopped"),
        ("2", "both_passed"),
    ]
