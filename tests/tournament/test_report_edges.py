"""The report's figures and sentences at the edges a class produces: a player who
left in the last round, a table whose only game was cut before anyone played, bots
moved by the rule, and the report read while a round is being played."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from tournament_helpers import (
    HIGH,
    LOW,
    finish_trick,
    fresh,
    game_at,
    make_workshop,
    one_left_alone,
    open_dispute,
    play_one,
    set_seat_sheets,
    tables_of,
    to_scored_round,
    verdict,
)

from tournament import export, report, services

pytestmark = pytest.mark.django_db


def built(w) -> tuple[dict, report.Index, dict]:
    doc = export.workshop_document(fresh(w))
    return doc, report.Index(doc), report.build_report(doc)


def round_rows(doc, ix, number) -> dict:
    return next(x for x in report.results(doc, ix) if x["round"] == number)


def test_a_player_who_left_in_the_last_round_is_not_seated_after_it():
    """Left during the last round (the seat skipped), movement applied: the column
    after it sat them at their old table, their journey ended there, and their
    'Moved' read 'stayed' (only a next round's seating could say 'left')."""
    w = make_workshop(players=8, tables=2, leave_policy="skip")
    rnd = to_scored_round(w)
    gone = game_at(tables_of(w)[0]).players[0]
    services.player_leave(player_id=gone)
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    doc, ix, _ = built(w)
    mv = report.movement(doc, ix)
    assert mv["columns"][-1]["label"].startswith("After")
    last = [cell[-1] for cell in (row["cells"] for row in mv["grid"])]
    assert all(gone not in {chip["id"] for chip in cell} for cell in last)
    rows = round_rows(doc, ix, rnd.number)
    mine = [p for t in rows["tables"] for p in t["players"] if p["id"] == gone]
    assert [p["moved"] for p in mine] == ["left"]
    # Everyone else who played is still where the movement put them.
    seated_after = {chip["id"] for cell in last for chip in cell}
    assert seated_after == set(w.players.filter(has_left=False).values_list("pk", flat=True))


def test_a_seat_a_bot_plays_after_its_player_left_is_seated_after_the_last_round():
    """Removed during the last round, a bot playing their seat (the workshop's leave
    policy): the column after it showed three at table 1 where the projector said 4/4,
    and the results said the seat 'left'. The seat is listed as the bot's, and stayed."""
    w = make_workshop(players=8, tables=2, leave_policy="bot")
    rnd = to_scored_round(w)
    t1 = tables_of(w)[0]
    # Nobody wins a game: ranked by name, the second at table 1 stays there.
    gone = sorted(t1.seated_players.all(), key=lambda p: p.name)[1]
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    doc, ix, rep = built(w)
    mv = report.movement(doc, ix)
    assert mv["columns"][-1]["label"].startswith("After")
    after = {row["table"]: row["cells"][-1] for row in mv["grid"]}
    assert len(after[1]) == 4 and len(after[2]) == 4
    chip = next(c for c in after[1] if c["id"] == gone.pk)
    assert (chip["name"], chip["bot_seat"]) == (f"the bot in {gone.name}'s seat", True)
    row = next(
        p
        for t in round_rows(doc, ix, rnd.number)["tables"]
        for p in t["players"]
        if p["id"] == gone.pk
    )
    assert (row["moved"], row["bot_seat"]) == ("", True)
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "stayed (they left; a bot plays the seat)" in html
    assert f"the bot in {gone.name}&#x27;s seat" in html


def test_a_player_who_left_their_seat_given_up_is_listed_after_the_ranking():
    """Five at a table, one left during the round (the seat skipped): the table listed
    five rows with the leaver ranked among them, second say, while movement ranked
    four and moved one each way. A facilitator counting rows expected two up."""
    w = make_workshop(players=10, tables=2, seats=5, leave_policy="skip")
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    gone = min(game.players, key=lambda pid: w.players.get(pk=pid).name)  # first by name
    services.player_leave(player_id=gone)
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    doc, ix, rep = built(w)
    table = next(t for t in round_rows(doc, ix, rnd.number)["tables"] if t["table"] == 1)
    assert [p["id"] for p in table["players"]][-1] == gone
    assert [(p["unranked"], p["moved"]) for p in table["players"]][-1] == (True, "left")
    assert not any(p["unranked"] for p in table["players"][:-1])
    assert ix.name(gone) not in table["top"] + table["bottom"]
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "is listed last, <em>not ranked</em>: movement did not rank them." in html
    assert f'<bdi>{ix.name(gone)}</bdi> <span class="muted">(not ranked)</span>' in html


def test_back_with_the_pin_at_another_table_is_ranked_there_not_where_they_left():
    """Left table 2 (the seat skipped) and came back with the PIN, seated at table 1:
    movement ranked them at table 1 only."""
    w = make_workshop(players=8, tables=2, leave_policy="skip")
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    p = game_at(t2).players[0]
    services.player_leave(player_id=p)
    services.player_join(workshop_id=w.pk, name="Quinn")  # table 2's empty seat
    gone = w.players.get(pk=p)
    back = services.player_rejoin(code=w.code, name=gone.name, pin=gone.pin)
    assert back.table_id == t1.pk
    services.round_end_now(round_id=rnd.pk)
    doc, ix, _ = built(w)
    tables = {t["table"]: t for t in round_rows(doc, ix, rnd.number)["tables"]}
    row_at = {n: [x for x in t["players"] if x["id"] == p] for n, t in tables.items()}
    assert [x["unranked"] for x in row_at[2]] == [True]
    assert tables[2]["players"][-1]["id"] == p
    assert [x["unranked"] for x in row_at[1]] == [False]


def others_left_after(move):
    """A table of three in a scored round: `move` (a trick, a card) on its game, then
    the two players after the first leave, their seats given up, and the round ends.
    The workshop, who stays, the report's Index and report, and the table's row."""
    w = make_workshop(players=3, tables=1, seats=3, leave_policy="skip")
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    move(game)
    stays, *going = game.players
    for pid in going:
        services.player_leave(player_id=pid)
    services.round_end_now(round_id=rnd.pk)
    doc, ix, rep = built(w)
    return w, stays, ix, rep, round_rows(doc, ix, rnd.number)["tables"][0]


def test_one_player_ranked_alone_is_the_most_not_all_tied():
    """The others at the table left, their seats given up: with them listed apart, the
    one player ranked read "All tied on 1 game won" (a review of a 3 Tricks table)."""
    w, stays, ix, rep, table = others_left_after(finish_trick)
    assert [p["id"] for p in table["players"]][0] == stays
    assert (table["tied"], table["top"], table["bottom"]) == (False, [ix.name(stays)], [])
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    won = table["best"]
    said = f"<bdi>{ix.name(stays)}</bdi> won {won} game{'' if won == 1 else 's'}."
    assert said in html and "All tied" not in html and "Most games won" not in html


def test_a_table_whose_players_all_left_says_so_not_all_tied():
    """Everyone who played at the table left, their seats given up: with nobody ranked
    the caption read "All tied on 0 games won" of a table where a game was won."""
    w = make_workshop(players=3, tables=1, seats=3, leave_policy="skip")
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    finish_trick(game)
    for pid in game.players:
        services.player_leave(player_id=pid)
    services.round_end_now(round_id=rnd.pk)
    doc, ix, rep = built(w)
    table = round_rows(doc, ix, rnd.number)["tables"][0]
    assert table["ranked"] == 0 and all(p["unranked"] for p in table["players"])
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "Everyone who played here left during the round." in html
    assert "All tied" not in html


def test_a_table_where_every_game_was_won_by_nobody_says_so():
    """A game cut with no trick taken (as a 3 Tricks game both players passed at level
    piles) has no winner: a table of such games read "All tied on 0 games won"."""
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    for table in tables_of(w):
        play_one(game_at(table))  # a card, not a trick: no winner when the round ends
    services.round_end_now(round_id=rnd.pk)
    doc, ix, rep = built(w)
    tables = round_rows(doc, ix, rnd.number)["tables"]
    assert [(t["games_played"], t["best"], t["tied"]) for t in tables] == [(1, 0, True)] * 2
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert html.count("1 game, cut short.\n          Nobody won a game.") == 2
    assert "All tied on 0" not in html


def test_one_player_ranked_alone_who_won_nothing_is_not_said_to_have_won():
    """The others left, and no game was won: "Ana won 0 games." (a review)."""
    w, _, _, rep, table = others_left_after(play_one)
    assert (table["ranked"], table["best"]) == (1, 0)
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "won 0 games" not in html
    assert "Nobody won a game." in html


def test_a_table_whose_game_was_cut_before_anyone_played_is_not_said_too_small():
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)  # nobody has played a card
    doc, ix, rep = built(w)
    tables = round_rows(doc, ix, rnd.number)["tables"]
    assert [(t["games_played"], t["none_dealt"]) for t in tables] == [(0, False), (0, False)]
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "too few players to deal to" not in html
    assert "no game played (the one dealt was cut before anyone played)" in html


