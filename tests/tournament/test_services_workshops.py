"""Workshop services: creating, joining (names, codes, late join), seating at home
tables, bots, leaving (RULES.md §2; issue 3)."""

from __future__ import annotations

import pytest
from django.db import connection
from tournament_helpers import (
    assert_refused,
    fresh,
    game_at,
    make_workshop,
    one_left_alone,
    seated,
    snapshot,
    tables_of,
    to_home,
    to_scored_round,
)

from games import kinds
from tournament import export, names, services
from tournament.errors import InvalidInput, JoiningClosed, NotAllowed, NotFound, WrongPhase
from tournament.models import GameState, Phase, Player
from tournament.services.workshops import LIMITS

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ workshop_create


def test_create_makes_tables_in_the_lobby_each_with_its_own_preset():
    w = services.workshop_create(name="  Monday class  ", table_count=5, seed=3)
    assert w.name == "Monday class"
    assert w.phase == Phase.LOBBY
    assert len(w.code) == names.CODE_LENGTH
    assert set(w.code) <= set(names.CODE_ALPHABET)
    tables = tables_of(w)
    assert [t.number for t in tables] == [1, 2, 3, 4, 5]
    assert len({t.preset for t in tables}) == 5
    assert len({tuple(sorted(t.rules.items(), key=str)) for t in tables}) == 5


def test_barnga_mode_is_the_default_of_a_workshop_and_of_the_wizard():
    """RULES.md section 2: trick play in Barnga mode is the default; referee mode is
    the facilitator's option."""
    from tournament.forms import WorkshopForm

    w = services.workshop_create(name="Class", seed=3)
    assert w.mode == "barnga"
    assert WorkshopForm().fields["mode"].initial == "barnga"


def test_create_gives_distinct_join_codes():
    codes = {services.workshop_create(name=f"W{i}", table_count=1).code for i in range(15)}
    assert len(codes) == 15


@pytest.mark.parametrize(
    "kw",
    [
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 101},
        {"name": None},
        {"name": "Class \u202eA"},  # a right-to-left override turns the page round
        {"name": "Class\x00"},
        {"game": "poker"},
        {"mode": "chaos"},
        {"leave_policy": "vanish"},
        {"table_count": 0},
        {"table_count": LIMITS["table_count"][1] + 1},
        {"table_count": "4"},
        {"table_count": True},
        {"seats_per_table": 1},
        {"seats_per_table": 9},
        {"round_seconds": 29},
        {"round_seconds": 3601},
        {"study_seconds": 1.5},
        {"home_seconds": None},
        {"dispute_seconds": 9},
    ],
)
def test_create_refuses_bad_input(kw):
    args = {"name": "W", **kw}
    assert_refused(lambda: services.workshop_create(**args), InvalidInput)


# ------------------------------------------------------------------ join: names


def join(w, name):
    return services.player_join(workshop_id=w.pk, name=name)


@pytest.fixture
def lobby():
    return services.workshop_create(name="W", table_count=2, seed=1)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  Ana  ", "Ana"),
        ("Ana   Maria", "Ana Maria"),
        ("\tAna \u00a0 Maria\n", "Ana Maria"),
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zoë"),  # decomposed input is stored composed (NFC)
        ("李雷", "李雷"),
        ("Ana 🎉", "Ana 🎉"),
        ("👩‍💻 Dev", "👩‍💻 Dev"),  # an emoji joined with ZWJ
        ("مریم‌خانم", "مریم‌خانم"),  # Persian: zero-width non-joiner inside a name
        ("Mia 🩷", "Mia 🩷"),  # newer than Python's Unicode tables: "unassigned" there
        ("🫨 Jo", "🫨 Jo"),
        ("x" * 30, "x" * 30),
        ("a", "a"),
        ("❤️ Ana", "❤️ Ana"),  # the emoji form (a variation selector)
        ("김민준", "김민준"),
        ("བསྒྲུབས", "བསྒྲུབས"),  # Tibetan: three marks stacked on one letter
        ("ᠮᠣᠩᠭᠣᠯ\u180b", "ᠮᠣᠩᠭᠣᠯ\u180b"),  # Mongolian with a variation selector
        ("x\u0301\u0302\u0303\u0304\u0306", "x\u0301\u0302\u0303\u0304\u0306"),  # five marks
    ],
)
def test_join_cleans_names_and_welcomes_unicode(lobby, raw, clean):
    p = join(lobby, raw)
    assert p.name == clean
    assert fresh(p).name == clean
    assert p.workshop_id == lobby.pk
    assert p.token and p.pin and len(p.pin) == 4


