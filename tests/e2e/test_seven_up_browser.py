"""Three phones play 7Up7Down in Chromium: a bidding round by tapping bid buttons
(the dealer sees the hook's bid disabled), then the blind deal, where each phone
shows the others' cards but never its own and plays its card unseen.

The deals between are played from the test process through ``services.game_act``
(the server reads the same database and pushes the new views). Screenshots go to
artifacts/.
"""

from __future__ import annotations

import random
import re
import time

import pytest
from axe_check import assert_accessible
from phones import (
    dealt_table,
    not_in_view,
    table_version,
    toasts,
    wait_toast,
    wait_version,
    watch_toasts,
)
from playwright.sync_api import expect

from games import kinds
from games import seven_up as su
from tournament import gamestate, services
from tournament.models import RefusedAttempt
from tournament.templatetags.cards import card_face, card_name

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]
# Upright (an iPhone SE) and sideways (an iPhone SE, a browser's toolbar taking part
# of 800x390, a 360x640 Android).
SMALL_PHONES = (
    {"width": 375, "height": 667},
    {"width": 667, "height": 375},
    {"width": 800, "height": 360},
    {"width": 640, "height": 360},
)


def in_view_on_small_phones(page, parts, moment):
    """Each of `parts` wholly on the screen of every one of SMALL_PHONES, then the
    phone back to its own size."""
    for size in SMALL_PHONES:
        page.set_viewport_size(size)
        missing = [m for p in parts for m in not_in_view(page, p)]
        assert missing == [], (size, moment, missing)
    page.set_viewport_size({"width": 390, "height": 844})


def state_of(game):
    game.refresh_from_db()
    return gamestate.load_state(game)


def wait_seq(game, seq: int, timeout: float = 10):
    """Until the phone's tap has reached the server and been stored."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.seq > seq:
            return
        time.sleep(0.05)
    pytest.fail(f"no action stored after seq {seq}")


def screen_html(page) -> str:
    return page.locator("#screen").inner_html()


def split_sheet(html: str) -> tuple[str, str]:
    """The screen without its score sheet, and the score sheet. The sheet names the
    trump cards of finished deals, which may be in anybody's hand now."""
    at = html.index('class="su-sheet"')
    screen, sheet = html[:at], html[at:]
    # Nor the last deal's last trick (shown until this deal's first is taken): its
    # cards were played face up, and have been shuffled and dealt again since.
    cut = screen.find('<details class="last-trick previous-trick"')
    return (screen if cut < 0 else screen[:cut]), sheet


def earlier_trumps(state) -> set[str]:
    return {r.trump_card for r in state.history}


def by_keyboard(page, game, control: str, then: str) -> None:
    """The first `control` pressed by keyboard (Enter) and taken by the table; focus
    then on `then`."""
    before = game.seq
    page.locator(control).first.focus()
    page.keyboard.press("Enter")
    wait_seq(game, before)
    page.wait_for_function(
        "s => document.activeElement && document.activeElement.matches(s)", arg=then, timeout=5000
    )