def test_a_table_too_small_to_deal_to_is_said_so():
    w = make_workshop(players=3, tables=2, seats=4)
    rnd = to_scored_round(w, one_left_alone(w))  # tables of two and one
    services.round_end_now(round_id=rnd.pk)
    doc, ix, rep = built(w)
    lone = next(t for t in round_rows(doc, ix, rnd.number)["tables"] if t["table"] == 2)
    assert lone["games_played"] == 0 and lone["none_dealt"]
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "Table 2: no game (too few players to deal to)." in html


def test_bots_moved_by_the_rule_are_no_newcomers():
    players = [
        {"bot": True, "moves": 2, "moves_played": 2},
        {"bot": False, "moves": 0, "moves_played": 0},
        {"bot": False, "moves": 1, "moves_played": 1},
        # Moved after the last round: played nowhere new.
        {"bot": False, "moves": 1, "moves_played": 0},
    ]
    assert report._movers_lines(players) == [
        "1 player changed tables at least once: they were the newcomers."
    ]
    assert report._movers_lines(players[:2] + players[3:]) == []


def test_the_report_read_mid_round_says_so_and_counts_the_open_dispute():
    """Read while a round is played: its tables said 'Movement was not applied after
    this round' with a Moved column of dashes, and the guide's dispute count left the
    open one out (the parts added to fewer than the total)."""
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW])
    open_dispute(game)
    doc, ix, rep = built(w)
    rows = round_rows(doc, ix, rnd.number)
    assert rows["finished"] is False
    assert {p["moved"] for t in rows["tables"] for p in t["players"]} == {""}
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    section = html.split('id="h-results"', 1)[1].split('id="h-clashes"', 1)[0]
    assert "Movement was not applied" not in section and ">Moved<" not in section
    assert "(being played: so far)" in section
    lines = [e for q in rep["guide"] for e in q["data"]]
    assert "The one dispute is still open." in lines, lines