BAD_NAMES = [
    "",
    "    ",
    "\n\t",
    "x" * 31,
    "  " + "y" * 31 + "  ",
    "Ana\x00",
    "A\x07na",
    "Ana\x1b[31m",
    "Ana\u202eevil",  # right-to-left override: a format character
    "\u200b",  # zero-width space only
    "\u200d",  # only a joiner: nothing visible
    "\u200c \u200d",
    "\u0301\u0301",  # only marks, on nothing
    "\ufe0f",  # only a variation selector
    None,
    42,
    ["Ana"],
]


def test_join_refuses_bad_names(lobby):
    for raw in BAD_NAMES:
        assert_refused(lambda raw=raw: join(lobby, raw), InvalidInput, case=raw)
    for raw in ("Ana\u200bBo", "\ufeffAna", "An\u00ada", "Ana\uffff", "\ufdd0Bo", "Cy\U0010ffff"):
        # zero-width space, BOM, soft hyphen; noncharacters
        exc = assert_refused(lambda raw=raw: join(lobby, raw), InvalidInput, case=raw)
        assert exc.message == "A name cannot contain control or invisible characters."
    # Letters drawn as a blank: a name of one shows as nothing, "Bot\u3164A" as "Bot A".
    for raw in ("\u3164", "\uffa0", "\u115f", "\u1160", "\u2800", "Bot\u3164A", "Ana\u2800Bo"):
        exc = assert_refused(lambda raw=raw: join(lobby, raw), InvalidInput, case=raw)
        assert exc.message == "A name cannot contain control or invisible characters."
    # A tower of marks spills over the lines around it on every screen.
    exc = assert_refused(lambda: join(lobby, "x" + "\u0301" * 6), InvalidInput)
    assert exc.message == "A name can have at most 5 accents or marks on one letter."
    assert not Player.objects.exists()


@pytest.mark.parametrize("mark", ["\ufe0f", "\ufe00", "\u034f", "\u180b", "\U000e0100"])
def test_a_mark_drawn_as_nothing_makes_no_second_name_that_looks_the_same(lobby, mark):
    """ "Alice" + a variation selector looked exactly like Alice on every screen, and
    was a name of its own (no "2"); a bot's name so marked was a person's."""
    alice = join(lobby, "Alice")
    twin = join(lobby, "Alice" + mark)
    assert twin.name == "Alice" + mark + " 2"
    assert names.name_key(twin.name) == names.name_key("Alice 2")
    assert_refused(lambda: join(lobby, "Bot A" + mark), InvalidInput)
    exc = assert_refused(
        lambda: services.player_rename(
            workshop_id=lobby.pk, player_id=twin.pk, name="Alice" + mark
        ),
        InvalidInput,
    )
    assert "already" in exc.message
    # Coming back is by the name as seen: the mark typed or not.
    back = services.player_rejoin(code=lobby.code, name="Alice" + mark, pin=alice.pin)
    assert back.pk == alice.pk


def test_duplicate_names_are_made_distinct_case_and_accent_insensitively(lobby):
    assert join(lobby, "Ana").name == "Ana"
    assert join(lobby, "ana").name == "ana 2"
    assert join(lobby, "ANA").name == "ANA 3"
    assert join(lobby, "Ána").name == "Ána 4"
    assert join(lobby, "Zoë").name == "Zoë"
    assert join(lobby, "zoe").name == "zoe 2"
    assert join(lobby, "  zoë  ").name == "zoë 3"
    # A name that already looks like a suffixed one is skipped over.
    assert join(lobby, "ana 5").name == "ana 5"
    assert join(lobby, "Ana").name == "Ana 6"
    keys = [names.name_key(n) for n in Player.objects.values_list("name", flat=True)]
    assert len(keys) == len(set(keys))


def test_duplicate_of_a_30_character_name_stays_within_30(lobby):
    long = "x" * 30
    join(lobby, long)
    second = join(lobby, long.upper())
    assert len(second.name) <= 30
    assert second.name.endswith(" 2")


def test_join_order_counts_up(lobby):
    """In the order they joined. On SQLite from 1; on PostgreSQL a sequence shared by
    every workshop gives it (earlier tests' players took its first numbers)."""
    ps = [join(lobby, n) for n in ("a", "b", "c")]
    orders = [p.join_order for p in ps]
    assert orders == sorted(set(orders))
    if connection.vendor == "sqlite":
        assert orders == [1, 2, 3]
    assert len({p.token for p in ps}) == 3