def test_three_phones_bid_and_play_the_blind_deal(live_server_url, phone, artifacts):
    workshop = services.workshop_create(
        name="Seven up in a browser", game="seven_up", table_count=1, seats_per_table=3, seed=3
    )
    services.sheets_assign(workshop_id=workshop.pk, assignment={"1": "classic"})
    pages, game, names = dealt_table(live_server_url, phone, workshop, NAMES)
    assert game.kind == "seven_up"
    by_seat = [pages[n] for n in names]

    # ---- a bidding round, tapped on the phones
    state = state_of(game)
    assert state.phase == "bid" and state.deal_no == 0
    for page in pages.values():
        page.wait_for_selector("#screen .board.su", timeout=5000)
        assert "Deal 1/14" in page.inner_text("#screen .su-deal")
    for turn in range(3):
        state = state_of(game)
        seat = state.to_act
        page = by_seat[seat]
        page.wait_for_selector(".su-bid-button[data-action=act]", timeout=5000)
        for other in range(3):
            if other != seat:
                # The last bidder's phone may still be taking the new screen: the
                # table's update reaches each socket on its own, in no set order.
                expect(by_seat[other].locator(".su-bid-button")).to_have_count(0, timeout=5000)
        if turn < 2:
            bid = 1
        else:
            # The dealer: 1 + 1 bid so far of 7 cards, so the hook forbids 5.
            assert seat == state.dealer
            hooked = page.locator('.su-bid-button[data-bid="5"]')
            # Marked not allowed, and still a button: tapped, it is refused (below).
            assert hooked.get_attribute("aria-disabled") == "true"
            # Read out in full; on screen the struck-out 5 and "hook" at 14 px or more.
            assert hooked.get_attribute("aria-label") == "Bid 5: not allowed: hook"
            assert hooked.inner_text().split() == ["5", "hook"]
            small = hooked.locator("small").evaluate(
                "e => parseFloat(getComputedStyle(e).fontSize)"
            )
            assert small >= 14, small
            allowed = ".su-bid-button[data-action=act]:not([aria-disabled])"
            assert page.locator(allowed).count() == 7
            page.screenshot(path=str(artifacts / "seven-up-bidding.png"), full_page=True)
            assert_accessible(page, "7Up7Down, the dealer's bids with the hook's marked")
            # Tapped anyway, the bid goes to the server, which refuses it with the hook
            # rule in full (at the top, read out), bids nothing, and keeps the refusal
            # for the debrief report. The dealer then bids again.
            before = game.seq
            watch_toasts(page)
            hooked.click(force=True)  # aria-disabled: Playwright would wait for it
            refusal = wait_toast(page, 0, timeout=5000)
            assert "hook rule" in refusal and "may not bid 5" in refusal, toasts(page)
            assert page.locator("#toast").get_attribute("role") == "alert"
            (kept,) = RefusedAttempt.objects.filter(player_id=game.players[seat])
            assert kept.action == {"type": "bid", "seat": seat, "bid": 5}
            assert state_of(game).bids[seat] is None and game.seq == before
            expect(hooked).not_to_have_class(re.compile("sending"))
            bid = 0
        before = game.seq
        page.locator(f'.su-bid-button[data-bid="{bid}"]').click()
        wait_seq(game, before)
    state = state_of(game)
    assert state.phase == "play" and state.bids[(state.dealer + 1) % 3] == 1
    assert state.bids[state.dealer] == 0
    # Everyone's phone shows every bid and the play begins.
    for page in pages.values():
        page.wait_for_selector("#screen .su .trick", timeout=5000)
        assert page.locator(".su-bid", has_text="1").count() == 2

    # One card played by tapping a playable card.
    seat = state.to_act
    page = by_seat[seat]
    page.wait_for_selector(".hand .card.legal", timeout=5000)
    played = page.locator(".hand .card.legal").first.get_attribute("data-card")
    before = game.seq
    page.locator(".hand .card.legal").first.click()
    wait_seq(game, before)
    assert state_of(game).current[0] == (seat, played)

    # ---- on to the blind deal, the deals between played from the test process
    rng = random.Random(5)
    emptied = False
    for _ in range(400):
        state = state_of(game)
        if state.deal_no == su.BLIND_DEAL:
            break
        seat = state.to_act
        if su.DEAL_SIZES[state.deal_no] == 1 and state.phase == "play" and not emptied:
            # The deal's last card played by keyboard, the others still to play: focus
            # goes to the hand, empty now (it fell to the screen's top: no hand drawn).
            emptied = True
            page = by_seat[seat]
            # The screen of the state read: after the moves made in a burst, an older
            # one (an earlier deal's turn) also had a playable card.
            wait_version(page, table_version(game))
            page.wait_for_selector(".hand .card.legal", timeout=5000)
            by_keyboard(page, game, ".hand .card.legal", "#screen .hand")
            assert page.locator("#screen .hand .card").count() == 0
            continue
        action = su.choose_action(state, seat, rng)
        move = {k: v for k, v in action.items() if k != "seat"}
        services.game_act(player_id=game.players[seat], move=move)
    state = state_of(game)
    assert state.blind and state.phase == "bid" and emptied
    for seat, page in enumerate(by_seat):
        page.wait_for_selector("#screen .su-forehead.me", timeout=10000)
        html, sheet = split_sheet(screen_html(page))
        own = state.hands[seat][0]
        assert "your card (unseen)" in html
        assert card_face(own) not in html and card_name(own) not in html
        assert f'data-card="{own}"' not in html
        assert card_name(own) not in sheet or own in earlier_trumps(state)
        for other in range(3):
            if other != seat:
                theirs = state.hands[other][0]
                assert card_name(theirs) in html and card_face(theirs) in html
    by_seat[0].screenshot(path=str(artifacts / "seven-up-blind-deal.png"), full_page=True)
    # The score sheet's marks, each with its words for a screen reader, stay inside the
    # sheet's scroller: from the first deal's marks on, they had made the page 637 px
    # wide on any phone, to be dragged sideways, its toast cut off at both ends.
    for size in ({"width": 320, "height": 568}, {"width": 360, "height": 640}):
        by_seat[0].set_viewport_size(size)
        wide = by_seat[0].evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide == [size["width"]] * 2, (size, wide)
    by_seat[0].set_viewport_size({"width": 390, "height": 844})

    # Bids tapped on the phones, then each plays the card it cannot see.
    for _ in range(3):
        state = state_of(game)
        page = by_seat[state.to_act]
        page.wait_for_selector(".su-bid-button[data-action=act]", timeout=5000)
        # On a small phone either way up the bids are in view beside the others' cards.
        in_view_on_small_phones(page, (".su-bids", ".su-foreheads"), "bidding")
        # By keyboard: with no hand in the blind deal, focus left on the bid goes to
        # the foreheads (with the unseen card's move), not to the screen's top.
        by_keyboard(page, game, ".su-bid-button[data-action=act]", "#screen .su-foreheads")
    first = None
    for _ in range(3):
        state = state_of(game)
        seat = state.to_act
        first = seat if first is None else first
        page = by_seat[seat]
        page.wait_for_selector(".su-play-blind", timeout=5000)
        # On a small phone too, the move and the cards already played are in view
        # (under the foreheads the button was below the screen's edge).
        in_view_on_small_phones(page, (".su-play-blind", "#screen .trick"), "playing blind")
        own = state.hands[seat][0]
        assert card_face(own) not in split_sheet(screen_html(page))[0]
        before = game.seq
        page.click(".su-play-blind")
        wait_seq(game, before)
        if seat == first:
            # Once played, the card is on the table for its owner too (as "you").
            page.wait_for_selector(
                f'.trick .card[aria-label="{card_name(own)} played by you"]', timeout=5000
            )
    state = state_of(game)
    assert state.deal_no == su.BLIND_DEAL + 1 and len(state.history) == su.BLIND_DEAL + 1
    blind = state.history[su.BLIND_DEAL]
    assert len(blind.tricks) == 1
    # The score sheet on the phones has the blind deal's row filled in.
    for page in pages.values():
        page.wait_for_selector("#screen .su-deal:has-text('Deal 9/14')", timeout=5000)
        rows = page.locator(".su-sheet tbody tr")
        assert rows.count() == 14
        blind_row = rows.nth(su.BLIND_DEAL).inner_text()
        assert ("✓" in blind_row) or ("✗" in blind_row)
    assert_accessible(page, "7Up7Down, after the blind deal, its score sheet")


