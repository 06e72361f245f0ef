"""The facilitator's pages and controls over HTTP (issue 5): accounts, the wizard,
every control with its refusals, the monitor, one table, and a projector that
never shows a secret."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from facilitator_helpers import assert_no_secrets, player_tools
from tournament_helpers import (
    expire,
    finish_trick,
    fresh,
    game_at,
    make_workshop,
    one_left_alone,
    play_until_claim,
    snapshot,
    tables_of,
    to_home,
    to_scored_round,
)

from games.presets import PRESET_TITLES, PRESETS
from tournament import gamestate, services
from tournament import selectors_facilitator as sf
from tournament.models import (
    Dispute,
    Game,
    GameState,
    Movement,
    Phase,
    Player,
    Round,
    RoundKind,
    RoundState,
    Table,
    Workshop,
)
from tournament.templatetags.cards import card_face
from tournament.templatetags.facilitator import dot
from tournament.views_facilitator import ACTIONS

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def intruder():
    client = Client()
    client.force_login(User.objects.create_user("mallory", password="a-long-pass-123"))
    return client


def owned(owner, **kw):
    w = make_workshop(**kw)
    Workshop.objects.filter(pk=w.pk).update(facilitator=owner)
    return fresh(w)


LIVE = {**HX, "HTTP_X_BARNGA_LIVE": "1"}  # a page whose socket is live (facilitator.js)


def do(client, w, action, data=None, htmx=False, live=False):
    headers = LIVE if live else HX if htmx else {}
    return client.post(f"/workshops/{w.pk}/do/{action}/", data or {}, **headers)


def text(response) -> str:
    return response.content.decode()


def message_of(response) -> str:
    html = text(response)
    m = re.search(r'<div id="fac-message"[^>]*>(.*?)</div>', html, re.S)
    return re.sub(r"<[^>]+>", " ", m.group(1)).strip() if m else ""


# ------------------------------------------------------------------ accounts


def test_signup_creates_an_account_and_logs_in():
    client = Client()
    assert client.get("/signup/").status_code == 200
    r = client.post(
        "/signup/",
        {"username": "grace", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    assert r.status_code == 302 and r.url == "/workshops/new/"
    assert User.objects.filter(username="grace").exists()
    assert client.get("/workshops/new/").status_code == 200
    assert client.get("/signup/").status_code == 302  # already logged in


def test_the_welcome_is_shown_on_the_set_up_page_and_not_after_it():
    """The welcome ("Set up your first workshop") was queued for the set-up page,
    which showed no messages: it waited for the next page that did, the new workshop's
    panel, where it stood above "… is ready" as a step still to take."""
    client = Client()
    client.post(
        "/signup/",
        {"username": "grace", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    setup = text(client.get("/workshops/new/"))
    assert "Welcome, grace. Set up your first workshop." in setup
    r = client.post("/workshops/new/", wizard_data())
    panel = text(client.get(r.url))
    assert "“Thursday class” is ready" in panel
    assert "Set up your first workshop" not in panel


def test_signup_errors_are_shown_and_nothing_is_created():
    r = Client().post("/signup/", {"username": "grace", "password1": "abc", "password2": "abd"})
    assert r.status_code == 400
    assert "didn’t match" in text(r) or "didn't match" in text(r)
    assert not User.objects.filter(username="grace").exists()


def test_login_page_links_to_signup():
    assert 'href="/signup/"' in text(Client().get("/login/"))


def test_pages_need_a_login(owner):
    w = owned(owner)
    client = Client()
    for url in [
        "/",
        "/workshops/new/",
        f"/workshops/{w.pk}/",
        f"/workshops/{w.pk}/projector/",
        f"/workshops/{w.pk}/tables/1/",
    ]:
        r = client.get(url)
        assert r.status_code == 302 and r.url.startswith("/login/"), url
    before = snapshot()
    r = client.post(f"/workshops/{w.pk}/do/start-study/")
    assert r.status_code == 302 and r.url.startswith("/login/")
    assert snapshot() == before


def test_home_lists_only_ones_own_workshops(owner, fac):
    mine = owned(owner, players=0)
    theirs = make_workshop(players=0)
    html = text(fac.get("/"))
    assert f"/workshops/{mine.pk}/" in html
    assert f"/workshops/{theirs.pk}/" not in html


def test_home_says_each_workshops_game_and_people_in_one_query(
    owner, fac, django_assert_max_num_queries
):
    """Each row counted its players with a query of its own; and two workshops of
    the same name could not be told apart by their game."""
    for players in (3, 0, 5):
        owned(owner, players=players)
    seven = services.workshop_create(facilitator=owner, name="Sevens", game="seven_up")
    services.player_join(workshop_id=seven.pk, name="Ann")
    left = services.player_join(workshop_id=seven.pk, name="Bo")
    services.player_leave(player_id=left.pk)
    with django_assert_max_num_queries(4):  # session, user, workshops (+ messages)
        html = text(fac.get("/"))
    rows = [plain(li) for li in html.split("<li>")[1:]]
    assert "Sevens" in rows[0] and "7Up7Down · ; code" in rows[0] and "1 player · ;" in rows[0]
    assert ["Five Tricks · ; code" in r for r in rows[1:]] == [True] * 3
    assert ["5 players" in rows[1], "0 players" in rows[2], "3 players" in rows[3]] == [True] * 3
    # Each row's links say whose they are to a screen reader, as they are read out of the list.
    assert "Projector of Sevens Set up again… like Sevens Delete… Sevens" in rows[0]


def test_home_links_a_finished_workshops_debrief_report(owner, fac):
    """Coming back after the class, the report was reached only through the panel:
    a workshop in its debrief has the link in the list, as on its panel."""
    done, running = owned(owner, players=4, tables=1, seats=4), owned(owner, players=4)
    to_scored_round(done)
    services.workshop_start_debrief(workshop_id=done.pk)
    rows = {
        w.pk: plain(li)
        for li in text(fac.get("/")).split("<li>")[1:]
        for w in (done, running)
        if f'href="/workshops/{w.pk}/"' in li
    }
    assert f'href="/workshops/{done.pk}/report/"' in text(fac.get("/"))
    assert f"Debrief report of {done.name} Projector of" in rows[done.pk]
    assert "Debrief report" not in rows[running.pk]
    assert f"/workshops/{running.pk}/report/" not in text(fac.get("/"))


def test_another_facilitators_pages_are_404(owner, intruder):
    w = owned(owner)
    for url in [
        f"/workshops/{w.pk}/",
        f"/workshops/{w.pk}/projector/",
        f"/workshops/{w.pk}/tables/1/",
    ]:
        assert intruder.get(url).status_code == 404, url


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_every_control_on_another_facilitators_workshop_is_404_and_changes_nothing(
    owner, intruder, action
):
    w = owned(owner, players=4, tables=1, seats=4)
    player = Player.objects.filter(workshop=w).first()
    before = snapshot()
    data = {"player": player.pk, "name": "Hacked", f"home_{player.pk}": 1, f"to_{player.pk}": 1}
    for htmx in (False, True):
        assert do(intruder, w, action, data, htmx=htmx).status_code == 404
    assert snapshot() == before


def test_unknown_control_and_get_are_refused(owner, fac):
    w = owned(owner)
    assert do(fac, w, "explode").status_code == 404
    assert fac.get(f"/workshops/{w.pk}/do/start-study/").status_code == 405


# ------------------------------------------------------------------ the wizard


def plain(html: str) -> str:
    """Text of an HTML fragment, tags gone and spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def wizard_data(**kw):
    data = {
        "name": "Thursday class",
        "game": "five_tricks",
        "mode": "barnga",
        "table_count": "2",
        "seats_per_table": "4",
        "round_minutes": "0.5",
        "study_minutes": "5",
        "home_minutes": "3",
        "dispute_seconds": "45",
        "sheet_mode": "auto",
        "leave_policy": "bot",
    }
    data.update(kw)
    return {k: v for k, v in data.items() if v is not None}


def test_wizard_defaults(fac):
    r = fac.get("/workshops/new/")
    html = text(r)
    assert r.status_code == 200
    assert re.search(r'name="round_minutes"[^>]*value="5"', html)
    assert re.search(r'name="study_minutes"[^>]*value="5"', html)
    assert re.search(r'name="dispute_seconds"[^>]*value="45"', html)
    assert '<label for="id_name">' in html
    # Every timed field says its limits (silent home play's help had left them out).
    assert html.count("In minutes, from 0.5 to 60.") == 3
    assert "Unscored silent games at the home table. In minutes, from 0.5 to 60." in html
    # The bots' box: its label without a colon after it, its help heard with it.
    assert '<label for="id_bots_enabled">Bots may fill empty seats</label>' in html
    assert re.search(r'<input type="checkbox"[^>]*aria-describedby="bots-help"', html)
    assert 'id="bots-help"' in html


def test_wizard_creates_an_automatic_workshop(owner, fac):
    r = fac.post("/workshops/new/", wizard_data(bots_enabled="on", mode="referee"))
    w = Workshop.objects.get()
    assert r.status_code == 302 and r.url == f"/workshops/{w.pk}/"
    assert w.facilitator == owner and w.phase == Phase.LOBBY
    assert (w.table_count, w.seats_per_table, w.round_seconds, w.study_seconds, w.home_seconds) == (
        2,
        4,
        30,
        300,
        180,
    )
    assert w.mode == "referee" and w.bots_enabled and w.dispute_seconds == 45
    presets = [t.preset for t in tables_of(w)]
    assert len(set(presets)) == 2 and all(p in PRESETS for p in presets)
    assert w.code in text(fac.get(r.url))


def test_wizard_sets_up_a_conference_of_200_at_forty_tables_of_five(owner, fac):
    """Five Tricks has 17 different sheets: past that the automatic sheets repeat,
    neighbouring tables still differing in two knobs."""
    from tournament.sheet_assignment import MIN_NEIGHBOUR_DIFF, knob_difference

    r = fac.post("/workshops/new/", wizard_data(table_count="40", seats_per_table="5"))
    w = Workshop.objects.get()
    assert r.status_code == 302 and (w.table_count, w.seats_per_table) == (40, 5)
    rules = [PRESETS[t.preset] for t in tables_of(w)]
    assert len(rules) == 40 and len(set(rules)) == 17
    assert all(
        knob_difference(a, b) >= MIN_NEIGHBOUR_DIFF for a, b in zip(rules, rules[1:], strict=False)
    )


def test_wizard_says_the_table_limits_once_and_creates_nothing(fac):
    r = fac.post("/workshops/new/", wizard_data(table_count="41"))
    assert r.status_code == 400 and "At most 40 tables." in text(r)
    assert "less than or equal to" not in text(r)
    # Choosing each sheet: at most one table per different sheet.
    r = fac.post("/workshops/new/", wizard_data(table_count="18", sheet_mode="choose"))
    assert r.status_code == 400
    assert "Choosing each table&#x27;s sheet works for up to 17 tables of Five Tricks" in text(r)
    assert not Workshop.objects.exists()


def test_wizard_chooses_presets_and_a_custom_sheet(fac):
    r = fac.post(
        "/workshops/new/",
        wizard_data(
            table_count="3",
            sheet_mode="choose",
            sheet_1="appendix-3",
            sheet_2="custom",
            custom_2_ace="low",
            custom_2_wins="lowest",
            custom_2_trump="H",
            custom_2_trump_when="any",
            sheet_3="",
            sheet_4="guide-2",  # beyond the table count: ignored
        ),
    )
    assert r.status_code == 302
    t1, t2, t3 = tables_of(Workshop.objects.get())
    assert t1.preset == "appendix-3"
    assert t2.preset == "custom"
    assert t2.rules == {"ace": "low", "wins": "lowest", "trump": "H", "trump_when": "any"}
    assert t3.preset in PRESETS


@pytest.mark.parametrize(
    "field, value, fragment",
    [
        ("name", "", "This field is required"),
        ("name", "Class \u202eA", "control or invisible characters"),  # a right-to-left override
        # A number out of range is said in the field's own unit, as its help says it
        # ("Ensure this value is greater than or equal to 0.5.": minutes? seats?).
        ("table_count", "0", "At least 1 table."),
        ("table_count", "41", "At most 40 tables."),
        ("seats_per_table", "9", "Five Tricks is played by 2 to 8 players: choose 2 to 8 seats"),
        ("seats_per_table", "1", "Five Tricks is played by 2 to 8 players: choose 2 to 8 seats"),
        ("round_minutes", "0.2", "Choose from 0.5 to 60 minutes."),
        ("home_minutes", "61", "Choose from 0.5 to 60 minutes."),
        ("study_minutes", "abc", "Enter a number"),
        ("dispute_seconds", "5", "Choose from 10 to 600 seconds."),
        ("mode", "chaos", "Select a valid choice"),
        ("sheet_1", "nonsense", "Select a valid choice"),
        ("custom_1_ace", "middle", "Select a valid choice"),
    ],
)
def test_wizard_errors_are_shown_by_their_field_and_nothing_is_created(fac, field, value, fragment):
    data = wizard_data(sheet_mode="choose", sheet_1="custom")
    data[field] = value
    r = fac.post("/workshops/new/", data)
    assert r.status_code == 400
    html = text(r)
    assert fragment in html
    assert "Ensure this value" not in html
    # The error list sits in the field's own group, and the input says it is invalid.
    assert f'id="id_{field}_error"' in html
    assert (
        re.search(
            rf'name="{field}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="{field}"', html
        )
        or field == "mode"
    )
    assert not Workshop.objects.exists()


