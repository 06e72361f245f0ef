"""The Content-Security-Policy breaks nothing: every page loads in Chromium without a
single CSP violation, and the live sockets connect under it.

(The policy itself and the template scan are in tests/security/test_security_web.py;
this lives in tests/e2e for the real server and browser fixtures.)
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from phones import first_round

from tournament import services
from tournament.identity import COOKIE, signed_cookie_value
from tournament.models import Player

pytestmark = pytest.mark.browser


def test_no_page_violates_the_content_security_policy(live_server_url, browser, settings, log_in):
    alice = User.objects.create_user("alice", password="a-long-pass-123")
    w = services.workshop_create(name="CSP", facilitator=alice, table_count=2, seats_per_table=4)
    for i in range(8):
        services.player_join(workshop_id=w.pk, name=f"P{i + 1}")
    first_round(w.pk)
    student = Player.objects.filter(workshop=w).first()
    host = live_server_url.split("//", 1)[1].split(":")[0]

    ctx = browser.new_context()
    violations: list[str] = []
    page = ctx.new_page()
    page.on(
        "console",
        lambda m: (
            violations.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text
            else None
        ),
    )
    # The log-in form, then the facilitator's pages (logged in through the fixture: the
    # form would refuse a user the test made).
    page.goto(live_server_url + "/login/")
    page.wait_for_load_state("networkidle")
    log_in(ctx, alice)
    for path in (
        "/",
        "/workshops/new/",
        f"/workshops/{w.pk}/",
        f"/workshops/{w.pk}/projector/",
        f"/workshops/{w.pk}/tables/1/",
        f"/workshops/{w.pk}/report/",
        f"/workshops/{w.pk}/delete/",
    ):
        page.goto(live_server_url + path)
        page.wait_for_load_state("networkidle")
        assert page.url == live_server_url + path  # not sent to the log-in form
    # A control pressed on the panel: htmx swaps the panel in (its settling once
    # set each element's style attribute, which the policy refuses).
    page.goto(f"{live_server_url}/workshops/{w.pk}/")
    page.wait_for_selector("#fac-live[data-updated]")
    page.click("#do-pause")
    page.wait_for_selector("#do-resume")
    page.wait_for_timeout(500)

    # A student's phone: join page, then the table with its websocket.
    phone = browser.new_context()
    phone.add_cookies(
        [{"name": COOKIE, "value": signed_cookie_value(student.token), "domain": host, "path": "/"}]
    )
    p = phone.new_page()
    p.on(
        "console",
        lambda m: (
            violations.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text
            else None
        ),
    )
    p.goto(live_server_url + "/join")
    p.goto(live_server_url + "/play/")
    # The websocket's first view replaces the server-rendered screen.
    p.wait_for_selector("#screen[data-version]")
    p.wait_for_timeout(1000)
    assert violations == []
    ctx.close()
    phone.close()