def test_the_last_card_of_a_deal_back_in_the_next_hand_leaves_focus_in_the_hand(
    live_server_url, phone, monkeypatch
):
    """The deal's last card played by keyboard, and the same card dealt to the player
    again: focus went back to "the same card", a picture in the new hand while the
    bids are made, which takes no focus, so it fell to the top of the page just as
    the player's bid was due. It goes to the hand."""
    from tournament.services import play

    kind = kinds.get("seven_up")
    rules = kind.presets["classic"].to_dict()
    # A game (from the engine alone) whose first deal ends with a card that the one who
    # played it is dealt again.
    for seed in range(1, 2000):
        state = kind.new_state(table_rules=rules, seat_rules=[rules] * 3, mode="barnga", seed=seed)
        rng, log = random.Random(seed), []
        while True:
            action = su.choose_action(state, state.to_act, rng)
            after, _ = kind.apply(state, action)
            if after.deal_no > 0:
                break
            log.append(action)
            state = after
        if action["type"] == "play" and action["card"] in after.hands[action["seat"]]:
            break
    else:
        pytest.fail("no such game in 2,000 seeds")
    # Games are dealt here (the test's process) with that seed.
    monkeypatch.setattr(
        play, "secrets", type("Seeds", (), {"randbits": staticmethod(lambda n: seed)})
    )
    workshop = services.workshop_create(
        name="Seven up focus", game="seven_up", table_count=1, seats_per_table=3, seed=3
    )
    services.sheets_assign(workshop_id=workshop.pk, assignment={"1": "classic"})
    pages, game, names = dealt_table(live_server_url, phone, workshop, NAMES)
    assert game.seed == seed
    for a in log:
        services.game_act(
            player_id=game.players[a["seat"]], move={k: v for k, v in a.items() if k != "seat"}
        )
    card = action["card"]
    page = pages[names[action["seat"]]]
    page.wait_for_selector(f'#screen .hand button[data-card="{card}"]', timeout=5000)
    by_keyboard(page, game, f'#screen .hand button[data-card="{card}"]', "#screen .hand")
    page.wait_for_selector("#screen .su-deal:has-text('Deal 2/14')", timeout=5000)
    assert page.locator(f'#screen .hand span[data-card="{card}"]').count() == 1
    assert page.evaluate("document.activeElement.matches('#screen .hand')")
