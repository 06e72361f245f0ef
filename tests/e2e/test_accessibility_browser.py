"""Every page a student or facilitator meets, checked by axe-core in Chromium.

axe-core (through axe-playwright-python, which bundles it) runs its WCAG A/AA rules
and best practices on each page in the state a class sees it: a facilitator's pages
from sign-up to the report, and a phone's screen from joining through study, silent
play, a scored round's play, claim step and dispute, the break between rounds and
the debrief; then each other base game's table. Any violation fails the test, with
axe's report of where it is and how to fix it.

A phone's screen is replaced whole on every change, so a live region inside it
would be a new one each time (screen readers do not announce those): the page keeps
one region outside it (#announce) that says each new line, such as whose turn it
is. The round's clock ticks outside any live region.
"""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from django.contrib.auth.models import User
from phones import (
    dealt_table,
    join,
    version,
    wait_change,
    wait_said,
    watch_heard,
    whose_turn,
)
from phones import heard as lines_said  # (`heard` below: what a snapshot reads)

from tournament import services
from tournament.models import Player, Round, RoundKind

pytestmark = [pytest.mark.browser]
WAIT = 8000


# Each gesture chip put on the reactions row from now on stays there when its time is
# up (4 s: table.js removes it), kept in window.__heldChips until the test removes it.
HOLD_CHIPS = """() => { window.__heldChips = [];
  new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((chip) => {
    chip.remove = () => { window.__heldChips.push(chip); };
  }))).observe(document.querySelector('.reactions'), { childList: true }); }"""


def announced(page) -> str:
    """The line said last (#announce is a log: each line is added after the last)."""
    return page.evaluate(
        "() => { const l = document.getElementById('announce').lastElementChild;"
        " return l ? l.textContent : ''; }"
    )


