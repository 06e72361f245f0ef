"""The panel's status names the tables in dispute, the longest running first, each a
link to its card on the monitor (a review of 40 tables saw 31 disputes spread over
five screens of cards, with nothing at the top to say which)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from test_spoken_symbols import SYMBOLS, spoken
from tournament_helpers import (
    HIGH,
    LOW,
    claim_all,
    fresh,
    game_at,
    make_workshop,
    open_dispute,
    set_seat_sheets,
    state_of,
    tables_of,
    to_scored_round,
)

from tournament import selectors_facilitator as sf
from tournament.models import Dispute, Workshop

pytestmark = pytest.mark.django_db


def owned(owner, **kw):
    w = make_workshop(**kw)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    return fresh(w)


def page(fac, w) -> str:
    return fac.get(f"/workshops/{w.pk}/").content.decode()


def status_of(html: str) -> str:
    return html[
        html.index('id="fac-status"') : html.index("</section>", html.index('id="fac-status"'))
    ]


def disputes_line(html: str) -> str | None:
    """The status's line of disputes as its HTML, or None when there is none."""
    m = re.search(r'<p class="warn disputes-line">(.*?)</p>', status_of(html), re.S)
    return m.group(1) if m else None


def read(html: str) -> str:
    """The line's words as they read (its tags out, one space between)."""
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def opened(game, seconds_ago: int) -> None:
    Dispute.objects.filter(game=game, resolved_at__isnull=True).update(
        opened_at=timezone.now() - timedelta(seconds=seconds_ago)
    )


def test_the_status_lists_the_tables_in_dispute_longest_first_until_settled(owner, fac):
    w = owned(owner, players=16, tables=4)
    to_scored_round(w)
    tables = tables_of(w)
    assert disputes_line(page(fac, w)) is None  # no dispute: no line
    games = {}
    for number in (1, 3, 4):
        games[number] = set_seat_sheets(tables[number - 1], [HIGH, HIGH, LOW, LOW])
        open_dispute(games[number])
    # Opened in the order 4, 1, 3 (not the tables' order, nor the order played above).
    opened(games[4], 30)
    opened(games[1], 20)
    opened(games[3], 10)
    html = page(fac, w)
    line = disputes_line(html)
    assert line is not None
    assert read(line) == "Disputes now, the longest first: table 4, table 1, table 3."
    # Named with where they go: the card's heading is a link named "Table 4" too, to
    # the table's own page.
    assert re.findall(
        r'<a href="#mt-(\d+)" aria-label="table (\d+) in the Tables list">table (\d+)</a>', line
    ) == [("4", "4", "4"), ("1", "1", "1"), ("3", "3", "3")]
    for number in (4, 1, 3):  # each link goes to that table's card on the monitor
        assert f'<h3 id="mt-{number}">' in html
        card = html[html.index(f'data-table="{number}"') :].split("</article>")[0]
        assert "data-dispute" in card
    assert not set(SYMBOLS) & set(spoken(line))

    # Table 4 settles: the others stay, in their order.
    claim_all(games[4], state_of(games[4]).current[0][0])
    assert read(disputes_line(page(fac, w))) == (
        "Disputes now, the longest first: table 1, table 3."
    )
    claim_all(games[1], state_of(games[1]).current[0][0])
    line = disputes_line(page(fac, w))
    assert read(line) == "Dispute now: table 3."
    assert '<a href="#mt-3" aria-label="table 3 in the Tables list">table 3</a>' in line
    claim_all(games[3], state_of(games[3]).current[0][0])
    html = page(fac, w)
    assert disputes_line(html) is None
    assert "Dispute" not in spoken(status_of(html))


def dispute_everywhere(w) -> None:
    """An open dispute at every table, opened the longer ago the higher the table's
    number (as the monitor reads one: a record not yet resolved)."""
    now = timezone.now()
    for t in tables_of(w):
        Dispute.objects.create(
            game=game_at(t),
            trick_index=0,
            opened_at=now - timedelta(seconds=t.number),
            deadline=now + timedelta(seconds=30),
            initial_claims=[0, 1, 0, 1],
        )


def test_at_many_tables_the_line_names_eight_and_counts_the_rest(owner, fac):
    w = owned(owner, players=48, tables=12)
    to_scored_round(w)
    dispute_everywhere(w)
    html = page(fac, w)
    line = disputes_line(html)
    assert line is not None
    assert read(line) == (
        "Disputes now at 12 tables, the longest first: table 12, table 11, table 10, "
        "table 9, table 8, table 7, table 6, table 5, and 4 more in the Tables list."
    )
    assert [int(n) for n in re.findall(r'href="#mt-(\d+)"', line)] == list(range(12, 4, -1))
    # The rest: a link to the monitor, named with the words it shows.
    assert '<a href="#fac-monitor">4 more in the Tables list</a>' in line
    assert 'id="fac-monitor"' in html
    # The screen reader's announcement is the page's own (facilitator.js, from the
    # cards' data-dispute): the line adds no such attribute of its own.
    assert "data-dispute" not in status_of(html)


