"""Three phones play the start of an All Fives hand in Chromium.

Eldest taps Beg, the dealer taps "Give one point (take one)", then the players
tap their playable cards until a trick is complete. Every phone's screen follows
(scores, the trick on the table, whose turn); screenshots go to artifacts/.
"""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import (
    dealt_table,
    heard,
    one_phone_at_a_round,
    table_version,
    wait_version,
    watch_heard,
)

from tournament import gamestate, services

pytestmark = [pytest.mark.browser]
NAMES = ["Ana", "Bea", "Cai"]


def test_three_phones_beg_take_one_and_play_a_trick(live_server_url, phone, artifacts):
    workshop = services.workshop_create(
        name="All Fives browser", game="all_fives", table_count=1, seats_per_table=3, seed=5
    )
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, NAMES)
    assert game.kind == "all_fives"
    state = gamestate.load_state(game)
    eldest, dealer = seat_names[state.eldest], seat_names[state.dealer]

    for name, page in pages.items():
        page.wait_for_selector("#screen[data-phase=study] .af .af-trump", timeout=5000)
        # Only one's own six cards are on one's screen.
        cards = page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(cards) == sorted(state.hands[seat_names.index(name)])
        status = page.inner_text(".af .whose")
        assert (name == eldest) == ("Your choice" in status), (name, status)
        assert page.get_by_role("button", name="Beg", exact=True).count() == (name == eldest)
        assert "All Fives" in page.inner_text(".sheet summary")
    pages[eldest].screenshot(path=str(artifacts / "all_fives_beg.png"), full_page=True)

    # Eldest begs: the dealer's phone now offers the two answers.
    pages[eldest].get_by_role("button", name="Beg", exact=True).click()
    pages[dealer].wait_for_selector("button:has-text('Give one point (take one)')", timeout=5000)
    assert pages[dealer].get_by_role("button", name="Run the cards").count() == 1
    for name, page in pages.items():
        if name != dealer:
            page.wait_for_selector(".af .whose:has-text('begged')", timeout=5000)
            assert page.locator("button:has-text('Give one point')").count() == 0
    pages[dealer].screenshot(path=str(artifacts / "all_fives_dealer.png"), full_page=True)
    pages[dealer].click("button:has-text('Give one point (take one)')")

    # Eldest's point shows on every phone.
    for page in pages.values():
        page.wait_for_selector(
            f".af-seats .seat[data-seat='{state.eldest}'] .af-score:has-text('1 / 61')",
            timeout=5000,
        )
        page.wait_for_selector(".af-note:has-text('one point')", timeout=5000)

    # Tap playable cards until the first trick is complete.
    game.refresh_from_db()
    for _ in range(3):
        state = gamestate.load_state(game)
        name = seat_names[state.to_act]
        page = pages[name]
        page.wait_for_selector(".hand .card.legal", timeout=5000)
        assert "Your turn" in page.inner_text(".af .whose")
        played = page.locator(".hand .card.legal").first.get_attribute("data-card")
        target = table_version(game) + 1
        page.locator(".hand .card.legal").first.click()
        for other in pages.values():
            wait_version(other, target)
        game.refresh_from_db()
        if len(gamestate.load_state(game).tricks) == 0:
            # The card is on every phone's table, named with its player ("you" on its own).
            for other_name, other in pages.items():
                by = "you" if other is page else name
                assert f'played by {by}"' in other.locator(".trick").inner_html(), other_name
            if state.current:
                pages[name].screenshot(path=str(artifacts / "all_fives_trick.png"), full_page=True)
        assert played not in page.locator(".hand").inner_html()

    state = gamestate.load_state(game)
    assert len(state.tricks) == 1
    winner = seat_names[state.tricks[0].winner]
    for name, page in pages.items():
        seen, *heard = page.inner_text(".af-won").splitlines()
        assert seen == f"Trick 1 won by {'you' if name == winner else winner}."
        # A screen reader hears the trick's cards, then that the calls on them are
        # open (a line of its own: a call that ends it leaves the trick's unchanged).
        assert heard[0].startswith("Played: ") and heard[0].count(" by ") == 3, heard
        assert "by you" in heard[0] and len(heard) == 1
        assert page.inner_text(".af-offer") == "You may call a revoke until the next lead."
        # Said before the next lead (they close at it), which comes with the same screen.
        said = page.evaluate(
            "() => document.getElementById('announce').lastElementChild.textContent"
        )
        assert said.startswith(f"{seen} {heard[0]} You may call a revoke until the next lead. ")
        assert said.endswith("leads." if name != winner else "Lead any card."), said
        assert page.locator(".trick .card").count() == 3  # the finished trick stays in view
        # The winner leads next: their phone says so, the others name them.
        status = page.inner_text(".af .whose")
        assert ("Your turn" in status) == (name == winner), (name, status)
    pages[winner].screenshot(path=str(artifacts / "all_fives_after_trick.png"), full_page=True)


