"""The student's way in: /join, the QR short link, the rejoin PIN, and the limits."""

import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.test import Client
from tournament_helpers import make_workshop, to_home, to_scored_round

from tournament import names, services
from tournament.identity import COOKIE
from tournament.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pinned_rate_window")]


def test_short_link_fills_in_the_code():
    response = Client().get("/j/abc 123")
    assert response.status_code == 302 and response["Location"] == "/join?code=ABC123"


@pytest.mark.parametrize(
    ("typed", "lands_on"),
    [
        ("/join/", "/join"),
        ("/join/?code=abc123", "/join?code=abc123"),
        ("/j/abc123/", "/join?code=ABC123"),
        ("/j/", "/join"),
        ("/j", "/join"),
        ("/play", "/play/"),
    ],
)
def test_what_a_student_types_from_the_projector_reaches_the_join_form(typed, lands_on):
    # A typed address with or without its trailing slash must not be a dead end.
    response = Client().get(typed)
    assert response.status_code in (301, 302) and response["Location"] == lands_on
    assert Client().get(lands_on, follow=True).status_code == 200


def test_an_unknown_code_in_a_link_is_said_at_once_and_the_form_stays_to_correct_it(settings):
    """/j/ZZZZZZ opened the form with the code filled in and no word: "No workshop has
    that code" came only after a name was typed and Join pressed. Said at once now,
    counted as a wrong code (no free way to try codes), the form there to correct it."""
    settings.BARNGA_JOIN_BAD_CODE_LIMIT = 3
    workshop = make_workshop(players=0)
    page = Client().get("/j/ZZZZZZ", follow=True).content.decode()
    assert re.search(
        r'<p class="error" id="join-error" role="alert"[^>]*>No workshop has that code\. '
        r"Check the code on the projector\.</p>",
        page,
    )
    assert 'value="ZZZZZZ"' in page and 'aria-describedby="join-error"' in page
    assert re.search(r'<input id="name" name="name"', page)  # the form to correct it
    # A workshop's own code is no error, and the form joins from the page.
    good = Client().get(f"/j/{workshop.code}", follow=True).content.decode()
    assert "join-error" not in good and workshop.code in good
    for _ in range(2):
        Client().get("/join?code=NOPE99")
    r = Client().get(f"/join?code={workshop.code}")
    assert "Too many wrong codes from this network" in r.content.decode()
    assert Player.objects.count() == 0


def test_join_lands_in_the_lobby_and_the_device_is_remembered():
    workshop = make_workshop(players=0, tables=2)
    client = Client()
    page = client.get(f"/join?code={workshop.code}")
    assert page.status_code == 200 and workshop.code in page.content.decode()
    response = client.post("/join", {"code": workshop.code.lower(), "name": "  Zoë  "})
    assert response.status_code == 302 and response["Location"] == "/play/"
    player = Player.objects.get(workshop=workshop)
    assert player.name == "Zoë"
    screen = client.get("/play/").content.decode()
    assert "Welcome, <bdi>Zoë</bdi>" in screen and player.pin in screen
    # A reload (or a sleeping phone) comes back to the same player.
    assert client.get("/join").status_code == 302
    assert client.get("/play/").status_code == 200
    assert Player.objects.count() == 1


def test_bad_join_shows_a_clear_error_and_creates_nothing():
    workshop = make_workshop(players=0)
    client = Client()
    r = client.post("/join", {"code": "NOPE99", "name": "Ana"})
    assert r.status_code == 400 and "No workshop has that code" in r.content.decode()
    r = client.post("/join", {"code": workshop.code, "name": "   "})
    assert r.status_code == 400 and "enter a name" in r.content.decode()
    r = client.post("/join", {"code": workshop.code, "name": "x" * 31})
    assert r.status_code == 400 and "at most 30" in r.content.decode()
    # Both name fields take what a name may be, the joining and the rejoining one.
    page = client.get(f"/join?code={workshop.code}").content.decode()
    assert page.count(f'maxlength="{names.NAME_MAX}"') == 2 and 'maxlength="40"' not in page
    services.workshop_set_joining(workshop_id=workshop.pk, locked=True)
    r = client.post("/join", {"code": workshop.code, "name": "Ana"})
    assert r.status_code == 400 and "closed joining" in r.content.decode()
    assert Player.objects.count() == 0
    assert COOKIE not in r.cookies


