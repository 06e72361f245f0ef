"""The seats' lines on a student's phone: what each shows, and says.

All Fives' own seat line at 568x320 with the dealer's badge ("Ana (you) 0 / 61 6 cards
dealer") was wider than its box: its counts, cut short first, were 0 px wide ("6
cards" read out only), and cut short at 667x375: there "dealer" is read out, not
shown, as the hand's line above says "you deal"; at 320x568 upright it cut "6 cards"
to "6 c…", and is read out there too. In a Five Tricks dispute a student
who claimed the trick for herself read "Ana (you) → you" on her own line, and heard
"Ana (you) says the trick went to you"; one who claimed it for another heard "Ana
(you) says the trick went to Cai", not "you say …". A seat a bot plays for a student who left
said so on Five Tricks' seat lines only: 7Up's, All Fives' and 3 Tricks' named her as
if she still sat there; on a small phone 3 Tricks' note pushed that side's counts a
line down. A seat line copied out as "7 cards ·", ",", " 0 tricks", three
lines: the "," a screen reader hears for the "·" was a box of its own.
"""

from __future__ import annotations

import pytest
from phones import (
    one_phone_at_a_round,
    other_game_at_a_round,
    play_until,
    table_version,
    wait_version,
)

from tournament import services
from tournament.models import Game, GameState, Player

pytestmark = [pytest.mark.browser]

# A seat line's parts as drawn: each part's class, box width and whether its text is
# cut (wider than its box), and whether the line's parts are wider than the line.
LINE = """(li) => ({
  parts: [...li.children].map((e) => ({
    cls: e.className, width: e.getBoundingClientRect().width, cut: e.scrollWidth > e.clientWidth,
  })),
  overflows: li.scrollWidth > li.clientWidth,
})"""


@pytest.mark.parametrize(
    "size", [(568, 320), (667, 375), (320, 568)], ids=["568x320", "667x375", "320x568"]
)
def test_all_fives_dealers_own_line_shows_its_cards(live_server_url, browser, size):
    pages, _ = other_game_at_a_round(
        browser,
        live_server_url,
        "all_fives",
        {"width": size[0], "height": size[1]},
        "Deal",
        seats=3,
    )
    own = "#screen .seats > li.me"
    dealer = next(p for p in pages if p.locator(f"{own} .badge", has_text="dealer").count())
    line = dealer.locator(own).evaluate(LINE)
    meta = next(part for part in line["parts"] if part["cls"] == "meta")
    assert meta["width"] > 0 and not meta["cut"], line
    assert not line["overflows"], line
    # Who deals still shown: the hand's line above the seats says "you deal".
    assert "you deal" in dealer.locator("#screen .af-hand-no").inner_text()
    assert dealer.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    for page in pages:
        page.context.close()


# A line's words as drawn (not what only a screen reader gets) and as heard (not what
# is hidden from it), each with its spaces made one.
WORDS = """(li) => {
  const words = (drop) => {
    const copy = li.cloneNode(true);
    copy.querySelectorAll(drop).forEach((e) => e.remove());
    return copy.textContent.replace(/\\s+/g, " ").trim();
  };
  return { shown: words(".visually-hidden"), heard: words("[aria-hidden=true]") };
}"""


def in_a_dispute(live_server_url, browser, name, *, ana_claims_own):
    """Ana's phone (360x740) in a dispute after a trick: Ana claims her own card or
    another's (the same other seat every other player claims for, or Ana's). Returns the
    page, the workshop, the other seat's player id and Ana's own line's WORDS."""
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, seats=4, size={"width": 360, "height": 740}, name=name
    )
    ana = Player.objects.get(workshop=w, name="Ana").pk
    play_until(game, lambda state: state.phase != "play")
    other = next(p for p in game.players if p != ana)
    mine, theirs = (ana, other) if ana_claims_own else (other, ana)
    for player in game.players:
        services.game_claim(player_id=player, winner_player_id=mine if player == ana else theirs)
    page.wait_for_selector(".dispute-title", timeout=8000)
    return page, w, other, page.locator("#screen .seats > li.me").evaluate(WORDS)


def test_a_claim_on_ones_own_card_reads_naturally_on_ones_own_line(live_server_url, browser):
    page, w, other, own = in_a_dispute(live_server_url, browser, "Mine", ana_claims_own=True)
    assert own["shown"].endswith("tricks → you won"), own
    assert own["heard"].endswith("tricks you say you won"), own
    # Another's claim on their own card, as it read: their name after the arrow.
    named = dict(Player.objects.filter(workshop=w).values_list("pk", "name"))
    theirs = page.locator("#screen .seats > li", has_text=named[other]).first.evaluate(WORDS)
    assert theirs["shown"].endswith(f"→ {named[other]}"), theirs
    assert theirs["heard"].endswith("says they won"), theirs
    page.context.close()


NOTE = "(left; a bot plays the seat)"