def test_the_export_counts_join_order_from_one_without_gaps(lobby):
    """On PostgreSQL the stored order comes from a sequence shared by every workshop
    (it only orders); the export says 1, 2, 3 in the same order on every database."""
    from tournament import export

    ps = [join(lobby, n) for n in ("a", "b", "c")]
    for p, stored in zip(ps, (7, 41, 12), strict=True):
        Player.objects.filter(pk=p.pk).update(join_order=stored)
    doc = export.workshop_document(lobby)
    assert [(q["name"], q["join_order"]) for q in doc["players"]] == [("a", 1), ("c", 2), ("b", 3)]


def test_join_code_is_case_and_space_insensitive(lobby):
    code = lobby.code
    p1 = services.player_join(code=code.lower(), name="Ana")
    p2 = services.player_join(code=f"  {code[:3]} {code[3:].lower()} ", name="Bo")
    assert p1.workshop_id == p2.workshop_id == lobby.pk


@pytest.mark.parametrize("code", ["", "ZZZZZZ", None, 123])  # Z is not in the code alphabet
def test_join_with_unknown_code_is_not_found(lobby, code):
    assert_refused(lambda: services.player_join(code=code, name="Ana"), NotFound)


def test_join_unknown_workshop_id_is_not_found(lobby):
    assert_refused(lambda: services.player_join(workshop_id=lobby.pk + 99, name="Ana"), NotFound)


def test_locked_workshop_refuses_join_and_unlocking_reopens(lobby):
    v = lobby.version
    services.workshop_set_joining(workshop_id=lobby.pk, locked=True)
    assert fresh(lobby).joining_locked and lobby.version == v + 1
    exc = assert_refused(lambda: join(lobby, "Ana"), JoiningClosed)
    assert exc.code == "joining_closed"
    services.workshop_set_joining(workshop_id=lobby.pk, locked=False)
    assert join(lobby, "Ana").name == "Ana"


def test_set_joining_unknown_workshop():
    assert_refused(lambda: services.workshop_set_joining(workshop_id=999, locked=True), NotFound)


def test_debrief_refuses_join():
    w = make_workshop(players=4)
    to_home(w)
    services.workshop_start_debrief(workshop_id=w.pk)
    assert_refused(lambda: join(w, "Late"), JoiningClosed)


def test_a_full_workshop_refuses_late_join():
    # One table of eight: the engine deals to at most eight.
    w = make_workshop(players=8, tables=1, seats=8)
    to_scored_round(w)
    exc = assert_refused(lambda: join(w, "Ninth"), JoiningClosed)
    assert "full" in exc.message
    # Someone leaving frees a place.
    services.player_leave(player_id=w.players.first().pk, policy="skip")
    assert fresh(join(w, "Ninth")).table_id == tables_of(w)[0].pk


def test_too_many_in_the_lobby_are_refused_at_the_start_not_crashed():
    w = make_workshop(players=9, tables=1, seats=8)  # joining the lobby is open
    exc = assert_refused(lambda: services.workshop_start_study(workshop_id=w.pk), InvalidInput)
    assert "9 players" in exc.message
    services.player_leave(player_id=w.players.last().pk)
    services.workshop_start_study(workshop_id=w.pk)
    assert len(game_at(tables_of(w)[0]).players) == 8


def test_join_in_lobby_leaves_player_unseated(lobby):
    p = join(lobby, "Ana")
    assert p.table_id is None and p.home_table_id is None and p.seat is None


# ------------------------------------------------------------------ late join


def test_late_join_during_a_round_sits_at_the_smallest_table_as_home():
    w = make_workshop(players=7, tables=3, seats=4)  # home tables of 3, 2, 2
    rnd = to_scored_round(w)
    t1, t2, t3 = tables_of(w)
    assert [len(seated(t)) for t in (t1, t2, t3)] == [3, 2, 2]
    games_before = {t.pk: game_at(t).pk for t in (t1, t2, t3)}
    v2 = t2.version
    late = join(w, "Late")
    late.refresh_from_db()
    assert late.table_id == t2.pk  # smallest, lowest number on a tie
    assert late.home_table_id == t2.pk
    assert late.rules == t2.rules
    assert late.seat == 2  # after the players already there
    assert fresh(t2).version == v2 + 1
    # The game in progress goes on without them; they play from the next one.
    assert game_at(t2).pk == games_before[t2.pk]
    assert late.pk not in game_at(t2).players
    seats = [p.seat for p in seated(t2)]
    assert seats == sorted(set(seats))
    # The next one goes to table 3 (now the smallest).
    later = join(w, "Later")
    assert fresh(later).table_id == t3.pk
    assert fresh(rnd).state == "running"