def test_a_name_already_in_the_workshop_asks_first_and_creates_nothing():
    """A student whose phone lost its seat types their name again: they are asked
    whether they are that person (then the rejoin PIN moves their seat) before a
    second player 'Ned 2' takes another seat; someone else with the name goes on."""
    workshop = make_workshop(players=0)
    ned = services.player_join(code=workshop.code, name="Ned")
    r = Client().post("/join", {"code": workshop.code, "name": " NÉD "})
    html = r.content.decode()
    assert r.status_code == 409 and "Someone called “Ned” has already joined." in html
    assert '<details class="rejoin" open>' in html and 'id="rname" name="name"' in html
    assert 'value="Ned"' in html and 'name="same_name_ok" value="1"' in html
    assert Player.objects.count() == 1
    # The rejoin form moves Ned's seat; "join anyway" makes a second player.
    client = Client()
    r = client.post("/join/rejoin", {"code": workshop.code, "name": "Ned", "pin": ned.pin})
    assert r.status_code == 302 and Player.objects.count() == 1
    r = Client().post("/join", {"code": workshop.code, "name": "Ned", "same_name_ok": "1"})
    assert r.status_code == 302
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ned", "Ned 2"]
    # A bot's or a departed player's name is no one to be asked about.
    services.player_leave(player_id=ned.pk, policy="bot")
    assert Client().post("/join", {"code": workshop.code, "name": "ned"}).status_code == 302


@pytest.mark.parametrize("typed", ["Bot A", "bot b", " BOT  AA ", "Bót C 2", "Bot"])
def test_a_bots_name_is_refused_at_the_door_and_creates_nothing(typed):
    """A student called "Bot A" would be a bot on the roster, the monitor and the
    report (and with a bot already "Bot A", a second player "Bot A 2")."""
    workshop = make_workshop(players=0)
    r = Client().post("/join", {"code": workshop.code, "name": typed})
    html = r.content.decode()
    assert r.status_code == 400 and "is a name the computer players get" in html
    assert "Please join with your own name." in html
    assert Player.objects.count() == 0 and COOKIE not in r.cookies


@pytest.mark.parametrize("name", ["Botond", "Abbot", "Bo T", "Bot Eve", "Bot 7 Al"])
def test_names_that_only_resemble_a_bots_join(name):
    workshop = make_workshop(players=0)
    assert Client().post("/join", {"code": workshop.code, "name": name}).status_code == 302
    assert Player.objects.get(workshop=workshop).name == name


def test_an_error_names_itself_to_the_fields_of_its_form():
    """A screen reader may not say an alert a page opens with: the error takes the
    focus, and each field of its form is described by it (and only that form's)."""
    workshop = make_workshop(players=0)
    r = Client().post("/join", {"code": "ZZZZZZ", "name": "Ana"})
    html = r.content.decode()
    assert r.status_code == 400
    assert '<p class="error" id="join-error" role="alert" tabindex="-1" autofocus>' in html
    assert html.count('aria-describedby="join-error"') == 2
    assert "rejoin-error" not in html
    r = Client().post("/join/rejoin", {"code": workshop.code, "name": "Ana", "pin": "12"})
    html = r.content.decode()
    assert r.status_code == 400 and 'id="rejoin-error"' in html and "autofocus" in html
    assert html.count('aria-describedby="rejoin-error"') == 3
    assert "join-error" not in html.replace("rejoin-error", "")
    # The rejoin form's code is typed in capitals too, unchecked for spelling.
    rcode = re.search(r'<input id="rcode"[^>]*>', html).group(0)
    assert 'autocapitalize="characters"' in rcode and 'spellcheck="false"' in rcode


def test_play_without_a_seat_goes_to_join():
    assert Client().get("/play/")["Location"] == "/join"


