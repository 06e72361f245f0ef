"""What the browser tests do with a phone page: join, and wait for its screen's version."""

from __future__ import annotations


def join(page, url, code, name):
    page.goto(f"{url}/j/{code}")
    page.fill("#name", name)
    page.click("button[type=submit]")
    page.wait_for_selector("#screen")


# Each text the phone's toast (#toast) shows, kept in the page's window.__toasts as it
# shows: a toast goes by itself after 4 s, or 1.5 s once a newer screen comes
# (staleToast in static/js/table.js), and on a busy machine a wait for it that started
# after that saw none (CI: "The connection dropped" of a move lost with its socket).
TOASTS = """(() => {
  const watch = () => {
    const toast = document.getElementById("toast");
    if (!toast || window.__toasts) return;
    window.__toasts = [];
    new MutationObserver(() => { if (!toast.hidden) window.__toasts.push(toast.textContent); })
      .observe(toast, { attributes: true, childList: true, characterData: true, subtree: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();"""


def watch_toasts(page) -> None:
    """From now on (and on each page `page` loads next) each toast shown is kept in
    window.__toasts."""
    page.add_init_script(script=TOASTS)
    page.evaluate(TOASTS)


def toasts(page) -> list[str]:
    """The toasts `page` has shown since watch_toasts, in order."""
    return page.evaluate("() => window.__toasts")


def wait_toast(page, since: int, starts: str = "", timeout=8000) -> str:
    """Until `page` has shown a toast beginning with `starts` after its first `since`
    ones (len(toasts(page)) before the tap); returns that toast's text."""
    page.wait_for_function(
        "([n, s]) => window.__toasts.slice(n).some((t) => t.startsWith(s))",
        arg=[since, starts],
        timeout=timeout,
    )
    return next(t for t in toasts(page)[since:] if t.startswith(starts))


# Each text the connection line (#connection) shows, kept in window.__lines as it
# shows ("" when it hides): "Connected again." hides itself after 5 s, and on a busy
# machine a wait for it that started late saw none.
LINES = """(() => {
  const el = document.getElementById("connection");
  if (!el || window.__lines) return;
  window.__lines = [];
  new MutationObserver(() => window.__lines.push(el.hidden ? "" : el.textContent))
    .observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
})();"""


def watch_lines(page) -> None:
    """From now on each text the loaded page's connection line shows is kept in
    window.__lines."""
    page.evaluate(LINES)


def lines_shown(page) -> int:
    """How many texts the connection line has shown since watch_lines."""
    return page.evaluate("() => window.__lines.length")


def wait_line(page, since: int, text: str, timeout=8000) -> None:
    """Until the connection line has shown `text` after its first `since` texts."""
    page.wait_for_function(
        "([n, t]) => window.__lines.slice(n).includes(t)", arg=[since, text], timeout=timeout
    )


# Each line a live region says (a phone's #announce, the panel's and the projector's
# #fac-announce), kept in window.__heard: the lines leave the region after some seconds.
HEARD = """(id) => { window.__heard = [];
  new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach(
    (n) => window.__heard.push(n.textContent))))
    .observe(document.getElementById(id), { childList: true }); }"""


def watch_heard(page, region: str = "announce") -> None:
    """From now on each line the loaded page's live region `region` (its id) says is
    kept in window.__heard."""
    page.evaluate(HEARD, region)


def heard(page) -> list[str]:
    """The lines `page` has said since watch_heard, in order."""
    return page.evaluate("() => window.__heard")


def wait_said(page, since: int, text: str, timeout=8000) -> str:
    """Until `page` has said a line with `text` in it after its first `since` lines
    (len(heard(page)) before the move that should say it); returns that line. A wait
    on the live region's own text is met by a line still there from before (each
    stays 20 s): game 1's "Trick 1 won by you." met the wait for game 2's."""
    page.wait_for_function(
        "([n, t]) => window.__heard.slice(n).some((l) => l.includes(t))",
        arg=[since, text],
        timeout=timeout,
    )
    return next(line for line in heard(page)[since:] if text in line)


def version(page) -> int:
    return int(page.locator("#screen").get_attribute("data-version"))


def wait_version(page, at_least: int, timeout=5000):
    page.wait_for_function(
        "v => Number(document.getElementById('screen').dataset.version) >= v",
        arg=at_least,
        timeout=timeout,
    )


