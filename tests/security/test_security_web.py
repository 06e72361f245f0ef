"""The web layer: security headers, CSRF, websocket Origin, message size, and the
production checklist (`manage.py check --deploy` under PRODUCTION=1 HTTPS=1)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import websockets
import websockets.exceptions
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client, override_settings
from security_world import world

from barnga.asgi import application
from tournament.identity import COOKIE, signed_cookie_value
from tournament.loadtest.servers import free_port, start_daphne, stop, wait_healthy
from tournament.security import HTMX_INDICATOR_STYLE

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def page_urls(w) -> dict[str, tuple[Client, str]]:
    alice = w.facilitator(w.alice)
    return {
        "join": (Client(), "/join"),
        "login": (Client(), "/login/"),
        "play": (w.student_client(), "/play/"),
        "panel": (alice, f"/workshops/{w.mine.pk}/"),
        "projector": (alice, f"/workshops/{w.mine.pk}/projector/"),
        "table": (alice, f"/workshops/{w.mine.pk}/tables/1/"),
        "report": (alice, f"/workshops/{w.mine.pk}/report/"),
        "export": (alice, f"/workshops/{w.mine.pk}/report.json"),
        "not found": (Client(), "/no/such/page"),
    }


def test_security_headers_on_every_kind_of_page():
    w = world()
    for what, (client, url) in page_urls(w).items():
        r = client.get(url)
        assert r.status_code in (200, 404), what
        csp = r["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["default-src"] == "'self'", what
        assert directives["script-src"] == "'self'", what  # no inline script, no eval
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp, what
        assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
        assert "ws://testserver" in directives["connect-src"], what
        assert r["X-Frame-Options"] == "DENY", what
        assert r["Referrer-Policy"] == "same-origin", what
        assert r["X-Content-Type-Options"] == "nosniff", what
        assert "camera=()" in r["Permissions-Policy"], what
        # Plain HTTP here: browsers ignore the header and log an error (see below).
        assert "Cross-Origin-Opener-Policy" not in r, what


def https_settings(monkeypatch, https: str | None) -> dict:
    """The SECURE_* settings barnga/settings.py builds with HTTPS set to this (or unset)."""
    import importlib

    from django.conf import global_settings

    import barnga.settings as project_settings

    for name in ("HTTPS", "DEBUG", "PRODUCTION", "TRUST_PROXY"):
        monkeypatch.delenv(name, raising=False)
    if https is not None:
        monkeypatch.setenv("HTTPS", https)
    try:
        built = importlib.reload(project_settings)
        names = [k for k in dir(global_settings) if k.startswith("SECURE_")]
        return {k: getattr(built, k, getattr(global_settings, k)) for k in names}
    finally:
        monkeypatch.delenv("HTTPS", raising=False)
        importlib.reload(project_settings)


@pytest.mark.parametrize("https", [None, "0", "1"])
def test_cross_origin_opener_policy_is_sent_only_over_https(monkeypatch, https):
    """Over plain HTTP at a classroom's network address Chromium ignores the header
    ("the URL's origin was untrustworthy") and logs a console error on every page."""
    world()
    built = https_settings(monkeypatch, https)
    with override_settings(**built):
        r = Client().get("/join", secure=https == "1")
    assert r.status_code == 200
    if https == "1":
        assert built["SECURE_CROSS_ORIGIN_OPENER_POLICY"] == "same-origin"
        assert r["Cross-Origin-Opener-Policy"] == "same-origin"
        assert "Strict-Transport-Security" in r  # the HTTPS settings were the ones applied
    else:
        assert "Cross-Origin-Opener-Policy" not in r
        assert built["SECURE_CROSS_ORIGIN_OPENER_POLICY"] is None


def test_pages_with_hands_sheets_names_or_a_pin_are_not_kept_by_the_browser():
    """The panel and a table's page (every sheet, name and hand) could be stored by the
    browser: Back on a shared classroom computer showed them after logging out. The
    report's pages had never_cache; now these too, and a phone's own page."""
    w = world()
    alice = w.facilitator(w.alice)
    urls = page_urls(w) | {"home": (alice, "/"), "new": (alice, "/workshops/new/")}
    for what in ("panel", "table", "report", "export", "play", "home", "new"):
        client, url = urls[what]
        r = client.get(url)
        assert r.status_code == 200, what
        assert "no-store" in r.get("Cache-Control", ""), (what, r.get("Cache-Control"))


def test_templates_need_no_inline_script_or_style():
    """What the policy forbids, the templates must not use (checked on the source)."""
    problems = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        for m in re.finditer(r"<script\b([^>]*)>", text):
            if "src=" not in m.group(1):
                problems.append(f"{path.name}: inline <script>")
        for pattern, what in (
            (r"\son[a-z]+\s*=", "an on*= handler"),
            (r"\sstyle\s*=", "a style attribute"),
            (r"<style\b", "a <style> element"),
            (r"javascript:", "a javascript: URL"),
            (r"\shx-on", "an hx-on handler (eval)"),
        ):
            if re.search(pattern, text, re.I):
                problems.append(f"{path.name}: {what}")
    assert problems == []


def test_the_one_allowed_inline_style_is_htmx_own():
    vendored = next((ROOT / "static" / "vendor").glob("htmx-*/htmx.min.js")).read_text()
    # htmx builds it from its class names; with the default names it is exactly ours.
    assert ".${t}{opacity:0;visibility: hidden} " in vendored
    assert (
        ".${n} .${t}, .${n}.${t}{opacity:1;visibility: visible;transition: opacity 200ms ease-in}"
        in vendored
    )
    assert HTMX_INDICATOR_STYLE.startswith(".htmx-indicator{opacity:0;visibility: hidden} ")


def test_every_form_refuses_a_post_without_csrf_token():
    w = world()
    posts = {
        "/join": (Client(enforce_csrf_checks=True), {"code": w.mine.code, "name": "Eve"}),
        "/join/rejoin": (
            Client(enforce_csrf_checks=True),
            {"code": w.mine.code, "name": w.student.name, "pin": w.student.pin},
        ),
        "/login/": (Client(enforce_csrf_checks=True), {"username": "alice", "password": "x"}),
        "/signup/": (Client(enforce_csrf_checks=True), {"username": "eve"}),
        "/logout/": (Client(enforce_csrf_checks=True), {}),
    }
    alice = Client(enforce_csrf_checks=True)
    alice.force_login(w.alice)
    for url in (
        "/workshops/new/",
        f"/workshops/{w.mine.pk}/do/joining-lock/",
        f"/workshops/{w.mine.pk}/do/end-now/",
        f"/workshops/{w.mine.pk}/delete/",
    ):
        posts[url] = (alice, {"confirm": w.mine.code})
    from tournament_helpers import snapshot

    before = snapshot()
    for url, (client, data) in posts.items():
        assert client.post(url, data).status_code == 403, url
    assert snapshot() == before
    # With the token the same client gets through (the check is the token, not the client).
    page = Client(enforce_csrf_checks=True)
    page.get("/join")
    token = page.cookies[settings.CSRF_COOKIE_NAME].value
    r = page.post("/join", {"code": w.mine.code, "name": "Eve", "csrfmiddlewaretoken": token})
    assert r.status_code == 302


@pytest.mark.asyncio
async def test_websockets_refuse_foreign_or_missing_origins():
    from channels.db import database_sync_to_async

    w = await database_sync_to_async(world)()
    cookie = f"{COOKIE}={signed_cookie_value(w.student.token)}".encode()
    for path in ("/ws/play/", f"/ws/facilitator/{w.mine.pk}/"):
        for origin in (b"http://evil.example", b"null", b"http://localhost.evil.example", None):
            headers = [(b"host", b"localhost"), (b"cookie", cookie)]
            if origin is not None:
                headers.append((b"origin", origin))
            comm = WebsocketCommunicator(application, path, headers=headers)
            connected, _ = await comm.connect()
            assert not connected, (path, origin)


@pytest.mark.asyncio
async def test_with_every_host_allowed_only_the_sites_own_pages_open_sockets(settings):
    """The demo (HOST=0.0.0.0 for the classroom's phones) allows every host: a page
    on another site, or a client sending no Origin, still cannot use a student's
    cookie; a page of the site, at whatever address the phone used, can."""
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter

    from barnga.origin import SameSiteOriginValidator
    from tournament import routing

    settings.ALLOWED_HOSTS = ["*"]
    app = SameSiteOriginValidator(URLRouter(routing.websocket_urlpatterns))
    w = await database_sync_to_async(world)()
    cookie = f"{COOKIE}={signed_cookie_value(w.student.token)}".encode()
    for host, origin, ok in [
        (b"192.168.1.20:8000", b"http://192.168.1.20:8000", True),
        (b"localhost", b"http://localhost", True),
        (b"192.168.1.20:8000", b"http://evil.example", False),
        (b"192.168.1.20:8000", b"http://192.168.1.20:9000", False),
        (b"192.168.1.20:8000", b"null", False),
        (b"192.168.1.20:8000", None, False),
    ]:
        headers = [(b"host", host), (b"cookie", cookie)]
        if origin is not None:
            headers.append((b"origin", origin))
        comm = WebsocketCommunicator(app, "/ws/play/", headers=headers)
        connected, _ = await comm.connect()
        assert connected is ok, (host, origin)
        if connected:
            await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "allowed, trusted, host, origin, ok",
    [
        (["*"], [], b"example.org:443", b"https://example.org", True),  # a default port said
        (["*"], [], b"[::1]:8000", b"http://[::1]:8000", True),
        (["*"], [], b"EXAMPLE.org", b"http://example.org", True),
        (["*"], [], b"a:8000", b"http://a:abc", False),  # not a port: refused, not a crash
        # A host Django does not serve is no site of ours, Origin or not.
        (["barnga.example.org"], [], b"evil.test", b"http://evil.test", False),
        (["barnga.example.org"], [], b"barnga.example.org", b"https://barnga.example.org", True),
        # Behind a proxy: the socket reaches web:8000, the page was the public origin.
        (["web"], ["https://*.example.org"], b"web:8000", b"https://class.example.org", True),
        (["web"], ["https://*.example.org"], b"web:8000", b"http://a:abc", False),
        (["web"], ["https://*.example.org"], b"web:8000", b"https://example.com", False),
    ],
)
async def test_the_origin_check_at_its_edges(settings, allowed, trusted, host, origin, ok):
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter

    from barnga.origin import SameSiteOriginValidator
    from tournament import routing

    settings.ALLOWED_HOSTS = allowed
    settings.CSRF_TRUSTED_ORIGINS = trusted
    app = SameSiteOriginValidator(URLRouter(routing.websocket_urlpatterns))
    w = await database_sync_to_async(world)()
    cookie = f"{COOKIE}={signed_cookie_value(w.student.token)}".encode()
    headers = [(b"host", host), (b"cookie", cookie), (b"origin", origin)]
    comm = WebsocketCommunicator(app, "/ws/play/", headers=headers)
    connected, _ = await comm.connect()
    assert connected is ok
    if connected:
        await comm.disconnect()


def test_check_deploy_is_clean_in_production_mode():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "barnga.settings",
        "PRODUCTION": "1",
        "HTTPS": "1",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "barnga.example.org",
        "DEBUG": "0",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
    # Production refuses to start without a real key, or with debug pages on.
    for broken in ({"SECRET_KEY": ""}, {"DEBUG": "1"}):
        done = subprocess.run(
            [sys.executable, "manage.py", "check"],
            cwd=ROOT,
            env={**env, **broken},
            capture_output=True,
            text=True,
        )
        assert done.returncode != 0, broken
    # And the settings it promises are on.
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings as s;"
            "import json; print(json.dumps([s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE,"
            " s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, s.DEBUG,"
            " s.SECURE_CROSS_ORIGIN_OPENER_POLICY]))",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == [True, True, True, 31536000, False, "same-origin"]


def test_player_cookie_is_httponly_lax_and_secure_under_https(settings):
    w = world()
    r = Client().post("/join", {"code": w.mine.code, "name": "Cookie Carl"})
    morsel = r.cookies[COOKIE]
    assert morsel["httponly"] and morsel["samesite"] == "Lax" and not morsel["secure"]
    settings.SESSION_COOKIE_SECURE = True
    r = Client().post("/join", {"code": w.mine.code, "name": "Secure Sue"})
    assert r.cookies[COOKIE]["secure"]


@pytest.mark.slow
def test_real_server_limits_message_size_and_checks_origin(settings):
    """Against Daphne itself: frames too large close the socket (1009) before they are
    read whole, foreign origins are refused at the handshake, headers are set."""
    w = world()
    port = free_port()
    db = settings.DATABASES["default"]["NAME"]
    proc = start_daphne(
        port,
        {
            "DATABASE_URL": f"sqlite:///{db}",
            "BARNGA_RUN_TIMERS": "0",
            "REDIS_URL": "",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
        },
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/join") as r:
            assert "default-src 'self'" in r.headers["Content-Security-Policy"]
            assert r.headers["X-Frame-Options"] == "DENY"
        cookie = f"{COOKIE}={signed_cookie_value(w.student.token)}"

        async def attempt():
            url = f"ws://127.0.0.1:{port}/ws/play/"
            with pytest.raises(websockets.exceptions.InvalidStatus):
                async with websockets.connect(
                    url, origin="http://evil.example", additional_headers={"Cookie": cookie}
                ):
                    pass
            async with websockets.connect(
                url,
                origin=f"http://127.0.0.1:{port}",
                additional_headers={"Cookie": cookie},
                max_size=None,
            ) as ws:
                assert json.loads(await ws.recv())["t"] in ("strokes", "view")
                await ws.send(json.dumps({"action": "ping", "pad": "x" * 70_000}))
                while (msg := json.loads(await ws.recv()))["t"] != "error":
                    pass
                assert msg["code"] == "too_large"  # ours: a clear error, socket open
                await ws.send(json.dumps({"action": "ping"}))
                while json.loads(await ws.recv())["t"] != "pong":
                    pass
                # Daphne's: the socket closes. It may close while the frame is still
                # being written, so the send can be what hears of it first.
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    await ws.send("x" * (2 * 1024 * 1024))
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                # autobahn fails the connection: a 1009 close frame, or just a dropped TCP.
                assert closed.value.rcvd is None or closed.value.rcvd.code == 1009
            # The server is unharmed.
            async with websockets.connect(
                url, origin=f"http://127.0.0.1:{port}", additional_headers={"Cookie": cookie}
            ) as ws:
                assert json.loads(await ws.recv())["t"] in ("strokes", "view")

        asyncio.run(attempt())
    finally:
        stop(proc, kill=True)  # a test server on a throwaway database
