"""In a dispute the gestures and the drawing pad come up under the claim, above the
hand, on a phone held upright and on one held sideways, without scrolling. The
section is moved, not rebuilt: an open pad and its drawing, focus on a gesture and
the others' reactions stay; when the trick is settled it goes back to the screen's
foot, above the PIN (static/js/table.js placeTalk, in Chromium with
Element.moveBefore and without it)."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import (
    first_round,
    heard,
    join,
    not_in_view,
    play_until,
    touch_phone,
    version,
    wait_change,
    wait_said,
    watch_heard,
)
from test_pad_browser import watch_reactions

from tournament import gamestate, services
from tournament.models import Game, GameState, Player

pytestmark = [pytest.mark.browser]
WAIT = 8000

# Where #talk is: "slot" (in the screen's [data-talk-slot], after the claim and
# before the hand, in document order) or "foot" (the screen's foot, just above its
# "Playing as … / Rejoin PIN" footer).
WHERE_TALK = """() => {
  const talk = document.getElementById("talk");
  const after = (a, b) => !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  const screen = document.getElementById("screen");
  if (talk.parentElement.matches("#screen [data-talk-slot]")) {
    const claim = screen.querySelector(".claim"), hand = screen.querySelector(".hand");
    return after(claim, talk) && after(talk, hand) ? "slot" : "slot, out of order";
  }
  if (talk.parentElement === screen && talk.nextElementSibling === screen.querySelector(":scope > footer.pin")
      && talk.nextElementSibling) return "foot";
  return "elsewhere";
}"""

PAD_DRAWN = """() => { const c = document.getElementById("pad");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) if (d[i]) return true; return false; }"""


def test_a_dispute_brings_the_gestures_and_pad_under_the_claim(live_server_url, browser, phone):
    w = services.workshop_create(name="Dispute talk", table_count=1, seats_per_table=5, seed=3)
    sideways = touch_phone(browser, {"width": 844, "height": 390})
    small = touch_phone(browser, {"width": 360, "height": 740})  # Eve's, a smaller phone
    pages = {"Ana": sideways, "Bea": phone(), "Cai": phone(), "Dev": phone(), "Eve": small}
    # Cai's browser has no Element.moveBefore (as browsers without it): a plain move.
    pages["Cai"].context.add_init_script("delete Element.prototype.moveBefore;")
    for name, page in pages.items():
        join(page, live_server_url, w.code, name)
    assert pages["Cai"].evaluate("() => typeof Element.prototype.moveBefore") == "undefined"
    assert pages["Bea"].evaluate("() => typeof Element.prototype.moveBefore") == "function"
    first_round(w.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
        assert page.evaluate(WHERE_TALK) == "foot"
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    seat_of = {p: i for i, p in enumerate(game.players)}

    # Dev opens the pad and draws before anyone disagrees.
    dev = pages["Dev"]
    dev.click(".pad-wrap summary")
    # Opened at the foot of the page, the pad scrolls itself wholly into view (to a
    # fraction of a pixel: its height is a fraction).
    dev.wait_for_function(
        "() => { const r = document.getElementById('pad').getBoundingClientRect();"
        " return r.height > 100 && r.top >= 0 && r.bottom <= innerHeight + 1; }",
        timeout=WAIT,
    )
    box = dev.locator("#pad").bounding_box()
    dev.mouse.move(box["x"] + 20, box["y"] + 20)
    dev.mouse.down()
    dev.mouse.move(box["x"] + 120, box["y"] + 80, steps=8)
    dev.mouse.up()
    assert dev.evaluate(PAD_DRAWN)
    dev.evaluate("() => window.scrollTo(0, 0)")  # the pad left open; back to the table

    # The first trick, played through the services; then Ana claims another card
    # than the one the others claim: a dispute.
    play_until(game, lambda state: state.phase != "play")
    for page in pages.values():
        page.wait_for_selector(".claim .primary", timeout=WAIT)
        assert page.evaluate(WHERE_TALK) == "foot"  # the claim step, no dispute yet
    winner = int(sideways.locator(".claim .primary").get_attribute("data-winner"))
    other = next(p for p in game.players if p != winner)
    sideways.click(f'.trick button[data-winner="{other}"]')
    for name in ("Bea", "Cai", "Dev", "Eve"):
        pages[name].locator(".claim .primary").click()
    for name, page in pages.items():
        page.wait_for_selector(".dispute-title", timeout=WAIT)
        assert page.evaluate(WHERE_TALK) == "slot", name
        # Without scrolling: the dispute, the cards to claim, every gesture, the
        # others' reactions and the pad's switch; every gesture a finger's size.
        for selector in (
            ".dispute-title",
            ".trick .card",
            ".palette button",
            ".reactions",
            ".pad-wrap summary",
        ):
            if name != "Dev" or selector != ".pad-wrap summary":  # Dev's pad is open
                assert not_in_view(page, selector) == [], name
        heights = page.locator(".palette button").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)"
        )
        assert min(heights) >= 44, (name, heights)
    assert dev.evaluate("() => document.querySelector('.pad-wrap').open")
    assert dev.evaluate(PAD_DRAWN), "the pad was rebuilt, not moved"
    for page in (sideways, pages["Bea"]):
        assert_accessible(page, "phone, dispute talk open")

    # Bea and Cai have a gesture in focus when a new screen comes (Dev changes his
    # claim to Ana's card: still a dispute). Focus stays on it, the section is in the
    # new screen's slot, and the others still see Bea's gestures.
    stop = pages["Bea"].locator(".palette button").nth(2).get_attribute("data-gesture")
    for name in ("Bea", "Cai"):
        pages[name].locator(f'.palette [data-gesture="{stop}"]').focus()
    before = {name: version(page) for name, page in pages.items()}
    dev.click(f'.trick button[data-winner="{other}"]')
    for name, page in pages.items():
        wait_change(page, before[name])
        assert page.evaluate(WHERE_TALK) == "slot", name
    for name in ("Bea", "Cai"):
        assert pages[name].evaluate("() => document.activeElement.dataset.gesture") == stop, name
    assert dev.evaluate(PAD_DRAWN)
    # (Read from what the row showed, kept as it came: the chip leaves after 4 s.)
    watch_reactions(sideways)
    pages["Bea"].keyboard.press("Enter")
    sideways.wait_for_function("() => window.__seen.some((s) => s.includes('Bea'))", timeout=WAIT)

    # Ana and Dev give in: the trick is settled, the section goes back to the
    # screen's foot, the hand is where the palette was, and Dev's pad is as he left it.
    for name in ("Ana", "Dev"):
        pages[name].click(f'.trick button[data-winner="{winner}"]')
    for name, page in pages.items():
        page.wait_for_selector(".claim", state="detached", timeout=WAIT)
        assert page.evaluate(WHERE_TALK) == "foot", name
        assert not page.locator("[data-talk-slot]").count()
    assert dev.evaluate("() => document.querySelector('.pad-wrap').open")
    assert dev.evaluate(PAD_DRAWN)
    game.refresh_from_db()
    state = gamestate.load_state(game)
    assert len(state.completed) == 1 and state.completed[-1].winner == seat_of[winner]
    sideways.context.close()
    small.context.close()


# Where the palette and the pad's switch are, and how tall the reactions' row is.
TALK_PLACES = """() => ({
  palette: document.querySelector('.palette').getBoundingClientRect().top,
  pad: document.querySelector('.pad-wrap summary').getBoundingClientRect().top,
  row: document.querySelector('.reactions').getBoundingClientRect().height,
})"""


def test_a_flurry_of_gestures_moves_nothing_under_the_fingers(live_server_url, browser):
    """In a dispute the reactions' row sits above the palette and the pad: six gestures
    from two tablemates wrapped it and pushed both down 43 px (and back 4 s later),
    and one student's 👍 tapped twelve times was twelve chips and twelve lines heard.
    The row stays one chip tall, the newest first; the same gesture again from the
    same person is the chip already there, not said again."""
    from tournament.models import Gesture, Player

    w = services.workshop_create(name="Flurry", table_count=1, seats_per_table=3, seed=3)
    pages = {n: touch_phone(browser, {"width": 360, "height": 640}) for n in ("Ana", "Bea", "Cai")}
    for name, page in pages.items():
        join(page, live_server_url, w.code, name)
    first_round(w.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    play_until(game, lambda state: state.phase != "play")
    ana = pages["Ana"]
    for page in pages.values():
        page.wait_for_selector(".claim .primary", timeout=WAIT)
    winner = int(ana.locator(".claim .primary").get_attribute("data-winner"))
    other = next(p for p in game.players if p != winner)
    ana.click(f'.trick button[data-winner="{other}"]')
    for name in ("Bea", "Cai"):
        pages[name].locator(".claim .primary").click()
    ana.wait_for_selector(".dispute-title", timeout=WAIT)
    assert ana.evaluate(WHERE_TALK) == "slot"
    ana.evaluate(
        """() => { window.heard = []; window.rows = [];
          const row = document.querySelector('.reactions');
          new MutationObserver((ms) => {
            ms.forEach((m) => m.addedNodes.forEach((n) =>
              window.heard.push(n.querySelector('.visually-hidden').textContent)));
            window.rows.push([row.children.length, row.firstElementChild?.textContent || '']);
          }).observe(row, { childList: true }); }"""
    )
    before = ana.evaluate(TALK_PLACES)

    bea, cai = (Player.objects.get(workshop=w, name=n).pk for n in ("Bea", "Cai"))
    kinds = [k for k, _ in Gesture.KINDS if k not in ("drawing", "clear")][:3]
    for kind in kinds:
        services.gesture_make(player_id=bea, kind=kind)
    for _ in range(12):
        services.gesture_make(player_id=cai, kind=kinds[0])
    ana.wait_for_function("() => window.heard.length >= 4", timeout=WAIT)
    ana.wait_for_timeout(500)  # the rest of Cai's twelve arrive
    # The row as each change left it (kept in the page: a chip leaves after 4 s, and on
    # a busy machine Bea's could be gone before a count read here): never more than
    # four chips (Bea's three, Cai's one), the newest first.
    rows = ana.evaluate("() => window.rows")
    assert max(n for n, _ in rows) == 4, rows
    assert "Cai" in next(first for n, first in rows if n == 4), rows
    assert [line for line in ana.evaluate("() => window.heard") if line.startswith("Cai")] == [
        f"Cai: {ana.locator(f'.palette [data-gesture={kinds[0]}]').get_attribute('aria-label')}"
    ]
    assert ana.evaluate(TALK_PLACES) == before  # nothing moved
    # And as they leave, nothing moves either.
    ana.wait_for_selector(".reactions .reaction", state="detached", timeout=WAIT)
    assert ana.evaluate(TALK_PLACES) == before
    for page in pages.values():
        page.context.close()


def _opened_dispute(browser, live_server_url, name, sizes):
    """A table of three phones (`sizes` in turn) whose names are long; every seat but
    the last claims the card its sheet says, then the last another one's card, which
    opens a dispute. Returns the pages by name, the last seat's name and the claimed
    player's name; the last seat's page has kept what it heard since before its tap."""
    w = services.workshop_create(name=name, table_count=1, seats_per_table=3, seed=5)
    names = ["Christopher", "Maximilian", "Anastasia"]
    pages = {n: touch_phone(browser, sizes[i % len(sizes)]) for i, n in enumerate(names)}
    for player, page in pages.items():
        join(page, live_server_url, w.code, player)
    first_round(w.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=WAIT)
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    name_of = {p: Player.objects.get(pk=p).name for p in game.players}
    play_until(game, lambda state: state.phase != "play")
    for page in pages.values():
        page.wait_for_selector(".claim .primary", timeout=WAIT)
    *first, last = (name_of[p] for p in game.players)
    winner = int(pages[last].locator(".claim .primary").get_attribute("data-winner"))
    for player in first:
        before = version(pages[player])
        pages[player].locator(".claim .primary").click()
        wait_change(pages[player], before)
    other = next(p for p in game.players if p != winner and name_of[p] != last)
    watch_heard(pages[last])
    pages[last].click(f'.trick button[data-winner="{other}"]')
    for page in pages.values():
        page.wait_for_selector(".dispute-title", timeout=WAIT)
    pages[last].wait_for_function("() => window.__heard.join(' ').includes('Claims: ')")
    return pages, last, name_of[other]


def test_the_claim_that_opens_a_dispute_is_heard_once_with_how_it_ends(live_server_url, browser):
    """The last claim of a trick opens a dispute: the claimer heard it twice ("…; you
    say Maximilian won. You said: Maximilian won."), and nobody heard how a dispute
    ends (only its last 10 seconds said that the most-claimed card then wins)."""
    pages, last, claimed = _opened_dispute(
        browser, live_server_url, "Dispute said", [{"width": 390, "height": 844}]
    )
    said = " ".join(heard(pages[last]))
    assert said.count(f"{claimed} won") == 1, said
    assert f"you say {claimed} won" in said, said
    assert "change your claim" in said and "the most-claimed card wins" in said, said
    assert "10 seconds left" not in said, said  # said by the dispute's line, not its clock
    for page in pages.values():
        page.context.close()


def test_each_claim_is_whole_on_its_seats_line_upright(live_server_url, browser):
    """In a dispute each seat's line shows whom it claims: at 360x740 "Christopher
    (you)" and its card and trick counts cut its claim to "→ Ma…", which could be
    anyone whose name begins so (at 390x844 too)."""
    pages, _, _ = _opened_dispute(
        browser,
        live_server_url,
        "Dispute lines",
        [{"width": 360, "height": 740}, {"width": 390, "height": 844}],
    )
    for name, page in pages.items():
        cut = page.locator(".seat .claim-badge").evaluate_all(
            "els => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"
        )
        assert cut == [], (name, page.viewport_size, cut)
        assert page.locator(".seat .meta").first.text_content().strip()  # read out still
    for page in pages.values():
        page.context.close()


def test_the_round_ending_in_a_dispute_leaves_focus_on_the_screen(live_server_url, browser):
    """A blind student's focus on a gesture in a dispute as the round ends: the
    gestures go with the round, and focus went with them to the page itself (heard
    from the top, a dozen swipes from the round's news). It goes to the screen, as
    when the hand goes."""
    from tournament.models import Round, RoundKind

    pages, last, _ = _opened_dispute(
        browser, live_server_url, "Dispute ends", [{"width": 390, "height": 844}]
    )
    page = pages[last]
    page.get_by_role("button", name="Stop", exact=True).focus()
    assert page.evaluate("() => document.activeElement.dataset.gesture") is not None
    rnd = Round.objects.get(workshop__name="Dispute ends", kind=RoundKind.SCORED)
    services.round_end_now(round_id=rnd.pk)
    page.wait_for_selector("#screen[data-phase=between]", timeout=WAIT)
    assert page.locator("#talk").is_hidden()
    assert page.evaluate("() => document.activeElement.id") == "screen"
    for other in pages.values():
        other.context.close()


def test_how_a_dispute_ends_is_heard_at_the_first_dispute_only(live_server_url, browser):
    """Each dispute's line said how disputes end ("Tap a card on the table to change
    your claim. It ends when every claim agrees, or when time runs out: …"): a blind
    student at a table whose rules differ heard it at every trick, the claims only
    after 60 words. Said at the phone's first dispute; the next ones say that claims
    differ, then who claims what."""
    pages, last, _ = _opened_dispute(
        browser, live_server_url, "Dispute again", [{"width": 390, "height": 844}]
    )
    page = pages[last]
    first = next(line for line in heard(page) if "Claims differ" in line)
    assert "change your claim" in first and "the most-claimed card wins" in first, first
    game = Game.objects.get(table__workshop__name="Dispute again", state=GameState.PLAYING)
    state = gamestate.load_state(game)
    pid = Player.objects.get(workshop=game.table.workshop, name=last).pk
    services.game_claim(player_id=pid, winner_player_id=game.players[state.claims[0]])
    game.refresh_from_db()
    play_until(game, lambda s: s.phase != "play")
    since = len(heard(page))
    for seat, player in enumerate(game.players):
        services.game_claim(player_id=player, winner_player_id=game.players[min(seat, 1)])
    again = wait_said(page, since, "Claims differ")
    assert "Claims: " in again, again
    assert "change your claim" not in again and "most-claimed" not in again, again
    # Still on the screen for a screen reader to read.
    assert "change your claim" in page.locator(".dispute-title").text_content()
    for other in pages.values():
        other.context.close()