def test_late_join_during_study_and_between_rounds():
    w = make_workshop(players=4, tables=2)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    p = fresh(join(w, "Student"))
    assert p.table is not None and p.home_table_id == p.table_id
    assert p.rules == p.table.rules
    services.workshop_start_home(workshop_id=w.pk)
    rnd = services.round_start(workshop_id=w.pk)
    services.round_end_now(round_id=rnd.pk)
    assert fresh(w).phase == Phase.BETWEEN
    q = fresh(join(w, "Between"))
    assert q.table_id != p.table_id  # the other table was the smaller one
    assert q.home_table_id == q.table_id and q.rules == q.table.rules
    assert sorted(len(seated(t)) for t in tables_of(w)) == [3, 3]


def _screen_html(player) -> str:
    from django.template.loader import render_to_string

    from tournament import selectors

    return render_to_string("play/_screen.html", selectors.player_screen(player.pk))


def test_a_joiner_after_the_study_reads_their_sheet_until_they_say_they_have(monkeypatch):
    """Nobody showed a student who came after the study phase their sheet: they
    played by rules they never saw. Their screen shows it (and nobody else's does)
    until they tap "I have read my rules"; a joiner during study studies as usual."""
    w = make_workshop(players=4, tables=2)
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    studied = fresh(join(w, "Student"))
    assert studied.rules_unread is False
    assert "visible only while you study" in _screen_html(studied)
    services.workshop_start_home(workshop_id=w.pk)
    assert 'id="your-rules"' not in _screen_html(studied)

    late = fresh(join(w, "Late"))  # in the silent play at home
    assert late.rules_unread is True
    html = _screen_html(late)
    assert 'id="your-rules"' in html and "until you have read them" in html
    assert 'data-action="rules-read"' in html
    assert "You joined after the others studied the rules" in html
    others = Player.objects.filter(workshop=w).exclude(pk=late.pk)
    assert all('id="your-rules"' not in _screen_html(p) for p in others)

    rnd = services.round_start(workshop_id=w.pk)
    assert 'data-action="rules-read"' in _screen_html(fresh(late))  # until read

    def reading():  # the facilitator's monitor: who is still reading their rules
        from tournament import selectors_facilitator as sf

        return {p["name"] for t in sf.monitor(fresh(w)) for p in t["players"] if p["reading"]}

    assert reading() == {"Late"}
    from tournament import broadcast

    told = []
    monkeypatch.setattr(broadcast, "roster_changed_on_commit", lambda **kw: told.append(kw))
    assert services.player_rules_read(player_id=late.pk) is True
    assert services.player_rules_read(player_id=late.pk) is False  # said twice: no change
    assert told == [{"workshop_id": w.pk}]  # the facilitator's panel hears it once
    assert fresh(late).rules_unread is False
    assert reading() == set()
    assert 'id="your-rules"' not in _screen_html(fresh(late))
    assert "joined after" not in _screen_html(fresh(late))

    services.round_end_now(round_id=rnd.pk)
    assert fresh(w).phase == Phase.BETWEEN
    between = fresh(join(w, "Between"))
    assert between.rules_unread is True
    assert 'id="your-rules"' in _screen_html(between)
    for bad in (None, "x", 10**9):
        with pytest.raises(NotFound):
            services.player_rules_read(player_id=bad)


def test_late_joiner_at_a_table_without_a_game_gets_one():
    # One player at table 2: no game there. A late joiner makes two: they should play.
    w = make_workshop(players=3, tables=2)
    to_scored_round(w, one_left_alone(w))
    t1, t2 = tables_of(w)
    assert len(seated(t2)) == 1 and game_at(t2) is None
    late = fresh(join(w, "Late"))
    assert late.table_id == t2.pk
    game = game_at(t2)
    assert game is not None and late.pk in game.players


# ------------------------------------------------------------------ seating at home tables


def test_automatic_home_seating_is_balanced_and_in_join_order():
    w = make_workshop(players=11, tables=3, seats=5)
    result = services.players_seat_home(workshop_id=w.pk)
    tables = tables_of(w)
    sizes = [len(seated(t)) for t in tables]
    assert sorted(sizes) == [3, 4, 4] and max(sizes) - min(sizes) <= 1
    for t in tables:
        ps = seated(t)
        assert [p.seat for p in ps] == list(range(len(ps)))
        for p in ps:
            assert p.home_table_id == t.pk
            assert p.rules == t.rules
            assert result[p.pk] == t.number
    assert len(result) == 11


def test_manual_home_seating_with_the_rest_placed_automatically():
    w = make_workshop(players=6, tables=2)
    ps = list(w.players.order_by("join_order"))
    t1, t2 = tables_of(w)
    result = services.players_seat_home(
        workshop_id=w.pk, assignment={ps[0].pk: 2, str(ps[1].pk): 2, ps[2].pk: 2}
    )
    assert [result[p.pk] for p in ps[:3]] == [2, 2, 2]
    assert len(seated(t1)) == 3 and len(seated(t2)) == 3
    for p in ps:
        p.refresh_from_db()
        assert p.rules == (t2.rules if result[p.pk] == 2 else t1.rules)