def test_the_summary_says_what_its_figures_count_and_the_players_table_its_columns():
    """The summary said "9 disputes" with 2 still open and never said so; beside "71
    disputes" it said "61 tricks judged differently" (disputes cut by a round's end
    finished no trick); the players' table's "Held" and "Own claim won" were defined
    nowhere on the page."""
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW])
    open_dispute(game)
    doc, ix, rep = built(w)
    assert rep["counts"]["disputes_open"] == 1
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    summary = " ".join(html.split('aria-label="Key figures"')[1].split("</ul>")[0].split())
    assert "<strong>1</strong> dispute (1 still open)</li>" in summary
    # The disputed trick is not finished: not among the tricks judged differently.
    tricks = rep["counts"]["tricks"]
    assert f"<strong>0</strong> of {tricks} finished tricks judged differently" in summary
    players = html.split('id="h-players"', 1)[1].split("</caption>", 1)[0]
    assert (
        "<em>held</em> (ended it on their first claim, also when that claim was already the "
        "winning one, or the dispute was cut short or is still open)" in players
    )
    assert "<em>own claim won</em> (disputes won by the player their first claim named)" in players
    # Cut short by the round's end as well: both said.
    rep["counts"]["disputes_unfinished"] = 2
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "(2 cut short by a round's end: no trick awarded; 1 still open)" in html