@pytest.mark.parametrize("size", [(390, 844), (360, 640), (640, 360), (844, 390)])
def test_the_hand_stays_put_through_a_trick_its_end_and_revoke_calls(
    live_server_url, browser, size
):
    """The revoke calls' row came above the hand when a trick ended and went at the
    next lead, the last trick's line made the table taller, and each call added a
    line: the hand moved 15-70 px down and back, and a tap meant for a card could
    land on "Call revoke". Through the first trick, its end, two calls and the next
    lead, the hand stays as far below the table as it was. (A seat's line as tall
    at its turn as not: test_seat_lines_browser.)"""
    from phones import first_moves, other_game_at_a_round

    pages, w = other_game_at_a_round(
        browser, live_server_url, "all_fives", {"width": size[0], "height": size[1]}, "Steady"
    )
    gaps = {i: set() for i in range(len(pages))}
    seen = set()
    for step, _ in first_moves(pages, w, 7):
        if step == 0:
            continue  # standing or begging: not yet in play
        for i, page in enumerate(pages):
            hand = page.locator(".hand .cards").bounding_box()
            table = page.locator(".board.af .trick").bounding_box()
            gaps[i].add(round(hand["y"] - table["y"]))
            state = (
                page.locator(".af-revoke button").count() > 0,
                page.locator(".af-calls li").count(),
            )
            if (
                state[0] and (True, state[1]) not in seen
            ):  # a revoke may be called: audited once per calls' count
                assert_accessible(page, f"All Fives, a revoke may be called, {state[1]} calls made")
            seen.add(state)
    # The moves went through both: calls open and not, and calls made.
    assert {open_ for open_, _ in seen} == {True, False} and max(n for _, n in seen) >= 1, seen
    assert all(len(g) == 1 for g in gaps.values()), gaps
    for page in pages:
        page.context.close()


def _seed_for_runs(runs: int) -> int:
    """A game seed whose first hand, begged and run, ends with `runs` runs (the cards
    are run again while the turned-up suit is the first trump's)."""
    from games import kinds

    kind = kinds.get("all_fives")
    rules = kind.default_rules()
    for seed in range(1, 5000):
        state = kind.new_state(table_rules=rules, seat_rules=[rules] * 3, mode="barnga", seed=seed)
        if state.phase != "beg":
            continue
        state, _ = kind.apply(state, {"type": "beg", "seat": state.eldest})
        state, _ = kind.apply(state, {"type": "run", "seat": state.dealer})
        if state.runs == runs and state.redeals == 0:
            return seed
    raise AssertionError(f"no seed with {runs} runs")


