"""The report's bump chart of who sat where (tournament.report_charts.paths_chart).

It is projected in the debrief: every player's name must be readable at the end of
their line, whatever the class's size. Pure tests: no database.
"""

from __future__ import annotations

import random
import re

import pytest

from tournament import report_charts

LABEL = re.compile(r'<text x="([\d.]+)" y="([\d.]+)" class="label">([^<]*)</text>')
TEXT_FILL = re.compile(r"\.text-overlay \.color-(\d+) text\{fill:([^}]+)\}")


def movement(tables: int, per_table: int, rounds: int = 3, seed: int = 1):
    """Seating like RULES.md's movement makes: after each round one player at each
    table moves up and one down (the top and bottom tables keep theirs)."""
    rng = random.Random(seed)
    players = list(range(1, tables * per_table + 1))
    now = {pid: i // per_table + 1 for i, pid in enumerate(players)}
    seats = {pid: [now[pid]] for pid in players}
    for _ in range(rounds):
        for t in range(1, tables + 1):
            here = [pid for pid in players if now[pid] == t]
            rng.shuffle(here)
            if t < tables:
                now[here[0]] = t + 1
            if t > 1:
                now[here[-1]] = t - 1
        for pid in players:
            seats[pid].append(now[pid])
    columns = [{"label": "At home"}] + [{"label": f"Round {r}"} for r in range(1, rounds + 1)]
    mov = {
        "columns": columns,
        "players": players,
        "grid": [{"table": t} for t in range(1, tables + 1)],
        "journeys": {pid: {"tables": seats[pid], "text": ""} for pid in players},
    }
    return mov, {pid: f"Player {pid:02d}" for pid in players}


@pytest.mark.parametrize(("tables", "per_table"), [(1, 4), (3, 5), (6, 5), (12, 5), (2, 8)])
def test_every_name_is_written_dark_and_clear_of_the_others(tables, per_table):
    mov, names = movement(tables, per_table)
    chart = report_charts.paths_chart(mov, names)
    labels = [(float(x), float(y), name) for x, y, name in LABEL.findall(chart["svg"])]
    assert sorted(name for _, _, name in labels) == sorted(names.values())
    # pygal writes text white on a dark line's colour: on the white plot that hid
    # a third of the names.
    fills = dict(TEXT_FILL.findall(chart["svg"]))
    assert len(fills) >= len(names) and set(fills.values()) == {"#1b1b1f"}
    # Every name is at a line's end (one column), and no two touch.
    assert len({x for x, _, _ in labels}) == 1
    ys = sorted(y for _, y, _ in labels)
    gaps = [b - a for a, b in zip(ys, ys[1:], strict=False)]
    assert all(gap >= 20 for gap in gaps)
    # The picture's size is the one the page reserves for it.
    assert f'viewBox="0 0 {chart["width"]} {chart["height"]}"' in chart["svg"]


def test_the_chart_grows_with_the_largest_table_not_the_class():
    small = report_charts.paths_chart(*movement(3, 5))
    many_tables = report_charts.paths_chart(*movement(12, 5))
    big_tables = report_charts.paths_chart(*movement(3, 8))
    assert small["height"] < big_tables["height"] < many_tables["height"]
    assert small["width"] == many_tables["width"] == 960


def test_a_200_player_chart_is_drawn_without_what_only_pygal_s_tooltips_read():
    """At 200 players (40 tables) the movement chart was 499 kB of the report's 1 MB,
    embedded: pygal's tooltip data (a <desc> per point, which no script reads in an
    <img>), its comments, a 41-character id in each of its CSS rules and coordinates
    to 15 decimals. Without them it is less than half, drawn the same."""
    import base64

    mov, names = movement(40, 5)
    chart = report_charts.paths_chart(mov, names)
    svg = chart["svg"]
    assert "<desc" not in svg and "<!--" not in svg
    assert not re.search(r"chart-[0-9a-f]{8}-", svg)
    tags = "".join(re.findall(r"<[^>]+>", svg))
    assert not re.search(r"\d\.\d\d", tags)
    # Still the same picture: every point, every line and every name at its place.
    assert svg.count("<circle ") == 200 * 4 and svg.count('class="line ') == 200
    labels = LABEL.findall(svg)
    assert sorted(name for *_, name in labels) == sorted(names.values())
    assert base64.b64decode(chart["src"].split(",", 1)[1]).decode() == svg
    assert len(chart["src"]) < 240_000, len(chart["src"])


@pytest.mark.parametrize(("tables", "tall"), [(2, False), (6, False), (8, True), (40, True)])
def test_a_chart_taller_than_a_printed_page_is_marked_tall(tables, tall):
    """Printed at the page's width (186 mm on A4), a chart more than 24 cm high
    does not fit a page: it is marked so, and prints over several (report.css)."""
    chart = report_charts.paths_chart(*movement(tables, 5))
    assert chart["tall"] is tall
    assert tall == (chart["height"] * 186 / chart["width"] > 240)


def test_players_who_stay_keep_their_place_and_their_lines_do_not_cross():
    mov, names = movement(2, 4, rounds=0)
    mov["columns"].append({"label": "Round 1"})
    for journey in mov["journeys"].values():
        journey["tables"].append(journey["tables"][0])
    offsets, _ = report_charts._band_offsets(mov["journeys"], mov["players"], 2)
    for pid in mov["players"]:
        assert offsets[pid][0] == offsets[pid][1]
    # Spread evenly across the band, in the players' order, at each table.
    at_1 = [offsets[pid][0] for pid in mov["players"][:4]]
    assert at_1 == sorted(at_1) and at_1[0] == -report_charts.BAND / 2
    assert at_1[-1] == pytest.approx(report_charts.BAND / 2)


def test_arrivals_take_the_side_of_the_band_they_came_from():
    # Table 1: A, B; table 2: C, D. Then B moves up and C moves down.
    journeys = {
        1: {"tables": [1, 1]},
        2: {"tables": [1, 2]},
        3: {"tables": [2, 1]},
        4: {"tables": [2, 2]},
    }
    offsets, _ = report_charts._band_offsets(journeys, [1, 2, 3, 4], 2)
    # At table 1 the one who came down from table 2 is above the one who stayed;
    # at table 2 the one who came up from table 1 is below the one who stayed.
    assert offsets[3][1] > offsets[1][1]
    assert offsets[2][1] < offsets[4][1]


@pytest.mark.parametrize("disputes", [True, False], ids=["with-claims", "without"])
def test_the_gestures_bars_read_top_down_in_the_tables_order(disputes):
    used = [
        {"label": label, "total": total, "in_dispute": total - 1, "other": 1}
        for label, total in [("Thumbs up", 5), ("Point", 3), ("Shrug", 2)]
    ]
    svg = report_charts.gestures_chart({"gestures": {"used": used}}, disputes=disputes)["svg"]
    ys = [
        float(re.search(rf'<text[^>]*y="([\d.]+)"[^>]*>{k["label"]}</text>', svg).group(1))
        for k in used
    ]
    assert ys == sorted(ys)  # top down, in the order of the table under the chart


def test_the_gestures_alt_text_says_only_counts_above_nought_listed_with_and():
    """It read "Question: 0 during disputes, 3 at other times"."""
    used = [
        {"label": label, "total": d + o, "in_dispute": d, "other": o}
        for label, d, o in [("Stop", 2, 1), ("Question", 0, 3), ("Shrug", 2, 0)]
    ]
    alt = report_charts.gestures_chart({"gestures": {"used": used}})["alt"]
    assert alt == (
        "Stacked bar chart: gestures used. Stop: 2 during disputes and 1 at other times;"
        " Question: 3 at other times; Shrug: 2 during disputes."
    )


def test_the_charts_text_reads_a_journey_in_words():
    """A screen reader reads the alt text: "tables 1 then 2", not an arrow character
    (the players' table beside it says 'then' too)."""
    mov, names = movement(2, 4)
    for pid in mov["players"]:
        mov["journeys"][pid]["text"] = " → ".join(str(t) for t in mov["journeys"][pid]["tables"])
    last = mov["players"][-1]
    mov["journeys"][last]["text"] = "1 → — → 2"  # a round the player was not seated
    alt = report_charts.paths_chart(mov, names)["alt"]
    assert "→" not in alt and "Player 01: tables 1 then " in alt
    assert f"{names[last]}: tables 1 then not seated then 2" in alt
    # What the steps are, once (a review read "1 then 1 then 2" not knowing the rounds).
    columns = [c["label"] for c in mov["columns"]]
    assert alt.startswith(
        f"Line chart: where each player sat, round by round ({', '.join(columns[:-1])} and "
        f"{columns[-1]}). Player 01: tables "
    ), alt


def test_a_workshop_without_gestures_is_not_said_in_numbers_of_nothing():
    from tournament import report

    doc = {
        "schema": "barnga.workshop/1",
        "workshop": {"name": "Quiet"},
        "tables": [],
        "players": [],
        "rounds": [],
        "games": [],
        "gestures": [],
    }
    feel = next(q for q in report.build_report(doc)["guide"] if q["id"] == "feel")["data"]
    assert not any("0 of 0" in line for line in feel)
    assert "No gestures or drawings were made" in " ".join(feel)


def test_how_the_disputes_ended_reads_top_down_in_the_lists_order():
    rows = [
        {"label": "Settled A", "count": 2},
        {"label": "Timeout B", "count": 1},
        {"label": "Cut C", "count": 0},
    ]
    rows = [{**o, "said": f"{o['count']} {o['label']}"} for o in rows]
    svg = report_charts.outcomes_chart({"dispute_count": 3, "dispute_outcomes": rows})["svg"]
    heights = {
        label: float(y)
        for y, label in re.findall(
            r'<text[^>]*y="([\d.]+)"[^>]*>(Settled A|Timeout B|Cut C)</text>', svg
        )
    }
    assert sorted(heights, key=heights.get) == ["Settled A", "Timeout B", "Cut C"]


LINE_COLOUR = re.compile(r"\.color-(\d+),[^{]*\{stroke:([^;]+);")
LINE_DASH = re.compile(r"\.series\.serie-(\d+)\{([^}]*)\}")


def test_past_eight_players_each_line_is_a_colour_and_dash_of_its_own():
    """pygal's colours past the palette's eight are darker shades: from the ninth
    line on they were near black, told apart only by the name at the line's end."""
    mov, names = movement(6, 5)  # 30 players
    svg = report_charts.paths_chart(mov, names)["svg"]
    colours = {int(i): c.lower() for i, c in LINE_COLOUR.findall(svg)}
    dashes = {
        int(i): (re.search(r"stroke-dasharray:([^;]+)", css) or [None, "solid"])[1]
        for i, css in LINE_DASH.findall(svg)
    }
    assert len(colours) == len(dashes) == 30
    assert set(colours.values()) <= {c.lower() for c in report_charts.PALETTE}
    looks = [(colours[i], dashes[i]) for i in range(30)]
    assert len(set(looks)) == 30, looks
    assert dashes[0] == "solid" and dashes[8] != "solid"
    # Drawn 3 px wide (pygal drew every line at its style's 1 px).
    assert re.search(r"\.reactive\{[^}]*stroke-width:3\}", svg)


def clashes(tables: int, rounds: int = 2, disputes=lambda table, r: 5) -> dict:
    """The report's clashes figures as the disputes chart reads them."""
    labels = [f"Round {r}" for r in range(1, rounds + 1)]
    return {
        "rounds": [{"label": label} for label in labels],
        "by_table_round": [
            {
                "table": t,
                "rounds": [
                    {"label": label, "disputes": disputes(t, r)}
                    for r, label in enumerate(labels, start=1)
                ],
            }
            for t in range(1, tables + 1)
        ],
    }


X_AXIS = re.compile(r'<g class="axis x.*?(?=<g class="series)', re.S)
AXIS_LABEL = re.compile(r'<text x="([\d.]+)" y="[\d.]+" class="[^"]*">([^<]+)</text>')
VALUE = re.compile(r'<text text-anchor="middle" x="([\d.]+)" y="[\d.]+" class="value">([^<]*)<')


@pytest.mark.parametrize("tables", [2, 6, 9, 12, 13, 24, 40, 60])
def test_the_disputes_charts_table_labels_never_sit_on_each_other(tables):
    """At 40 tables "Table 1" … "Table 40" under 850 px of bars were one black smear
    (and 80 counts over 10 px bars another). Written at 18 px, a character is at most
    about 11 px wide: each label has room for itself and a gap."""
    svg = report_charts.disputes_chart(clashes(tables))["svg"]
    labels = [(float(x), text) for x, text in AXIS_LABEL.findall(X_AXIS.search(svg)[0])]
    assert labels
    for (x1, a), (x2, b) in zip(labels, labels[1:], strict=False):
        assert x2 - x1 >= (len(a) + len(b)) / 2 * 11 + 6, (a, b, x2 - x1)
    # Every table named while they fit, else numbered (the axis titled "Table"), else
    # every fifth one numbered.
    texts = [text for _, text in labels]
    if tables <= 9:
        assert texts == [f"Table {t}" for t in range(1, tables + 1)]
    elif tables <= 24:
        assert texts == [str(t) for t in range(1, tables + 1)]
    else:
        assert texts == [str(t) for t in range(5, tables + 1, 5)]
    # The counts over the bars: over every bar, or none where the bars are too narrow.
    values = VALUE.findall(svg)
    assert len(values) == (2 * tables if tables <= 24 else 0), len(values)


def test_a_large_class_s_alt_texts_are_a_summary_and_say_where_the_numbers_are():
    """At 200 players the movement chart's alt text was 7,264 characters (every
    player's tables, then the same again in the table after it) and the disputes
    chart's 1,751: minutes read aloud, with no way to skip about. Past ALT_MAX they
    sum up, and name the table on the page that has every number."""
    mov, names = movement(40, 5, rounds=2)
    for pid in mov["players"]:
        mov["journeys"][pid]["text"] = " → ".join(str(t) for t in mov["journeys"][pid]["tables"])
    chart = report_charts.paths_chart(mov, names)
    paths = chart["alt"]
    assert len(paths) <= report_charts.ALT_MAX, len(paths)
    assert paths.startswith(
        "Line chart: where each player sat, round by round: 200 players at 40 tables."
        " Changed tables: "
    ), paths
    seats = [mov["journeys"][pid]["tables"] for pid in mov["players"]]
    moved = [sum(s[c] != s[c - 1] for s in seats) for c in (1, 2)]
    # Shown above a folded chart: a lead, a step a line (one sentence of 470
    # characters was a list in a sentence), the rest after; the alt text its `line`.
    summary = chart["summary"]
    assert summary["lead"] == (
        "Line chart: where each player sat, round by round: 200 players at 40 tables."
        " Changed tables:"
    )
    assert summary["items"] == [
        f"{moved[0]} from At home to Round 1",
        f"{moved[1]} from Round 1 to Round 2",
    ]
    stayed = sum(len(set(s)) == 1 for s in seats)
    top = re.fullmatch(
        r"The most moves, 2, by ((?:Player \d+, )+Player \d+ and \d+ others)\.",
        summary["after_paragraphs"][1],
    )
    assert top, summary["after_paragraphs"]
    # After the list, a short sentence a paragraph (in one of about 250 characters a
    # teacher looked for who never moved and where the tables are).
    assert summary["after_paragraphs"] == [
        f"{stayed} never changed tables.",
        f"The most moves, 2, by {top.group(1)}.",
        "Who sat where is in the table “Seating at the start of each round” under the chart.",
        "Each player's journey is in “Per player”.",
    ]
    assert summary["line"] == paths
    assert f"{moved[0]} from At home to Round 1; {moved[1]} from Round 1 to Round 2." in paths
    assert paths.endswith(" " + " ".join(summary["after_paragraphs"])), paths
    assert "Player 01: tables" not in paths
    # Past report.FOLD_TABLES the report folds the chart and splits the seating into a
    # folded table per round: the words say so, not "under the chart".
    folded = report_charts.paths_chart(mov, names, folded=True)
    assert folded["summary"]["after_paragraphs"][2] == (
        "Who sat where is in the tables “Seating at the start of each round”, one a round,"
        " folded after the chart."
    )
    assert folded["summary"]["after_paragraphs"][:2] == summary["after_paragraphs"][:2]
    assert folded["summary"]["after_paragraphs"][3:] == summary["after_paragraphs"][3:]
    assert len(folded["alt"]) <= report_charts.ALT_MAX, len(folded["alt"])
    # Nobody changes tables between the tables at home and Round 1: said so, not "0".
    for pid in mov["players"]:
        tables = mov["journeys"][pid]["tables"]
        tables[1] = tables[0]
    paths = report_charts.paths_chart(mov, names)["alt"]
    assert "Changed tables: nobody from At home to Round 1; " in paths, paths

    # Round 2: table 39 had none, the others 5 (the workshop of the review); Round 1:
    # table 7 had the most.
    def counts(table, r):
        return (3 if table == 7 else 1) if r == 1 else (0 if table == 39 else 5)

    disputes = report_charts.disputes_chart(clashes(40, disputes=counts))["alt"]
    assert len(disputes) <= report_charts.ALT_MAX, len(disputes)
    assert disputes == (
        "Bar chart: disputes per table and round, 40 tables. "
        "Round 1: 42 disputes, the most, 3, at table 7; "
        "Round 2: 195 disputes, the most, 5, at 39 tables, none at table 39. "
        "Every table's count is in the table “Tricks, clashes and disputes per table and "
        "round” under the chart."
    )
    # Past twelve tables the report folds that table after the chart: said so.
    folded = report_charts.disputes_chart(clashes(40, disputes=counts), folded=True)["alt"]
    assert len(folded) <= report_charts.ALT_MAX, len(folded)
    assert folded == disputes.removesuffix(" under the chart.") + ", folded under the chart."


@pytest.mark.django_db
def test_a_folded_report_draws_its_disputes_chart_as_folded():
    """all_charts passes the report's fold on to the disputes chart's summary."""
    import json

    from tournament_helpers import make_workshop, to_scored_round

    from tournament import export, report

    w = make_workshop(players=4, tables=1)
    to_scored_round(w)
    rep = report.build_report(json.loads(json.dumps(export.workshop_document(w))))
    rep["clashes"] = {**rep["clashes"], **clashes(40)}
    for fold, end in ((True, "”, folded under the chart."), (False, "” under the chart.")):
        alt = report_charts.all_charts({**rep, "folded": fold})["disputes"]["alt"]
        assert alt.endswith(end), alt


def test_a_small_class_s_alt_texts_still_say_every_number():
    alt = report_charts.disputes_chart(clashes(6, disputes=lambda t, r: t + r))["alt"]
    assert alt.startswith("Bar chart: disputes per table and round. table 1: 2 in Round 1 and 3 in")
    assert alt.endswith("table 6: 7 in Round 1 and 8 in Round 2.")


def test_a_disputes_alt_text_says_where_there_were_disputes_not_every_zero():
    """At 12 tables it read out every zero: "table 1: Round 1 0, Round 2 0; table 2: …"."""
    alt = report_charts.disputes_chart(
        clashes(12, disputes=lambda t, r: {(4, 2): 1, (9, 1): 2, (9, 2): 1}.get((t, r), 0))
    )["alt"]
    assert alt == (
        "Bar chart: disputes per table and round. table 4: 1 in Round 2; table 9: 2 in"
        " Round 1 and 1 in Round 2. No other table or round had a dispute."
    )
    none = report_charts.disputes_chart(clashes(12, disputes=lambda t, r: 0))["alt"]
    assert none == "Bar chart: disputes per table and round. No table had a dispute in any round."


def test_names_in_an_alt_text_summary_are_never_and_1_others():
    """Four players tied for the most moves read "Ana, Bo, Cai and 1 others" (found
    by a review): one more than the three named is named too."""
    from tournament.report_charts import _names_said

    assert _names_said(["Ana", "Bo", "Cai", "Dev"]) == "Ana, Bo, Cai and Dev"
    assert _names_said(["Ana", "Bo", "Cai", "Dev", "Eve"]) == "Ana, Bo, Cai and 2 others"
    assert _names_said(["Ana"]) == "Ana"


def test_a_summary_where_everyone_moved_says_so_not_0_never_changed():
    """Every player changed tables: the summary read "0 never changed tables."."""
    players = list(range(1, 21))
    mov = {
        "columns": [{"label": "Round 1"}, {"label": "Round 2"}],
        "players": players,
        "grid": [{"table": 1}, {"table": 2}],
        "journeys": {p: {"tables": [1, 2] if p <= 10 else [2, 1], "text": ""} for p in players},
    }
    chart = report_charts.paths_chart(mov, {p: f"A rather long name {p:02d}" for p in players})
    closing = chart["summary"]["after_paragraphs"]
    assert closing[0] == "Everyone changed tables at least once.", closing
    assert "never changed" not in chart["alt"]
