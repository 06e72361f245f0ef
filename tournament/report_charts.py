"""The report's charts: pygal SVG built on the server from `tournament.report` figures.

Each chart comes back as {"svg", "src" (a data: URI for an <img>), "alt", "title",
"width", "height"}, the movement chart with "tall" too (taller than a printed page).
The alt text states the numbers the chart shows, so a screen reader (and a
printout without images) loses nothing; every chart also has a data table beside
it in the page. Past ALT_MAX characters (a large class) the alt text sums the
numbers up instead and names that table. Large type and a colour-blind-safe palette (Okabe–Ito) keep
them readable on a projector and in black-and-white print. pygal's tooltip
script is not loaded (`js=[]`) and its inline config script is dropped: the
charts are pictures, not widgets.
"""

from __future__ import annotations

import base64
import math
import re

import pygal
from pygal.style import Style

from tournament.names import said_as_list
from tournament.report import listed

# Okabe & Ito's palette, readable with every common kind of colour blindness.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)

STYLE_KW = dict(
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#1b1b1f",
    foreground_strong="#1b1b1f",
    foreground_subtle="#8a8a94",
    font_family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif",
    label_font_size=18,
    major_label_font_size=18,
    legend_font_size=18,
    title_font_size=24,
    value_font_size=18,
    value_label_font_size=16,
    tooltip_font_size=16,
    opacity=".95",
    opacity_hover=".95",
    colors=PALETTE,
)
STYLE = Style(**STYLE_KW)

COMMON = {
    "style": STYLE,
    "js": [],
    "disable_xml_declaration": True,
    "explicit_size": False,
    "width": 960,
    "height": 540,
    "legend_at_bottom": True,
    "legend_box_size": 18,
    "print_values": True,
    "print_zeroes": False,
    "margin": 20,
    "truncate_legend": -1,
    "truncate_label": -1,
}

_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)


