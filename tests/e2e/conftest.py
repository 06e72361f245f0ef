"""Real browsers against a real server.

`live_server_url` is a Daphne subprocess (one per test worker, kept from test to
test) whose default database is this worker's file-backed test database, so rows
the test writes (committed at once under `transactional_db`) are what the server
reads, and the server's timer loop (claim time limits, bots) runs for real.
Chromium is Debian's, driven by Playwright through `executable_path` (one per
worker too; each test has its own contexts).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def chromium_path() -> str | None:
    return (
        os.environ.get("BARNGA_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )


class _Server:
    """One Daphne subprocess on the test database's file and the worker's Redis."""

    def __init__(self, env: dict) -> None:
        port = free_port()
        ARTIFACTS.mkdir(exist_ok=True)
        self.log = open(ARTIFACTS / "daphne.log", "ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "barnga.asgi:application",
            ],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Daphne did not start (see {ARTIFACTS / 'daphne.log'})")
            time.sleep(0.1)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.fixture(scope="session")
def _daphne_servers():
    """This worker's server by its environment (one at a time), kept from test to
    test (in a run of browser tests: see pytest_runtest_teardown) and stopped at the
    end. Starting Daphne took 3 to 5 s of each browser test's
    set-up on CI's two cores (a third of the parallel part's time); one server per
    worker serves them all. A server keeps nothing a test depends on between tests:
    the database is emptied after each (transactional_db) and its rows' ids are
    never used again (SQLite's AUTOINCREMENT, not reset by the flush), so its caches
    keyed by ids and versions find nothing of a test before; the join limits'
    counters are cleared per test (below)."""
    yield _SERVERS
    _stop_servers()


# This worker's servers (see _daphne_servers and pytest_runtest_teardown).
_SERVERS: dict[tuple, _Server] = {}


def _stop_servers() -> None:
    for server in _SERVERS.values():
        server.stop()
    _SERVERS.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a browser test whose next test in this worker is not one, the server
    stops: its timer loop ticks against the worker's database, and a test of another
    kind that commits an expired round (the timer races in test_concurrency) found it
    finished by the server between its set-up and its race. Browser tests run file by
    file, so it starts again a few times a run, not per test."""
    yield
    if _SERVERS and (nextitem is None or "live_server_url" not in nextitem.fixturenames):
        _stop_servers()


def _server_capacity() -> int:
    """The channel capacity the server's settings take (barnga.settings: CHANNEL_CAPACITY)."""
    from barnga.env import env_int

    return env_int("CHANNEL_CAPACITY", 5000)


@pytest.fixture
def live_server_url(transactional_db, settings, redis_url, _daphne_servers):
    """The server and this test process share the database file and a Redis channel
    layer, so what the test changes through services reaches the phones. Both use
    channels-redis' list-based layer (CHANNEL_LAYER=core; the server its subclass
    that loses no message as a socket closes, tournament.layers): this process is not
    an ASGI server; the default pub/sub layer is exercised by the two-process tests.
    This process sends with the server's capacity: at channels-redis' default (100) a
    group message to a phone whose inbox had grown past it (its server stalled) would
    be dropped silently.
    The server is this worker's (see _daphne_servers); a test that sets the bots'
    delays in its environment first gets one started with them."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "capacity": _server_capacity()},
        }
    }
    db_path = settings.DATABASES["default"]["NAME"]
    assert not str(db_path).startswith("file:memorydb"), "browser tests need a file-backed test DB"
    # Every browser test's phones join from 127.0.0.1, and the servers keep the join
    # limits' counters in this Redis: start each test with none, as a new class would,
    # or the joins of the tests before it in the same minute count against it (a CI
    # run refused the full workshop's twelfth join as the 21st from one address).
    import redis

    client = redis.Redis.from_url(redis_url)
    stale = list(client.scan_iter(match="*:rl:*"))
    if stale:
        client.delete(*stale)
    bot_delays = {
        "BARNGA_BOT_DELAY": os.environ.get("BARNGA_E2E_BOT_DELAY", "0.3"),
        # The wait for people to call a revoke (All Fives) is tested in test_kind_all_fives.
        "BARNGA_BOT_CALL_DELAY": os.environ.get("BARNGA_E2E_BOT_CALL_DELAY", "0.3"),
    }
    env = {
        "DJANGO_SETTINGS_MODULE": "barnga.settings",
        "DATABASE_URL": f"sqlite:///{db_path}",
        "BARNGA_RUN_TIMERS": "1",
        "BARNGA_TIMER_INTERVAL": "0.2",
        **bot_delays,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "REDIS_URL": redis_url,
        "CHANNEL_LAYER": "core",
    }
    # One server at a time: each runs the timer loop (bots, time limits), and a second
    # one's would play the bots a test has set to wait. A test that needs another of
    # the server's settings puts it in `env` (the key), not only in os.environ. The
    # server runs on through the flush after each test: a write of its under way
    # waits for the flush's transaction or the flush for it (SQLite takes one writer).
    key = tuple(sorted(env.items()))
    server = _daphne_servers.get(key)
    if server is None or not server.alive():
        for other in _daphne_servers.values():
            other.stop()
        _daphne_servers.clear()
        server = _daphne_servers[key] = _Server(env)
    yield server.url


@pytest.fixture
def log_in(live_server_url):
    """`log_in(context, user)`: the browser context is `user`'s, through a session row
    (both processes share the database). The server checks passwords with the
    production hashers and the tests hash them with MD5, so the log-in form would
    refuse a user the test made."""
    from django.test import Client

    def log_in(context, user) -> None:
        client = Client()
        client.force_login(user)
        value = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": value, "url": live_server_url}])

    return log_in


@pytest.fixture
def sign_up(live_server_url):
    """`sign_up(page, username)`: a new facilitator signs up through the form, as a
    teacher does, and lands on the new-workshop wizard."""

    def sign_up(page, username: str) -> None:
        page.goto(f"{live_server_url}/signup/")
        page.fill("#id_username", username)
        page.fill("#id_password1", "a-long-pass-123")
        page.fill("#id_password2", "a-long-pass-123")
        page.click("button[type=submit]")
        page.wait_for_url("**/workshops/new/")

    return sign_up


@pytest.fixture
def facilitator_page(browser, log_in, live_server_url):
    """`facilitator_page(user, path, **context)`: a page of a new browser context
    (`context`: Playwright's options, such as the viewport), logged in as `user`, at
    `path`. A live page (the panel, a table, the projector) is returned after its
    socket's first snapshot, which replaces its regions once: an element found before
    it may be detached by the time it is measured."""

    def open_page(user, path: str, **context):
        ctx = browser.new_context(**context)
        log_in(ctx, user)
        page = ctx.new_page()
        page.goto(live_server_url + path)
        if page.locator("#fac-live[data-ws]").count():
            page.wait_for_selector("#fac-live[data-updated]", timeout=8000)
        return page

    return open_page


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.barnga_failed = report.failed
    return report


# A failing test's dump gives each page this long to answer, and all of them this long.
DUMP_PAGE_SECONDS = 3.0
DUMP_SECONDS = 20.0
# The screen as one JSON string: a string result stays with Playwright's driver, so
# reading it (json_value) asks the page nothing more.
# A phone's screen (versions, phase, text), or a page without one (the panel, the
# projector, the report) by its text; then what came and went that a failure may turn
# on: the connection line, the toast, the panel's spoken log, and the logs some tests
# keep in the page (window.__toasts, __lines, __said). A panel test's failure had
# dumped "None".
SCREEN_JSON = """() => {
  const s = document.getElementById('screen');
  const main = s ? null : document.body;
  const text = (id) => { const el = document.getElementById(id);
    return el ? (el.hidden ? '(hidden) ' : '') + el.textContent.trim() : undefined; };
  const log = document.getElementById('fac-announce');
  return JSON.stringify({
    screen: s ? [s.dataset.version, s.dataset.wversion, s.dataset.phase, s.innerText] : null,
    page: main ? main.innerText.slice(0, 3000) : undefined,
    connection: text('connection'), toast: text('toast'),
    said: log ? Array.from(log.children, (l) => l.textContent) : undefined,
    toasts: window.__toasts, lines: window.__lines, saidAll: window.__said,
  });
}"""


def dump_pages(
    browser, path: Path, *, page_seconds=DUMP_PAGE_SECONDS, total_seconds=DUMP_SECONDS
) -> int:
    """Each open page's address and screen (versions, phase, text) when a browser
    test failed: a failure that only CI's load brings out can then be read.

    Bounded: page.evaluate has no time limit, and a page stuck in a script loop (its
    renderer's one thread never free) would never answer it, so the failing test would
    never end. wait_for_function's timeout is kept by Playwright's driver, not by the
    page: a page that does not answer in `page_seconds` is written "unreadable" and the
    next one read, and pages left when `total_seconds` are spent are not asked at all.
    Returns how many pages were not read in time, unanswered or not asked (their
    renderers may be spinning still)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    lines = []
    stuck = 0
    deadline = time.monotonic() + total_seconds
    for c, context in enumerate(browser.contexts):
        for p, page in enumerate(context.pages):
            left = min(page_seconds, deadline - time.monotonic())
            if left <= 0:
                stuck += 1
                screen = f"unreadable: not asked, the dump's {total_seconds:g} s were spent"
            else:
                try:
                    handle = page.wait_for_function(SCREEN_JSON, timeout=left * 1000, polling=100)
                    read = json.loads(handle.json_value())
                    screen = "\n".join(
                        [repr(read.pop("screen"))]
                        + [f"{key}: {value!r}" for key, value in read.items() if value is not None]
                    )
                except PlaywrightTimeoutError:
                    stuck += 1
                    screen = f"unreadable: no answer in {left:.1f} s (a script loop?)"
                except Exception as exc:  # a crashed or closed page says so
                    screen = f"unreadable: {exc}"
            lines.append(f"--- context {c} page {p}: {page.url}\n{screen}\n")
    text = "\n".join(lines) or "no open pages\n"
    path.write_text(text)
    print(f"Open pages when the test failed ({path}):\n{text[:8000]}", file=sys.stderr)
    return stuck


def _chromium() -> tuple[str, list[str]]:
    path = chromium_path()
    if path is None:
        pytest.fail(
            "Chromium is not installed: run the tests with scripts/test.sh, which installs it"
        )
    return path, CHROMIUM_ARGS


@pytest.fixture
def chromium() -> tuple[str, list[str]]:
    """(executable, arguments) for a test that launches Chromium its own way."""
    return _chromium()


@pytest.fixture(scope="session")
def _playwright_session():
    """This worker's Playwright and Chromium, started by its first browser test and
    kept: starting them took 1 to 2 s of each browser test on CI's two cores. Each
    test has its own contexts (cookies, storage, pages), closed when it ends.

    Playwright's synchronous API marks its event loop as running in this thread
    between calls, which the other tests in this worker cannot have (an async test
    could not run its own loop, and Django would take every ORM call for one made
    inside a coroutine): the browser fixture marks no loop running when its test
    ends, and Playwright's own loop again when the next one begins."""
    state: dict = {}
    yield state
    if state:
        asyncio.events._set_running_loop(state["loop"])
        try:
            if state.get("browser") is not None:
                state["browser"].close()
        finally:
            state["playwright"].stop()
            asyncio.events._set_running_loop(None)


@pytest.fixture
def browser(request, _playwright_session):
    from playwright.sync_api import sync_playwright

    path, args = _chromium()
    state = _playwright_session
    if "playwright" in state:
        asyncio.events._set_running_loop(state["loop"])
    else:
        state["playwright"] = sync_playwright().start()
        state["loop"] = asyncio.events._get_running_loop()
    try:
        b = state.get("browser")
        if b is not None:
            # is_connected() changes only during a Playwright call: a Chromium that died
            # after the last test's last call still reads as connected. A call tells.
            try:
                b.new_context().close()
            except Exception:
                b = None
        if b is None or not b.is_connected():
            b = state["browser"] = state["playwright"].chromium.launch(
                executable_path=path, args=args
            )
        yield b
        if getattr(request.node, "barnga_failed", False):
            ARTIFACTS.mkdir(exist_ok=True)
            if dump_pages(b, ARTIFACTS / f"failed-{request.node.name[:120]}.txt"):
                # A page not read in time may be spinning still, and the probe above
                # would not see it (the browser answers for it): this Chromium goes, its
                # renderers with it, and the next test launches another.
                state["browser"] = None
                try:
                    b.close()
                except Exception:  # already gone: nothing left to spin
                    pass
    finally:
        try:
            if state.get("browser") is not None and state["browser"].is_connected():
                for context in list(state["browser"].contexts):
                    try:
                        context.close()
                    except Exception:  # Chromium died: the next test launches another
                        break
        finally:
            asyncio.events._set_running_loop(None)


@pytest.fixture
def phone(browser, request):
    """A factory of phone-sized touch contexts; traces kept under artifacts/."""
    contexts = []

    def make():
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844},
            has_touch=True,
            is_mobile=True,
            device_scale_factor=2,
        )
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    # Left open for the browser fixture's dump when the test failed (it closes them).
    if not getattr(request.node, "barnga_failed", False):
        for ctx in contexts:
            ctx.close()


@pytest.fixture(autouse=True)
def _allow_sync_orm_with_playwright(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # test makes between browser steps are ordinary blocking calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