def test_rejoin_pin_moves_the_seat_and_retires_the_old_device(django_capture_on_commit_callbacks):
    workshop = make_workshop(players=0)
    phone = Client()
    phone.post("/join", {"code": workshop.code, "name": "Ana"})
    player = Player.objects.get()
    old_token, pin = player.token, player.pin
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(f"player_{player.pk}", channel)

    laptop = Client()
    wrong = laptop.post(
        "/join/rejoin",
        {"code": workshop.code, "name": "ana", "pin": "0000" if pin != "0000" else "1111"},
    )
    assert wrong.status_code == 400 and "do not match" in wrong.content.decode()
    # The error sits in the open rejoin form, above its fields, with the name kept.
    page = wrong.content.decode()
    rejoin_part = page.split('<details class="rejoin" open>')[1]
    assert "do not match" in rejoin_part and "do not match" not in page.split("<details")[0]
    assert 'id="rname" name="name" maxlength="30" required value="ana"' in rejoin_part
    with django_capture_on_commit_callbacks(execute=True):
        ok = laptop.post("/join/rejoin", {"code": workshop.code, "name": "ana", "pin": pin})
    assert ok.status_code == 302 and ok["Location"] == "/play/"
    player.refresh_from_db()
    assert player.token != old_token and player.pin != pin
    # The laptop is Ana now; the old phone's cookie no longer works.
    assert "Ana" in laptop.get("/play/").content.decode()
    assert phone.get("/play/")["Location"] == "/join"
    # ... where the old phone is told why, not shown a blank form.
    assert "This phone's seat is no longer in the game" in phone.get("/join").content.decode()
    assert "no longer in the game" not in Client().get("/join").content.decode()

    # The old phone's open socket is told to close.
    async def receive():
        import asyncio

        return await asyncio.wait_for(layer.receive(channel), timeout=2)

    assert async_to_sync(receive)() == {"type": "player.replaced", "removed": False}


def test_joining_is_rate_limited_per_address(settings):
    settings.BARNGA_JOIN_LIMIT_PER_ADDRESS = 3
    workshop = make_workshop(players=0)
    for i in range(3):  # three phones behind one address
        phone = Client(REMOTE_ADDR="10.9.9.9")
        assert phone.post("/join", {"code": workshop.code, "name": f"P{i}"}).status_code == 302
    r = Client(REMOTE_ADDR="10.9.9.9").post("/join", {"code": workshop.code, "name": "P4"})
    assert r.status_code == 400 and "Too many join attempts from this network" in r.content.decode()
    assert Player.objects.count() == 3
    # Another address is not affected.
    assert (
        Client(REMOTE_ADDR="10.9.9.10")
        .post("/join", {"code": workshop.code, "name": "Q"})
        .status_code
        == 302
    )


def test_a_class_behind_one_address_joins_together_with_the_default_limits():
    """A school's phones reach the server through one NAT address: a class of 60
    joining in the same minute is seated whole with the shipped limits."""
    workshop = make_workshop(players=0, tables=12, seats=5)
    for i in range(60):
        r = Client(REMOTE_ADDR="192.0.2.7").post(
            "/join", {"code": workshop.code, "name": f"S{i:02d}"}
        )
        assert r.status_code == 302, (i, r.content.decode()[:300])
    assert Player.objects.filter(workshop=workshop).count() == 60


def test_joining_is_rate_limited_per_workshop(settings):
    settings.BARNGA_JOIN_LIMIT_PER_WORKSHOP = 2
    workshop = make_workshop(players=0)
    for i in range(2):
        assert (
            Client(REMOTE_ADDR=f"10.0.0.{i}")
            .post("/join", {"code": workshop.code, "name": f"P{i}"})
            .status_code
            == 302
        )
    r = Client(REMOTE_ADDR="10.0.0.99").post("/join", {"code": workshop.code, "name": "P9"})
    assert r.status_code == 400 and "Many people are joining" in r.content.decode()
    assert Player.objects.count() == 2