def test_home_seating_can_be_redone_in_the_lobby():
    w = make_workshop(players=4, tables=2)
    services.players_seat_home(workshop_id=w.pk)
    ps = list(w.players.all())
    services.players_seat_home(workshop_id=w.pk, assignment={p.pk: 1 for p in ps})
    t1, t2 = tables_of(w)
    assert [p.seat for p in seated(t1)] == [0, 1, 2, 3]
    assert seated(t2) == []


def test_home_seating_refuses_bad_assignments():
    w = make_workshop(players=4, tables=2)
    first = w.players.order_by("join_order").first().pk
    cases = [
        ["not", "a", "dict"],
        {"abc": 1},
        {999999: 1},
        {first: 3},
        {first: 0},
        {first: "1"},
        {first: True},
        {first: None},
    ]
    for assignment in cases:
        assert_refused(
            lambda a=assignment: services.players_seat_home(workshop_id=w.pk, assignment=a),
            InvalidInput,
            case=assignment,
        )


def test_home_seating_refused_outside_the_lobby():
    w = make_workshop(players=4, tables=2)
    to_home(w)
    assert_refused(lambda: services.players_seat_home(workshop_id=w.pk), WrongPhase)


def test_home_seating_unknown_workshop():
    assert_refused(lambda: services.players_seat_home(workshop_id=12345), NotFound)


def test_home_seating_leaves_out_players_who_left_in_the_lobby():
    w = make_workshop(players=5, tables=2, leave_policy="skip")
    gone = w.players.order_by("join_order").first()
    services.player_leave(player_id=gone.pk)
    services.players_seat_home(workshop_id=w.pk)
    gone.refresh_from_db()
    assert gone.table_id is None and gone.seat is None
    assert sum(len(seated(t)) for t in tables_of(w)) == 4


def test_start_study_seats_unseated_players():
    w = make_workshop(players=5, tables=2)
    services.workshop_start_study(workshop_id=w.pk)
    sizes = sorted(len(seated(t)) for t in tables_of(w))
    assert sizes == [2, 3]
    for p in Player.objects.filter(workshop=w):
        assert p.home_table_id == p.table_id and p.rules == p.table.rules


# ------------------------------------------------------------------ bots


def test_bots_fill_tops_up_every_table_in_the_lobby():
    w = make_workshop(players=3, tables=2, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk)
    bots = services.bots_fill(workshop_id=w.pk)
    assert len(bots) == 5
    for t in tables_of(w):
        ps = seated(t)
        assert len(ps) == 4
        assert [p.seat for p in ps] == [0, 1, 2, 3]
        for b in ps:
            if b.is_bot:
                assert b.home_table_id == t.pk and b.rules == t.rules
    bot_names = list(Player.objects.filter(is_bot=True).values_list("name", flat=True))
    assert len(set(map(names.name_key, bot_names))) == len(bot_names)


def test_bots_fill_refused_when_the_facilitator_left_bots_off():
    w = make_workshop(players=3, tables=2, seats=4)
    services.players_seat_home(workshop_id=w.pk)
    assert not w.bots_enabled
    assert_refused(lambda: services.bots_fill(workshop_id=w.pk), NotAllowed)
    assert not Player.objects.filter(is_bot=True).exists()


def test_bots_fill_waits_for_the_people_who_joined_to_be_seated():
    """Bots first took the seats of the students who had joined and were not seated
    yet; seating those afterwards put ten at a table of five."""
    w = make_workshop(players=6, tables=2, seats=4, bots_enabled=True)
    assert_refused(lambda: services.bots_fill(workshop_id=w.pk), NotAllowed)
    assert not Player.objects.filter(is_bot=True).exists()
    with pytest.raises(NotAllowed, match="Seat the 6 players who joined first"):
        services.bots_fill(workshop_id=w.pk)
    services.players_seat_home(workshop_id=w.pk)
    assert len(services.bots_fill(workshop_id=w.pk)) == 2