@pytest.mark.parametrize(
    ("game", "size", "line"),
    [
        ("seven_up", (360, 740), "#screen .seats > li"),
        ("all_fives", (568, 320), "#screen .seats > li"),
        ("three_tricks", (320, 568), "#screen .tt-theirs"),
    ],
    ids=["seven_up-360x740", "all_fives-568x320", "three_tricks-320x568"],
)
def test_a_seat_a_bot_plays_for_a_student_who_left_says_so_on_its_line(
    live_server_url, browser, game, size, line
):
    pages, w = other_game_at_a_round(
        browser, live_server_url, game, {"width": size[0], "height": size[1]}, "Left"
    )
    ana = pages[0]
    gone = Player.objects.get(workshop=w, name="Bartholomew")
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)
    playing = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    wait_version(ana, table_version(playing), timeout=8000)
    lines = ana.locator(line)
    said = lines.filter(has_text="Bartholomew").first
    assert NOTE in said.inner_text(), said.inner_text()
    # The others' lines as they were; the note whole on the screen, nothing past its edge.
    assert all(NOTE not in t for t in lines.filter(has_not_text="Bartholomew").all_inner_texts())
    # Measured once drawn: a run here under load found it not drawn (bounding_box None)
    # just after its text was read, as the bots played on.
    note = said.locator(".left-note")
    note.wait_for(state="visible", timeout=8000)
    note = note.bounding_box()
    assert note and note["width"] > 0 and note["x"] + note["width"] <= size[0], note
    assert ana.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    for page in pages:
        page.context.close()


# What a seat line's counts copy out as: the text a selection of the whole line gives.
COPIED = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
  const text = sel.toString();
  sel.removeAllRanges();
  return text;
}"""


@pytest.mark.parametrize("size", [(360, 740), (568, 320)], ids=["360x740", "568x320"])
def test_a_seat_lines_counts_copy_out_as_one_line_and_are_heard_as_before(
    live_server_url, browser, size
):
    page, _, _ = one_phone_at_a_round(
        browser, live_server_url, seats=4, size={"width": size[0], "height": size[1]}, name="Copy"
    )
    meta = page.locator("#screen .seats > li.me .meta")
    copied = meta.evaluate(COPIED)
    assert "\n" not in copied and copied.split() == ["7", "cards", "·", "0", "tricks"], copied
    # Heard with a comma for the dot, word for word as before (the accessibility tree's
    # line was the same with the comma .visually-hidden).
    heard = page.locator("#screen .seats > li.me").aria_snapshot()
    assert "listitem: Ana (you) 7 cards , 0 tricks to play" in heard, heard
    # And the comma not drawn: a box of 1 px at most.
    boxes = meta.locator("span:not([aria-hidden])").evaluate_all(
        "(els) => els.map((e) => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
    )
    assert boxes and all(w <= 1 and h <= 1 for w, h in boxes), boxes
    page.context.close()


def test_a_claim_on_anothers_card_is_heard_as_ones_own_on_ones_own_line(live_server_url, browser):
    page, w, other, own = in_a_dispute(live_server_url, browser, "Theirs", ana_claims_own=False)
    name = Player.objects.get(pk=other).name
    # Seen as another's claim is ("→ Cai"); heard as the student says it, not
    # "Ana (you) says the trick went to Cai".
    assert own["shown"].endswith(f"tricks → {name}"), own
    assert own["heard"].endswith(f"tricks you say the trick went to {name}"), own
    page.context.close()


# Where a 3 Tricks side's parts stand, from the side's top: the name's, the counts' and
# (once a player has left) the note's boxes.
SIDE = """(side) => {
  const top = side.getBoundingClientRect().top;
  const box = (sel) => {
    const e = side.querySelector(sel);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return { top: r.top - top, bottom: r.bottom - top };
  };
  return { name: box(":scope > .tt-name"), meta: box(":scope > .meta"), note: box(":scope > .left-note-line") };
}"""


@pytest.mark.parametrize("size", [(320, 568), (360, 640)], ids=["320x568", "360x640"])
def test_three_tricks_left_note_leaves_the_counts_where_they_were(live_server_url, browser, size):
    pages, w = other_game_at_a_round(
        browser, live_server_url, "three_tricks", {"width": size[0], "height": size[1]}, "Side"
    )
    ana = pages[0]
    side = ana.locator("#screen .tt-theirs")
    before = side.evaluate(SIDE)
    gone = Player.objects.get(workshop=w, name="Bartholomew")
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)
    playing = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    wait_version(ana, table_version(playing), timeout=8000)
    assert NOTE in side.inner_text()
    after = side.evaluate(SIDE)
    # The name and the counts where they were (the note, between them, pushed the counts
    # a line down); the note under both.
    assert after["name"] == before["name"] and after["meta"] == before["meta"], (before, after)
    assert after["note"]["top"] >= max(after["name"]["bottom"], after["meta"]["bottom"]) - 1, after
    # Still heard in the page's order: the name, the note, then the counts.
    heard = side.aria_snapshot()
    assert heard.index("Bartholomew") < heard.index(NOTE) < heard.index("blocked pile"), heard
    for page in pages:
        page.context.close()
