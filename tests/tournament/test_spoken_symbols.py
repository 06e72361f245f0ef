"""What a screen reader says of the facilitator's pages and the report: no "right
arrow", "raised hand" or "pencil" in the middle of a sentence. An arrow is heard as
the word it stands for ("to", "then", "taken by"), a decoration is hidden from it,
and a button whose text has an arrow is named in words."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone
from report_helpers import T0, Clock, build_scripted
from tournament_helpers import (
    HIGH,
    LOW,
    finish_trick,
    game_at,
    make_workshop,
    open_dispute,
    play_until_claim,
    set_seat_sheets,
    state_of,
    tables_of,
    to_scored_round,
)

from tournament import selectors, services
from tournament.models import Player, TrickRecord
from tournament.templatetags.cards import card_name
from tournament.templatetags.facilitator import arrow, arrows

pytestmark = pytest.mark.django_db
SYMBOLS = "→←↑↓✋✎★✓✗🤫🎉"
# "Middle dot": drawn between the parts of a line, and read out between them. Checked
# apart from SYMBOLS on the pages whose dots are hidden so far (not yet the report's,
# the phones').
DOT = "·"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Spoken(HTMLParser):
    """The text a screen reader reads: without aria-hidden subtrees, scripts and
    styles; a control or image with an aria-label says the label instead of its
    content (a group or region says its label, then its content)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # per open element: its tag, is it silent?

    def silent(self) -> bool:
        return any(quiet for _, quiet in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        a = dict(attrs)
        quiet = a.get("aria-hidden") == "true" or tag in ("script", "style", "template")
        if not quiet and not self.silent() and a.get("aria-label"):
            self.parts.append(a["aria-label"])
            quiet = tag in ("a", "button") or a.get("role") in ("img", "button", "link")
        self.stack.append((tag, quiet))

    def handle_endtag(self, tag):
        # Up to the element it closes (an end tag HTML leaves implied closes others too).
        if any(t == tag for t, _ in self.stack):
            while self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if not self.silent():
            self.parts.append(data)


def spoken(html: str, *, run_on: bool = False) -> str:
    """What is read, its text pieces parted by spaces; `run_on`: put together as they
    stand, as a reader does with inline text (words that touch are read as one)."""
    parser = Spoken()
    parser.feed(html)
    return " ".join(("" if run_on else " ").join(parser.parts).split())


def test_the_reader_hears_words_and_sees_the_arrow():
    assert spoken(f"Ana: table 1 {arrow('to')} 2") == "Ana: table 1 to 2"
    assert spoken(arrows("1 → 2 → —", "then")) == "1 then 2 then —"
    assert spoken(arrows("<b> → 2", "then")) == "<b> then 2"  # escaped, not markup
    assert "→" in arrows("1 → 2", "then") and "→" in arrow("to")  # the eye still sees it
    assert (
        spoken('<p>a <span aria-hidden="true">✋</span> <button aria-label="Go">→</button></p>')
        == "a Go"
    )


@pytest.fixture
def fac():
    user = get_user_model().objects.create_user("ada", password="a-long-pass-123")
    client = Client()
    client.force_login(user)
    return user, client


def test_the_control_panel_and_a_table_page_say_no_symbol(fac):
    user, client = fac
    w = make_workshop(players=8, tables=2, facilitator=user)
    rnd = to_scored_round(w)
    t1, _ = tables_of(w)
    finish_trick(game_at(t1))  # a trick in the table page's log
    services.round_end_now(round_id=rnd.pk)
    services.movement_apply(round_id=rnd.pk)  # the panel lists who moved where
    panel = client.get(f"/workshops/{w.pk}/").content.decode()
    assert "End the tournament" in panel and "table 1" in panel and "→" in panel
    said = spoken(panel)
    assert not set(SYMBOLS) & set(said), said
    assert "End the tournament, then debrief" in said
    assert " to " in said.split("Applied.")[1]
    services.round_start(workshop_id=w.pk)
    finish_trick(game_at(t1))
    page = client.get(f"/workshops/{w.pk}/tables/1/").content.decode()
    assert "Tricks this game" in page
    said = spoken(page)
    assert not set(SYMBOLS) & set(said), said
    assert "Back to the control panel" in said  # the link's words, the arrow unsaid
    assert "taken by" in said
    # The log's cards are heard by name, as the cards above it are (not "3 black
    # spade suit"): every card of the trick just taken, and no suit sign.
    log = said.split("Tricks this game")[1]
    assert not set("♠♥♦♣") & set(log), log
    done = TrickRecord.objects.filter(game=game_at(t1)).order_by("index").last()
    for _seat, card in done.cards:
        assert f"{card_name(card)} by " in log, (card, log)


def test_a_big_plans_summary_by_its_apply_is_heard_in_words(fac):
    """ "Table 1: 6 (more than 5 seats) · Table 2: 4": the eye sees the dots, a screen
    reader hears a pause, not "middle dot"."""
    user, client = fac
    w = make_workshop(players=60, tables=12, seats=5, facilitator=user)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    rnd.refresh_from_db()
    plan = {p.pk: p.table.number for p in w.players.select_related("table")}
    plan.update({m["player"]: m["to"] for m in rnd.movement_preview["moves"]})
    plan[next(pk for pk, n in plan.items() if n != 1)] = 1
    services.movement_edit(round_id=rnd.pk, moves=[{"player": k, "to": n} for k, n in plan.items()])
    html = client.get(f"/workshops/{w.pk}/").content.decode()
    summary = html.split('id="movement-summary">')[1].split("</p>")[0]
    assert "Table 1: 6" in summary and " · " in summary  # what the eye sees
    said = spoken(summary)
    assert "·" not in said and not set(SYMBOLS) & set(said), said
    assert said.startswith("With the plan as saved : Table 1: 6 (more than 5 seats) ; Table "), said
    assert said.endswith("; the other 10 tables seat 5."), said


def test_the_report_says_no_symbol(fac, monkeypatch):
    user, client = fac
    clock = Clock(T0)
    monkeypatch.setattr("tournament.services.play.now", clock)
    monkeypatch.setattr("tournament.services.rounds.now", clock)
    facts = build_scripted(clock, user)
    html = client.get(f"/workshops/{facts['workshop'].pk}/report/").content.decode()
    assert "→" in html and "✎" in html and "★" in html  # what the eye sees
    assert "↑" in html and "↓" in html  # who moved up, who down
    said = spoken(html)
    assert not set(SYMBOLS) & set(said), [
        said[max(0, said.find(c) - 80) : said.find(c) + 20] for c in SYMBOLS if c in said
    ]
    assert "changed to" in said and " then " in said


def test_a_phone_in_the_claim_step_and_a_dispute_says_no_symbol():
    w = make_workshop(players=4, tables=1, seats=4)
    to_scored_round(w)
    game = set_seat_sheets(tables_of(w)[0], [HIGH, HIGH, LOW, LOW])

    def heard(pid) -> str:
        html = render_to_string("play/_screen.html", selectors.player_screen(pid, timezone.now()))
        said = spoken(html)
        assert not set(SYMBOLS) & set(said), said
        return said

    play_until_claim(game)
    said = heard(game.players[0])  # the claim button names its sheet's winner, with a tick
    assert "Silence" in said and " won" in said
    open_dispute(game)
    said = heard(game.players[0])
    assert "Claims differ" in said and "says the trick went to" in said


def test_a_seat_on_another_sheet_is_heard_apart_from_its_sheet(fac):
    """ "Plays by: … trump only when void not this table's sheet" ran the badge into the
    sheet's last words."""
    user, client = fac
    w = make_workshop(players=8, tables=2, facilitator=user)
    to_scored_round(w)
    t1, _ = tables_of(w)
    game = set_seat_sheets(t1, [t1.rules, t1.rules, t1.rules, LOW if t1.rules != LOW else HIGH])
    assert game.seat_rules[3] != t1.rules
    said = spoken(client.get(f"/workshops/{w.pk}/tables/1/").content.decode())
    assert said.count("; not this table's sheet") == 1, said


def test_the_join_line_and_the_projectors_count_say_no_middle_dot(fac):
    """ "Join code K7QD · 9 players, 3 bots · joining open" and the projector's "9 joined
    · 3 bots" were heard with "middle dot" between their parts: the eye sees the dots, a
    screen reader hears a pause on the panel, and the projector's words as drawn."""
    user, client = fac
    w = make_workshop(players=9, tables=3, seats=4, facilitator=user, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)

    def status(html: str) -> str:
        start = html.index('id="fac-status"')
        return html[start : html.index("</section>", start)]

    def body(html: str) -> str:
        return html[html.index("<body") :]

    seen = {}
    for when in ("lobby", "round"):
        if when == "round":
            to_scored_round(w)
        panel = status(client.get(f"/workshops/{w.pk}/").content.decode())
        projector = body(client.get(f"/workshops/{w.pk}/projector/").content.decode())
        assert "9 players, 3 bots" in panel and "9 joined" in projector and "3 bots" in projector
        for page, html in (("panel", panel), ("projector", projector)):
            assert DOT in html, (when, page)  # what the eye sees
            said = spoken(html)
            assert DOT not in said and not set(SYMBOLS) & set(said), (when, page, said)
            seen[when, page] = said
    assert "Join code " in seen["round", "panel"]
    assert "; 9 players, 3 bots ; joining open" in seen["round", "panel"], seen
    assert "Now: Scored round ; Five Tricks" in seen["round", "panel"], seen
    assert "9 joined 3 bots" in seen["round", "projector"], seen
    assert "Scored round Round 1" in seen["round", "projector"], seen
    # The hidden dot leaves the words on each side apart, not run together.
    for page, html in (("panel", panel), ("projector", projector)):
        run_on = spoken(html, run_on=True)
        assert "roundRound" not in run_on and "joined3" not in run_on, (page, run_on)
        assert "Scored round Round 1" in run_on or page == "panel", run_on


def test_the_facilitators_pages_say_no_middle_dot(fac):
    """The monitor's cards ("Game 1 · trick 2 · claiming", "1 trick · 0 won", "left ·
    bot plays"), the roster, a table's page and the home page were heard with "middle
    dot" between their parts. A card in every state: playing, claim step, dispute, a
    player who left (a bot plays), waiting for a phone, a game cut short."""
    user, client = fac
    w = make_workshop(players=24, tables=6, seats=4, facilitator=user, leave_policy="bot")
    to_scored_round(w)
    playing, claim, dispute, left, waiting, cut = tables_of(w)
    finish_trick(game_at(playing))
    play_until_claim(game_at(claim))
    open_dispute(set_seat_sheets(dispute, [HIGH, HIGH, LOW, LOW]))
    gone = game_at(left).players[0]
    services.player_leave(player_id=gone, policy="bot")
    services.player_leave(player_id=game_at(cut).players[0], policy="skip")
    Player.objects.filter(workshop=w).update(connected=True)
    slow = game_at(waiting)
    Player.objects.filter(pk=slow.players[state_of(slow).to_act]).update(connected=False)

    def region(html: str, start: str, end: str = "</section>") -> str:
        at = html.index(start)
        return html[at : html.index(end, at)]

    def cards(html: str) -> dict[int, str]:
        monitor = region(html, 'id="fac-monitor"')
        return {n: region(monitor, f'<article id="mt-card-{n}"', "</article>") for n in range(1, 7)}

    def heard(where, html: str) -> str:
        assert DOT in html, where  # what the eye sees
        said = spoken(html)
        assert DOT not in said and not set(SYMBOLS) & set(said), (where, said)
        # As a reader runs the pieces together: no words glued where a dot was.
        return spoken(html, run_on=True).replace(" ;", ";")

    panel = client.get(f"/workshops/{w.pk}/").content.decode()
    said = {n: heard(("card", n), card) for n, card in cards(panel).items()}
    assert "Game 1; trick 2; P01 to play" in said[1], said[1]
    assert "(connected) 1 trick; 0 won " in said[1], said[1]
    assert "Game 1; trick 1; claiming" in said[2], said[2]
    assert "; disputing" in said[3], said[3]
    # Said once, after the name (the badge is for the eye): it was said twice.
    assert said[4].count("left") == 1 and "(left: a bot plays)" in said[4], said[4]
    assert "to play; their phone is not connected: the table waits" in said[5], said[5]
    assert "; 1 game finished, cut short" in said[6], said[6]
    roster = heard("roster", region(panel, '<section id="fac-roster"'))
    assert "left: bot plays" in roster, roster
    for n in (1, 3):
        page = client.get(f"/workshops/{w.pk}/tables/{n}/").content.decode()
        said = heard(("table", n), region(page, '<section id="fac-table"'))
        assert f"Table {n}; Five Tricks; Scored round; Round 1 " in said, said
        assert "; Barnga mode; " + ("dispute" if n == 3 else "play") in said, said
        assert "; 1 trick; to play " in said or n == 3, said
    home = client.get("/").content.decode()
    said = heard("home", region(home, '<ul class="workshops">', "</ul>"))
    assert "; code " in said and "; Scored round; 22 players; " in said, said
    delete = client.get(f"/workshops/{w.pk}/delete/").content.decode()
    said = heard("delete", delete[delete.index("<main") :])
    assert "Open the debrief report; Back to the workshop" in said, said