def test_one_gesture_is_one_gesture():
    w = make_workshop(players=4, tables=1, seats=4, mode="referee")
    to_scored_round(w)
    services.gesture_make(player_id=game_at(tables_of(w)[0]).players[0], kind="stop")
    _, _, rep = built(w)
    lines = [e for q in rep["guide"] for e in q["data"]]
    assert "1 gesture or drawing was made." in lines, lines


def test_a_claim_step_cut_before_everyone_claimed_is_counted():
    """The round ends while one of four has claimed the trick (no dispute yet): no
    trick was awarded, and the report's count of claim steps left it out."""
    from tournament_helpers import play_until_claim

    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    state = play_until_claim(game)
    services.game_claim(player_id=game.players[0], winner_player_id=game.players[state.leader])
    services.round_end_now(round_id=rnd.pk)
    _, _, rep = built(w)
    outcomes = {o["key"]: o["count"] for o in rep["clashes"]["trick_outcomes"]}
    assert outcomes.get("claims_cut") == 1, outcomes
    cell = next(
        c
        for t in rep["clashes"]["by_table_round"]
        if t["table"] == 1
        for c in t["rounds"]
        if c["tricks"] or c["cut"]
    )
    assert cell["cut"] == 1


def test_a_moves_arrow_is_seen_and_not_read_out():
    """'Moved' read "up arrow up" to a screen reader: the arrow is for the eye."""
    w = make_workshop(players=8, tables=2)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    doc, ix, rep = built(w)
    moved = [p["moved"] for t in round_rows(doc, ix, rnd.number)["tables"] for p in t["players"]]
    assert "up" in moved and "down" in moved
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "↑ up" not in html and "↓ down" not in html
    assert '<span aria-hidden="true">↑ </span>up' in html
    assert '<span aria-hidden="true">↓ </span>down' in html
    caption = html.split("Seating at the start of each round")[1].split("</caption>")[0]
    assert "↑" not in caption.replace('<span aria-hidden="true">↑ </span>', "")


def test_whose_sheet_won_says_first_how_many_sheets_backed_it_and_how_few_the_locals_were():
    """A lone local among three newcomers gives in: the guide said "the locals' sheet
    prevailed in 0, a newcomer's in 1", which reads as newcomers imposing their rules;
    the winner was the verdict of three sheets of four, the locals one player."""
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW])
    state = open_dispute(game)
    services.game_claim(
        player_id=game.players[3], winner_player_id=game.players[verdict(state, HIGH)]
    )
    doc = export.workshop_document(fresh(w))
    # Seats 0 to 2 came from table 2: newcomers; seat 3 is the table's one local.
    for p in doc["players"]:
        if p["id"] in game.players[:3]:
            p["home_table"] = 2
    rep = report.build_report(doc)
    (d,) = rep["clashes"]["disputes"]
    assert (d["origin"], d["support"]) == ("newcomer", "majority")
    outside = next(q["data"] for q in rep["guide"] if q["id"] == "outside")
    assert outside[:2] == [
        "In the one dispute with a winner, the winner was the verdict of most players' sheets "
        "at the table.",
        "There the locals were outnumbered by newcomers (a lone local): the winner was named "
        "by a newcomer's sheet alone.",
    ]
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    assert "by a sheet both shared" not in html and "equally held" not in html
    # Section 4 in the guide's words, the noughts left out ("… in <strong>0</strong>").
    assert (
        "<li>In the one dispute with a winner, the winner was the verdict of most players&#x27; "
        "sheets at the table.</li><li>The winner was named by a newcomer&#x27;s sheet alone.</li>"
    ) in html
    assert "<strong>0</strong>" not in html.split('<ul class="facts">')[1].split("</ul>")[0]


