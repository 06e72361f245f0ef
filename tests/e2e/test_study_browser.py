"""Studying on a phone while the table plays a practice game: the rules are open from
the start, and a card played by someone else neither closes them nor reopens them
once the student closed them (each move redraws the whole screen); a student who
joins after the study reads their own rules until they say they have. Chromium."""

from __future__ import annotations

import pytest
from axe_check import assert_accessible
from phones import heard, join, play_until, touch_phone, version, wait_change, watch_heard

from tournament import services
from tournament.models import Game, GameState, Player

pytestmark = [pytest.mark.browser]
PHONE = {"width": 390, "height": 844}


def studying(browser, live_server_url, name: str, size=PHONE):
    """Ana's phone (390x844 unless `size` says) at a table of four in study, the rules
    on screen: (page, workshop, the study round)."""
    w = services.workshop_create(name=name, table_count=1, seats_per_table=4, seed=3)
    page = touch_phone(browser, size)
    join(page, live_server_url, w.code, "Ana")
    for other in ("Bo", "Cai", "Dev"):
        services.player_join(code=w.code, name=other)
    services.players_seat_home(workshop_id=w.pk)
    study = services.workshop_start_study(workshop_id=w.pk)
    page.wait_for_selector("#screen[data-phase=study] details.sheet", timeout=8000)
    return page, w, study


def joining_late(browser, live_server_url, name: str, phase: str):
    """Ana's phone (360x640), joining a table of Bo, Cai and Dev once the study is over:
    in silent play (`phase` "home") or in Round 1 ("round"), her sheet open."""
    w = services.workshop_create(name=name, table_count=1, seats_per_table=5, seed=3)
    for other in ("Bo", "Cai", "Dev"):
        services.player_join(code=w.code, name=other)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    if phase == "round":
        services.round_start(workshop_id=w.pk)
    page = touch_phone(browser, {"width": 360, "height": 640})
    join(page, live_server_url, w.code, "Ana")
    page.wait_for_selector(f"#screen[data-phase={phase}] details.sheet[open]", timeout=8000)
    return page, w


def test_the_rules_stay_as_the_student_left_them_while_the_table_practises(
    live_server_url, browser
):
    page, w, _ = studying(browser, live_server_url, "Study")
    game = Game.objects.get(table__workshop=w, state=GameState.PLAYING)
    ana = Player.objects.get(workshop=w, name="Ana").pk
    sheet = page.locator("details.sheet")
    assert sheet.get_attribute("open") == ""  # open from the start, game or not
    # The status bar's link to the rules is a target of 44 px, as every control (it
    # was 21, then 35), within the bar, which is no taller for it.
    link = page.locator(".status a.to-rules").bounding_box()
    bar = page.locator(".status").bounding_box()
    assert link["height"] >= 44, link
    assert bar["y"] <= link["y"] and link["y"] + link["height"] <= bar["y"] + bar["height"]
    assert bar["height"] < 52, bar

    def others_play_a_card():
        before = version(page)
        played = len(play_until(game, lambda s: game.players[s.to_act] != ana).current)
        play_until(game, lambda s: len(s.current) != played or s.phase != "play")
        wait_change(page, before)

    # Reading, scrolled down to the rules: another's card leaves them open and in view.
    page.locator("details.sheet h3").last.scroll_into_view_if_needed()
    others_play_a_card()
    assert page.locator("details.sheet").get_attribute("open") == ""
    assert page.locator("details.sheet h3").last.is_visible()
    # Closed by the student: it stays closed.
    page.locator("details.sheet summary").click()
    assert page.locator("details.sheet").get_attribute("open") is None
    others_play_a_card()
    assert page.locator("details.sheet").get_attribute("open") is None
    page.context.close()


@pytest.mark.parametrize(
    "size",
    [{"width": 320, "height": 568}, {"width": 568, "height": 320}, {"width": 640, "height": 360}],
    ids=["320x568", "568x320", "640x360"],
)
def test_the_link_to_the_rules_is_44_px_on_the_smallest_phones(live_server_url, browser, size):
    """Where the status bar's text is smaller (.9rem: 320 px upright, a small phone
    sideways) the link's padding made it 41.5 px high."""
    page, _, _ = studying(browser, live_server_url, "Study small", size)
    link = page.locator(".status a.to-rules").bounding_box()
    assert min(link["width"], link["height"]) >= 44, link
    # It may reach a little past the bar's edge (a bar grown to hold it pushed
    # 7Up7Down's foreheads off the screen sideways), into the margins around it.
    bar = page.locator(".status").bounding_box()
    assert link["y"] >= 0 and link["y"] + link["height"] <= bar["y"] + bar["height"] + 6, (
        link,
        bar,
    )
    page.context.close()


@pytest.mark.parametrize(
    "size", [{"width": 320, "height": 568}, {"width": 360, "height": 640}], ids=["320", "360"]
)
def test_the_study_status_bar_is_one_row_upright(live_server_url, browser, size):
    """ "Study the rules", the table and the clock needed 303 px of the bar's 302 at
    320 px and wrapped, the clock alone on a second row (at 360x640 too, 2 px short):
    the bar was 75 px, the rule sheet lower by a row (found by a review)."""
    page, _, _ = studying(browser, live_server_url, "Study one row", size)
    tops = page.evaluate(
        """() => [...document.querySelector('.status').children]
            .filter((el) => el.getBoundingClientRect().height > 1)
            .map((el) => { const r = el.getBoundingClientRect(); return r.top + r.height / 2; })"""
    )
    assert len(tops) >= 3 and max(tops) - min(tops) < 8, tops
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= size["width"]
    # The link's text is its words on one line (copied, or on a braille display: it
    # came out "Study the rules", then ": read your rules" on a line of its own); a
    # screen reader still hears where it goes.
    link = page.locator(".status a.to-rules")
    assert link.inner_text() == "Study the rules"
    assert ": read your rules" not in page.locator(".status").inner_text()
    assert link.get_attribute("aria-label") == "Study the rules: read your rules"
    page.context.close()