@pytest.mark.parametrize(
    ("width", "height", "runs"),
    [(640, 360, 1), (667, 375, 1), (844, 390, 1), (360, 640, 1), (640, 360, 2), (360, 640, 2)],
    ids=["640x360-9", "667x375-9", "844x390-9", "360x640-9", "640x360-12", "360x640-12"],
)
def test_a_hand_after_the_cards_are_run_is_one_row_in_view(
    live_server_url, browser, artifacts, monkeypatch, width, height, runs
):
    """Nine cards after a run (twelve after two) made two rows, the second below the
    screen's edge on a small phone held either way. One row, every card's face whole."""
    from phones import other_game_at_a_round, version

    from tournament.models import Game, GameState
    from tournament.services import play
    from tournament.templatetags.cards import card_face, card_name

    # Games are dealt here (the test's process) with a seed that runs the cards so often.
    seed = _seed_for_runs(runs)
    monkeypatch.setattr(
        play, "secrets", type("Seeds", (), {"randbits": staticmethod(lambda n: seed)})
    )
    pages, w = other_game_at_a_round(
        browser, live_server_url, "all_fives", {"width": width, "height": height}, "Run"
    )
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    assert game.seq == 0 and game.seed == seed
    state = gamestate.load_state(game)
    services.game_act(player_id=game.players[state.eldest], move={"type": "beg"})
    services.game_act(player_id=game.players[state.dealer], move={"type": "run"})
    target = table_version(game)
    for page in pages:
        wait_version(page, target, timeout=8000)
    page = pages[0]
    assert version(page) == target
    page.screenshot(path=str(artifacts / f"all_fives_run_{width}x{height}_{runs}.png"))
    cards = page.locator(".hand .card").evaluate_all(
        """els => els.map(e => {
            const r = e.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, width: r.width, fits: e.scrollWidth <= e.clientWidth,
                    face: e.innerText.replace(/\\s/g, ''), card: e.dataset.card,
                    label: e.getAttribute('aria-label')};
        })"""
    )
    assert len(cards) == 3 + 3 * (runs + 1), cards
    assert len({round(c["top"]) for c in cards}) == 1, cards  # one row
    assert max(c["bottom"] for c in cards) <= height, cards  # in view
    assert all(c["fits"] and c["width"] >= 24 for c in cards), cards
    # Each face is its rank and suit (stacked), each card still named in words.
    assert all(c["face"] == card_face(c["card"]) for c in cards), cards
    assert all(c["label"].startswith(card_name(c["card"])) for c in cards), cards
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert_accessible(page, "All Fives, a hand after running the cards")


def test_a_new_rounds_heading_is_said_before_its_new_hand(live_server_url, browser, monkeypatch):
    """The re-check heard a new hand's trump before the heading that said a new round
    had begun: the heading is said first. And a new game's hand is said even when it
    is worded as the last game's was ("Hand 1, Cai deals, to 61. Trump: spades." at
    the study, at silent play and at Round 1): a CI run, by chance, heard the headings
    alone, and the trump of the round's game was never said."""
    from games import kinds
    from tournament.models import Round, Table, Workshop
    from tournament.services.play import seated_players

    kind = kinds.get("all_fives")
    seeds = []

    def seed_like_the_first(bits):
        """A seed whose cut and turn-up give the game the first game's dealer and trump
        (the dealer's seat turns one round to the next)."""
        rnd = Round.objects.order_by("-number").first()
        table = Table.objects.get(workshop=rnd.workshop, number=1)
        players = seated_players(table)
        at = rnd.number % len(players)
        order = players[at + 1 :] + players[: at + 1]
        rules = [p.rules or table.rules for p in order]

        def dealt(seed):
            state = kind.new_state(
                table_rules=table.rules, seat_rules=rules, mode=rnd.workshop.mode, seed=seed
            )
            return order[kind.first_dealer(state)].pk, state.trump

        for seed in range(1, 10_000):
            if not seeds or dealt(seed) == seeds[0][1]:
                seeds.append((seed, dealt(seed)))
                return seed
        raise AssertionError("no seed deals alike")

    monkeypatch.setattr("tournament.services.play.secrets.randbits", seed_like_the_first)
    page, w, _ = one_phone_at_a_round(
        browser,
        live_server_url,
        seats=3,
        size={"width": 390, "height": 844},
        game="all_fives",
        name="Heading",
    )
    assert len(seeds) == 3 and len({dealt for _, dealt in seeds}) == 1, seeds
    assert Workshop.objects.get(pk=w.pk).phase == "round"
    said = page.evaluate(
        "() => Array.from(document.querySelectorAll('#announce > p'), (p) => p.textContent)"
    )
    last = said[-1]
    assert last.startswith("Scored round, table 1. ") and " Hand 1, " in last, said