def test_a_phone_with_a_seat_that_joins_again_keeps_its_seat():
    """Back to the join page, then Join again (or a double submit): the phone's own
    seat, not a second player whose seat nobody plays."""
    workshop = make_workshop(players=0)
    phone = Client()
    assert phone.post("/join", {"code": workshop.code, "name": "Rhea"}).status_code == 302
    again = phone.post("/join", {"code": workshop.code, "name": "Rhea", "same_name_ok": "1"})
    assert again.status_code == 302 and again["Location"] == "/play/"
    # Under another name (a phone passed on): the seat is kept, and the page says why.
    other = phone.post("/join", {"code": workshop.code, "name": "Sam"})
    assert other.status_code == 302 and other["Location"] == "/play/"
    page = phone.get(other["Location"]).content.decode()
    assert "This phone already has a seat in this workshop, as <bdi>Rhea</bdi>." in page
    assert "already has a seat" not in phone.get("/play/").content.decode()
    assert list(Player.objects.values_list("name", flat=True)) == ["Rhea"]


def test_already_has_a_seat_is_said_once_not_at_each_reload():
    """The notice answers one join: the page reloaded (a phone's browser restoring its
    tab) no longer says it, nor does an address that asks for it."""
    workshop = make_workshop(players=0)
    phone = Client()
    phone.post("/join", {"code": workshop.code, "name": "Rhea"})
    answer = phone.post("/join", {"code": workshop.code, "name": "Sam"})
    said = phone.get(answer["Location"])
    assert "already has a seat" in said.content.decode()
    for address in (answer["Location"], "/play/?already=1"):
        assert "already has a seat" not in phone.get(address).content.decode(), address
    # The answer to a join from another phone's session says nothing on this one, nor
    # does one for a seat this phone no longer has.
    stranger = Client()
    stranger.post("/join", {"code": workshop.code, "name": "Tom"})
    stranger.cookies["barnga_already"] = answer.cookies["barnga_already"].value
    assert "already has a seat" not in stranger.get("/play/").content.decode()


@pytest.mark.parametrize("typed", ["１２３４", "١٢٣٤", " 1234 "])
def test_a_pin_typed_in_other_digits_is_the_pin(typed):
    """A phone keyboard may type full-width or Arabic-Indic digits."""
    workshop = make_workshop(players=0)
    Client().post("/join", {"code": workshop.code, "name": "Zoë"})
    Player.objects.update(pin="1234")
    ok = Client().post("/join/rejoin", {"code": workshop.code, "name": "Zoë", "pin": typed})
    assert ok.status_code == 302 and ok["Location"] == "/play/"


@pytest.mark.parametrize("typed", ["é", "12a4", "", "１２３"])
def test_a_pin_that_is_not_the_digits_is_refused_clearly(typed):
    workshop = make_workshop(players=0)
    Client().post("/join", {"code": workshop.code, "name": "Zoë"})
    before = list(Player.objects.values_list("token", "pin"))
    r = Client().post("/join/rejoin", {"code": workshop.code, "name": "Zoë", "pin": typed})
    assert r.status_code == 400
    page = r.content.decode()
    assert (
        "digits under “Rejoin PIN” at the bottom of your old screen" in page
        or "do not match" in page
    )
    assert list(Player.objects.values_list("token", "pin")) == before


def test_the_pin_shows_in_the_lobby_and_hides_in_play():
    """Name and PIN take the seat to another phone and log this one out: in play a
    neighbour glancing at the screen must not read the PIN; it hides under a closed
    "Rejoin PIN" the student opens. The lobby, where they just joined, says it."""
    workshop = make_workshop(players=3, tables=1, seats=4)
    client = Client()
    client.post("/join", {"code": workshop.code, "name": "Zoë"})
    pin = Player.objects.get(name="Zoë").pin
    lobby = client.get("/play/").content.decode()
    notice = lobby.split('<section class="notice"')[1].split("</section>")[0]
    assert pin in notice and "keep it to yourself" in notice
    to_home(workshop)
    screen = client.get("/play/").content.decode()
    before, hidden = screen.split('<details class="pin-show">')
    # Its text, not attributes: a deadline's digits may hold the PIN's by chance.
    assert pin not in re.sub(r"<[^>]*>", " ", before)
    assert f"<strong>{pin}</strong>" in hidden.split("</details>")[0]
    assert "Rejoin PIN" in hidden.split("</summary>")[0]
    assert "Playing as <bdi>Zoë</bdi>" in screen