def whose_turn(pages):
    """The page with a card to play, once every page shows the newest screen any of
    them does: the next seat's page may show a play a moment after the page that
    made it, and read then it has no card to play yet."""
    newest = max(version(p) for p in pages)
    for page in pages:
        wait_version(page, newest)
    return next(p for p in pages if p.locator(".hand .card.legal").count())


def table_version(game) -> int:
    """The version of `game`'s table as stored now (what every phone there shows next)."""
    game.table.refresh_from_db()
    return game.table.version


def wait_change(page, before: int, timeout=5000):
    """Until the screen shows a newer version than `before`."""
    wait_version(page, before + 1, timeout=timeout)


def dealt_table(live_server_url, phone, workshop, names, others=()):
    """A phone per name joins `workshop`, then each of `others` through the services
    (no phone), everyone is seated at home and the study phase deals. Returns the
    pages by name, the game and its players' names by seat."""
    from tournament import services
    from tournament.models import Game, GameState, Player

    pages = {}
    for name in names:
        pages[name] = phone()
        join(pages[name], live_server_url, workshop.code, name)
    for name in others:
        services.player_join(code=workshop.code, name=name)
    services.players_seat_home(workshop_id=workshop.pk)
    services.workshop_start_study(workshop_id=workshop.pk)
    game = Game.objects.get(state=GameState.PLAYING)
    return pages, game, [Player.objects.get(pk=pid).name for pid in game.players]


def touch_phone(browser, size):
    """A page in a new touch-screen browser context of `size` (width and height)."""
    return browser.new_context(viewport=size, has_touch=True, is_mobile=True).new_page()


def first_round(workshop_id: int) -> None:
    """Through the services: everyone seated at home, the study phase, then the home
    round's first round started."""
    from tournament import services

    services.players_seat_home(workshop_id=workshop_id)
    services.workshop_start_study(workshop_id=workshop_id)
    services.workshop_start_home(workshop_id=workshop_id)
    services.round_start(workshop_id=workshop_id)


def play_until(game, until):
    """Through the services, the seat to act plays its first legal Five Tricks card
    until `until(state)` holds; returns that state (`game` is refreshed as it goes)."""
    from games import five_tricks
    from tournament import gamestate, services

    while not until(state := gamestate.load_state(game)):
        card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
        services.game_play(player_id=game.players[state.to_act], card=card)
        game.refresh_from_db()
    return state


OTHERS = ["Bartholomew", "Cai", "Dev", "Eve", "Fay", "Gus", "Hal"]
# The others with names a phone must cut short (30 characters at most, as joining allows).
LONG = [
    "Bartholomew Okonkwo-Fitzgerald",
    "Anastasia Papadopoulou",
    "Maximilian Weber",
    "Christopher Lee-Montgomery",
]


def one_phone_at_a_round(
    browser, live_server_url, *, seats, size, player="Ana", others=OTHERS, **workshop
):
    """A phone of `size` joins a new one-table workshop (`workshop`: more of
    workshop_create's arguments) as `player`; the table's other `seats - 1` players
    (named from `others`) join through the services (no phone), and the first round
    starts. Returns the page (once its hand is dealt), the workshop and the game."""
    from tournament import services
    from tournament.models import Game, GameState

    w = services.workshop_create(table_count=1, seats_per_table=seats, seed=3, **workshop)
    page = touch_phone(browser, size)
    join(page, live_server_url, w.code, player)
    for other in others[: seats - 1]:
        services.player_join(code=w.code, name=other)
    first_round(w.pk)
    page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=8000)
    return page, w, Game.objects.get(table__workshop=w, state=GameState.PLAYING)


def not_in_view(page, selector: str) -> list[str]:
    """Each element `selector` matches that is not wholly on the screen as it is,
    unscrolled (a phone is not scrolled in the middle of a turn)."""
    size = page.viewport_size
    assert page.evaluate("() => window.scrollY") == 0
    out = []
    for i, el in enumerate(page.locator(selector).all()):
        box = el.bounding_box()
        if box is None or not (
            0 <= box["y"]
            and box["y"] + box["height"] <= size["height"]
            and 0 <= box["x"]
            and box["x"] + box["width"] <= size["width"]
        ):
            out.append(f"{selector} #{i}: {box}")
    return out