def test_a_student_who_comes_after_the_study_reads_their_rules_first(live_server_url, browser):
    """Joining in a scored round, the phone says so at the top and shows the student's
    own sheet, open, until they tap "I have read my rules": then it goes, for good."""
    page, w = joining_late(browser, live_server_url, "Latecomer", "round")
    assert "You joined after the others studied the rules" in page.inner_text(".late-rules")
    assert "until you have read them" in page.inner_text("details.sheet summary")
    page.locator("details.pin-show summary").click()  # the rejoin PIN, shown
    assert page.locator("details.pin-show[open]").is_visible()
    assert_accessible(page, "phone, joined late, reading the rules, the PIN shown")
    done = page.get_by_role("button", name="I have read my rules")
    assert done.bounding_box()["height"] >= 44
    done.click()
    page.wait_for_selector("#screen details.sheet", state="detached", timeout=8000)
    # Heard as done: the sheet going says nothing by itself.
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('rules are put away')",
        timeout=8000,
    )
    assert page.locator(".late-rules").count() == 0
    assert Player.objects.get(workshop=w, name="Ana").rules_unread is False
    page.reload()
    page.wait_for_selector("#screen[data-phase=round]")
    assert page.locator("#screen details.sheet").count() == 0
    page.context.close()


def test_a_study_paused_then_ended_is_heard_as_time_up_not_as_going_on(live_server_url, browser):
    """Study keeps its phase when its round ends: a pause's end there is no resume."""
    page, _, study = studying(browser, live_server_url, "Ended")
    before = version(page)
    services.round_pause(round_id=study.pk)
    wait_change(page, before)
    page.wait_for_selector("#screen[data-paused='1']")
    before = version(page)
    services.round_end_now(round_id=study.pk)
    wait_change(page, before)
    page.wait_for_selector("#screen .time-up")
    heard = page.inner_text("#announce")
    assert "Time is up" in heard and "continues" not in heard, heard
    page.context.close()


def test_a_latecomer_who_never_taps_has_the_sheet_folded_at_their_first_move(
    live_server_url, browser
):
    """Never tapped "I have read my rules": the whole sheet lay open under their hand
    all round, for a neighbour to read. Their first card in the scored round folds it
    away as the tap would, and the phone says so."""
    w = services.workshop_create(name="Latecomer plays", table_count=2, seats_per_table=5, seed=3)
    for name in ("Bo", "Cai", "Dev"):
        services.player_join(code=w.code, name=name)
    ids = list(
        Player.objects.filter(workshop=w).order_by("join_order").values_list("pk", flat=True)
    )
    # Dev alone at table 2: no game there until Ana joins.
    services.players_seat_home(workshop_id=w.pk, assignment={ids[0]: 1, ids[1]: 1, ids[2]: 2})
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    page = touch_phone(browser, {"width": 360, "height": 640})
    join(page, live_server_url, w.code, "Ana")
    page.wait_for_selector("#screen[data-phase=round] details.sheet[open]", timeout=8000)
    ana = Player.objects.get(workshop=w, name="Ana")
    game = Game.objects.get(table=ana.table, state=GameState.PLAYING)
    assert ana.pk in game.players
    play_until(game, lambda s: game.players[s.to_act] == ana.pk)
    page.wait_for_selector(".hand .card.legal", timeout=8000)
    page.locator(".hand .card.legal").first.click()
    page.wait_for_selector("#screen details.sheet", state="detached", timeout=8000)
    page.wait_for_function(
        "() => document.getElementById('announce').textContent"
        ".includes('Your rules are folded away: play on.')",
        timeout=8000,
    )
    said = page.evaluate("() => document.getElementById('announce').textContent")
    assert "as everyone does" not in said  # not the tap's words: nothing was tapped
    assert page.locator(".late-rules").count() == 0
    assert Player.objects.get(pk=ana.pk).rules_unread is False
    page.reload()
    page.wait_for_selector("#screen[data-phase=round]")
    assert page.locator("#screen details.sheet").count() == 0
    page.context.close()


def test_a_latecomer_in_silent_play_hears_the_rules_put_away_once(live_server_url, browser):
    """Joining in silent play and tapping "I have read my rules": the screen's line for
    silent play ("Your rules are put away: play from memory…") comes as the sheet goes,
    and the tap's own line said the same again after it."""
    page, _ = joining_late(browser, live_server_url, "Late home", "home")
    watch_heard(page)
    page.get_by_role("button", name="I have read my rules").click()
    page.wait_for_selector("#screen details.sheet", state="detached", timeout=8000)
    page.wait_for_function("() => window.__heard.length > 0", timeout=8000)
    said = " ".join(heard(page))
    assert said.count("put away") == 1, said
    assert "Your rules are put away: play from memory. These games still don't count." in said
    page.context.close()
