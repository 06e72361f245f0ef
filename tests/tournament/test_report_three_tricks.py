"""3 Tricks' endings in the debrief report and the exports. A level count when
drawing stops (9-9) is a draw, stored as both seats in `winners`; level piles after
two passes (0-0 at once) win nobody (docs/three_tricks.md). The report said "won by
Eve, Ana" of a drawn game, and never how any 3 Tricks game ended, while the phones
say "a draw" and how; then a game of two passes at 0-0 was "a draw, a game won for
each", which rewarded two students who only tapped Pass. The stored
Game.ended_by was in neither export."""

from __future__ import annotations

import csv
import io
import json

import pytest
from report_helpers import play_log, words
from tournament_helpers import fix_seed, fresh, game_at, tables_of, to_scored_round

from games import three_tricks as tt
from games.kinds.three_tricks import PRESETS
from tournament import check_export, export, services
from tournament.models import GameState, Player
from tournament.names import said_as_list

pytestmark = pytest.mark.django_db


# Seeds on which the seed's bots play until drawing stops: one pile the larger (258),
# level at 9-9 (703).
UNEQUAL_STOP, LEVEL_STOP = 258, 703


def three_endings(owner):
    """A workshop whose scored round at its one table has three finished games, in
    this order: drawing stopped with one pile larger; drawing stopped with the piles
    level (a draw); both players passing at once, 0-0 (no winner). Then the debrief."""
    w = services.workshop_create(
        name="Three endings", facilitator=owner, game="three_tricks", table_count=1,
        seats_per_table=2, seed=7,
    )  # fmt: skip
    for name in ("Ana", "Eve"):
        services.player_join(workshop_id=w.pk, name=name)
    services.sheets_assign(workshop_id=w.pk, assignment={"1": "seed"})
    rnd = to_scored_round(w)
    table = tables_of(w)[0]
    games = []
    for seed, draw in ((UNEQUAL_STOP, False), (LEVEL_STOP, True)):
        g = fix_seed(game_at(table), seed)
        end, log = tt.play_game(PRESETS["seed"], seed)
        assert (end.outcome, tt.result(end)["draw"]) == ("drawing_stopped", draw)
        play_log(g, log)
        games.append(fresh(g))
    g3 = game_at(table)
    first = tt.new_game(PRESETS["seed"], seed=g3.seed).to_act
    play_log(g3, [{"type": "pass", "seat": first}, {"type": "pass", "seat": 1 - first}])
    games.append(fresh(g3))
    services.round_end_now(round_id=rnd.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    return w, games


def test_a_drawn_3_tricks_game_is_a_draw_two_passes_level_no_winner_and_each_says_how(fac, owner):
    w, (g1, g2, g3) = three_endings(owner)
    assert {g.state for g in (g1, g2, g3)} == {GameState.OVER}
    assert (g1.ended_by, g2.ended_by, g3.ended_by) == (
        "drawing_stopped",
        "drawing_stopped",
        "both_passed",
    )
    assert sorted(g2.winners) == sorted(g2.players) and g2.scores == [9, 9]
    assert g3.winners == [] and g3.scores == [0, 0]
    names = dict(Player.objects.filter(workshop=w).values_list("pk", "name"))

    def piles(g) -> str:
        return said_as_list([f"{names[p]} {n}" for p, n in zip(g.players, g.scores, strict=True)])

    text = words(fac.get(f"/workshops/{w.pk}/report/").content.decode())
    (won_by,) = (names[p] for p in g1.winners)
    assert (
        f"Game 1: won by {won_by} (drawing stopped: the blocked tricks were counted)"
        f" · blocked tricks {piles(g1)}" in text
    ), text
    assert (
        "Game 2: a draw, a game won for each (drawing stopped: the blocked tricks were"
        f" counted) · blocked tricks {piles(g2)}" in text
    ), text
    assert (
        "Game 3: no winner (both players passed with the blocked piles level)"
        f" · blocked tricks {piles(g3)}" in text
    ), text
    assert "won by Ana, Eve" not in text and "won by Eve, Ana" not in text
    # Three games played by each; the draw credited both, the passes nobody.
    loser = next(p for p in g1.players if p not in g1.winners)
    assert f"{names[won_by_id(g1)]} 2 of 3" in text and f"{names[loser]} 1 of 3" in text

    doc = export.workshop_document(fresh(w))
    assert [(g["number"], g["ended_by"]) for g in doc["games"] if g["state"] == "over"] == [
        (1, "drawing_stopped"),
        (2, "drawing_stopped"),
        (3, "both_passed"),
    ]
    # A game cut short (the home round's, the one dealt after game 3) has none.
    assert {g["ended_by"] for g in doc["games"] if g["state"] != "over"} == {None}
    checks = check_export.check_document(doc)
    assert [c.line() for c in checks if not c.ok or c.notes] == []
    # check_export compares it with the replay's ending.
    record = next(g for g in doc["games"] if g["id"] == g3.pk)
    record["ended_by"] = "three_tricks"
    (bad,) = [c.line() for c in check_export.check_document(doc) if not c.ok]
    assert "ended by: replay 'both_passed', stored 'three_tricks'" in bad
    # A game finished before ended_by was stored (migration 0013) exports null: noted.
    record["ended_by"] = None
    (check,) = [c for c in check_export.check_document(doc) if c.game_id == g3.pk]
    assert check.ok and check.notes == [
        "how it ended was not recorded (the replay says 'both_passed')"
    ]
    body = fac.get(f"/workshops/{w.pk}/report/games.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    over = [r for r in rows if r["state"] == "over"]
    assert [(r["game_number"], r["ended_by"]) for r in over] == [
        ("1", "drawing_stopped"),
        ("2", "drawing_stopped"),
        ("3", "both_passed"),
    ]
    assert [r["winners"] for r in over][1:] == [
        " ".join(names[p] for p in g2.players),
        "",
    ]


def won_by_id(game) -> int:
    (pid,) = game.winners
    return pid


def write_bundle(doc: dict, where) -> None:
    """The report's files for `doc` in a directory: its JSON and every CSV table."""
    where.mkdir()
    (where / "barnga-x-workshop.json").write_text(json.dumps(doc), encoding="utf-8")
    for kind, (header, rows) in export.csv_tables(doc).items():
        text = "\ufeff" + export.csv_text(header, rows)
        (where / f"barnga-x-{kind}.csv").write_text(text, encoding="utf-8")


def test_an_export_from_before_the_two_pass_rule_still_checks_with_a_note(owner, tmp_path):
    """Before the decision, two passes at level piles were a draw: both seats stored as
    winners (and credited in the round's standings and movement). Their replay now
    gives nobody; check_export accepts the stored result of such a game, says so, and
    checks games.csv against it. Anything else still mismatches."""
    w, (_, _, g3) = three_endings(owner)
    doc = export.workshop_document(fresh(w))
    record = next(g for g in doc["games"] if g["id"] == g3.pk)
    assert record["winners"] == [] and record["scores"] == [0, 0]
    record["winners"] = list(g3.players)  # as stored before the decision
    (check,) = [c for c in check_export.check_document(doc) if c.game_id == g3.pk]
    assert check.ok, check.line()
    assert check.notes == [
        "winners stored by an earlier rule of 3 Tricks (docs/export.md): "
        f"stored {sorted(g3.players)}, the replay now gives []"
    ]
    write_bundle(doc, tmp_path / "old")
    out, err = io.StringIO(), io.StringIO()
    assert check_export.run(str(tmp_path / "old"), out=out, err=err) == 0, out.getvalue()
    assert "games.csv: OK" in out.getvalue().replace("barnga-x-", "")

    # One seat alone was never stored for it, by any rule: a mismatch, and in games.csv.
    record["winners"] = [g3.players[0]]
    (check,) = [c for c in check_export.check_document(doc) if c.game_id == g3.pk]
    assert not check.ok and check.notes == []
    assert f"winners: replay [], stored [{g3.players[0]}]" in check.line()
    write_bundle(doc, tmp_path / "tampered")
    out = io.StringIO()
    status = check_export.run(str(tmp_path / "tampered"), out=out, err=io.StringIO())
    assert status == check_export.EXIT_MISMATCH