def test_the_last_hands_points_fit_a_small_phone(live_server_url, browser):
    """From the second hand on, the last hand's points open at the hand's first screen
    and stay open as the student left them; at 320 px wide their table ran 8 px past
    the screen's edge, and the whole page panned sideways."""
    import random

    from phones import version

    from tournament.models import Game, GameState

    size = {"width": 320, "height": 568}
    page, w, game = one_phone_at_a_round(
        browser, live_server_url, seats=3, size=size, game="all_fives", name="Points",
        others=["Bartholomew Okonkwo", "Cai"],
    )  # fmt: skip
    kind, rng = gamestate.kind_of(game), random.Random(1)
    first = gamestate.load_state(game).hand_no
    while gamestate.load_state(game).hand_no == first:
        state = gamestate.load_state(game)
        seat = state.to_act
        action = kind.bot_action(state, seat, rng)
        move = {k: v for k, v in action.items() if k != "seat"}
        services.game_act(player_id=game.players[seat], move=move)
        game = Game.objects.get(pk=game.pk)
    assert game.state == GameState.PLAYING
    target = table_version(game)
    wait_version(page, target)
    assert version(page) == target
    page.wait_for_selector(".af-last-hand[open] table", timeout=5000)
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide == [320, 320], wide


def test_a_revoke_call_is_heard_without_the_trick_said_again(live_server_url, phone):
    """The trick's line carried the offer "You may call a revoke until the next lead.":
    a call closed the offer, which changed the line, so a screen reader heard the whole
    trick again, its cards too, before the call ("Trick 1 won by Bea. Played: … You
    called a revoke on Bea (trick 1): not a revoke."), at each call. Now it hears the
    trick and the offer once, and a call only as the call."""
    workshop = services.workshop_create(
        name="All Fives call", game="all_fives", table_count=1, seats_per_table=2, seed=5
    )
    pages, game, seat_names = dealt_table(live_server_url, phone, workshop, ["Ana", "Bea"])
    state = gamestate.load_state(game)
    pages[seat_names[state.eldest]].get_by_role("button", name="Stand", exact=True).click()
    for page in pages.values():
        watch_heard(page)
    game.refresh_from_db()
    for _ in range(2):
        state = gamestate.load_state(game)
        page = pages[seat_names[state.to_act]]
        page.wait_for_selector(".hand .card.legal", timeout=5000)
        target = table_version(game) + 1
        page.locator(".hand .card.legal").first.click()
        for other in pages.values():
            wait_version(other, target)
        game.refresh_from_db()
    state = gamestate.load_state(game)
    assert len(state.tricks) == 1 and state.calls_open
    caller = pages[seat_names[1 - state.tricks[0].winner]]
    for page in pages.values():
        page.wait_for_function("() => window.__heard.some((l) => l.includes('Trick 1 '))")
        said = page.evaluate("() => window.__heard.filter((l) => l.includes('Trick 1 '))")
        assert len(said) == 1 and "You may call a revoke until the next lead." in said[0], said
    target = table_version(game) + 1
    caller.locator(".af-revoke .af-call").first.click()
    for page in pages.values():
        wait_version(page, target)
        page.wait_for_function("() => window.__heard.some((l) => l.includes('a revoke on'))")
        said = heard(page)
        assert sum("Trick 1 " in line for line in said) == 1, said
        assert "(trick 1): " in said[-1] and "Played:" not in said[-1], said