def _counts_axis(values) -> list[int]:
    """Whole-number ticks from 0 for an axis of counts, at most about ten of them."""
    top = max([1, *values])
    step = max(1, -(-top // 10))
    return list(range(0, top + step, step))


# An alt text is read out whole, with no way to skip about in it. Up to this many
# characters (about half a minute read aloud) it says every number the chart shows;
# past it, a summary, and where on the page a table has every number (at 200
# players the movement chart's was 7,264 characters, the same journeys as the
# table after it).
ALT_MAX = 500
# The captions of the tables that say what the charts show (templates/report/page.html).
DISPUTES_TABLE = "Tricks, clashes and disputes per table and round"
SEATING_TABLE = "Seating at the start of each round"
PLAYERS_TABLE = "Per player"


def _tables_said(tables: list[int]) -> str:
    """Tables said in words: "table 7", "tables 3, 7 and 9", past three "12 tables"."""
    if len(tables) == 1:
        return f"table {tables[0]}"
    if len(tables) <= 3:
        return "tables " + said_as_list([str(t) for t in tables])
    return f"{len(tables)} tables"


def _names_said(names: list[str], most: int = 3) -> str:
    """Names said in words: "Ana", "Ana, Bo and Cai", "Ana, Bo, Cai and 12 others"
    (one more than `most` is named: not "and 1 others")."""
    if len(names) <= most + 1:
        return said_as_list(names)
    return ", ".join(names[:most]) + f" and {len(names) - most} others"


# What pygal writes for its tooltip script and for the eye of a reader of its source,
# which a picture in an <img> never uses: a <desc> per point (value, x, y, label),
# comments, a long unique id in every CSS rule (each chart is a document of its own),
# and coordinates to 15 decimals. At 200 players the movement chart was 374 kB, 499 kB
# in the page as base64: four fifths of a folded report.
_DESC = re.compile(r"<desc\b[^>]*>.*?</desc>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_CHART_ID = re.compile(r'id="(chart-[0-9a-f-]+)"')
_TAG = re.compile(r"<[^>]+>")
_DECIMALS = re.compile(r"\d+\.\d{2,}")


def _lighter(svg: str) -> str:
    """`svg` drawn the same, without what only pygal's tooltips read: no <desc>, no
    comments, a short id, coordinates to a tenth of a pixel (in tags only: a name is
    text, and stays whole)."""
    svg = _COMMENT.sub("", _DESC.sub("", svg))
    found = _CHART_ID.search(svg)
    if found:
        svg = svg.replace(found.group(1), "chart")
    return _TAG.sub(
        lambda tag: _DECIMALS.sub(lambda n: f"{float(n.group()):.1f}", tag.group()), svg
    )


def _finish(chart, title: str, alt: str) -> dict:
    svg = _lighter(_SCRIPT.sub("", chart.render(is_unicode=True)))
    src = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    size = {"width": chart.config.width, "height": chart.config.height}
    return {"svg": svg, "src": src, "alt": alt, "title": title, **size}


# The bar charts' plot: a little less than the 960 px picture, less its margins and
# the count axis' labels (pygal's own layout; measured: 858 px).
PLOT_PX = 850
# Room between two labels on the table axis, in pixels.
AXIS_GAP_PX = 12


def _text_px(text: str, size: int = 18) -> float:
    """A rough width of `text` in `size` px type (see _name_px)."""
    return (_name_px(text) - 20) * size / 18


def _table_axis(tables: list[int]) -> tuple[list[str], list[str] | None]:
    """The table axis' labels, and the ones written when not all of them fit.

    Under 850 px, "Table 1" … "Table 40" were written on top of each other. The
    axis says as much as fits: "Table 1" under each group of bars, else the number
    alone (the axis is titled "Table"), else every fifth (tenth…) number."""
    group = PLOT_PX / len(tables)
    named = [f"Table {t}" for t in tables]
    if max(map(_text_px, named)) + AXIS_GAP_PX <= group:
        return named, None
    numbers = [str(t) for t in tables]
    widest = max(map(_text_px, numbers)) + AXIS_GAP_PX
    if widest <= group:
        return numbers, None
    every = next(k for k in (5, 10, 20, 50, 100, 10**9) if widest <= group * k)
    return numbers, [str(t) for t in tables if t % every == 0]


def disputes_chart(clashes: dict, *, folded: bool = False) -> dict | None:
    """Disputes per table, one bar per round. `folded`: the report of a large class,
    whose table of every count is folded after the chart (report.FOLD_TABLES)."""
    rounds = clashes["rounds"]
    tables = clashes["by_table_round"]
    if not rounds or not tables:
        return None
    title = "Disputes per table and round"
    counts = [c["disputes"] for t in tables for c in t["rounds"]]
    labels, major = _table_axis([t["table"] for t in tables])
    # Each bar's count over it where the bar is wide enough to hold it (at 40 tables
    # a bar is 10 px wide: 80 counts ran together). The table under the chart has them.
    bar_px = PLOT_PX / len(tables) / len(rounds)
    fits = _text_px(str(max(counts)), STYLE_KW["value_font_size"]) + 4 <= bar_px
    chart = pygal.Bar(
        title=title,
        x_title="Table",
        y_title="Disputes",
        y_labels=_counts_axis(counts),
        **{**COMMON, "print_values": fits},
    )
    chart.x_labels = labels
    if major:
        chart.config.x_labels_major = major
        chart.config.show_minor_x_labels = False
    for i, r in enumerate(rounds):
        chart.add(r["label"], [t["rounds"][i]["disputes"] for t in tables])
    alt = f"Bar chart: {title.lower()}. " + _disputes_said(tables)
    if len(alt) > ALT_MAX:
        alt = _disputes_summary(title, rounds, tables, folded=folded)
    return _finish(chart, title, alt)


def _disputes_said(tables: list[dict]) -> str:
    """Every count the chart shows but its zeros: "table 2: 1 in Round 2; table 7: 2 in
    Round 1 and 1 in Round 2. No other table or round had a dispute." At 12 tables it
    read out every zero ("table 1: Round 1 0, Round 2 0; …")."""
    parts = []
    for t in tables:
        counts = [f"{c['disputes']} in {c['label']}" for c in t["rounds"] if c["disputes"]]
        if counts:
            parts.append(f"table {t['table']}: " + said_as_list(counts))
    if not parts:
        return "No table had a dispute in any round."
    zeros = any(not c["disputes"] for t in tables for c in t["rounds"])
    said = "; ".join(parts) + "."
    return said + (" No other table or round had a dispute." if zeros else "")


def _disputes_summary(title: str, rounds: list[dict], tables: list[dict], *, folded=False) -> str:
    """Each round's disputes in all, the most at a table and where, and the tables
    without any; the table under the chart (folded there past report.FOLD_TABLES) has
    every count."""
    parts = []
    for i, r in enumerate(rounds):
        counts = {t["table"]: t["rounds"][i]["disputes"] for t in tables}
        total, top = sum(counts.values()), max(counts.values())
        if not top:
            parts.append(f"{r['label']}: no disputes")
            continue
        most = [t for t, n in counts.items() if n == top]
        none = [t for t, n in counts.items() if not n]
        part = f"{r['label']}: {total} dispute{'s' * (total != 1)}, the most, {top}, at "
        part += _tables_said(most)
        if none:
            part += f", none at {_tables_said(none)}"
        parts.append(part)
    return (
        f"Bar chart: {title.lower()}, {len(tables)} tables. "
        + "; ".join(parts)
        + f". Every table's count is in the table “{DISPUTES_TABLE}”"
        + (", folded under the chart." if folded else " under the chart.")
    )


def outcomes_chart(clashes: dict) -> dict | None:
    """How the disputes ended."""
    rows = clashes["dispute_outcomes"]
    if not clashes["dispute_count"]:
        return None
    title = "How the disputes ended"
    chart = pygal.HorizontalBar(
        title=title,
        x_title="Disputes",
        show_legend=False,
        y_labels=_counts_axis([o["count"] for o in rows]),
        **COMMON,
    )
    # A horizontal bar chart draws its first bar at the bottom: reversed, the bars
    # read from the top in the order of the list under the chart.
    chart.x_labels = [o["label"] for o in reversed(rows)]
    chart.add("Disputes", [o["count"] for o in reversed(rows)])
    alt = f"Bar chart: {title.lower()}. " + "; ".join(o["said"] for o in rows) + "."
    return _finish(chart, title, alt)


def gestures_chart(clashes: dict, *, disputes: bool = True) -> dict | None:
    """Gestures used, split into during disputes and at other times (a game without
    claims has no disputes: one bar per gesture)."""
    used = clashes["gestures"]["used"]
    if not used:
        return None
    # pygal draws a horizontal chart's first label at the bottom: reversed, the bars
    # read top down in the order of the table under the chart.
    bars = used[::-1]
    # The phone sends each pen stroke apart; the report counts a drawing once per picture.
    drawn = any(k.get("kind") == "drawing" for k in used)
    title = "Gestures used (a drawing counts once per picture)" if drawn else "Gestures used"
    if not disputes:
        chart = pygal.HorizontalBar(
            title=title,
            x_title="Times used",
            show_legend=False,
            y_labels=_counts_axis([k["total"] for k in used]),
            **COMMON,
        )
        chart.x_labels = [k["label"] for k in bars]
        chart.add("Times used", [k["total"] for k in bars])
        alt = (
            f"Bar chart: {title.lower()}. "
            + "; ".join(f"{k['label']}: {k['total']}" for k in used)
            + "."
        )
        return _finish(chart, title, alt)
    chart = pygal.HorizontalStackedBar(
        title=title,
        x_title="Times used",
        y_labels=_counts_axis([k["total"] for k in used]),
        **COMMON,
    )
    chart.x_labels = [k["label"] for k in bars]
    chart.add("During a dispute", [k["in_dispute"] for k in bars])
    chart.add("At other times", [k["other"] for k in bars])
    alt = f"Stacked bar chart: {title.lower()}. " + "; ".join(map(_used_when, used)) + "."
    return _finish(chart, title, alt)


def _used_when(k: dict) -> str:
    """One gesture's bar in words, only its counts above nought: "Stop: 2 during
    disputes and 1 at other times", "Question: 3 at other times" (it read "0 during
    disputes, 3 at other times")."""
    when = [(k["in_dispute"], "during disputes"), (k["other"], "at other times")]
    return f"{k['label']}: " + said_as_list([f"{n} {w}" for n, w in when if n])


# Printed, a chart is as wide as the page (186 mm on A4) and at most 24 cm high
# (static/css/report.css). A chart taller than that ratio shrank below the page's
# width to fit it: the movement chart of twelve tables of five printed at half its
# size (its 18 px names 9 px high), of forty tables at a sixth (3 px), where the
# page's width prints it at 0.73 (13 px). Such a chart is marked tall and prints at
# the page's width, over as many pages as it takes.
PRINT_FIT = 240 / 186

# A table's players share a band of this height (in tables) around its line.
BAND = 0.7
# The smallest gap, in pixels, between two names at the lines' ends.
LABEL_GAP_PX = 24
# Room right of the plot for the names at the lines' ends (18 px type), from a
# rough width per character (no font metrics on the server: a little generous),
# and a name cut with "…" where it would not fit the widest margin.
NAME_MARGIN_PX = (130, 300)
_NARROW, _WIDE_CAPS, _WIDE = set("ijlrtfI'.,:;!| "), set("MW"), set("mw")


def _name_px(name: str) -> float:
    return 20 + sum(
        6.5 if ch in _NARROW else 17 if ch in _WIDE_CAPS else 16 if ch in _WIDE
        else 13 if ch.isupper() else 11
        for ch in name
    )  # fmt: skip


def _fit_name(name: str, px: int) -> str:
    while _name_px(name) > px and len(name) > 1:
        name = name[:-2] + "…"
    return name


def _band_offsets(journeys: dict, players: list[int], columns: int) -> tuple[dict[int, list], int]:
    """Each player's place within its table's band, column by column, and the most
    players any table had at once.

    The players at a table are spread evenly across the band, so the names at the
    lines' ends never sit on each other, in the order they came from (by where
    they were in the column before), so lines that stay at a table do not cross.
    """
    order = {pid: i for i, pid in enumerate(players)}
    offsets = {pid: [None] * columns for pid in players}
    largest = 1
    for c in range(columns):
        groups: dict[int, list[int]] = {}
        for pid in players:
            table = journeys[pid]["tables"][c]
            if table is not None:
                groups.setdefault(table, []).append(pid)

        def came_from(pid, c=c):
            before = journeys[pid]["tables"][c - 1] if c else None
            if before is None:
                return (0, order[pid])
            return (1, before + offsets[pid][c - 1], order[pid])

        for group in groups.values():
            group.sort(key=came_from)
            m = len(group)
            largest = max(largest, m)
            for j, pid in enumerate(group):
                offsets[pid][c] = 0.0 if m == 1 else -BAND / 2 + BAND * j / (m - 1)
    return offsets, largest


# Past the palette's eight colours the lines repeat them, dashed (pygal's own
# colours for more series are darker shades, near black from the ninth line on):
# each of the first 32 lines is a colour and dash of its own.
DASHES = (None, "16,7", "3,7", "16,6,3,6")
# A line's end after its player left, a bot in their seat: dotted, in the line's colour.
BOT_DASH = "2,6"


def _names_style(series: int, colors: tuple | None = None) -> Style:
    """The bump chart's style: its names are dark on the white plot. pygal writes a
    label white when its line's colour is dark (for values on bars), which hid a
    third of the names. And pygal puts a line's label at the point moved right and
    down by the value font size: a small one sets the name beside its point, not by
    the point below it. The palette repeats for every line (see DASHES)."""
    return Style(
        **{
            **STYLE_KW,
            "colors": colors or tuple(PALETTE[i % len(PALETTE)] for i in range(series)),
            "value_colors": ("#1b1b1f",) * series,
            "value_font_size": 7,
            # pygal draws every line at its style's width (1 px), whatever the
            # chart's stroke_style says: projected, a line of 1 px is hard to follow.
            "stroke_width": "3",
        }
    )


def _line_style(i: int) -> dict:
    dash = DASHES[(i // len(PALETTE)) % len(DASHES)]
    return {"dasharray": dash} if dash else {}


def _end_label(name: str, journey: dict) -> str:
    """The name at the end of a player's line in the paths chart: "X (bot)" if a bot
    sat in their seat in the last column they were seated in, else theirs."""
    seated = [c for c, t in enumerate(journey["tables"]) if t is not None]
    bot = bool(seated) and seated[-1] in (journey.get("bot_cols") or ())
    return f"{name} (bot)" if bot else name


def _bot_when(columns: list[dict], journey: dict) -> str:
    """When a bot sat in a player's seat, from the columns it sat in: "from Round 2"
    (to the end: the player is still gone), or for a player who came back with their
    PIN "in Round 2", "in Round 2 and Round 3", or "in Round 1 and from Round 3" if
    they left again."""
    bot_cols = journey["bot_cols"]
    # Still gone: the bot sat there from their last leaving to the last column they
    # are seated in (not in "after round N" if their move lapsed).
    last = max((c for c, t in enumerate(journey["tables"]) if t is not None), default=None)
    runs: list[list[int]] = []
    for c in sorted(bot_cols):
        if runs and runs[-1][-1] == c - 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    said = []
    for run in runs:
        if run[-1] == last and journey.get("gone", True):
            said.append(f"from {columns[run[0]]['label']}")
        else:
            said.append("in " + said_as_list([columns[c]["label"] for c in run]))
    return said_as_list(said)


def paths_chart(movement: dict, names: dict[int, str], *, folded: bool = False) -> dict | None:
    """Each player's table round by round (a bump chart). `folded`: the report of a
    large class (report.FOLD_TABLES), whose seating is a folded table per round.

    The players at a table are spread across a band around its line, and the
    chart grows with the largest table, so every name at a line's end can be read.
    There is no legend: with more than eight players its colours repeat, and the
    names at the lines' ends say whose line is whose.
    """
    columns = movement["columns"]
    journeys = movement["journeys"]
    players = movement["players"]
    if len(columns) < 2 or not players:
        return None
    tables = [g["table"] for g in movement["grid"]]
    offsets, largest = _band_offsets(journeys, players, len(columns))
    per_table_px = max(100, -(-LABEL_GAP_PX * (largest - 1) // BAND))
    title = "Where each player sat, round by round"
    widest = max(_name_px(_end_label(names.get(pid, "?"), journeys[pid])) for pid in players)
    margin = math.ceil(min(max(NAME_MARGIN_PX[0], widest), NAME_MARGIN_PX[1]))
    chart = pygal.Line(
        title=title,
        range=(min(tables) - 0.5, max(tables) + 0.5),
        y_labels=[{"label": f"Table {t}", "value": t} for t in tables],
        show_y_guides=True,
        print_labels=True,
        dots_size=5,
        margin_right=margin,
        **{
            **COMMON,
            "print_values": False,
            "show_legend": False,
            "style": _names_style(len(players)),
            # The plot, plus the title and the round labels.
            "height": int(per_table_px * (max(tables) - min(tables) + 1) + 150),
        },
    )
    chart.x_labels = [c["label"] for c in columns]
    # A player who left with a bot in their seat: their own line stops at the last round
    # they sat down to, and the bot's goes on from there dotted, named "X (bot)" (a
    # review found a student's line running on to the top table under their name). If
    # they came back with their PIN, their own line takes up again where they sat down
    # again, and the bot's dotted stretch joins it (the bot's move brought the seat
    # there). Both lines break where the other is drawn.
    series = []
    for i, pid in enumerate(players):
        name = names.get(pid, "?")
        points = [
            None if t is None else {"value": t + offsets[pid][c]}
            for c, t in enumerate(journeys[pid]["tables"])
        ]
        bot_cols = set(journeys[pid].get("bot_cols") or ())
        bot = None
        if bot_cols:
            # The bot's columns, and its player's own on either side of them.
            near = {k for c in bot_cols for k in (c - 1, c, c + 1)} & set(range(len(points)))
            bot = [dict(p) if k in near and p is not None else None for k, p in enumerate(points)]
            points = [None if k in bot_cols else p for k, p in enumerate(points)]
        color = PALETTE[i % len(PALETTE)]
        for series_title, line, style in (
            (name, points, _line_style(i)),
            (f"{name} (bot)", bot, {"dasharray": BOT_DASH}),
        ):
            if line is None or all(p is None for p in line):
                continue
            # The name goes at the player's last point, on the line that reached it: the
            # player's own, or the bot's if it sat there last (the alt text keeps the
            # whole name).
            if series_title == _end_label(name, journeys[pid]):
                last = max(k for k, p in enumerate(line) if p is not None)
                line[last]["label"] = _fit_name(series_title, margin)
            series.append((series_title, line, style, color, bool(bot_cols)))
    chart.config.style = _names_style(len(series), tuple(s[3] for s in series))
    for series_title, line, style, _, broken in series:
        # A line with the other's stretch between its own breaks there: not drawn
        # straight across it (pygal joins the points either side of a gap).
        chart.add(series_title, line, stroke_style=style, allow_interruptions=broken)
    steps = f"Line chart: {title.lower()} ({said_as_list([c['label'] for c in columns])})"
    alt = (
        # What each "then" steps through (a review read "1 then 1 then 2 then 2" not
        # knowing which rounds they were).
        f"{steps}. "
        # Read out: "tables 1 then 2", as the players' table reads its arrows.
        + "; ".join(
            f"{names.get(pid, '?')}: tables "
            + journeys[pid]["text"].replace(" → ", " then ").replace("—", "not seated")
            + (
                f", a bot in their seat {_bot_when(columns, journeys[pid])}"
                if journeys[pid].get("bot_cols")
                else ""
            )
            for pid in players
        )
        + "."
    )
    summary = None
    if len(alt) > ALT_MAX:
        summary = _paths_summary(
            f"Line chart: {title.lower()}", movement, names, len(tables), folded=folded
        )
        alt = summary["line"]
    return {
        **_finish(chart, title, alt),
        # The summary (report.listed), where the alt text is one: a folded chart's is
        # shown above it as a lead and a list (one sentence was 470 characters).
        "summary": summary,
        "tall": chart.config.height > chart.config.width * PRINT_FIT,
        "bot_seats": any(journeys[pid].get("bot_cols") for pid in players),
    }


def _paths_summary(
    chart: str, movement: dict, names: dict[int, str], tables: int, *, folded: bool = False
) -> dict:
    """How many changed tables at each step, how many never did, who moved most
    (`listed`: a lead, a step a line, the rest after; `chart` says what the chart is);
    the seating table under the chart (`folded`: a folded one per round after it, the
    chart folded too) and the per-player table have every journey."""
    columns, journeys, players = movement["columns"], movement["journeys"], movement["players"]

    def moved(pid: int, c: int) -> bool:
        before, now = journeys[pid]["tables"][c - 1], journeys[pid]["tables"][c]
        return before is not None and now is not None and before != now

    # "nobody", not "0": nobody moves from the tables at home to Round 1's.
    changed = [
        f"{sum(moved(pid, c) for pid in players) or 'nobody'} from {columns[c - 1]['label']}"
        f" to {columns[c]['label']}"
        for c in range(1, len(columns))
    ]
    moves = {pid: sum(moved(pid, c) for c in range(1, len(columns))) for pid in players}
    top = max(moves.values())
    stayed = sum(not n for n in moves.values())
    lead = f"{chart}: {len(players)} players at {tables} tables. Changed tables:"
    # After the list, a short sentence a paragraph: in one paragraph of about 250
    # characters a teacher looked for who never moved and where the tables are.
    after = [
        f"{stayed} never changed tables." if stayed else "Everyone changed tables at least once."
    ]
    if top:
        most = [names.get(pid, "?") for pid in players if moves[pid] == top]
        after.append(f"The most moves, {top}, by {_names_said(most)}.")
    bots = [
        f"{names.get(pid, '?')}'s {_bot_when(columns, journeys[pid])}"
        for pid in players
        if journeys[pid].get("bot_cols")
    ]
    if bots:
        after.append(f"A bot sat in the seat of a player who left: {said_as_list(bots)}.")
    if folded:
        # Past FOLD_TABLES this is read above the folded chart, and the seating is
        # one folded table per round, each captioned "Seating at …: Round 1".
        after.append(
            f"Who sat where is in the tables “{SEATING_TABLE}”, one a round, folded after"
            " the chart."
        )
    else:
        after.append(f"Who sat where is in the table “{SEATING_TABLE}” under the chart.")
    after.append(f"Each player's journey is in “{PLAYERS_TABLE}”.")
    return listed(lead, changed, after)


def all_charts(report: dict) -> dict:
    names = {p["id"]: p["name"] for p in report["players"]}
    # Referee mode has no claims, so no disputes: no chart of them, nor of gestures
    # split by them.
    disputes = report.get("disputes", report.get("claims", True))
    return {
        # Each line of the paths ends with its player's name: not in the class's view.
        "paths": None
        if report.get("view") == "class"
        else paths_chart(report["movement"], names, folded=report.get("folded", False)),
        "disputes": disputes_chart(report["clashes"], folded=report.get("folded", False))
        if disputes
        else None,
        "outcomes": outcomes_chart(report["clashes"]) if disputes else None,
        "gestures": gestures_chart(report["clashes"], disputes=disputes),
    }
