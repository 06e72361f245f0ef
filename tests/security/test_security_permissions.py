"""Facilitator pages, controls, reports and exports: only for the workshop's own facilitator.

Every route of the URLconf outside a short public list is attacked, with GET
and POST, by a visitor, a student of the workshop (player cookie), and another
facilitator. None may read anything of the workshop (its code, players' names,
tokens, sheets) or change any row. The owner's own requests check that the
URLs built here are real.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from security_world import CSRF_TOKEN, PUBLIC, leaked, routes, world
from socket_helpers import site_socket
from tournament_helpers import snapshot

from tournament.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)
REFUSED = {302, 400, 403, 404, 405}


def test_every_private_url_refuses_visitors_students_and_other_facilitators():
    w = world()
    private = [(url, name, scoped) for url, name, scoped in routes(w.mine) if name not in PUBLIC]
    names = {name for _, name, _ in private}
    # The debrief report and its exports are among them (and whatever is added later).
    assert {"report", "report-json", "report-zip", "report-csv", "workshop"} <= names
    intruders = {
        "visitor": Client(),
        "student": w.student_client(),
        "other facilitator": w.facilitator(w.bob),
    }
    login = resolve_url(settings.LOGIN_URL)
    before = snapshot()
    checked = 0
    for url, _name, scoped in private:
        for who, client in intruders.items():
            if who == "other facilitator" and not scoped:
                continue  # their own home page and set-up wizard
            for method in ("get", "post"):
                data = {"player": w.student.pk, "confirm": w.mine.code}
                response = getattr(client, method)(url, data)
                what = f"{who} {method.upper()} {url}"
                assert response.status_code in REFUSED, f"{what}: {response.status_code}"
                if response.status_code == 302:
                    assert response["Location"].startswith(login), what
                assert leaked(response.content, w.mine) == [], f"{what} leaks"
                checked += 1
    assert snapshot() == before, "a refused request changed the database"
    assert checked > 40

    # The same URLs are real: the owner reads every page and export.
    owner = w.facilitator(w.alice)
    for url, name, scoped in private:
        if scoped and name not in ("workshop-action", "workshop-delete"):
            assert owner.get(url).status_code == 200, url


def test_a_csrf_token_that_spells_a_name_is_no_leak_and_the_name_elsewhere_is():
    w = world()
    name = w.student.name
    page = w.facilitator(w.bob).get("/no-such-page/").content.decode()
    # The page's tokens (htmx's header and the log-out form), made to spell the name.
    assert len(CSRF_TOKEN.findall(page)) == 2
    token = (name * 64)[:64]
    page = CSRF_TOKEN.sub(lambda m: f'{m.group(1)}{token}"', page)
    assert page.count(token) == 2 and leaked(page, w.mine) == []
    assert leaked(page + f"<p>{name}</p>", w.mine) == [name]


def test_a_student_cannot_reach_the_admin():
    w = world()
    response = w.student_client().get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    # Facilitators are not staff either.
    assert w.facilitator(w.bob).get("/admin/").status_code == 302


@pytest.mark.asyncio
async def test_facilitator_socket_refuses_everyone_but_the_owner():
    from channels.db import database_sync_to_async

    w = await database_sync_to_async(world)()
    cookies = {
        "visitor": None,
        "student": f"barnga_player={w.student_client().cookies['barnga_player'].value}",
        "other facilitator": "sessionid="
        + (await database_sync_to_async(lambda: w.facilitator(w.bob).cookies["sessionid"].value)()),
    }
    owner = "sessionid=" + (
        await database_sync_to_async(lambda: w.facilitator(w.alice).cookies["sessionid"].value)()
    )
    ws_routes = routes(w.mine, websocket_urlpatterns)
    assert any(scoped for _, _, scoped in ws_routes)
    for url, _, scoped in ws_routes:
        if not scoped:
            continue
        for view in ("panel", "table&table=1", "projector"):
            for who, cookie in cookies.items():
                comm = site_socket(f"{url}?view={view}", cookie)
                connected, _ = await comm.connect()
                if connected:
                    out = await comm.receive_output(timeout=3)
                    assert out["type"] == "websocket.close", f"{who} got {out} on {url}"
                    assert out["code"] == 4403
                await comm.disconnect()
            comm = site_socket(f"{url}?view={view}", owner)
            assert (await comm.connect())[0]
            first = await comm.receive_json_from(timeout=3)
            assert first["t"] == "regions", "the owner's socket works (the test is not vacuous)"
            await comm.disconnect()