def test_people_who_join_after_the_bots_take_bots_seats():
    """The tables were full of bots when Eve and Fay joined: starting the study (or
    balancing the tables) gives them bots' seats instead of a fifth seat at a table
    of four, and the bots that gave way are gone; more bots get the free letters."""
    for seat_them in ("study", "balance", "as chosen"):
        w = make_workshop(players=5, tables=3, seats=4, bots_enabled=True)
        services.players_seat_home(workshop_id=w.pk)
        assert len(services.bots_fill(workshop_id=w.pk)) == 7
        for name in ("Eve", "Fay"):
            services.player_join(workshop_id=w.pk, name=name)
        if seat_them == "study":
            services.workshop_start_study(workshop_id=w.pk)
        elif seat_them == "balance":
            services.players_seat_home(workshop_id=w.pk)
        else:  # the panel's form sends every seated player's table, bots' included
            seated_now = Player.objects.filter(workshop=w, table__isnull=False)
            services.players_seat_home(
                workshop_id=w.pk, assignment={p.pk: p.table.number for p in seated_now}
            )
        sizes = [len(seated(t)) for t in tables_of(w)]
        assert sizes == [4, 4, 4], (seat_them, sizes)
        for t in tables_of(w):
            assert sorted(p.seat for p in seated(t)) == [0, 1, 2, 3]
            assert all(p.rules == t.rules and p.home_table_id == t.pk for p in seated(t))
        assert Player.objects.filter(workshop=w, is_bot=True).count() == 5
        humans = Player.objects.filter(workshop=w, is_bot=False)
        assert humans.count() == 7 and not humans.filter(table=None).exists()
        if seat_them == "study":
            # The bots that gave way left a tables' worth of people: the people are
            # spread over the tables, not put together at one.
            assert max(sum(not p.is_bot for p in seated(t)) for t in tables_of(w)) == 3
    w = make_workshop(players=3, tables=2, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk, assignment=one_left_alone(w))
    services.bots_fill(workshop_id=w.pk)
    Player.objects.filter(workshop=w, name="Bot B").delete()  # it gave way to someone
    services.bots_fill(workshop_id=w.pk)
    bot_names = Player.objects.filter(workshop=w, is_bot=True).values_list("name", flat=True)
    assert sorted(bot_names) == ["Bot A", "Bot B", "Bot C", "Bot D", "Bot E"]


def test_bots_remove_frees_every_bot_seat_in_the_lobby_only():
    w = make_workshop(players=3, tables=2, seats=4, bots_enabled=True)
    services.players_seat_home(workshop_id=w.pk, assignment=one_left_alone(w))
    services.bots_fill(workshop_id=w.pk)
    assert services.bots_remove(workshop_id=w.pk) == 5
    assert not Player.objects.filter(is_bot=True).exists()
    assert sorted(len(seated(t)) for t in tables_of(w)) == [1, 2]
    assert services.bots_remove(workshop_id=w.pk) == 0
    # Filling again tops every table up as before.
    assert len(services.bots_fill(workshop_id=w.pk)) == 5
    to_home(w)
    assert_refused(lambda: services.bots_remove(workshop_id=w.pk), WrongPhase)
    assert Player.objects.filter(is_bot=True).count() == 5


def test_bots_fill_refused_outside_the_lobby():
    w = make_workshop(players=4, tables=2)
    to_home(w)
    assert_refused(lambda: services.bots_fill(workshop_id=w.pk), WrongPhase)


# ------------------------------------------------------------------ leaving


def test_leave_with_bot_policy_keeps_the_seat_for_a_bot():
    w = make_workshop(players=8, tables=2)
    to_scored_round(w)
    t1 = tables_of(w)[0]
    p = seated(t1)[1]
    game = game_at(t1)
    v = fresh(t1).version
    services.player_leave(player_id=p.pk)
    p.refresh_from_db()
    assert p.has_left and p.automated and not p.connected
    assert p.table_id == t1.pk and p.seat == 1
    assert game_at(t1).pk == game.pk  # the game goes on, a bot plays the seat
    assert fresh(t1).version == v + 1


def test_leave_with_skip_policy_cuts_the_game_and_deals_without_them():
    w = make_workshop(players=8, tables=2, leave_policy="skip")
    to_scored_round(w)
    t1 = tables_of(w)[0]
    p = seated(t1)[2]
    old = game_at(t1)
    assert p.pk in old.players
    services.player_leave(player_id=p.pk)
    p.refresh_from_db()
    assert p.has_left and p.table_id is None and p.seat is None
    old.refresh_from_db()
    assert old.state == GameState.CUT and old.finished_at is not None
    new = game_at(t1)
    assert new.pk != old.pk and new.number == old.number + 1
    assert p.pk not in new.players and len(new.players) == 3
    assert set(new.players) == {q.pk for q in seated(t1)}