def test_a_dispute_the_rounds_end_cut_is_said_beside_the_clashes_not_as_none():
    """Bots-only workshops read "Round 2: the sheets at the table disagreed on 0 of 4
    tricks; the first dispute came …": every dispute was on a trick the round's end cut
    before it was awarded, and a clash is a trick played to the end (docs/export.md),
    so none counted. The guide says the cut dispute beside the tricks."""
    w = make_workshop(players=8, tables=2)
    first = to_scored_round(w)
    services.round_end_now(round_id=first.pk)
    services.movement_apply(round_id=first.pk)
    rnd = services.round_start(workshop_id=w.pk)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, HIGH, LOW])
    open_dispute(game)
    services.round_end_now(round_id=rnd.pk)
    _, _, rep = built(w)
    cl = rep["clashes"]
    ((d,),) = [cl["disputes"]]
    # The investigated figures: the cut trick is no clash, and its dispute is counted.
    assert (cl["clash_count"], cl["dispute_count"], d["outcome"]) == (0, 1, "cut")
    assert len({s["verdict"] for s in d["seats"]}) == 2  # the sheets did disagree on it
    tricks = cl["tricks"]
    notice = next(q["data"] for q in rep["guide"] if q["id"] == "notice")
    agreed = {
        0: "no trick was played to the end",
        1: "the sheets at the table agreed on the one trick played to the end",
        2: "the sheets at the table agreed on both tricks played to the end",
    }.get(tricks, f"the sheets at the table agreed on all {tricks} tricks played to the end")
    assert notice[1].startswith(
        f"Round 2: {agreed}; one dispute, on a trick the sheets judged differently, was cut "
        "short before a winner was given; the first dispute came "
    ), notice[1]
    assert "disagreed on 0 of" not in " ".join(notice)


@pytest.mark.parametrize("policy", ["bot", "skip"])
def test_a_player_who_left_says_in_their_row_and_the_results_that_a_bot_took_the_seat(policy):
    """Removed during a round, a bot playing their seat: section 5 said only "left during
    Round 1", and the round's results row the plain name (no game began after they
    left), where the seating after it said "the bot in P02's seat". Both say the bot's
    part, as a round the player began and a bot ended; a seat that went has no bot."""
    w = make_workshop(players=8, tables=2, leave_policy=policy)
    rnd = to_scored_round(w)
    t1 = tables_of(w)[0]
    gone = sorted(t1.seated_players.all(), key=lambda p: p.name)[1]
    play_one(game_at(t1))  # a card down: the game counts, begun before they left
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)
    doc, ix, rep = built(w)
    row = next(
        p
        for t in round_rows(doc, ix, rnd.number)["tables"]
        for p in t["players"]
        if p["id"] == gone.pk
    )
    (mine,) = [p for p in rep["players"] if p["id"] == gone.pk]
    html = render_to_string("report/page.html", {"r": rep, "workshop": w})
    if policy == "bot":
        assert row["label"] == f"{gone.name} (a bot after they left)"
        assert mine["bot_took_seat"]
        assert (
            '<span class="tag">left</span> <span class="muted">during Round 1; a bot took their '
            "seat</span>" in html
        )
    else:
        assert row["label"] == gone.name
        assert not mine["bot_took_seat"]
        assert '<span class="tag">left</span> <span class="muted">during Round 1</span>' in html
        assert "; a bot took their seat" not in html