# The other games at a round: what every seat must see, and how many moves the tests
# make (each time the first control that needs no picked cards: a bid of 0, Stand,
# a legal card, 3 Tricks' Pass). All Fives' four reach the lead of the second trick,
# while the revoke calls on the first are open.
OTHER_GAMES = {
    "seven_up": (4, [".su-facts", ".seats", ".whose", ".trick", ".hand .card"], 6),
    "all_fives": (3, [".af-facts", ".seats", ".whose", ".trick", ".hand .card"], 4),
    "three_tricks": (2, [".whose", ".tt-theirs", ".tt-piles", ".tt-mine", ".hand .card"], 2),
}
CONTROLS = ".board [data-action], .hand [data-action]"
MOVE = "#screen [data-action=act]:not([disabled]):not([aria-disabled=true]):not([data-with-picks])"


def assert_in_view(page, parts, label, *, controls=False):
    """Every element of `parts` (selectors) wholly on the unscrolled screen, and
    nothing wider than the phone; with `controls`, the board's and the hand's
    controls too, each 44 px or more each way. `label` names the moment."""
    present = list(parts)
    if controls:
        present.append(CONTROLS)
        sizes = [el.bounding_box() for el in page.locator(CONTROLS).all()]
        assert all(min(b["width"], b["height"]) >= 44 for b in sizes), (label, sizes)
    missing = [m for p in present for m in not_in_view(page, p)]
    assert missing == [], (label, missing)
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), label


def other_game_at_a_round(browser, live_server_url, game, size, name, others=OTHERS, seats=None):
    """A one-table workshop of `game` (`name`) with a phone of `size` per seat (Ana's,
    then `others`), at its first round once every hand is dealt; `seats` at the table
    (OTHER_GAMES' unless given). Returns the pages and the workshop."""
    from tournament import services

    seats = seats or OTHER_GAMES[game][0]
    w = services.workshop_create(name=name, game=game, table_count=1, seats_per_table=seats, seed=3)
    pages = []
    for player in ["Ana", *others][:seats]:
        pages.append(touch_phone(browser, size))
        join(pages[-1], live_server_url, w.code, player)
    first_round(w.pk)
    for page in pages:
        page.wait_for_selector("#screen[data-phase=round] .hand .card", timeout=8000)
    return pages, w


def first_moves(pages, workshop, moves):
    """Yields (step, the pages with a move to make) before each of `moves` moves and
    after the last; between yields the last of those pages makes its first move, and
    every page shows the table's last version (a move that ends a game starts the
    next in the same transaction: not a screen in between)."""
    from tournament.models import Table

    for step in range(moves + 1):
        on_turn = [page for page in pages if page.locator(MOVE).count()]
        assert on_turn, step
        yield step, on_turn
        if step == moves:
            return
        before = [version(p) for p in pages]
        on_turn[-1].locator(MOVE).first.click()
        for page, v in zip(pages, before, strict=True):
            wait_change(page, v)
        table_version = Table.objects.get(workshop=workshop).version
        for page in pages:
            wait_version(page, table_version)


def one_trick(workshop, winner_name="Mia"):
    """Each table's first trick, every seat claiming the same winner: Mia at her
    table (she wins its one game, cut by the round's end), seat 0 elsewhere."""
    from games import five_tricks
    from tournament import gamestate, services
    from tournament.models import Game, GameState, Player

    for game in Game.objects.filter(table__workshop=workshop, state=GameState.PLAYING):
        state = gamestate.load_state(game)
        while state.phase == "play":
            card = five_tricks.legal_actions(state, state.to_act)[0]["card"]
            services.game_play(player_id=game.players[state.to_act], card=card)
            game.refresh_from_db()
            state = gamestate.load_state(game)
        named = {Player.objects.get(pk=pid).name: pid for pid in game.players}
        winner = named.get(winner_name, game.players[0])
        for pid in game.players:
            services.game_claim(player_id=pid, winner_player_id=winner)


# Three tables of three for a round with a move: Mia, at table 2, wins her table's one
# trick (one_trick) and moves up to table 3; Zed, last there, moves down to table 1.
THREE_TABLES = {1: ["Ben", "Cat", "Dan"], 2: ["Ana", "Mia", "Zed"], 3: ["Eve", "Fox", "Gil"]}


def seat_as(workshop, seating=THREE_TABLES) -> dict[str, int]:
    """The workshop's players seated at home by name (`seating`: a table's number and
    its players' names); returns their ids by name."""
    from tournament import services
    from tournament.models import Player

    ids = dict(Player.objects.filter(workshop=workshop).values_list("name", "pk"))
    services.players_seat_home(
        workshop_id=workshop.pk, assignment={ids[n]: t for t, ns in seating.items() for n in ns}
    )
    return ids