def test_a_skipped_seat_back_with_its_pin_plays_again_at_the_smallest_table():
    """A student left (the seat skipped), then came back on another phone with the PIN:
    they sat nowhere for the rest of the workshop, 'Not seated yet' on the panel with
    only the lobby's ways to seat them. They sit down as a late joiner does, at the
    smallest table, keeping their home table and its sheet."""
    w = make_workshop(players=7, tables=2, leave_policy="skip")
    to_scored_round(w)
    t1, t2 = tables_of(w)
    p = seated(t1)[0]
    home = p.home_table_id
    services.player_leave(player_id=p.pk)
    assert fresh(p).table_id is None
    small = min((t1, t2), key=lambda t: (len(seated(t)), t.number))
    v = fresh(small).version
    back = services.player_rejoin(code=w.code, name=p.name, pin=fresh(p).pin)
    assert not back.has_left and back.table_id == small.pk and back.seat is not None
    assert back.home_table_id == home and fresh(small).version > v
    # Every table full: the rejoin still moves the seat's phone; they wait unseated.
    w = make_workshop(players=8, tables=1, seats=8, leave_policy="skip")
    to_scored_round(w)
    (t,) = tables_of(w)
    q = seated(t)[0]
    services.player_leave(player_id=q.pk)
    for i in range(8 - len(seated(t))):
        services.player_join(workshop_id=w.pk, name=f"Late {i}")
    back = services.player_rejoin(code=w.code, name=q.name, pin=fresh(q).pin)
    assert not back.has_left and back.table_id is None


def test_a_return_with_the_pin_keeps_when_they_were_away():
    """Left (a bot played the seat), came back with the PIN: when they came back was
    not recorded, so the report gave the bot's games in between to the student. Each
    time away is kept, and exported; a phone move without leaving adds none."""
    w = make_workshop(players=8, tables=2, leave_policy="bot")
    to_scored_round(w)
    p = seated(tables_of(w)[0])[1]
    services.player_rejoin(code=w.code, name=p.name, pin=fresh(p).pin)  # a new phone
    assert fresh(p).absences == []
    services.player_leave(player_id=p.pk)
    left = fresh(p).left_at
    back = services.player_rejoin(code=w.code, name=p.name, pin=fresh(p).pin)
    assert back.absences == [{"left": left.isoformat(), "back": back.moved_at.isoformat()}]
    assert fresh(p).absences == back.absences and fresh(p).left_at == left
    services.player_leave(player_id=p.pk)
    services.player_rejoin(code=w.code, name=p.name, pin=fresh(p).pin)
    twice = fresh(p).absences
    assert len(twice) == 2 and twice[0] == back.absences[0]
    assert twice[1]["left"] == fresh(p).left_at.isoformat() > twice[0]["back"]
    doc = export.workshop_document(fresh(w))
    (row,) = [x for x in doc["players"] if x["id"] == p.pk]
    assert row["absences"] == twice and row["has_left"] is False
    header, rows = export.csv_tables(doc)["players"]
    (line,) = [dict(zip(header, r, strict=True)) for r in rows if r[0] == p.pk]
    assert line["away"] == "; ".join(f"{a['left']} to {a['back']}" for a in twice)


def test_leave_policy_argument_overrides_the_workshop_default():
    w = make_workshop(players=8, tables=2, leave_policy="bot")
    to_scored_round(w)
    p = seated(tables_of(w)[0])[0]
    services.player_leave(player_id=p.pk, policy="skip")
    assert fresh(p).table_id is None


def test_leave_in_the_lobby():
    w = make_workshop(players=3, tables=1)
    p = w.players.first()
    services.player_leave(player_id=p.pk)
    assert fresh(p).has_left


def test_leave_refusals():
    w = make_workshop(players=4, tables=2)
    p = w.players.first()
    assert_refused(lambda: services.player_leave(player_id=99999), NotFound)
    assert_refused(lambda: services.player_leave(player_id="x"), NotFound)
    assert_refused(lambda: services.player_leave(player_id=p.pk, policy="vanish"), InvalidInput)
    services.player_leave(player_id=p.pk)
    assert_refused(lambda: services.player_leave(player_id=p.pk), InvalidInput)


def test_set_connected_marks_the_player_and_changes_no_game_state():
    w = make_workshop(players=2, tables=1)
    p = w.players.first()
    services.player_set_connected(player_id=p.pk, connected=True)
    p.refresh_from_db()
    assert p.connected and p.last_seen is not None
    services.player_set_connected(player_id=p.pk, connected=False)
    assert not fresh(p).connected
    assert_refused(
        lambda: services.player_set_connected(player_id=424242, connected=True), NotFound
    )


def test_only_the_players_latest_socket_turns_the_dot_off():
    """A phone whose network changed connects again before the server hears its old
    socket go: that close turned the dot off under the open socket."""
    w = make_workshop(players=2, tables=1)
    p = w.players.first()
    old = services.player_set_connected(player_id=p.pk, connected=True)
    new = services.player_set_connected(player_id=p.pk, connected=True)
    assert new > old
    services.player_set_connected(player_id=p.pk, connected=False, since=old)
    assert fresh(p).connected
    services.player_set_connected(player_id=p.pk, connected=False, since=new)
    assert not fresh(p).connected