@pytest.mark.parametrize("policy", ["bot", "skip"])
def test_a_removed_player_comes_back_only_with_the_pin_they_are_let_back_in_with(policy):
    workshop = make_workshop(players=4, tables=1, leave_policy=policy)
    to_scored_round(workshop)
    player = Player.objects.filter(workshop=workshop, is_bot=False).first()
    old_pin, seat = player.pin, player.table_id
    services.player_kick(workshop_id=workshop.pk, player_id=player.pk)
    r = Client().post("/join/rejoin", {"code": workshop.code, "name": player.name, "pin": old_pin})
    assert r.status_code == 400 and "do not match" in r.content.decode()
    # The form they come back through says where a let-in PIN comes from (it said
    # only "from your old screen", and the removed phone shows none).
    assert (
        '<label for="pin">Rejoin PIN (from your old screen, or from the facilitator)</label>'
        in r.content.decode()
    )
    player.refresh_from_db()
    # A bot plays the seat on, or the seat is gone: either way not theirs again...
    assert player.has_left and player.table_id == (seat if policy == "bot" else None)
    # ...until the facilitator lets them back in: the new PIN read out brings them back
    # (the old one still does not), to the bot's seat or at the smallest table.
    pin = services.player_let_back_in(workshop_id=workshop.pk, player_id=player.pk).pin
    if pin != old_pin:
        r = Client().post(
            "/join/rejoin", {"code": workshop.code, "name": player.name, "pin": old_pin}
        )
        assert r.status_code == 400 and "do not match" in r.content.decode()
    r = Client().post("/join/rejoin", {"code": workshop.code, "name": player.name, "pin": pin})
    assert r.status_code == 302
    player.refresh_from_db()
    assert not player.has_left and player.table_id == seat


def test_a_blank_code_is_asked_for_and_not_counted_as_a_wrong_guess(settings):
    """Thirty taps on Join before typing the code must not lock the room out."""
    settings.BARNGA_JOIN_BAD_CODE_LIMIT = 5
    workshop = make_workshop(players=0)
    for _ in range(30):
        r = Client().post("/join", {"code": "  ", "name": "Ana"})
        assert (
            r.status_code == 400
            and "Enter the join code shown on the projector." in r.content.decode()
        )
    r = Client().post("/join/rejoin", {"code": "", "name": "Ana", "pin": "1234"})
    assert (
        r.status_code == 400 and "Enter the join code shown on the projector." in r.content.decode()
    )
    assert Player.objects.count() == 0
    assert Client().post("/join", {"code": workshop.code, "name": "Ana"}).status_code == 302
    for _ in range(5):
        Client().post("/join", {"code": "NOPE99", "name": "Bo"})
    r = Client().post("/join", {"code": workshop.code, "name": "Bo"})
    assert "Too many wrong codes from this network" in r.content.decode()


def test_the_phones_page_links_every_games_stylesheet_itself():
    """The games' styles were one sheet that @imported four: a phone fetched it, then
    them, a round trip more before the board was styled on a slow network (and a
    page checker that resolved the imports against the page's address asked for
    /play/games/common.css). The page links each sheet, and each is served."""
    workshop = make_workshop(players=0, tables=2)
    client = Client()
    client.post("/join", {"code": workshop.code, "name": "Zoë"})
    page = client.get("/play/").content.decode()
    sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    games = [s for s in sheets if "/css/games/" in s]
    assert [s.rsplit("/", 1)[1].split(".")[0] for s in games] == [
        "common",
        "seven_up",
        "all_fives",
        "three_tricks",
    ], sheets
    for sheet in sheets:
        served = client.get(sheet)
        assert served.status_code == 200, sheet
        assert b"@import" not in b"".join(
            served.streaming_content if served.streaming else [served.content]
        )