def test_disputes_now_orders_by_time_then_number_and_an_unrecorded_one_last():
    t0 = timezone.now()

    def table(number, dispute=True, since=None):
        return {"number": number, "game": {"dispute": dispute}, "dispute_since": since}

    rows = [
        table(1, since=t0),
        table(2, dispute=False),
        {"number": 3, "game": None, "dispute_since": None},
        table(4),  # in dispute by its state, no record yet
        table(5, since=t0 - timedelta(seconds=5)),
        table(6, since=t0),
    ]
    assert sf.disputes_now(rows, named=2) == {"count": 4, "named": [5, 1], "more": 2}
    assert sf.disputes_now(rows)["named"] == [5, 1, 6, 4]
    assert sf.disputes_now(rows[1:3]) is None
    assert sf.disputes_now(rows[:2], named=1) == {"count": 1, "named": [1], "more": 0}


def test_waiting_now_names_the_first_tables_in_order_with_whose_phone_and_counts_the_rest():
    rows = [
        {"number": 1, "waiting_for": "Ana"},
        {"number": 2, "waiting_for": None},
        {"number": 3, "waiting_for": "Ben"},
        {"number": 4, "waiting_for": "Cai"},
    ]
    assert sf.waiting_now(rows, named=2) == {
        "count": 3,
        "named": [(1, "Ana"), (3, "Ben")],
        "more": 1,
    }
    assert sf.waiting_now(rows) == {
        "count": 3,
        "named": [(1, "Ana"), (3, "Ben"), (4, "Cai")],
        "more": 0,
    }
    assert sf.waiting_now(rows[1:2]) is None
    assert sf.waiting_now([]) is None


def test_the_panel_reads_no_more_for_its_disputes(owner):
    """The panel is drawn again on every push: the line comes from the monitor's own
    reads, the same number of queries with no dispute as with one at every table."""
    w = owned(owner, players=48, tables=12)
    to_scored_round(w)

    def reads() -> tuple[int, dict | None]:
        with CaptureQueriesContext(connection) as ctx:
            drawn = sf.panel(fresh(w))
        return len(ctx.captured_queries), drawn["disputes_now"]

    reads()  # the games' states cached, as between two pushes
    calm, none = reads()
    assert none is None
    dispute_everywhere(w)
    busy, listed = reads()
    assert listed["count"] == 12
    assert busy == calm, (calm, busy)


def test_the_lines_that_come_and_go_are_under_the_clocks_buttons(owner, fac):
    """Above Pause and End now, the disputes line (and the waiting line) moved those
    buttons as tables began and settled disputes: a finger about to tap Pause landed
    on what had slid under it (the session's review, at 390x844)."""
    w = owned(owner, players=8, tables=2)
    to_scored_round(w)
    open_dispute(set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, LOW, LOW]))
    status = status_of(page(fac, w))
    line = status.index('class="warn disputes-line"')
    for group in ('aria-label="Clock"', 'aria-label="Workshop"'):
        assert status.index(group) < line, group


def test_past_a_few_tables_the_monitor_offers_only_the_tables_in_dispute(owner, fac):
    """40 tables with 31 in dispute were cards over five screens: past
    DISPUTES_ONLY_PAST tables the monitor has a box to show only those in dispute
    (facilitator.js hides the others; the server draws every card, none hidden)."""
    from tournament.regions import monitor_parts

    assert sf.DISPUTES_ONLY_PAST == 6
    few = owned(owner, players=24, tables=6)
    to_scored_round(few)
    assert 'id="mt-disputes-only"' not in page(fac, few)
    many = owned(owner, players=28, tables=7)
    to_scored_round(many)
    open_dispute(set_seat_sheets(tables_of(many)[1], [HIGH, HIGH, LOW, LOW]))
    html = page(fac, many)
    monitor = html[html.index('id="fac-monitor"') :]
    box = re.search(
        r'<label><input type="checkbox" id="mt-disputes-only"[^>]*>([^<]*)</label>', monitor
    )
    assert box is not None and box.group(1).strip() == "Show only tables in dispute"
    assert 'aria-describedby="mt-hidden-count"' in box.group(0) and "data-view" in box.group(0)
    assert '<span id="mt-hidden-count"' in monitor
    cards = re.findall(r'<article id="mt-card-\d+"[^>]*>', monitor)
    assert len(cards) == 7 and not any(" hidden" in c for c in cards)
    assert sum("data-dispute" in c for c in cards) == 1
    # The box is in the monitor's frame, not in a card: a card pushed alone leaves it.
    frame, parts = monitor_parts(monitor[: monitor.index("</section>") + 10])
    assert 'id="mt-disputes-only"' in frame
    assert not any("mt-disputes-only" in c for c in parts.values())