# ------------------------------------------------------------------ the panel


def test_panel_shows_roster_code_and_secret_sheets_collapsed(owner, fac):
    w = owned(owner, players=3, tables=2)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert w.code in html
    for name in ("P01", "P02", "P03"):
        assert name in html
    assert 'data-ws="/ws/facilitator/' in html
    assert "<summary>Settings and secret sheets (don't project)</summary>" in html
    assert 'id="do-start-study"' in html


def test_the_roster_says_who_is_not_seated_yet(owner, fac):
    """Eve joined after the bots filled the tables: the counts read 4/4, so the panel
    says she has no seat yet and where she will get one."""
    w = owned(owner, players=3, tables=2, seats=4, bots_enabled=True)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    # Listed as a sentence lists names (it read "P01, P02, P03").
    assert "Not seated yet: <bdi>P01</bdi>, <bdi>P02</bdi> and <bdi>P03</bdi>." in html
    do(fac, w, "seat-auto")
    do(fac, w, "bots")
    assert 'id="unseated"' not in text(fac.get(f"/workshops/{w.pk}/"))
    services.player_join(workshop_id=w.pk, name="Eve")
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert (
        "Not seated yet: <bdi>Eve</bdi>." in html
        and "in bots' seats when the tables are full" in html
    )
    # Seen as "4/4", heard as "4 of 4 seats" (not a fraction, or a date).
    for n in (1, 2):
        drawn = f'Table {n}: <span aria-hidden="true">4/4</span>'
        assert html.count(drawn + '<span class="visually-hidden">4 of 4 seats</span>') == 1


def test_lobby_controls_in_order(owner, fac):
    w = owned(owner, players=7, tables=2, seats=4, bots_enabled=True)
    # Joining lock and unlock
    r = do(fac, w, "joining-lock")
    assert r.status_code == 303 and fresh(w).joining_locked
    assert "Joining is closed" in text(fac.get(r.url))
    r = do(fac, w, "joining-unlock", htmx=True)
    assert r.status_code == 200 and not fresh(w).joining_locked
    assert "Joining is open again" in message_of(r)
    # Rename and kick
    p1 = Player.objects.get(workshop=w, name="P01")
    r = do(fac, w, "rename", {"player": p1.pk, "name": "Ada"}, htmx=True)
    assert r.status_code == 200 and fresh(p1).name == "Ada"
    assert "P01 is now called Ada" in message_of(r)
    p7 = Player.objects.get(workshop=w, name="P07")
    r = do(fac, w, "kick", {"player": p7.pk}, htmx=True)
    assert r.status_code == 200 and not Player.objects.filter(pk=p7.pk).exists()
    # Manual seating: two players at table 2, the rest balanced
    p2 = Player.objects.get(workshop=w, name="P02")
    p3 = Player.objects.get(workshop=w, name="P03")
    r = do(fac, w, "seat", {f"home_{p2.pk}": "2", f"home_{p3.pk}": "2", f"home_{p1.pk}": ""})
    assert r.status_code == 303
    assert fresh(p2).table.number == 2 and fresh(p3).table.number == 2
    # Automatic balance
    r = do(fac, w, "seat-auto", htmx=True)
    assert r.status_code == 200
    counts = sorted(Player.objects.filter(workshop=w, table__number=n).count() for n in (1, 2))
    assert counts == [3, 3]
    # Bots fill the empty seats
    r = do(fac, w, "bots", htmx=True)
    assert r.status_code == 200 and "2 bots took the empty seats" in message_of(r)
    assert Player.objects.filter(workshop=w, is_bot=True).count() == 2
    # A bot's row names it once (its badge), not "(bot) bot" to a screen reader.
    roster = text(r).split('id="fac-roster"')[1].split("</section>")[0]
    assert roster.count('<span class="badge">bot</span>') == 2 and "(bot)" not in roster
    # ... and can all go at once, and come back.
    assert 'id="do-bots-remove"' in text(r)
    r = do(fac, w, "bots-remove", htmx=True)
    assert r.status_code == 200 and "2 bots removed: their seats are free." in message_of(r)
    assert not Player.objects.filter(workshop=w, is_bot=True).exists()
    assert 'id="do-bots-remove"' not in text(r)
    r = do(fac, w, "bots", htmx=True)
    assert Player.objects.filter(workshop=w, is_bot=True).count() == 2
    # Study
    r = do(fac, w, "start-study", htmx=True)
    assert r.status_code == 200 and fresh(w).phase == Phase.STUDY
    assert 'id="do-start-home"' in text(r)


def test_bots_refused_when_the_workshop_has_them_off(owner, fac):
    w = owned(owner, players=3, tables=1, seats=4)
    before = snapshot()
    r = do(fac, w, "bots", htmx=True)
    assert r.status_code == 403 and "Bots are off" in message_of(r)
    assert snapshot() == before