def table_in_words(page) -> str:
    """The cards on the table as a screen reader hears them: "7 of spades by Ben, ..."."""
    labels = page.locator("#screen .trick .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    return ", ".join(label.split(":")[0].replace(" played by ", " by ") for label in labels)


def wait_announced(page, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('announce').textContent.includes(t)", arg=text, timeout=WAIT
    )


def sign_up(page, url: str) -> None:
    page.goto(f"{url}/signup/")
    assert_accessible(page, "sign-up")
    page.fill("#id_username", "facilitator")
    page.fill("#id_password1", "a-long-pass-123")
    page.fill("#id_password2", "a-long-pass-123")
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert "/signup/" not in page.url, page.inner_text("main")


def no_live_region_inside_the_screen(page) -> None:
    """The screen is replaced whole: live regions there would never be heard, and the
    clocks there tick every second."""
    assert (
        page.locator("#screen [aria-live], #screen [role=status], #screen [role=alert]").count()
        == 0
    )


def test_five_tricks_workshop_pages_pass_axe_and_phones_announce_changes(
    live_server_url, browser, phone
):
    url = live_server_url
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    fac = laptop.new_page()
    sign_up(fac, url)
    w = services.workshop_create(
        name="Accessible", facilitator=User.objects.get(), table_count=1, seats_per_table=4, seed=3
    )

    # Before joining: the public pages, and the ones a mistyped link leads to.
    guest = browser.new_context().new_page()
    for path, where in [
        ("/login/", "log-in"),
        ("/join", "join form"),
        (f"/j/{w.code}", "join form with its code"),
        ("/j/ZZZZZZ", "join form, unknown code"),
        ("/no-such-page/", "not found"),
    ]:
        guest.goto(url + path)
        assert_accessible(guest, where)
    guest.goto(url + "/join")
    guest.fill("#name", "Ana")
    guest.fill("#code", "ZZZZZZ")
    guest.click("button[type=submit]")
    guest.wait_for_selector("[role=alert]")
    # A page that opens with its alert may not say it: the error takes the focus (read
    # out), and each field names it.
    assert guest.evaluate("document.activeElement.id") == "join-error"
    assert guest.get_attribute("#code", "aria-describedby") == "join-error"
    assert_accessible(guest, "join form with its error")

    names = ["Ana", "Bea", "Cai", "Dev"]
    pages = {}
    for name in names:
        pages[name] = phone()
        join(pages[name], url, w.code, name)
    ana = pages["Ana"]
    assert_accessible(ana, "phone, waiting for a seat")
    # The tab says what the phone waits for (it was "Barnga · Ana" alone).
    assert ana.title() == "Waiting to start · Barnga · Ana", ana.title()
    # A name already in the workshop: asked about, the rejoin PIN's form open.
    guest.goto(url + f"/j/{w.code}")
    guest.fill("#name", "Ana")
    guest.click("button[type=submit]")
    guest.wait_for_selector("details.rejoin[open]")
    # Its question takes the focus, as the other errors do, and the name field names it.
    assert guest.evaluate("document.activeElement.id") == "join-taken"
    assert guest.get_attribute("#name", "aria-describedby") == "join-taken"
    assert_accessible(guest, "join form, the name already here")

    for path, where in [
        ("/", "facilitator's workshops"),
        ("/workshops/new/", "set-up wizard"),
        (f"/workshops/new/?like={w.pk}", "set-up wizard, set up again"),
    ]:
        fac.goto(url + path)
        assert_accessible(fac, where)
    # Sheets chosen per table (shown): their headings came after the h1 as h3s.
    fac.goto(url + "/workshops/new/")
    fac.locator('[name="sheet_mode"][value="choose"]').check()
    fac.select_option("#id_sheet_1", "custom")
    assert fac.locator("#id_custom_1_trump").is_visible()
    assert_accessible(fac, "set-up wizard, choosing the sheets, a custom one")

    services.players_seat_home(workshop_id=w.pk)
    # Seated, the lobby says where they will play, and not the PIN (a phone's speaker
    # would read it out to the neighbours).
    wait_announced(ana, "you will play at table 1")
    assert Player.objects.get(workshop=w, name="Ana").pin not in announced(ana)
    services.workshop_start_study(workshop_id=w.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=study] .hand .card", timeout=WAIT)
    # The phase is heard, not only the practice game's first "… leads.".
    wait_announced(ana, "Study the rules, table 1")
    assert_accessible(ana, "phone, study")
    fac.goto(f"{url}/workshops/{w.pk}/")
    fac.wait_for_selector("#fac-live[data-updated]", timeout=WAIT)
    assert_accessible(fac, "facilitator's panel, study")

    services.workshop_start_home(workshop_id=w.pk)
    for page in pages.values():
        page.wait_for_selector(".silence", timeout=WAIT)
    wait_announced(ana, "Silence")
    assert "🤫" not in announced(ana)  # not "shushing face"
    assert_accessible(ana, "phone, silent play at home")

    # From here each line a phone says is kept: "Your turn." was said in the study's
    # and the silent play's games too (to whoever led them), and those lines are still
    # in the log (20 s), so a wait on the log's text passed before the round's turn.
    for page in pages.values():
        watch_heard(page)
    services.round_start(workshop_id=w.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=round] .hand", timeout=WAIT)
    # Each line a sentence: the heading's line does not run into the next one.
    wait_announced(ana, "Scored round, table 1. ")
    no_live_region_inside_the_screen(ana)
    assert ana.locator("#screen .status [role=timer]").count() == 1
    assert_accessible(ana, "phone, scored round")

    # A trick's four cards: each phone hears whose turn it is as it changes, and
    # what is on the table.
    seats = list(pages.values())
    since = [0] * len(seats)  # each phone's lines before the last card was laid
    for played in range(4):
        on_turn = whose_turn(seats)
        wait_said(on_turn, since[seats.index(on_turn)], "Your turn.")
        # ...and sees it in the tab's title, heard first on coming back to the browser.
        assert on_turn.title().startswith("Your turn · Barnga · "), on_turn.title()
        if played:
            wait_announced(on_turn, f"On the table: {table_in_words(on_turn)}.")
        since = [len(lines_said(page)) for page in seats]
        before = version(on_turn)
        on_turn.locator(".hand .card.legal").first.click()
        wait_change(on_turn, before)
        # The played card is gone from the new screen: focus stays in the hand
        # instead of falling to the top of the page.
        assert on_turn.evaluate("document.activeElement.closest('.hand') !== null")
    for page in pages.values():
        page.wait_for_selector("[data-action=claim]", timeout=WAIT)
        wait_announced(page, "Who won this trick?")
        wait_announced(page, f"Played: {table_in_words(page)}.")
    assert "Your turn" not in announced(ana)  # only the new line is said
    assert_accessible(ana, "phone, claim step")

    # Claims that disagree open a dispute, which every phone hears.
    for i, page in enumerate(seats):
        before = version(page)
        page.locator(".trick .card").nth(i % 2).click()
        wait_change(page, before)
        # The claimer hears their own claim; the last one in the dispute's claims line.
        wait_announced(page, "You said" if i < len(seats) - 1 else "you say")
    wait_announced(seats[0], "Claims differ")
    assert "✋" not in announced(seats[0])  # not "raised hand"
    # Who claims what is heard with it (the seats' lines say it, but silently).
    wait_announced(seats[0], "Claims: ")
    claims = announced(seats[0]).split("Claims: ")[1]
    assert claims.count(" won") == 4 and "you say" in claims, claims
    # A gesture is seen as its emoji and heard as words in the table's reactions log.
    # (The chip is held on the row while it is read and checked: it leaves after 4 s,
    # and on a busy machine it could be gone before the reads.)
    sender = next(n for n, p in pages.items() if p is seats[1])
    seats[0].evaluate(HOLD_CHIPS)
    seats[1].get_by_role("button", name="Stop", exact=True).click()
    seats[0].wait_for_selector(".reactions .reaction", timeout=WAIT)
    assert seats[0].inner_text(".reactions").strip().startswith(f"✋ {sender}")
    # The name is an element apart (a right-to-left name keeps its place beside the emoji).
    assert seats[0].inner_text(".reactions .reaction bdi") == sender
    heard = seats[0].locator(".reactions").aria_snapshot()
    assert f"{sender}: Stop" in heard and "✋" not in heard, heard
    assert_accessible(seats[0], "phone, dispute")
    seats[0].evaluate("() => window.__heldChips.forEach((c) => Element.prototype.remove.call(c))")
    # Every seat's claim is in words for a screen reader, not an arrow: a claim on
    # one's own card "says they won" (it read "Bea says the trick went to Bea"), on the
    # phone's own line "you say you won" (on another's card "you say the trick went to").
    heard = seats[0].locator("#screen .seats").aria_snapshot()
    own = heard.count("says they won") + heard.count("you say you won")
    mine = heard.count("you say you won") + heard.count("you say the trick went to")
    assert own >= 1 and mine == 1, heard
    assert (
        heard.count("says the trick went to") + heard.count("you say the trick went to") + own == 4
    )
    assert "→" not in heard, heard
    seats[0].locator("details.pad-wrap summary").click()
    assert_accessible(seats[0], "phone, drawing pad open")

    fac.goto(f"{url}/workshops/{w.pk}/")
    fac.wait_for_selector("#fac-live[data-updated]", timeout=WAIT)
    assert_accessible(fac, "facilitator's panel, round")
    for path, where in [
        (f"/workshops/{w.pk}/projector/", "projector"),
        (f"/workshops/{w.pk}/tables/1/", "facilitator's table view"),
    ]:
        fac.goto(url + path)
        assert_accessible(fac, where)

    # The two who claimed the second card give in: the first card takes the trick,
    # and each phone hears who took it (its player's own card is "you").
    takers = [page.locator(".trick .card").nth(0).locator(".by").inner_text() for page in seats]
    assert takers.count("you") == 1 and len(set(takers)) == 2, takers
    for page in (seats[1], seats[3]):
        before = version(page)
        page.locator(".trick .card").nth(0).click()
        wait_change(page, before)
        if page is seats[1]:  # a claim changed, the dispute goes on: heard by the others
            wait_announced(seats[0], f"{sender} says {takers[0]} won")
    for page, taker in zip(seats, takers, strict=True):
        wait_announced(page, f"Trick 1 won by {taker}")
        # Who took the trick first, then who leads the next.
        assert announced(page).startswith(f"Trick 1 won by {taker}"), announced(page)
    assert_accessible(seats[1], "phone, after a trick")

    services.round_end_now(round_id=Round.objects.get(workshop=w, kind=RoundKind.SCORED).pk)
    ana.wait_for_selector("#screen[data-phase=between]", timeout=WAIT)
    # The notice's heading is a sentence of its own, not run into the next.
    wait_announced(ana, "Round over. ")
    assert ana.title() == "Between rounds, table 1 · Barnga · Ana", ana.title()
    assert_accessible(ana, "phone, between rounds")
    fac.goto(f"{url}/workshops/{w.pk}/")
    fac.wait_for_selector("#do-movement-apply", timeout=WAIT)
    assert_accessible(fac, "facilitator's panel, movement")

    services.workshop_start_debrief(workshop_id=w.pk)
    ana.wait_for_selector("#screen[data-phase=debrief]", timeout=WAIT)
    assert ana.title() == "The tournament is over · Barnga · Ana", ana.title()
    wait_announced(ana, "The tournament is over. Thank you for playing.")
    assert_accessible(ana, "phone, debrief")
    fac.goto(f"{url}/workshops/{w.pk}/report/")
    assert_accessible(fac, "debrief report")
    for path, where in [
        (f"/workshops/{w.pk}/", "facilitator's panel, debrief"),
        (f"/workshops/{w.pk}/delete/", "deleting a workshop"),
    ]:
        fac.goto(url + path)
        assert_accessible(fac, where)
    laptop.close()


@pytest.mark.parametrize(
    ("game", "seats", "sheet"),
    [("seven_up", 3, "classic"), ("all_fives", 3, None), ("three_tricks", 2, "seed")],
)
def test_the_other_games_tables_pass_axe(live_server_url, phone, game, seats, sheet):
    workshop = services.workshop_create(
        name=f"Accessible {game}", game=game, table_count=1, seats_per_table=seats, seed=3
    )
    if sheet:
        services.sheets_assign(workshop_id=workshop.pk, assignment={"1": sheet})
    pages, _, names = dealt_table(live_server_url, phone, workshop, ["Ana", "Bea", "Cai"][:seats])
    for name in names:
        page = pages[name]
        page.wait_for_selector("#screen[data-phase=study] .board", timeout=WAIT)
        no_live_region_inside_the_screen(page)
        assert page.locator("#screen [data-announce]").count() >= 1
        assert_accessible(page, f"{game} phone of {name}")


def test_a_renamed_students_tab_carries_the_new_name(live_server_url, browser):
    """The tab's title ("Your turn · Barnga · Ana") kept the name the page was opened
    with: renamed by the facilitator (a typo, a name not for the projector), the
    student's screen said "Playing as Anna" while the tab, heard first on switching
    back to the browser, still said "Ana" until a reload."""
    from phones import one_phone_at_a_round

    page, w, _ = one_phone_at_a_round(
        browser, live_server_url, name="Renamed", seats=3, size={"width": 390, "height": 844}
    )
    assert page.title().endswith(" · Barnga · Ana"), page.title()
    ana = Player.objects.get(workshop=w, name="Ana")
    services.player_rename(workshop_id=w.pk, player_id=ana.pk, name="Anna")
    page.get_by_text("Playing as Anna").wait_for(timeout=WAIT)
    assert page.title().endswith(" · Barnga · Anna"), page.title()
    page.reload()
    page.get_by_text("Playing as Anna").wait_for(timeout=WAIT)
    assert page.title().endswith(" · Barnga · Anna"), page.title()
    page.context.close()


def test_a_five_tricks_games_last_trick_is_announced_with_how_its_dispute_ended(
    live_server_url, browser
):
    """The last trick's claim ends the game and deals the next at once: a phone went
    from "Claims differ" to "Last game: won by Bea", and who took that trick, and that
    the time limit decided it, was never said. Now it is, before the last game's line
    (both first), and shown until the new game's first trick is taken."""
    from datetime import timedelta

    from phones import one_phone_at_a_round, play_until

    from tournament import timers
    from tournament.models import Dispute, Game, GameState

    page, w, game = one_phone_at_a_round(
        browser, live_server_url, name="Last trick", seats=4, size={"width": 390, "height": 844}
    )
    ana = Player.objects.get(workshop=w, name="Ana")
    while True:
        state = play_until(game, lambda s: s.phase != "play")
        if any(state.hands):  # not the last trick: everyone says the leader took it
            for pid in game.players:
                leader = game.players[state.current[0][0]]
                services.game_claim(player_id=pid, winner_player_id=leader)
            game.refresh_from_db()
            continue
        # The last trick: seat 0 says it took it, the others that seat 1 did.
        for seat, pid in enumerate(game.players):
            services.game_claim(player_id=pid, winner_player_id=game.players[min(seat, 1)])
        break
    wait_announced(page, "Claims differ")
    dispute = Dispute.objects.get(game=game, resolved_at__isnull=True)
    timers.tick(now=dispute.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.state == GameState.OVER
    taker = game.players[1]
    who = "you" if taker == ana.pk else Player.objects.get(pk=taker).name
    # Every claim was shown in the dispute: how many claimed the winner is said.
    line = f"Trick 7 of game {game.number} won by {who} (time ran out: 3 of 4 claimed it)."
    wait_announced(page, f"{line} Last game (game {game.number})")
    summary = page.locator("#screen .previous-trick summary")
    assert summary.inner_text() == line[:-1]
    summary.click()  # opened, the trick's cards with who played them
    assert page.locator("#screen .previous-trick li").count() == 4

    new = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    play_until(new, lambda s: s.phase != "play")
    page.wait_for_selector("#screen .trick button.card", timeout=WAIT)
    assert summary.count() == 1  # still shown as the new game's first trick is claimed
    state = play_until(new, lambda s: True)
    # Game 1's own "Trick 1 won by you." may still be in the log (each line stays 20 s):
    # only a line said after the claims counts.
    watch_heard(page)
    for pid in new.players:
        services.game_claim(player_id=pid, winner_player_id=new.players[state.current[0][0]])
    wait_said(page, 0, "Trick 1 won by")
    assert summary.count() == 0
    page.context.close()


def test_a_7up_deals_last_trick_is_announced_before_its_score(live_server_url, browser, artifacts):
    """A deal's last card scores it and deals the next at once: the phone went from
    the last trick's cards on the table to the new deal's bids, and said "Deal 1
    scored: …" but never who took that trick, nor its cards. Now the new deal's screen
    shows it and says it first, in the trick line's words with the deal's number, until
    the new deal's first trick is taken."""
    import random

    from phones import one_phone_at_a_round

    from games import seven_up as su
    from tournament import gamestate
    from tournament.templatetags.cards import card_name

    page, w, game = one_phone_at_a_round(
        browser,
        live_server_url,
        name="Seven up last trick",
        game="seven_up",
        seats=3,
        size={"width": 390, "height": 844},
    )
    names = dict(Player.objects.filter(pk__in=game.players).values_list("pk", "name"))
    ana = Player.objects.get(workshop=w, name="Ana").pk
    rng = random.Random(4)

    def play_until(until):
        while not until(state := gamestate.load_state(game)):
            action = su.choose_action(state, state.to_act, rng)
            move = {k: v for k, v in action.items() if k != "seat"}
            services.game_act(player_id=game.players[state.to_act], move=move)
            game.refresh_from_db()
        return state

    state = play_until(lambda s: s.deal_no == 1)
    last = state.history[0].tricks[-1]

    def who(seat: int) -> str:
        return "you" if game.players[seat] == ana else names[game.players[seat]]

    played = ", ".join(f"{card_name(c)} by {who(s)}" for s, c in last.cards)
    line = f"Trick 7 of deal 1 taken by {who(last.winner)}. Played: {played}."
    wait_announced(page, f"{line} Deal 1 scored: ")
    page.screenshot(path=str(artifacts / "seven-up-previous-trick.png"), full_page=True)
    summary = page.locator("#screen .previous-trick summary")
    assert summary.inner_text().split("\n")[0] == f"Trick 7 of deal 1 taken by {who(last.winner)}"
    # Where a trick is shown: under the hand.
    assert summary.bounding_box()["y"] > page.locator("#screen .hand").bounding_box()["y"]
    summary.click()  # opened, the trick's cards with who played them
    assert page.locator("#screen .previous-trick li").count() == 3
    assert_accessible(page, "7Up7Down, the last deal's last trick opened")

    # Still shown while the new deal's first trick is played, gone once it is taken.
    play_until(lambda s: len(s.current) == 2)
    page.wait_for_selector("#screen .trick .card >> nth=1", timeout=WAIT)
    assert summary.count() == 1
    # Deal 1's own "Trick 1 taken by" may still be in the log (each line stays 20 s):
    # only a line said after the trick's last card counts.
    watch_heard(page)
    play_until(lambda s: len(s.tricks) == 1)
    wait_said(page, 0, "Trick 1 taken by")
    assert summary.count() == 0
    page.context.close()