def test_seating_more_than_the_game_deals_to_is_refused_when_chosen():
    """Three players chosen for one table of 3 Tricks (a two-player game): refused at
    'Seat as chosen' with the table and the limit, not later at Start study."""
    w = make_workshop(players=3, tables=2, seats=2, game="three_tricks")
    ids = list(Player.objects.filter(workshop=w).values_list("pk", flat=True))
    before = snapshot()
    exc = assert_refused(
        lambda: services.players_seat_home(workshop_id=w.pk, assignment={i: 1 for i in ids}),
        InvalidInput,
    )
    assert "Table 1 would have 3 players; at most 2 can play a game of 3 Tricks" in exc.message
    assert snapshot() == before
    assert services.players_seat_home(workshop_id=w.pk, assignment={ids[0]: 2}) is not None
    # Five at two tables of a two-player game: no choice helps, and it says what does.
    services.player_join(workshop_id=w.pk, name="Four")
    services.player_join(workshop_id=w.pk, name="Five")
    exc = assert_refused(lambda: services.players_seat_home(workshop_id=w.pk), InvalidInput)
    assert exc.message == (
        "5 players cannot sit at 2 tables: a game of 3 Tricks seats at most 2. Remove "
        "players, or set up a workshop with more tables."
    )


def test_a_late_joiner_who_makes_a_table_playable_gets_a_game_at_once():
    """7Up7Down needs three: a table of two plays nothing until a third joins, who
    then gets a game at once (the check assumed two were enough, as in Five Tricks)."""
    w = make_workshop(players=5, tables=2, seats=3, game="seven_up")
    to_scored_round(w)
    small = min(tables_of(w), key=lambda t: len(seated(t)))
    assert len(seated(small)) == 2 and game_at(small) is None
    services.player_join(workshop_id=w.pk, name="Third")
    assert len(seated(small)) == 3 and game_at(small) is not None


# ------------------------------------------------------------------ too few for a table


@pytest.mark.parametrize(
    ("game", "players", "tables", "seats", "sizes"),
    [
        # Five Tricks deals to 2 or more: 3 and 2, not 2, 2 and a lone player.
        ("five_tricks", 5, 3, 4, [3, 2, 0]),
        ("five_tricks", 3, 2, 4, [3, 0]),
        ("five_tricks", 1, 3, 4, [1, 0, 0]),
        ("five_tricks", 6, 3, 4, [2, 2, 2]),
        ("five_tricks", 9, 2, 4, [5, 4]),  # more than the plan's seats: as before
        # 7Up7Down deals to 3 or more: 3 and 2 left a table of two with no game.
        ("seven_up", 5, 2, 5, [5, 0]),
        ("seven_up", 7, 3, 4, [4, 3, 0]),
        # 3 Tricks is two players: an odd one out cannot be helped.
        ("three_tricks", 5, 3, 2, [2, 2, 1]),
    ],
)
def test_automatic_seating_leaves_no_table_short_of_a_game_when_it_can(
    game, players, tables, seats, sizes
):
    """A reviewer's class of five at three tables of four sat 2, 2 and 1: the lone
    student had no game through study, silent play and the first round."""
    w = make_workshop(players=players, tables=tables, seats=seats, game=game)
    services.players_seat_home(workshop_id=w.pk)
    assert [len(seated(t)) for t in tables_of(w)] == sizes
    services.workshop_start_study(workshop_id=w.pk)
    kind = kinds.get(game)
    for t in tables_of(w):
        n = len(seated(t))
        assert (game_at(t) is not None) == (n >= kind.min_seats), (t.number, n)


def test_a_latecomer_joins_a_table_with_players_before_an_empty_one():
    """Five at three tables of four sit 3, 2 and 0. A latecomer sits at table 2 (not
    alone at table 3); tables 1 and 2 fill to their planned four before table 3
    takes anyone, and then the next one there makes it playable."""
    w = make_workshop(players=5, tables=3, seats=4)
    to_scored_round(w)
    t1, t2, t3 = tables_of(w)
    order = [fresh(join(w, f"Late{i}")).table.number for i in range(5)]
    assert order == [2, 1, 2, 3, 3]
    assert game_at(t3) is not None and len(seated(t3)) == 2
    # Past every table's plan, the smallest again.
    assert [len(seated(t)) for t in (t1, t2, t3)] == [4, 4, 2]
    assert fresh(join(w, "Late5")).table.number == 3
    assert fresh(join(w, "Late6")).table.number == 3
    assert fresh(join(w, "Late7")).table.number == 1