def test_phase_and_clock_controls_through_a_round_and_movement(owner, fac):
    w = owned(owner, players=8, tables=2, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    assert do(fac, w, "start-study").status_code == 303
    assert do(fac, w, "start-home").status_code == 303 and fresh(w).phase == Phase.HOME
    r = do(fac, w, "start-round", htmx=True)
    assert r.status_code == 200 and fresh(w).phase == Phase.ROUND
    assert "Round 1 has started" in message_of(r)
    rnd = Round.objects.get(workshop=w, kind=RoundKind.SCORED)
    # pause / resume / extend
    r = do(fac, w, "pause", htmx=True)
    assert fresh(rnd).state == RoundState.PAUSED and 'id="do-resume"' in text(r)
    # A control's button has the class it is given, and none when given none (the
    # roster's "Let … back in" is that control too: it had no empty class="").
    assert '<button type="submit" id="do-resume" class="primary">Resume</button>' in text(r)
    assert '<button type="submit" id="do-extend">+1 minute</button>' in text(r)
    left = fresh(rnd).remaining_seconds
    r = do(fac, w, "extend", htmx=True)
    assert fresh(rnd).remaining_seconds == pytest.approx(left + 60)
    # Pressed twice, the second message differs: it says the time now left.
    from tournament.templatetags.facilitator import clock

    assert message_of(r) == f"Round 1: one more minute, {clock(left + 60)} left now."
    r = do(fac, w, "extend", htmx=True)
    assert message_of(r) == f"Round 1: one more minute, {clock(left + 120)} left now."
    r = do(fac, w, "resume", htmx=True)
    assert fresh(rnd).state == RoundState.RUNNING and 'id="do-pause"' in text(r)
    # Somebody wins a game, so the movement has a real winner.
    table1 = tables_of(w)[0]
    game = game_at(table1)
    while fresh(game).state == GameState.PLAYING:
        finish_trick(game, winner_seat=0)
    # end now → between rounds with the movement preview
    r = do(fac, w, "end-now", htmx=True)
    assert r.status_code == 200 and fresh(w).phase == Phase.BETWEEN
    html = text(r)
    assert 'id="do-movement-apply"' in html and "Movement after Round 1" in html
    sizes = plain(html.split('class="movement-sizes"')[1].split("</p>")[0])
    assert "table 1: 4 , table 2: 4 ." in sizes and "more than" not in sizes
    # The next round waits for the movement.
    before = snapshot()
    r = do(fac, w, "start-round", htmx=True)
    assert r.status_code == 409 and "Apply" in message_of(r)
    assert snapshot() == before
    # Save an edit, then apply with one more edit in the same form.
    rnd = fresh(rnd)
    stayer = next(
        p
        for p in Player.objects.filter(workshop=w, table__number=1)
        if p.pk not in {m["player"] for m in rnd.movement_preview["moves"]}
    )
    moves = {
        f"to_{p.pk}": str(
            next(
                (m["to"] for m in rnd.movement_preview["moves"] if m["player"] == p.pk),
                p.table.number,
            )
        )
        for p in Player.objects.filter(workshop=w).select_related("table")
    }
    moves[f"to_{stayer.pk}"] = "2"
    r = do(fac, w, "movement-edit", moves, htmx=True)
    assert r.status_code == 200 and "changed" in text(r)
    # The edit overfills table 2, and the plan says so before it is applied.
    sizes = plain(text(r).split('class="movement-sizes"')[1].split("</p>")[0])
    assert "table 1: 3 , table 2: 5 (more than 4 seats) ." in sizes, sizes
    assert any(
        m["player"] == stayer.pk and m["edited"] for m in fresh(rnd).movement_preview["moves"]
    )
    r = do(fac, w, "movement-apply", moves)
    assert r.status_code == 303
    assert fresh(stayer).table.number == 2
    assert Movement.objects.get(round=rnd, player=stayer).edited
    # Applying twice is refused with a clear message.
    before = snapshot()
    r = do(fac, w, "movement-apply", htmx=True)
    assert r.status_code == 409 and "already been applied" in message_of(r)
    assert snapshot() == before
    # Round 2, then the debrief.
    assert do(fac, w, "start-round").status_code == 303
    assert Round.objects.filter(workshop=w, kind=RoundKind.SCORED).count() == 2
    r = do(fac, w, "debrief", htmx=True)
    assert r.status_code == 200 and fresh(w).phase == Phase.DEBRIEF
    assert f'href="/workshops/{w.pk}/report/"' in text(r)
    # The next class: the wizard as this workshop was set up (test_kinds_facilitator).
    assert f'href="/workshops/new/?like={w.pk}">Set up again for another class<' in text(r)
    # Round 2's movement was never applied: nothing to edit or apply now, and
    # nobody can join a finished workshop.
    assert "do-movement-apply" not in text(r) and "Movement after Round 2" not in text(r)
    assert "joining <strong>closed</strong>" in text(r)


def test_pause_and_resume_answer_in_each_phase_as_the_phones_name_it(owner, fac):
    """Study and silent play are not rounds to anyone in the room (the phones say
    "The facilitator has paused play."): the panel's answer named the round's kind,
    "Study (practice, rules visible) is paused.", and so did +1 minute's."""
    w = owned(owner, players=4, tables=1, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    said = []
    for start in (None, "start-home", "start-round"):
        if start:
            assert do(fac, w, start).status_code == 303
        for act in ("pause", "resume", "extend"):
            r = do(fac, w, act, htmx=True, live=True)
            assert r.status_code == 200, message_of(r)
            said.append(message_of(r).split(",")[0])
    for status in (200, 409):  # ended, then refused as over
        r = do(fac, w, "end-now", htmx=True, live=True)
        assert r.status_code == status, message_of(r)
        said.append(message_of(r))
    assert said == [
        "Study is paused.",
        "Study continues.",
        "Study: one more minute",
        "Silent play is paused.",
        "Silent play continues.",
        "Silent play: one more minute",
        "Round 1 is paused.",
        "Round 1 continues.",
        "Round 1: one more minute",
        "Round 1 is over.",
        "Round 1 is already over.",
    ]


def test_pause_after_the_time_is_up_says_so_and_changes_nothing(owner, fac):
    """Pressed in the second between the round's deadline and the timer's tick that
    ends it, Pause had left the round paused at 0:00, and Resume ended it at once."""
    w = owned(owner, players=4, tables=1, seats=4)
    rnd = to_scored_round(w)
    expire(rnd)
    before = snapshot()
    for live in (False, True):  # the whole panel, or its answer alone
        r = do(fac, w, "pause", {"round": rnd.pk}, htmx=True, live=live)
        assert r.status_code == 409
        assert message_of(r) == "Round 1 cannot be paused: its time is up, and it is ending now."
    assert snapshot() == before and fresh(rnd).state == RoundState.RUNNING


@pytest.mark.parametrize(
    "action, phase_setup, fragment",
    [
        ("start-home", None, "Not possible during"),
        ("start-round", None, "Not possible during"),
        ("pause", None, "No round has started"),
        ("resume", "home", "Only a paused round"),
        ("end-now", "between", "already over"),
        ("extend", "between", "That round is over"),
        ("movement-apply", "home", "after a scored round"),
        ("movement-edit", "home", "after a scored round"),
        ("seat-auto", "home", "Not possible during"),
        ("bots", "home", "Not possible during"),
        ("start-study", "home", "Study has already started"),  # a second tab's press
        ("start-home", "round", "Silent play at the home tables has already started"),
        ("start-round", "round", "Round 1 has already started."),
        ("debrief", None, "Not possible during"),
        ("debrief", "debrief", "The debrief has already started"),  # pressed twice
        ("kick", "debrief", "The tournament is over"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_wrong_phase_refusals_are_clear_and_change_nothing(
    owner, fac, action, phase_setup, fragment, htmx
):
    w = owned(owner, players=4, tables=1, seats=4, bots_enabled=True)
    if phase_setup == "home":
        to_home(w)
    elif phase_setup == "round":
        to_scored_round(w)
    elif phase_setup == "between":
        rnd = to_scored_round(w)
        services.round_end_now(round_id=rnd.pk)
    elif phase_setup == "debrief":
        to_home(w)
        services.workshop_start_debrief(workshop_id=w.pk)
    data = {"player": Player.objects.filter(workshop=w).first().pk}
    before = snapshot()
    r = do(fac, w, action, data, htmx=htmx)
    assert r.status_code == 409, text(r)[:500]
    assert fragment in message_of(r)
    assert 'role="alert"' in text(r)
    if not htmx:
        assert "<html" in text(r)  # the whole page comes back, with the message
    else:
        assert text(r).lstrip().startswith('<div id="panel"')
    assert snapshot() == before


@pytest.mark.parametrize(
    "action, data, fragment",
    [
        ("rename", {"name": ""}, "Please enter a name"),
        ("rename", {"name": "P02"}, "already called"),
        ("rename", {"player": "abc", "name": "X"}, "Choose a player"),
        ("kick", {"player": "999999"}, "not in this workshop"),
        ("seat", {"home_999999": "1"}, "no longer in this workshop"),
        ("seat", {"home_{p}": "7"}, "There is no table 7"),
    ],
)
def test_invalid_input_is_refused_with_a_message(owner, fac, action, data, fragment):
    w = owned(owner, players=3, tables=2, seats=4)
    p = Player.objects.get(workshop=w, name="P01")
    data = {k.replace("{p}", str(p.pk)): v for k, v in {"player": p.pk, **data}.items()}
    before = snapshot()
    r = do(fac, w, action, data, htmx=True)
    assert r.status_code == 400 and fragment in message_of(r)
    assert snapshot() == before


def test_rename_of_another_workshops_player_is_refused(owner, fac):
    w = owned(owner, players=2, tables=1)
    other = make_workshop(players=1, tables=1)
    stranger = Player.objects.get(workshop=other)
    before = snapshot()
    r = do(fac, w, "rename", {"player": stranger.pk, "name": "Pwned"}, htmx=True)
    assert r.status_code == 400 and snapshot() == before


def test_the_facilitator_reads_a_students_rejoin_pin_and_nobody_else_does(owner, fac, intruder):
    """A phone dead and its PIN gone with it: 'Join anyway' made a second seat, 'Ana 2',
    while the first blocked its table. The facilitator can read the PIN out."""
    w = owned(owner, players=2, tables=1)
    p = Player.objects.get(workshop=w, name="P01")
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert player_tools(html, p.pk)["pin"] and "rejoin PIN is" not in html  # asked for
    before = snapshot()
    r = do(fac, w, "pin", {"player": p.pk}, live=True)
    assert r.status_code == 200 and f"P01&#x27;s rejoin PIN is {p.pin}." in message_of(r)
    assert snapshot() == before
    # Another facilitator's, a stranger's or a bot's: refused, and no PIN said.
    other = Player.objects.get(workshop=make_workshop(players=1, tables=1))
    r = do(fac, w, "pin", {"player": other.pk}, live=True)
    assert r.status_code == 400 and other.pin not in text(r)
    r = do(intruder, w, "pin", {"player": p.pk}, live=True)
    assert r.status_code == 404 and p.pin not in text(r)
    bot = Player.objects.create(workshop=w, name="Bot", is_bot=True, join_order=99)
    r = do(fac, w, "pin", {"player": bot.pk}, live=True)
    assert r.status_code == 400 and "a bot" in message_of(r)
    assert not player_tools(text(fac.get(f"/workshops/{w.pk}/")), bot.pk)["pin"]


def test_a_removed_students_pin_is_refused_in_words_not_said_empty(owner, fac):
    """A page left open (another tab removed Ana) asked for her PIN: the answer was
    "P01's rejoin PIN is . On the new phone's join page, …", a PIN she no longer has
    (Remove takes it). Refused, saying why, and nothing changes."""
    w = owned(owner, players=4, tables=1, seats=4)
    to_scored_round(w)
    p = Player.objects.get(workshop=w, name="P01")
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    before = snapshot()
    r = do(fac, w, "pin", {"player": p.pk}, live=True)
    said = message_of(r)
    assert r.status_code == 400, said
    assert "rejoin PIN is" not in said
    assert "P01 was removed from the workshop: there is no PIN to bring the seat back." in said
    assert snapshot() == before


def test_a_student_who_left_keeping_their_pin_has_it_read_out(owner, fac):
    """Only Remove takes the PIN: a player who left otherwise (player_leave, a bot in
    their seat) comes back with theirs, so the facilitator can still read it out."""
    w = owned(owner, players=4, tables=1, seats=4)
    to_scored_round(w)
    p = Player.objects.get(workshop=w, name="P01")
    services.player_leave(player_id=p.pk, policy="bot")
    p.refresh_from_db()
    assert p.has_left and p.pin
    r = do(fac, w, "pin", {"player": p.pk}, live=True)
    assert r.status_code == 200, message_of(r)
    assert f"rejoin PIN is {p.pin}." in message_of(r)


@pytest.mark.parametrize("policy", ["bot", "skip"])
def test_let_back_in_reads_out_a_new_pin_that_brings_the_student_back(owner, fac, policy):
    """A mis-tap on Remove: the removed student's row (a bot's seat) or their name under
    "Left" (the seat went) offers "Let … back in"; its answer reads out the new PIN,
    which the rejoin form takes. The row then offers the PIN again, not a second PIN."""
    w = owned(owner, players=8, tables=2, seats=4, leave_policy=policy)
    to_scored_round(w)
    p = Player.objects.get(workshop=w, name="P01")
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    button = f'<button type="submit" id="do-let-in-{p.pk}">Let <bdi>P01</bdi> back in</button>'
    assert html.count(button) == 1 and "data-let-in" not in html
    # In the player's roster row (a bot plays the seat), or under "Left" (it went).
    row = f'id="player-{p.pk}"' if policy == "bot" else f'id="left-{p.pk}"'
    where = html[html.index(row) :]
    assert button in where[: where.index("</li>")]
    r = do(fac, w, "let-in", {"player": p.pk}, live=True)
    said = message_of(r)
    p.refresh_from_db()
    assert r.status_code == 200, said
    seat = "takes their seat back from the bot" if policy == "bot" else "as a late joiner"
    assert f"P01 was let back in. Their new rejoin PIN is {p.pin}." in said and seat in said
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert f'data-let-in="{int(p.let_in_at.timestamp())}"' in html
    assert f'id="do-let-in-{p.pk}"' not in html
    assert f'<button type="submit" id="do-pin-{p.pk}">Show the rejoin PIN of <bdi>P01</bdi>' in html
    assert f"rejoin PIN is {p.pin}." in message_of(do(fac, w, "pin", {"player": p.pk}, live=True))
    # The student, on their phone's join page, with the name and the PIN read out.
    phone = Client()
    r = phone.post("/join/rejoin", {"code": w.code, "name": "p01", "pin": p.pin})
    assert r.status_code == 302
    p.refresh_from_db()
    assert not p.has_left and p.table_id is not None
    assert "data-let-in" not in text(fac.get(f"/workshops/{w.pk}/"))


def test_the_left_list_names_each_student_once_with_their_button(owner, fac):
    """The seat went: "Left:" named them, then a button beside per student named them
    again (a screen reader heard each name twice). One list: a student's item is their
    button, named with their name; after the debrief, the names alone."""
    w = owned(owner, players=8, tables=2, seats=4, leave_policy="skip")
    to_scored_round(w)
    gone = [Player.objects.get(workshop=w, name=n) for n in ("P01", "P02")]
    for p in gone:
        services.player_kick(workshop_id=w.pk, player_id=p.pk)
    services.player_let_back_in(workshop_id=w.pk, player_id=gone[1].pk)

    def left_list(html: str) -> str:
        start = html.index('id="left-h"')
        return html[start : html.index("</ul>", start)]

    part = left_list(text(fac.get(f"/workshops/{w.pk}/")))
    assert part.count("<ul") == 1 and part.count("<li") == 2
    assert 'aria-labelledby="left-h"' in part
    for p, act in zip(gone, ("let-in", "pin"), strict=True):
        item = re.search(rf'<li id="left-{p.pk}"[^>]*>(.*?)</li>', part, re.S).group(1)
        # The name once, inside the button that acts for them.
        assert item.count(f"<bdi>{p.name}</bdi>") == 1
        assert re.fullmatch(
            rf'<form .*id="do-{act}-{p.pk}">[^<]*<bdi>{p.name}</bdi>.*</form>', item
        )
    services.workshop_start_debrief(workshop_id=w.pk)
    part = left_list(text(fac.get(f"/workshops/{w.pk}/")))
    for p in gone:
        assert re.search(rf'<li id="left-{p.pk}"[^>]*><bdi>{p.name}</bdi></li>', part)
    assert "<form" not in part


def test_let_back_in_refused_changes_nothing(owner, fac):
    """Pressed on a page left open (the student already back, or let in), for a bot,
    or for another workshop's player: said why, and nothing changes."""
    w = owned(owner, players=4, tables=1, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk)
    p = Player.objects.get(workshop=w, name="P01")
    before = snapshot()
    r = do(fac, w, "let-in", {"player": p.pk}, live=True)
    assert r.status_code == 409 and "lobby" in message_of(r)
    assert snapshot() == before
    to_scored_round(w)
    before = snapshot()
    r = do(fac, w, "let-in", {"player": p.pk}, live=True)
    assert r.status_code == 400
    assert message_of(r) == "P01 was not removed: they are still in the workshop."
    assert snapshot() == before
    other = make_workshop(players=4, tables=1, seats=4)
    to_home(other)
    stranger = Player.objects.get(workshop=other, name="P02")
    services.player_kick(workshop_id=other.pk, player_id=stranger.pk)
    before = snapshot()
    r = do(fac, w, "let-in", {"player": stranger.pk}, live=True)
    assert r.status_code == 400 and message_of(r) == "That player is not in this workshop."
    assert snapshot() == before
    services.player_kick(workshop_id=w.pk, player_id=p.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    before = snapshot()
    r = do(fac, w, "let-in", {"player": p.pk}, live=True)
    assert r.status_code == 409 and "over" in message_of(r)
    assert snapshot() == before
    assert "do-let-in-" not in text(fac.get(f"/workshops/{w.pk}/"))  # none offered now


def test_a_seat_brought_back_with_its_pin_is_marked_on_a_new_phone(
    owner, fac, django_capture_on_commit_callbacks
):
    """The PIN read out was used, and the panel did not say so: a seat moved to another
    phone (by its student, or by someone who overheard the PIN) looked as before."""
    w = owned(owner, players=2, tables=1)
    p = Player.objects.get(workshop=w, name="P01")
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert "on a new phone" not in html and "data-moved" not in html
    with django_capture_on_commit_callbacks() as sent:
        services.player_rejoin(code=w.code, name="P01", pin=p.pin)
    assert len(sent) == 2  # the old phone's socket closed, and the panel's roster redrawn
    p.refresh_from_db()
    assert p.moved_at is not None
    html = text(fac.get(f"/workshops/{w.pk}/"))
    row = html[html.index(f'id="player-{p.pk}"') :]
    row = row[: row.index("</li>")]
    assert f'data-moved="{int(p.moved_at.timestamp())}"' in row
    assert '<span class="badge">on a new phone</span>' in row
    assert html.count("on a new phone") == 1  # P02's row: not moved


# ------------------------------------------------------------------ monitor and one table


def test_monitor_shows_cards_tricks_wins_and_disputes_but_no_hands(owner, fac):
    w = owned(owner, players=4, tables=1, seats=4)
    to_scored_round(w)
    table = tables_of(w)[0]
    game = game_at(table)
    finish_trick(game, winner_seat=0)
    state = gamestate.load_state(fresh(game))
    # one card on the table
    services.game_play(player_id=game.players[state.to_act], card=state.hands[state.to_act][0])
    Player.objects.filter(pk=game.players[1]).update(connected=True)
    Dispute.objects.create(
        game=game,
        trick_index=5,
        opened_at=game.started_at,
        deadline=game.started_at,
        initial_claims=[],
    )
    html = text(fac.get(f"/workshops/{w.pk}/"))
    monitor = html[html.index('id="fac-monitor"') :]
    played = state.hands[state.to_act][0]
    assert card_face(played) in monitor
    assert "1\xa0trick" in monitor  # a no-break space: the tally wraps between counts
    assert '<span class="flag"><span aria-hidden="true">✋ </span>dispute</span>' in monitor
    assert 'class="dot on"' in monitor
    assert f'href="/workshops/{w.pk}/tables/1/"' in monitor
    # Hands stay on the click-through page.
    after = gamestate.load_state(fresh(game))
    for hand in after.hands:
        for card in hand:
            assert f">{card_face(card)}<" not in monitor


def test_the_monitor_counts_the_games_cut_short_apart(owner, fac):
    """A player who left (seat skipped) stopped their table's game: the monitor
    counted it as one more game finished."""
    w = owned(owner, players=8, tables=2)
    rnd = to_scored_round(w)
    t1, t2 = tables_of(w)
    services.player_leave(player_id=game_at(t1).players[0], policy="skip")

    def monitor_of(number):
        html = text(fac.get(f"/workshops/{w.pk}/"))
        region = html[html.index('id="fac-monitor"') :]
        return region[region.index(f'data-table="{number}"') :].split("</article>")[0]

    # Every game cut short is said as the report says it, not "1 game finished (1 cut short)".
    assert f"{dot()}1 game finished, cut short" in monitor_of(1)
    game = game_at(t2)
    while fresh(game).state != "over":
        finish_trick(game, winner_seat=0)
    assert f"{dot()}1 game finished" in monitor_of(2) and "cut short" not in monitor_of(2)
    services.round_end_now(round_id=rnd.pk)
    assert f"{dot()}2 games finished, both cut short" in monitor_of(1)
    assert sf._games_note(3, 3) == "3 games finished, all cut short"
    assert sf._games_note(3, 1) == "3 games finished (1 cut short)"
    assert re.search(r"\d\swon<", monitor_of(2))  # between rounds: who won what
    # Once the movement is applied the players sit elsewhere: the round's games and
    # wins are not the new tables' (a card read "Hugo 1 won · 4 games finished" of a
    # table Hugo had just come to; found by a review).
    services.movement_apply(round_id=rnd.pk)
    for number in (1, 2):
        card = monitor_of(number)
        assert "games finished" not in card and "game finished" not in card, card
        assert not re.search(r"\d\swon", card), card
        assert "No game in progress." in card


def test_the_monitor_marks_a_table_whose_turn_is_a_phone_not_connected(owner, fac):
    """A table whose turn is a student whose phone is not connected plays nothing until
    it is back (a review's class lost a table for a round to one dead phone, shown only
    as a dot, the same dot as a seat a bot now plays). While the round is paused too
    (it waits once resumed; a pause redrew every such card), not in a claim step (its time limit decides), nor for a seat a bot plays."""
    w = owned(owner, players=8, tables=2, leave_policy="bot")
    rnd = to_scored_round(w)
    Player.objects.filter(workshop=w).update(connected=True)
    t1, t2 = tables_of(w)
    game = game_at(t1)
    turn = Player.objects.get(pk=game.players[gamestate.load_state(game).to_act])

    def waiting() -> list:
        return [(t["number"], t["waiting_for"]) for t in sf.monitor(fresh(w)) if t["waiting_for"]]

    assert waiting() == []
    Player.objects.filter(pk=turn.pk).update(connected=False)
    assert waiting() == [(1, turn.name)]
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert f'data-table="1" data-waiting="{turn.name}"' in html
    status = html[html.index('id="fac-status"') : html.index('id="fac-movement"')]
    assert (
        f'<a href="#mt-1" aria-label="table 1 in the Tables list">table 1</a> '
        f"(<bdi>{turn.name}</bdi>). Nothing moves at that table" in status
    )
    assert "(a bot then plays the seat)" in status
    # Someone else's phone off changes nothing: the game waits for the one to act.
    other = next(pid for pid in game.players if pid != turn.pk)
    Player.objects.filter(pk=other).update(connected=False)
    assert waiting() == [(1, turn.name)]
    services.round_pause(round_id=rnd.pk)
    assert waiting() == [(1, turn.name)]
    services.round_resume(round_id=rnd.pk)
    assert waiting() == [(1, turn.name)]
    # Gone, with a bot playing the seat: a bot's dot, not "not connected"; no wait.
    services.player_leave(player_id=turn.pk, policy="bot")
    assert waiting() == []
    html = text(fac.get(f"/workshops/{w.pk}/"))
    card = html[html.index('data-table="1"') :].split("</article>")[0]
    seat = re.search(
        rf'<span class="dot (\w+)"[^>]*></span>\s*<span class="pname"><bdi>{turn.name}</bdi>'
        r'</span><span class="visually-hidden">([^<]*)</span>',
        card,
    )
    assert seat and seat.groups() == ("bot", " (left: a bot plays)"), card
    # The claim step has a time limit: nobody holds it up.
    Player.objects.filter(workshop=w).update(connected=False)
    assert 2 in [n for n, _ in waiting()]
    assert play_until_claim(game_at(t2)).phase == "claim"
    assert 2 not in [n for n, _ in waiting()]


def test_table_page_shows_every_hand_and_the_sheet(owner, fac):
    w = owned(owner, players=4, tables=1, seats=4)
    to_home(w)
    table = tables_of(w)[0]
    game = game_at(table)
    state = gamestate.load_state(game)
    html = text(fac.get(f"/workshops/{w.pk}/tables/1/"))
    for hand in state.hands:
        for card in hand:
            assert card_face(card) in html
    assert PRESET_TITLES[table.preset] in html
    assert f"{dot()}Barnga mode" in html  # the setting's name, as the wizard writes it
    # The round's clock, as on the panel: the facilitator at a table knows the time left.
    assert re.search(
        r'class="table-clock">Time left <span class="timer"[^>]*data-seconds="\d+"', html
    )
    assert fac.get(f"/workshops/{w.pk}/tables/9/").status_code == 404
    assert 'id="waiting"' not in html
    # Someone who joins during the game sits here and plays the next one: listed.
    services.player_join(workshop_id=w.pk, name="Late Lou")
    html = text(fac.get(f"/workshops/{w.pk}/tables/1/"))
    assert "Waiting for the next game here: <bdi>Late Lou</bdi>." in html
    # More than one: listed as a sentence lists names (it read "Late Lou, Late Mo").
    services.player_join(workshop_id=w.pk, name="Late Mo")
    services.player_join(workshop_id=w.pk, name="Late Nia")
    html = text(fac.get(f"/workshops/{w.pk}/tables/1/"))
    assert (
        "Waiting for the next game here: <bdi>Late Lou</bdi>, <bdi>Late Mo</bdi> and"
        " <bdi>Late Nia</bdi>." in html
    ), re.search(r'id="waiting">[^\n]*', html)


# ------------------------------------------------------------------ projector


def test_projector_shows_join_code_qr_names_and_never_a_secret(owner, fac):
    w = owned(owner, players=5, tables=2, seats=4)
    Table.objects.filter(workshop=w, number=1).update(preset="custom")
    r = fac.get(f"/workshops/{w.pk}/projector/")
    html = text(r)
    assert r.status_code == 200
    assert w.code in html and f"http://testserver/j/{w.code}" in html
    assert "<svg" in html and "QR code for http://testserver/j/" in html
    for i in range(1, 6):
        assert f"P{i:02d}" in html
    assert_no_secrets(html, w)
    # Playing: phase, clock and occupancy, still no secrets.
    rnd = to_scored_round(w)
    game = game_at(tables_of(w)[0])
    finish_trick(game)
    html = text(fac.get(f"/workshops/{w.pk}/projector/"))
    assert "Scored round" in html and 'role="timer"' in html
    assert re.search(
        r'Table 1</span> <span class="proj-count"><span aria-hidden="true">(\d)/4</span>'
        r'<span class="visually-hidden">\1 of 4 seats</span>',
        html,
    )
    assert_no_secrets(html, w)
    services.round_end_now(round_id=rnd.pk)
    assert_no_secrets(text(fac.get(f"/workshops/{w.pk}/projector/")), w)


def test_projector_of_the_study_phase_has_no_sheet(owner, fac):
    w = owned(owner, players=4, tables=1, seats=4)
    services.workshop_start_study(workshop_id=w.pk)
    html = text(fac.get(f"/workshops/{w.pk}/projector/"))
    assert "Study the rules" in html
    assert_no_secrets(html, w)
    assert "Time is up" not in html and 'class="proj-clock' in html
    # The study's time runs out; the room sees that, not a clock that vanished.
    from tournament import timers

    study = Round.objects.get(workshop=w)
    timers.tick(now=study.deadline + timedelta(seconds=1))
    html = text(fac.get(f"/workshops/{w.pk}/projector/"))
    assert "Study the rules" in html and "Time is up" in html and 'class="proj-clock' not in html


ROUND_1 = {"label": "Round 1", "kind": "scored"}


@pytest.mark.parametrize(
    ("phase", "clock", "parts"),
    [
        ("lobby", None, ["Lobby"]),
        ("study", {"label": "Study", "kind": "study"}, ["Study the rules"]),
        ("round", ROUND_1, ["Scored round", "Round 1"]),
        # Over, not next: "Between rounds · Round 1" read either way.
        ("between", ROUND_1, ["Round 1 is over"]),
        # The end, as the phones and the panel say it: not "Debrief · Round 1".
        ("debrief", ROUND_1, ["The tournament is over"]),
        ("debrief", {"label": "Silent play", "kind": "home"}, ["The tournament is over"]),
    ],
)
def test_the_projectors_phase_line_says_a_round_over_and_the_end(phase, clock, parts):
    assert sf.projector_phase(phase, clock) == parts


def test_the_projector_says_to_go_to_ones_table_once_the_movement_is_applied(owner, fac):
    """Between rounds the wall read "Round 1 is over" before and after the movement
    was applied: the room, told by the phones where to sit, was not told by the wall
    that it was time to move. Once applied it says so, until the next round starts."""
    w = owned(owner, players=8, tables=2, seats=4)
    rnd = to_scored_round(w)
    line = "Go to the table your phone shows."

    def projector() -> str:
        return text(fac.get(f"/workshops/{w.pk}/projector/"))

    assert line not in projector()
    services.round_end_now(round_id=rnd.pk)
    assert "Round 1 is over" in projector() and line not in projector()
    services.movement_apply(round_id=rnd.pk)
    html = projector()
    assert "Round 1 is over" in html and line in html
    services.round_start(workshop_id=w.pk)
    assert line not in projector()


def test_the_projector_says_the_tournament_over_and_not_that_joining_is_closed(owner, fac):
    """In the debrief the wall read "The tournament is over" and beside it "Joining is
    closed": once it is over there is nothing to join, and the second line only made
    the room wonder. Locked during the tournament it still says joining is closed; in
    the debrief the way to join is gone (the page's data-joining) without the line."""
    w = owned(owner, players=8, tables=2, seats=4)
    rnd = to_scored_round(w)

    def projector() -> str:
        return text(fac.get(f"/workshops/{w.pk}/projector/"))

    assert 'data-joining="open"' in projector() and "Joining is closed" not in projector()
    services.workshop_set_joining(workshop_id=w.pk, locked=True)
    assert 'data-joining="closed"' in projector() and "Joining is closed" in projector()
    services.workshop_set_joining(workshop_id=w.pk, locked=False)
    services.round_end_now(round_id=rnd.pk)
    services.workshop_start_debrief(workshop_id=w.pk)
    html = projector()
    assert "The tournament is over" in html and 'data-joining="closed"' in html
    assert "Joining is closed" not in html


def test_the_projectors_count_says_the_seats_bots_play_for_students_who_left(owner, fac):
    """Removed in a round, a bot playing the seat: the wall read "7 joined" while its
    chips said 4/4 at both tables (7 against 8). The count says the bot-played seat."""
    w = owned(owner, players=8, tables=2, seats=4, leave_policy="bot")
    to_scored_round(w)
    gone = w.players.order_by("join_order").first()
    services.player_kick(workshop_id=w.pk, player_id=gone.pk)

    def counts() -> tuple[str, list[str]]:
        html = text(fac.get(f"/workshops/{w.pk}/projector/"))
        line = re.search(r'<p class="proj-names-h">(.*?)</p>', html, re.S).group(1)
        chips = re.findall(r'<span aria-hidden="true">(\d+/\d+)</span>', html)
        return " ".join(re.sub(r"<[^>]+>", " ", line).split()), chips

    line, chips = counts()
    assert chips == ["4/4", "4/4"]
    assert line == "7 joined · 1 left (a bot plays the seat)"


def test_the_projectors_heading_and_tab_say_join_only_while_one_may(owner, fac):
    """The heading and the tab said "Join …" in the debrief and with joining locked."""
    w = owned(owner, players=4, tables=1, seats=4)
    name = w.name

    def heading_and_title():
        html = text(fac.get(f"/workshops/{w.pk}/projector/"))
        h1 = re.search(r'<h1 id="projector-heading"[^>]*data-title="([^"]*)">(.*?)</h1>', html)
        assert h1, html
        title = re.search(r"<title>(.*?)</title>", html).group(1)
        assert title == h1.group(1)  # the tab the page draws is the one kept live
        return re.sub(r"<[^>]+>", "", h1.group(2)), title

    assert heading_and_title() == (f"Join {name}", f"Join {name} · Barnga")
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    assert heading_and_title() == (f"Join {name}", f"Join {name} · Barnga")
    services.workshop_set_joining(workshop_id=w.pk, locked=True)
    assert heading_and_title() == (
        f"{name}: Round 1 is over",
        f"{name} · Round 1 is over · Barnga",
    )
    services.workshop_set_joining(workshop_id=w.pk, locked=False)
    services.workshop_start_debrief(workshop_id=w.pk)
    assert heading_and_title() == (
        f"{name}: The tournament is over",
        f"{name} · The tournament is over · Barnga",
    )


@pytest.mark.parametrize("view", ["panel", "projector", "table_detail"])
def test_a_phase_change_committed_mid_render_is_not_shown_half_done(owner, monkeypatch, view):
    """The study starts (phase and round commit together) just after a render has
    read the workshop: the render shows the lobby without a clock, or the study with
    its clock and tables, never the lobby with the study's clock (the projector had
    shown a clock and no tables for a push)."""
    w = owned(owner, players=4, tables=1, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    original = Workshop.refresh_from_db
    started = []

    def refresh_then_the_study_commits(self, *args, **kw):
        original(self, *args, **kw)
        if not started:
            started.append(services.workshop_start_study(workshop_id=w.pk))

    monkeypatch.setattr(Workshop, "refresh_from_db", refresh_then_the_study_commits)
    args = (1,) if view == "table_detail" else ()
    ctx = getattr(sf, view)(Workshop.objects.get(pk=w.pk), *args)
    assert started, "the study was started during the render"
    assert (ctx["phase"], ctx["round"] is not None) in [("lobby", False), ("study", True)]


def test_the_secret_check_catches_the_facilitators_own_table_page(owner, fac):
    # Guards the guard: the same check fails on a page that does show sheets and hands.
    w = owned(owner, players=4, tables=1, seats=4)
    to_home(w)
    with pytest.raises(AssertionError):
        assert_no_secrets(text(fac.get(f"/workshops/{w.pk}/tables/1/")), w)


def test_a_big_class_has_apply_movement_above_its_plan_too(owner, fac):
    """Sixty rows of plan: Apply above the table as well as below it; eight rows: below."""
    for players, tables, seats, top in [(60, 12, 5, True), (8, 2, 4, False)]:
        w = owned(owner, players=players, tables=tables, seats=seats)
        services.players_seat_home(workshop_id=w.pk)
        rnd = to_scored_round(w)
        services.round_end_now(round_id=rnd.pk)
        html = text(fac.get(f"/workshops/{w.pk}/"))
        assert 'id="do-movement-apply"' in html
        assert ('id="do-movement-apply-top"' in html) is top


def big_plan_with_one_more_at_table_1(owner, fac):
    """Sixty players at twelve tables of five after Round 1, and the panel's summary of
    the plan by its top Apply as drawn; then again once one player bound for another
    table is sent to table 1 instead. Returns both summaries and that other table."""
    w = owned(owner, players=60, tables=12, seats=5)
    services.players_seat_home(workshop_id=w.pk)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)

    def summary() -> str:
        html = text(fac.get(f"/workshops/{w.pk}/"))
        return html.split('id="movement-summary">')[1].split("</p>")[0]

    before = summary()
    plan = {p.pk: p.table.number for p in Player.objects.filter(workshop=w).select_related("table")}
    plan.update({m["player"]: m["to"] for m in fresh(rnd).movement_preview["moves"]})
    mover, left = next((pk, n) for pk, n in plan.items() if n != 1)
    plan[mover] = 1
    services.movement_edit(
        round_id=rnd.pk, moves=[{"player": pk, "to": n} for pk, n in plan.items()]
    )
    return before, summary(), left


def test_a_big_plans_top_apply_says_which_tables_seat_other_than_most(owner, fac):
    """200 rows: the line of every table's size is 11,000 px below the top Apply, and
    an over-full table was bold somewhere in a sentence of forty. By the top Apply a
    line names only the tables that seat something other than most do."""
    before, after, left = big_plan_with_one_more_at_table_1(owner, fac)
    assert plain(before) == "With the plan as saved , every table seats 5."
    assert plain(after) == (
        f"With the plan as saved : Table 1: 6 (more than 5 seats) · ; Table {left}: 4 · ; "
        "the other 10 tables seat 5."
    ), after
    assert "<strong> (more than 5 seats)</strong>" in after
    # The Apply button is described by it: focused, a screen reader hears what it seats.
    html = text(fac.get(f"/workshops/{Workshop.objects.get().pk}/"))
    button = re.search(r'<button[^>]*id="do-movement-apply-top"[^>]*>', html).group(0)
    assert 'aria-describedby="movement-summary"' in button


def test_a_big_plans_summary_says_a_table_left_empty_in_words(owner, fac):
    """A plan that leaves a table empty read "Table 12: 0" by the top Apply, with no
    note: it says nobody sits there."""
    w = owned(owner, players=60, tables=12, seats=6)
    services.players_seat_home(workshop_id=w.pk)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    plan = {p.pk: p.table.number for p in Player.objects.filter(workshop=w).select_related("table")}
    plan.update({m["player"]: m["to"] for m in fresh(rnd).movement_preview["moves"]})
    # Table 12's five go one each to tables 1 to 5 (six seats: none over-full).
    for to, pk in enumerate(sorted(pk for pk, n in plan.items() if n == 12), start=1):
        plan[pk] = to
    services.movement_edit(
        round_id=rnd.pk, moves=[{"player": pk, "to": n} for pk, n in plan.items()]
    )
    html = text(fac.get(f"/workshops/{w.pk}/"))
    summary = html.split('id="movement-summary">')[1].split("</p>")[0]
    assert plain(summary) == (
        "With the plan as saved : "
        + "".join(f"Table {n}: 6 · ; " for n in range(1, 6))
        + "Table 12: nobody (empty) · ; the other 6 tables seat 5."
    ), summary


def test_the_usual_size_is_the_commonest_that_is_not_flagged():
    def sizes(*counts, over=(), few=()):
        return [
            {"number": i + 1, "count": c, "over": i + 1 in over, "few": i + 1 in few}
            for i, c in enumerate(counts)
        ]

    assert sf.usual_size(sizes(5, 5, 5, 4)) == 5
    assert sf.usual_size(sizes(4, 4, 4, 4)) == 4  # 16 at four five-seat tables: all alike
    assert sf.usual_size(sizes(5, 5, 4, 4)) == 5  # a tie: the larger
    assert sf.usual_size(sizes(6, 6, 6, 5, over=(1, 2, 3))) == 5  # over-full is never usual
    assert sf.usual_size(sizes(1, 1, 0, 0, 4, few=(1, 2))) == 4  # nor too few, nor empty
    assert sf.usual_size(sizes(0, 0)) is None


def test_a_conference_roster_is_folded_once_play_begins(owner, fac):
    """Sixty-one players: every row in the lobby; from study on, behind one summary."""
    w = owned(owner, players=61, tables=13, seats=5)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert 'id="roster-fold"' not in html and html.count('class="roster-row"') == 61
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert (
        '<details class="roster-fold" id="roster-fold"><summary>Every player (61):'
        " rename, remove, who is connected</summary>"
    ) in html
    assert html.count('class="roster-row"') == 61  # all still there, one tap away
    # In the debrief nobody is renamed or removed: the summary does not offer it.
    services.workshop_start_debrief(workshop_id=w.pk)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert "<summary>Every player (61): who is connected</summary>" in html
    small = owned(owner, players=8, tables=2, seats=4)
    services.players_seat_home(workshop_id=small.pk)
    services.workshop_start_study(workshop_id=small.pk)
    assert 'id="roster-fold"' not in text(fac.get(f"/workshops/{small.pk}/"))


def test_a_table_too_small_for_a_game_says_so_on_the_panel_and_the_phone(owner, fac):
    """Three students at two tables, one seated alone at table 2 by the facilitator's
    choice (the automatic seating would sit all three at table 1): the lone one gets
    no game all round. The monitor says why and what to do; the phone says to wait,
    not nothing."""
    from django.template.loader import render_to_string
    from django.utils import timezone

    from tournament import selectors

    w = owned(owner, players=3, tables=2)
    to_scored_round(w, one_left_alone(w))
    alone = Player.objects.get(table=tables_of(w)[1])
    html = text(fac.get(f"/workshops/{w.pk}/"))
    card = html.split('data-table="2"')[1].split("</article>")[0]
    assert "No game: Five Tricks needs at least 2 players here." in card
    assert "needs at least" not in html.split('data-table="2"')[0].split('id="fac-monitor"')[1]
    phone = render_to_string("play/_screen.html", selectors.player_screen(alone.pk, timezone.now()))
    assert "A game needs at least 2 players at this table." in phone
    other = Player.objects.filter(table=tables_of(w)[0]).first()
    phone = render_to_string("play/_screen.html", selectors.player_screen(other.pk, timezone.now()))
    assert "needs at least" not in phone


def test_seat_as_chosen_from_a_page_drawn_before_someone_left(owner, fac):
    """The roster's form still sends a row for a player who left in the lobby since
    the page was drawn: their choice lapses and the others sit as chosen. A player
    removed since (no row any more) is refused with what to do, and nothing moves."""
    w = owned(owner, players=3, tables=2, seats=4)
    p1, p2, p3 = (Player.objects.get(workshop=w, name=n) for n in ("P01", "P02", "P03"))
    services.player_leave(player_id=p3.pk)
    r = do(fac, w, "seat", {f"home_{p1.pk}": "2", f"home_{p2.pk}": "2", f"home_{p3.pk}": "1"})
    assert r.status_code == 303
    assert fresh(p1).table.number == 2 and fresh(p2).table.number == 2
    assert fresh(p3).table is None
    p4 = Player.objects.create(workshop=w, name="P04", join_order=9)
    chosen = {f"home_{p1.pk}": "1", f"home_{p4.pk}": "1"}
    p4.delete()
    before = snapshot()
    r = do(fac, w, "seat", chosen, htmx=True)
    assert r.status_code == 400
    assert message_of(r) == (
        "A player on this list is no longer in this workshop (removed since the page "
        "was shown). Reload the page and choose again."
    )
    assert snapshot() == before


def test_seating_one_player_says_one_player(owner, fac):
    w = owned(owner, players=1, tables=2)
    assert message_of(do(fac, w, "seat-auto", htmx=True)) == (
        "1 player seated at table 1. Table 1 has 1 player: Five Tricks needs at "
        "least 2, so it gets no game. Seat more players there, or these at another "
        "table. Nobody sits at table 2."
    )
    w2 = owned(owner, players=2, tables=2)
    assert message_of(do(fac, w2, "seat", htmx=True)) == (
        "2 players seated at their home tables. Nobody sits at table 2."
    )
    # Balanced again once bots fill the seats: the people and the bots, each counted.
    w3 = owned(owner, players=3, tables=2, seats=4, bots_enabled=True)
    do(fac, w3, "seat-auto")
    do(fac, w3, "bots")
    assert message_of(do(fac, w3, "seat-auto", htmx=True)) == (
        "3 players and 5 bots seated, tables balanced."
    )


def test_seating_a_class_at_one_table_does_not_call_the_tables_balanced(owner, fac):
    """Three students, three tables: all three sit at table 1, and the panel read "3
    players seated, tables balanced. Nobody sits at tables 2 and 3." """
    w = owned(owner, players=3, tables=3, seats=4)
    assert message_of(do(fac, w, "seat-auto", htmx=True)) == (
        "3 players seated, all at table 1. Nobody sits at tables 2 and 3."
    )
    assert set(Player.objects.filter(workshop=w).values_list("table__number", flat=True)) == {1}


def test_the_settings_line_names_the_mode_only_where_it_decides_something(owner, fac):
    """3 Tricks and 7Up7Down play by the table's sheet whatever the mode, and have no
    claims to time out: their settings say so, not 'Barnga (players claim …)'."""
    five = owned(owner, players=0, tables=2)
    settings_of = lambda w: text(fac.get(f"/workshops/{w.pk}/")).split('id="settings-details"')[1]  # noqa: E731
    line = settings_of(five)
    assert "Barnga (players claim trick winners)" in line and "dispute time-out 45 s" in line
    for game, seats in (("three_tricks", 2), ("seven_up", 4)):
        w = owned(owner, players=0, tables=2, seats=seats, game=game)
        line = settings_of(w).split("</p>")[0]
        assert "the table's sheet decides every trick" in line, game
        assert "claim" not in line and "dispute" not in line, game


def test_an_empty_post_is_answered_with_what_is_missing(fac):
    """A form sent with nothing in it is refused with its fields' errors, not shown
    again blank as if nothing had been sent."""
    r = fac.post("/workshops/new/", {})
    assert r.status_code == 400 and "This field is required" in text(r)
    r = Client().post("/signup/", {})
    assert r.status_code == 400 and "This field is required" in text(r)
    assert not Workshop.objects.exists() and User.objects.count() == 1


def test_the_settings_say_which_tables_play_the_same_rules(owner, fac):
    """Chosen by hand, tables 1 and 2 play one sheet: the set-up's warning came once;
    the panel's settings keep saying it."""
    w = owned(owner, players=0, tables=3)
    services.sheets_assign(workshop_id=w.pk, assignment={1: "guide-1", 2: "guide-1", 3: "guide-2"})
    line = text(fac.get(f"/workshops/{w.pk}/")).split('id="settings-details"')[1].split("</ul>")[0]
    assert "(the same rules as table 2)" in line and "(the same rules as table 1)" in line
    assert line.count("the same rules as") == 2
    # Three tables on one sheet: "tables 2 and 3", as a sentence lists them (it read
    # "tables 2, 3").
    services.sheets_assign(workshop_id=w.pk, assignment={1: "guide-1", 2: "guide-1", 3: "guide-1"})
    line = text(fac.get(f"/workshops/{w.pk}/")).split('id="settings-details"')[1].split("</ul>")[0]
    assert "(the same rules as tables 2 and 3)" in line, line
    assert (
        "(the same rules as tables 1 and 3)" in line
        and "(the same rules as tables 1 and 2)" in line
    )


def test_a_push_without_the_roster_draws_every_other_region_as_a_full_one(owner):
    """A push that leaves the roster undrawn (nothing but a game changed) reads none
    of its rows: the status (players and bots counted), the movement and the monitor
    come out exactly as in a full redraw, with players left, bots and an empty seat."""
    from tournament import regions

    w = owned(owner, players=7, tables=2, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    to_scored_round(w)
    services.player_leave(player_id=Player.objects.get(workshop=w, name="P03").pk)
    finish_trick(game_at(tables_of(w)[0]))
    full = regions.render("panel", w.pk, owner)
    part = regions.render("panel", w.pk, owner, skip=("fac-roster",))
    assert set(part) == set(full) - {"fac-roster"} and part
    # (Its running clocks' seconds aside: the two renders may fall either side of one.)
    assert {k: regions.settled(v) for k, v in part.items()} == {
        k: regions.settled(v) for k, v in full.items() if k != "fac-roster"
    }
    # P03 left, a bot in their seat.
    assert "6 players and 1 who left (a bot plays their seat), 1 bot" in part["fac-status"]
    assert "roster" not in sf.panel(fresh(w), roster=False)
    # Nor does it build a player's whole row (their sheet, PIN and all) anywhere:
    # at 1,000 players that was most of each redraw while the tables played.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as reads:
        regions.render("panel", w.pk, owner, skip=("fac-roster",))
    assert reads.captured_queries
    assert not [q for q in reads.captured_queries if '"tournament_player"."pin"' in q["sql"]]
    with CaptureQueriesContext(connection) as reads:
        regions.render("panel", w.pk, owner)
    assert [q for q in reads.captured_queries if '"tournament_player"."pin"' in q["sql"]]


def test_tables_play_the_same_rules_whatever_order_their_knobs_were_written_in(owner):
    """The panel groups the tables by their rules as written down (not each pair
    compared): the same knobs stored in another order are still the same rules."""
    w = owned(owner, players=0, tables=3)
    t1, t2, t3 = tables_of(w)
    Table.objects.filter(pk=t2.pk).update(rules=dict(reversed(list(t1.rules.items()))))
    assert list(fresh(t2).rules) != list(t1.rules) and fresh(t2).rules == t1.rules
    rows = {t["number"]: t["same_as"] for t in sf.panel(fresh(w))["tables"]}
    assert rows == {1: [2], 2: [1], 3: [] if t3.rules != t1.rules else [1, 2]}


def test_the_wizard_says_what_each_five_tricks_sheet_says(fac):
    """'Sheet 1 (Tournament guide)' and 'Sheet 3 (Appendix 2)' are the same rules:
    each choice says its rules, so two equal sheets are seen before they are chosen."""
    html = text(fac.get("/workshops/new/"))
    for slug in ("guide-1", "appendix-3"):
        option = re.search(rf'<option value="{slug}">([^<]+)</option>', html).group(1)
        assert option.endswith("— Ace high, highest wins, spades trump, trump only when void")


@pytest.mark.parametrize(
    ("policy", "then"),
    [
        ("bot", "A bot will play their seat."),
        (
            "skip",
            "Their seat goes: a game in progress at their table is dealt again without them,"
            " if enough players are left.",
        ),
    ],
)
def test_remove_says_what_the_leave_policy_does_and_a_bot_keeps_the_seat(owner, fac, policy, then):
    """Remove followed the set-up's leave policy nowhere: its confirmation now says what
    will happen, and a player a bot plays for keeps a row without Remove."""
    w = owned(owner, players=4, tables=1, seats=4, leave_policy=policy)
    services.players_seat_home(workshop_id=w.pk)
    p1 = Player.objects.get(workshop=w, name="P01")
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert player_tools(html, p1.pk)["ask"] == "Remove P01 from the workshop?"  # just gone
    services.workshop_start_study(workshop_id=w.pk)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert player_tools(html, p1.pk)["ask"] == f"Remove P01 from the workshop? {then}"
    r = do(fac, w, "kick", {"player": p1.pk}, htmx=True)
    assert r.status_code == 200
    # The answer says what became of the seat, as the confirmation did.
    said = {
        "bot": "P01 was removed from the workshop. A bot plays their seat.",
        "skip": "P01 was removed from the workshop. Their seat went: table 1&#x27;s game"
        " was dealt again without them.",
    }[policy]
    assert said in text(r), text(r)
    row = re.search(rf'<li class="roster-row" id="player-{p1.pk}".*?</li>', text(r), re.S)
    if policy == "bot":
        assert fresh(p1).table_id is not None
        assert f"left{dot(': ')}bot plays" in row.group(0) and "row-tools" not in row.group(0)
        # Counted apart, still in the roster: "3 players" beside a roster of four read
        # as one missing (found by a review).
        assert "· ; 3 players and 1 who left (a bot plays their seat)" in plain(text(r))
        # Their dot is a bot's, as in the monitor, not "(not connected)".
        assert '<span class="dot bot"' in row.group(0) and "not connected" not in row.group(0)
        services.workshop_start_debrief(workshop_id=w.pk)
        html = text(fac.get(f"/workshops/{w.pk}/"))
        assert "· ; 3 players and 1 who left (a bot played their seat)" in plain(html)
    else:
        assert fresh(p1).table_id is None and row is None  # listed under "Left"


def test_removing_a_bot_after_the_lobby_frees_its_seat_whatever_is_set_for_people(owner, fac):
    """With "a bot plays their seat" set, Remove on a bot in a round asked "A bot will
    play their seat.", answered "removed", and left the bot in its seat, playing: the
    seat a facilitator wanted free stayed taken, the bot was still counted, and its
    row said "left: bot plays" (found by a review). A bot's seat goes; a person's
    still goes to a bot."""
    w = owned(owner, players=5, tables=2, seats=4, bots_enabled=True, leave_policy="bot")
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    rnd = to_scored_round(w)
    t2 = Table.objects.get(workshop=w, number=2)
    bot = Player.objects.filter(table=t2, is_bot=True).order_by("seat").first()
    person = Player.objects.filter(table=t2, is_bot=False).first()
    game = Game.objects.get(table=t2, round=rnd, state=GameState.PLAYING)
    assert bot.pk in game.players
    html = text(fac.get(f"/workshops/{w.pk}/"))
    goes = (
        " Their seat goes: a game in progress at their table is dealt again without them,"
        " if enough players are left."
    )
    assert player_tools(html, bot.pk)["ask"] == f"Remove {bot.name} from the workshop?{goes}"
    assert (
        player_tools(html, person.pk)["ask"]
        == f"Remove {person.name} from the workshop? A bot will play their seat."
    )
    assert "5 players, 3 bots" in plain(html)
    assert "3 bots" in plain(text(fac.get(f"/workshops/{w.pk}/projector/")))

    r = do(fac, w, "kick", {"player": bot.pk}, htmx=True)
    assert r.status_code == 200
    said = (
        f"{bot.name} was removed from the workshop. Their seat went: table 2&#x27;s game"
        " was dealt again without them."
    )
    assert said in text(r), message_of(r)
    assert fresh(bot).table_id is None and fresh(bot).has_left
    assert fresh(game).state == GameState.CUT
    again = Game.objects.get(table=t2, round=rnd, state=GameState.PLAYING)
    assert bot.pk not in again.players and len(again.players) == 3
    assert "5 players, 2 bots" in plain(text(r))
    # The projector counts it gone too (it said "3 bots" still).
    projected = plain(text(fac.get(f"/workshops/{w.pk}/projector/")))
    assert "2 bots" in projected and "3 bots" not in projected, projected
    assert not re.search(rf'<li class="roster-row" id="player-{bot.pk}"', text(r))
    # A person removed still leaves their seat to a bot.
    r = do(fac, w, "kick", {"player": person.pk}, htmx=True)
    assert "A bot plays their seat." in message_of(r)
    assert fresh(person).table_id == t2.pk


def test_removing_a_bot_says_beforehand_when_its_table_would_be_too_few(owner, fac):
    """A table of one student and one bot: the bot's seat going leaves the student
    alone, and the bot's confirmation says so (the student's, a bot playing on, not)."""
    w = owned(owner, players=3, tables=2, seats=2, bots_enabled=True, leave_policy="bot")
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    to_scored_round(w)
    t2 = Table.objects.get(workshop=w, number=2)
    bot = Player.objects.get(table=t2, is_bot=True)
    person = Player.objects.get(table=t2, is_bot=False)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    short = (
        " Table 2 would have too few players for a game of Five Tricks (at least 2): the"
        " player left there waits until the round ends."
    )
    goes = (
        " Their seat goes: a game in progress at their table is dealt again without them,"
        " if enough players are left."
    )
    assert player_tools(html, bot.pk)["ask"] == f"Remove {bot.name} from the workshop?{goes}{short}"
    assert (
        player_tools(html, person.pk)["ask"]
        == f"Remove {person.name} from the workshop? A bot will play their seat."
    )


def test_remove_says_when_the_seat_going_leaves_a_table_too_few_to_play(owner, fac):
    """Removing one of two at a table with the seat skipped answered "their table's game
    was dealt again without them" while the other sat alone and no game was dealt, and
    the table's card advised a move the panel has no control for in a round (found by a
    review). The answer says what happened, and the card that they wait; the
    confirmation, which said a game is dealt again "if enough players are left", says
    beforehand that there would not be."""
    w = owned(owner, players=5, tables=2, seats=3, leave_policy="skip")
    rnd = to_scored_round(w)
    t1, t2 = Table.objects.filter(workshop=w).order_by("number")
    assert Player.objects.filter(table=t2).count() == 2
    leaving, staying = Player.objects.filter(table=t2).order_by("seat")
    html = text(fac.get(f"/workshops/{w.pk}/"))
    short = (
        " Table 2 would have too few players for a game of Five Tricks (at least 2): the"
        " player left there waits until the round ends."
    )
    for p in (leaving, staying):
        asked = f"Remove {p.name} from the workshop?{sf.remove_then(fresh(w))}{short}"
        assert player_tools(html, p.pk)["ask"] == asked
    # At table 1 three play: two are enough for a game, so nothing more is said.
    for p in Player.objects.filter(table=t1):
        asked = f"Remove {p.name} from the workshop?{sf.remove_then(fresh(w))}"
        assert player_tools(html, p.pk)["ask"] == asked
    r = do(fac, w, "kick", {"player": leaving.pk}, htmx=True)
    assert r.status_code == 200
    said = text(r)
    assert (
        f"{leaving.name} was removed from the workshop. Their seat went. Table 2 has too few"
        " players for a game of Five Tricks (at least 2): the player left there waits until"
        " the round ends."
    ) in said, said
    message = re.search(r'<div id="fac-message".*?</div>', said, re.S).group(0)
    assert "dealt again" not in message, message
    card = re.search(r'<article[^>]*data-table="2".*?</article>', said, re.S).group(0)
    assert "needs at least 2 players here. They wait until the round ends." in card, card
    assert "Move someone" not in card
    # Between rounds the movement plan can seat them elsewhere: the card says so.
    services.round_end_now(round_id=rnd.pk)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    card = re.search(r'<article[^>]*data-table="2".*?</article>', html, re.S).group(0)
    assert "Move someone to this table, or these players to another." in card, card
    assert staying.name in card


def test_removing_a_student_waiting_for_the_next_game_says_no_game_was_dealt(owner, fac):
    """A late joiner sits out the game in progress: removing them cuts nothing, and
    the answer does not say the table's game was dealt again."""
    w = owned(owner, players=6, tables=2, seats=4, leave_policy="skip")
    to_scored_round(w)
    late = services.player_join(workshop_id=w.pk, name="Pz")
    game = Game.objects.get(table_id=fresh(late).table_id, state=GameState.PLAYING)
    said = text(do(fac, w, "kick", {"player": late.pk}, htmx=True))
    assert "Pz was removed from the workshop. Their seat went.</p>" in said, said
    assert fresh(game).state == GameState.PLAYING  # the game goes on


def test_remove_in_a_paused_round_says_the_game_is_dealt_on_resume(owner, fac):
    w = owned(owner, players=6, tables=2, seats=3, leave_policy="skip")
    rnd = to_scored_round(w)
    services.round_pause(round_id=rnd.pk)
    leaving = Player.objects.filter(table__number=1, table__workshop=w).first()
    said = text(do(fac, w, "kick", {"player": leaving.pk}, htmx=True))
    assert "Their seat went: table 1 is dealt a new game when the round resumes." in said, said
    services.round_resume(round_id=rnd.pk)
    assert Game.objects.filter(table__number=1, round=rnd, state=GameState.PLAYING).exists()


def test_a_page_left_open_since_an_earlier_round_cannot_end_or_move_the_current_one(owner, fac):
    """Two tabs (a laptop and a phone): End now, Pause or Apply pressed on a panel
    still showing Round 1 ended Round 2, or applied Round 1's plan to Round 2 and
    cancelled its moves. Each control says which round it was drawn for; a press
    for another round is refused and changes nothing."""
    w = owned(owner, players=8, tables=2)
    r1 = to_scored_round(w)
    stale = text(fac.get(f"/workshops/{w.pk}/"))  # tab A, drawn during Round 1
    assert f'name="round" value="{r1.pk}"' in stale
    services.round_end_now(round_id=r1.pk)
    old_plan = text(fac.get(f"/workshops/{w.pk}/"))  # tab A again: Round 1's plan
    fields = dict(
        re.findall(r'<select name="(to_\d+)"[^>]*>.*?value="(\d+)" selected', old_plan, re.S)
    )
    assert fields and f'name="round" value="{r1.pk}"' in old_plan
    services.movement_apply(round_id=r1.pk)
    r2 = services.round_start(workshop_id=w.pk)
    for action in ("end-now", "pause", "extend"):
        r = do(fac, w, action, {"round": r1.pk}, htmx=True)
        assert r.status_code == 409, action
        assert "That button was for Round 1" in message_of(r) and "Round 2" in message_of(r)
    assert fresh(r2).state == "running"
    services.round_end_now(round_id=r2.pk)
    plan = fresh(r2).movement_preview
    r = do(fac, w, "movement-apply", {"round": r1.pk, **fields}, htmx=True)
    assert r.status_code == 409 and fresh(r2).movement_applied_at is None
    assert fresh(r2).movement_preview == plan
    r = do(fac, w, "movement-edit", {"round": "not a round"}, htmx=True)
    assert r.status_code == 400 and fresh(r2).movement_preview == plan
    # Drawn for the current round (or sent without one), it acts as before.
    r = do(fac, w, "movement-apply", {"round": r2.pk}, htmx=True)
    assert r.status_code == 200 and fresh(r2).movement_applied_at is not None


def test_the_plan_says_when_a_table_would_have_too_few_to_play(owner, fac):
    """A plan that left one player alone at a table was saved, applied and started
    without a word; that player then sat the whole round out (found by a review)."""
    w = owned(owner, players=8, tables=2)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    table2 = list(Player.objects.filter(workshop=w, table__number=2))
    moves = {f"to_{p.pk}": "1" for p in table2[1:]}
    moves.update({f"to_{p.pk}": "1" for p in Player.objects.filter(workshop=w, table__number=1)})
    r = do(fac, w, "movement-edit", moves, htmx=True)
    assert r.status_code == 200
    sizes = plain(text(r).split('class="movement-sizes"')[1].split("</p>")[0])
    assert "table 2: 1 (too few to play: a game needs 2)" in sizes, sizes
    assert 'data-least="2"' in text(r)


def unranked_note(w, fac, won_at: list[int]) -> str:
    """The plan's note after a round in which a game was won at the tables `won_at`."""
    rnd = to_scored_round(w)
    for n in won_at:
        game = game_at(tables_of(w)[n - 1])
        while fresh(game).state == GameState.PLAYING:
            finish_trick(game, winner_seat=0)
    html = text(do(fac, w, "end-now", htmx=True))
    assert fresh(rnd).state == RoundState.FINISHED and "Movement after Round 1" in html
    part = html.split('class="movement-unranked"')
    return plain(part[1].split("</p>")[0]) if len(part) > 1 else ""


def test_the_plan_says_which_tables_it_ranked_by_name_alone(owner, fac):
    """A table where nobody won a game (the round ended before any finished) was
    ranked by name alone, its players moved by the alphabet, and the plan showed only
    a column of noughts (noticed by the 200-student review)."""
    note = unranked_note(owned(owner, players=12, tables=3, seats=4), fac, won_at=[2])
    assert note == (
        "> Nobody at tables 1 and 3 won a game this round, so their players are ranked"
        " by name alone: the rule moves them by the alphabet. Change their tables if you"
        " would rather."
    ), note
    w = owned(owner, players=8, tables=2, seats=4)
    note = unranked_note(w, fac, won_at=[1])
    assert note.startswith("> Nobody at table 2 won a game this round, so its players"), note
    # Each move or stay the name decided says so in "Rule says". At table 1 the winner
    # moves up on the game won and the three with none all stay (nobody goes below
    # table 1): no tie decided anything. At table 2, the top, nobody won: three stay
    # and one moves down, by name alone.
    rnd = w.rounds.get(number=max(r.number for r in w.rounds.all()))
    rows = sf.movement_preview(w, rnd, [1, 2])["rows"]
    by_table = {
        n: [(r["games_won"], r["computed"], r["by_name"]) for r in rows if r["table"] == n]
        for n in (1, 2)
    }
    assert by_table[1] == [(1, 2, False), (0, 1, False), (0, 1, False), (0, 1, False)]
    assert by_table[2] == [(0, 2, True), (0, 2, True), (0, 2, True), (0, 1, True)]
    plan = text(fac.get(f"/workshops/{w.pk}/")).split('id="movement-form"')[1]
    # Beside "(already at … table)" the tie is said in the same brackets: "stays
    # (already at the top table) (tie, by name)" read as two afterthoughts.
    assert plan.count("<em>(tie, by name)</em>") == 3
    assert plan.count("stays (already at the top table; <em>tie, by name</em>)") == 1
    # Who stays for want of a table that way says why: table 1's last by name (down
    # to no table), table 2's first by name (up to none); the others just stay.
    edges = [(r["table"], r["stays_by_edge"]) for r in rows if r["stays_by_edge"]]
    assert edges == [(1, "lowest"), (2, "top")]
    assert plan.count("stays (already at the lowest table)") == 1
    assert plan.count(">stays <em>") + plan.count(">stays</td>") == 4
    assert unranked_note(owned(owner, players=8, tables=2, seats=4), fac, won_at=[1, 2]) == ""


def test_the_plan_says_nobody_at_any_table_won_rather_than_list_every_table(owner, fac):
    """A round ended before any game was over: at forty tables the note listed all
    forty numbers in bold ("Nobody at tables 1, 2, 3, … 39 and 40 won a game"), nine
    lines on a phone, found by the walk of a class of 200. It says so in a line."""
    note = unranked_note(owned(owner, players=12, tables=3, seats=4), fac, won_at=[])
    assert note == (
        "> Nobody at any table won a game this round, so every table's players are"
        " ranked by name alone: the rule moves them by the alphabet. Change their"
        " tables if you would rather."
    ), note


def test_with_the_socket_live_a_control_answers_with_its_message_alone(owner, fac):
    """The whole panel was 700 kB at 200 players, drawn for the answer and again for
    the socket, and a refused Apply put the saved plan back over the tables chosen on
    screen. A page whose socket is live gets the message (and the status it leaves,
    for the screen reader); the socket brings the regions."""
    w = owned(owner, players=8, tables=2, seats=4)
    r = do(fac, w, "seat-auto", live=True)
    assert r.status_code == 200
    assert r["HX-Retarget"] == "#fac-message" and r["HX-Reswap"] == "outerHTML"
    html = text(r)
    assert html.lstrip().startswith('<div id="fac-message"') and "8 players seated" in message_of(r)
    assert 'data-say="Now: Lobby."' in html and 'id="fac-roster"' not in html
    r = do(fac, w, "start-home", live=True)  # refused: still in the lobby
    assert r.status_code == 409 and r["HX-Retarget"] == "#fac-message"
    assert 'role="alert"' in text(r) and 'id="fac-status"' not in text(r)
    assert fresh(w).phase == Phase.LOBBY
    # Without the header (no socket yet, or a lost one) the answer is the panel.
    r = do(fac, w, "start-study", htmx=True)
    assert r.status_code == 200 and 'id="fac-roster"' in text(r) and "HX-Retarget" not in r


def test_apply_from_a_page_drawn_before_a_player_left_moves_the_others(fac, owner):
    """The plan's form still has the row of a player who left since (their seat
    skipped): Apply and Save were refused every time ("a player who is not seated"),
    until a reload. Their move lapses, as the saved plan's does."""
    w = owned(owner, players=8, tables=2, leave_policy="skip")
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    rnd = fresh(rnd)
    planned = {m["player"]: m["to"] for m in rnd.movement_preview["moves"]}
    rows = {
        f"to_{p.pk}": str(planned.get(p.pk, p.table.number))
        for p in Player.objects.filter(workshop=w).select_related("table")
    }
    gone = next(iter(planned))
    services.player_leave(player_id=gone)
    r = do(fac, w, "movement-edit", rows, htmx=True)
    assert r.status_code == 200, message_of(r)
    r = do(fac, w, "movement-apply", rows, htmx=True)
    assert r.status_code == 200, message_of(r)
    moved = set(Movement.objects.filter(round=rnd).values_list("player_id", flat=True))
    assert moved == set(planned) - {gone}
    assert fresh(Player.objects.get(pk=gone)).table is None
    # A player of no workshop of this facilitator's is still refused.
    w2 = owned(owner, players=8, tables=2)
    r2 = to_scored_round(w2)
    services.round_end_now(round_id=r2.pk)
    r = do(fac, w2, "movement-edit", {f"to_{gone}": "1"}, htmx=True)
    assert r.status_code == 400 and "not seated in this workshop" in message_of(r)


def test_opening_joining_from_a_page_left_open_before_the_debrief_is_refused(fac, owner):
    """'Open joining' pressed in the debrief answered "Joining is open again." while
    nobody could join a finished workshop."""
    w = owned(owner, players=4, tables=1)
    services.workshop_set_joining(workshop_id=w.pk, locked=True)
    to_scored_round(w)
    services.workshop_start_debrief(workshop_id=w.pk)
    before = snapshot()
    for act in ("joining-unlock", "joining-lock"):
        r = do(fac, w, act, htmx=True)
        assert r.status_code == 409 and "joining stays closed" in message_of(r), act
    assert snapshot() == before


def test_a_start_round_pressed_on_a_page_left_open_since_an_earlier_round_is_refused(fac, owner):
    """The 'Start round 2' button sent nothing of the round it was drawn after: pressed
    once round 2 had been played (and its movement applied) in another tab, it started
    round 3."""
    w = owned(owner, players=8, tables=2)
    r1 = to_scored_round(w)
    services.round_end_now(round_id=r1.pk)
    services.movement_apply(round_id=r1.pk)
    page = text(fac.get(f"/workshops/{w.pk}/"))
    button = page.split('id="do-start-round"')[0].rsplit("<form", 1)[1]
    assert f'name="round" value="{r1.pk}"' in button  # drawn after round 1
    r2 = services.round_start(workshop_id=w.pk)  # another tab
    services.round_end_now(round_id=r2.pk)
    services.movement_apply(round_id=r2.pk)
    before = snapshot()
    r = do(fac, w, "start-round", {"round": str(r1.pk)}, htmx=True)
    assert r.status_code == 409 and "on a page left open" in message_of(r)
    assert snapshot() == before
    # The page as it is now starts round 3.
    r = do(fac, w, "start-round", {"round": str(r2.pk)}, htmx=True)
    assert r.status_code == 200 and "Round 3 has started" in message_of(r)


def test_the_study_is_not_started_for_bots_alone(fac, owner):
    """With the only person removed, 'Start study' from a page left open started a
    workshop of the bots filled in before (the panel itself hid the button)."""
    w = owned(owner, names=["Ana"], tables=1, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    services.player_kick(workshop_id=w.pk, player_id=w.players.get(name="Ana").pk)
    assert 'id="do-start-study"' not in text(fac.get(f"/workshops/{w.pk}/"))
    before = snapshot()
    r = do(fac, w, "start-study", htmx=True)
    assert r.status_code == 409 and "Nobody has joined yet" in message_of(r)
    assert snapshot() == before and fresh(w).phase == Phase.LOBBY


def heading_levels(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"<h([1-6])\b", html)]


def test_the_table_pages_headings_never_skip_a_level(owner, fac):
    """A screen reader moves through a page by its headings: the sheet's sections
    (h3) sat straight under the page's h1."""
    w = owned(owner, players=4, tables=1, seats=4)
    to_home(w)
    levels = heading_levels(text(fac.get(f"/workshops/{w.pk}/tables/1/")))
    assert levels[0] == 1 and 3 in levels
    for before, after in zip(levels, levels[1:], strict=False):
        assert after <= before + 1, levels


def test_every_label_the_panel_points_to_is_on_the_page(owner, fac):
    """aria-labelledby names the element that labels a region: the movement section,
    hidden until a round ends, named a heading that was not there."""
    w = owned(owner, players=4, tables=1, seats=4)
    for step in ("lobby", "round", "between"):
        if step == "round":
            to_scored_round(w)
        elif step == "between":
            services.round_end_now(round_id=Round.objects.filter(workshop=w).latest("pk").pk)
        html = text(fac.get(f"/workshops/{w.pk}/"))
        ids = set(re.findall(r'\bid="([^"]+)"', html))
        labels = re.findall(r'aria-labelledby="([^"]+)"', html)
        assert labels and {i for ref in labels for i in ref.split()} <= ids, (step, labels)


def test_seating_says_which_tables_are_short_of_a_game_or_empty(owner, fac):
    """A reviewer balanced five students at three tables of four and read "tables
    balanced" over tables of 2, 2 and 1, the lone student idle from the study on.
    The balance now sits 3 and 2 and says table 3 is empty; a facilitator's own
    choice that leaves a table short of a game is said so, with what to do."""
    w = owned(owner, players=5, tables=3, seats=4)
    assert message_of(do(fac, w, "seat-auto", htmx=True)) == (
        "5 players seated at tables 1 and 2. Nobody sits at table 3."
    )
    assert sorted(Player.objects.filter(workshop=w).values_list("table__number", flat=True)) == [
        1,
        1,
        1,
        2,
        2,
    ]
    # One chosen for table 3, the others left to the balance: they share tables 1
    # and 3 (3 and 2), and nobody sits at table 2.
    *rest, last = Player.objects.filter(workshop=w).order_by("join_order")
    message = message_of(do(fac, w, "seat", {f"home_{last.pk}": "3"}, htmx=True))
    assert message == "5 players seated at their home tables. Nobody sits at table 2."
    assert sorted(Player.objects.filter(workshop=w).values_list("table__number", flat=True)) == [
        1,
        1,
        1,
        3,
        3,
    ]
    chosen = {f"home_{p.pk}": "1" for p in rest} | {f"home_{last.pk}": "3"}
    assert message_of(do(fac, w, "seat", chosen, htmx=True)) == (
        "5 players seated at their home tables. Table 3 has 1 player: Five Tricks "
        "needs at least 2, so it gets no game. Seat more players there, or these at "
        "another table. Nobody sits at table 2."
    )


def test_seating_as_chosen_says_which_tables_go_past_their_seats(owner, fac):
    """Five chosen for a table of four: the answer said "10 players seated at their
    home tables." and only the occupancy line "5 players, more than 4 seats" (found
    by a review). It says so too."""
    w = owned(owner, players=10, tables=3, seats=4)
    players = list(Player.objects.filter(workshop=w).order_by("join_order"))
    chosen = {f"home_{p.pk}": "1" for p in players[:5]}
    assert message_of(do(fac, w, "seat", chosen, htmx=True)) == (
        "10 players seated at their home tables. Table 1 has 5 players, more than its 4 seats."
    )
    assert Player.objects.filter(workshop=w, table__number=1).count() == 5


def test_applying_a_movement_that_leaves_a_table_short_of_a_game_says_so(owner, fac):
    """The plan marks a table left too small to play; Apply takes it as chosen, and
    now says so too (it said only how many changed tables)."""
    w = owned(owner, players=4, tables=2)
    rnd = to_scored_round(w)
    services.round_end_now(round_id=rnd.pk)
    t2 = Player.objects.filter(workshop=w, table__number=2).order_by("join_order")
    moves = {f"to_{p.pk}": str(p.table.number) for p in Player.objects.filter(workshop=w)}
    moves[f"to_{t2[0].pk}"] = "1"
    message = message_of(do(fac, w, "movement-apply", moves, htmx=True))
    assert message == (
        "Movement applied: 1 player changed tables. Table 2 has 1 player: Five Tricks "
        "needs at least 2, so it gets no game."
    )


def test_end_now_asks_in_the_words_of_the_phase_and_the_debrief_has_no_empty_group(owner, fac):
    """End now asked "Games in progress count as they stand." in the study, which scores
    nothing; and the debrief's panel had a "Workshop" group with nothing in it."""
    w = owned(owner, players=4, tables=1, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    assert 'hx-confirm="End the study now? The rules leave the phones."' in text(
        fac.get(f"/workshops/{w.pk}/")
    )
    services.workshop_start_home(workshop_id=w.pk)
    assert 'aria-label="Next step"' in text(fac.get(f"/workshops/{w.pk}/"))  # Start round 1
    assert 'hx-confirm="End silent play now? Nothing in it is scored."' in text(
        fac.get(f"/workshops/{w.pk}/")
    )
    services.round_start(workshop_id=w.pk)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert 'hx-confirm="End this round now? Games in progress count as they stand."' in html
    assert 'aria-label="Next step"' not in html  # nothing to start in a round: no group
    assert 'role="group" aria-label="Workshop"' in html
    services.workshop_start_debrief(workshop_id=w.pk)
    assert 'role="group" aria-label="Workshop"' not in text(fac.get(f"/workshops/{w.pk}/"))


def test_a_table_past_its_planned_seats_reads_as_players_not_5_of_4(owner, fac):
    """Five players at one table planned for four: the panel and the projector read
    "5/4" (heard "5 of 4 seats"), a fraction past one that a room cannot make sense of."""
    w = owned(owner, players=5, tables=1, seats=4)
    do(fac, w, "seat-auto")
    assert Player.objects.filter(workshop=w, table__number=1).count() == 5
    html = text(fac.get(f"/workshops/{w.pk}/"))
    assert "Table 1: 5 players, more than 4 seats</li>" in html and "5/4" not in html
    services.workshop_start_study(workshop_id=w.pk)
    html = text(fac.get(f"/workshops/{w.pk}/projector/"))
    assert '<span class="proj-count">5 players</span>' in html and "5/4" not in html
    assert "of 4 seats" not in html


def test_the_monitor_is_its_frame_and_one_card_per_table_whatever_the_names(owner):
    """The panel's socket sends a table's card alone (regions.monitor_parts): each card
    is found whole, in the monitor the page and a push draw, even with names made to
    look like a card's end or another card's start."""
    from tournament import regions

    w = make_workshop(
        players=6,
        tables=3,
        seats=2,
        names=["</article>", '<article id="mt-card-9">', "Ana", "Bo", "Cy", "Di"],
        facilitator=owner,
    )
    to_scored_round(w)
    whole = regions.render("panel", w.pk, owner)["fac-monitor"]
    frame, cards = regions.monitor_parts(whole)
    assert list(cards) == ["mt-card-1", "mt-card-2", "mt-card-3"]
    for n in (1, 2, 3):
        assert f'data-table="{n}"' in cards[f"mt-card-{n}"]
        assert cards[f"mt-card-{n}"].endswith("</article>")
    assert "&lt;/article&gt;" in "".join(cards.values())
    assert "table-card" not in frame and frame.count("<article") == 3
    back = frame
    for ident, html in cards.items():
        back = back.replace(f'<article id="{ident}"></article>', html)
    assert back == whole


def test_a_pushed_roster_carries_one_template_of_a_players_tools(owner):
    """The roster pushed to the panel has no form in it outside its one <template>:
    each player's rename, PIN and remove are drawn from it when their box opens
    (facilitator.js fillTools), with what the box carries. With the forms in the page,
    a push of 200 rows froze the panel 1 to 2.4 s (Chromium's autofill laid the page
    out again for each form with a text field); with a copy of them in each row, they
    were 292 kB of the 417 kB of a push of 200 rows."""
    from html.parser import HTMLParser

    from tournament import regions

    w = owned(owner, players=14, tables=3, seats=5)
    to_scored_round(w)
    roster = regions.render("panel", w.pk, owner)["fac-roster"]

    class Forms(HTMLParser):
        def __init__(self):
            super().__init__()
            self.depth, self.templates, self.outside, self.inside = 0, 0, [], []

        def handle_starttag(self, tag, attrs):
            if tag == "template":
                self.depth += 1
                self.templates += 1
            elif tag in ("form", "input", "button"):
                a = dict(attrs)
                (self.inside if self.depth else self.outside).append(
                    (tag, a.get("id") or a.get("name"))
                )

        def handle_endtag(self, tag):
            if tag == "template":
                self.depth -= 1

    seen = Forms()
    seen.feed(roster)
    # Outside the template: the name filter (past 12 rows), nothing else.
    assert seen.outside == [("input", "find-roster")]
    assert seen.templates == 1
    # Their ids end in the player's id, added when drawn.
    assert [x for x in seen.inside if x[0] in ("form", "button")] == [
        ("form", "rename-form-"),
        ("button", "do-rename-"),
        ("form", None),
        ("button", "do-pin-"),
        ("form", None),
        ("button", "do-kick-"),
    ]
    players = Player.objects.filter(workshop=w, is_bot=False)
    assert len(players) == 14
    for p in players:
        assert player_tools(roster, p.pk) == {
            "ask": f"Remove {p.name} from the workshop?{sf.remove_then(fresh(w))}",
            "pin": True,
            "name": p.name,
        }


def test_a_roster_row_costs_a_push_a_few_hundred_bytes(owner):
    """Each row of the Players list: its name, dot, table and a closed box. A copy of
    a player's tools in each was 1.5 kB a row, 292 kB of a push of 200 rows."""
    from tournament import regions

    w = owned(owner, players=10, tables=4, seats=5)
    to_scored_round(w)
    before = len(regions.render("panel", w.pk, owner)["fac-roster"])
    for i in range(10):
        services.player_join(workshop_id=w.pk, name=f"Late {i:02d}")
    after = len(regions.render("panel", w.pk, owner)["fac-roster"])
    per_row = (after - before) / 10
    assert 300 < per_row < 800, per_row


def test_a_players_tools_in_the_page_carry_no_csrf_input_of_their_own(owner, fac):
    """The rename, PIN and remove forms come in the roster's <template>, that
    facilitator.js draws from when a box opens, adding the page's CSRF token then
    (fixForms). Three inputs in each row were 63 kB of a first load of 200 players:
    none is drawn there, while the page's own forms keep theirs (they work without
    the script)."""
    w = owned(owner, players=12, tables=3)
    to_scored_round(w)
    html = text(fac.get(f"/workshops/{w.pk}/"))
    tools = re.findall(r"<template data-tools>(.*?)</template>", html, re.S)
    assert len(tools) == 1
    assert 'action="/workshops/' in tools[0] and "csrfmiddlewaretoken" not in tools[0]
    assert 'id="do-kick-"' in tools[0] and 'id="do-rename-"' in tools[0]
    outside = re.sub(r"<template data-tools>.*?</template>", "", html, flags=re.S)
    forms = re.findall(r"<form [^>]*>.*?</form>", outside, re.S)
    assert forms and all("csrfmiddlewaretoken" in f for f in forms), forms
