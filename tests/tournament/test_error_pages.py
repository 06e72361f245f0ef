"""The error pages a student or facilitator may meet: the app's own, with a way on."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import path

from tournament import services
from tournament.models import Player

pytestmark = pytest.mark.django_db


def _fails(request):
    raise RuntimeError("a bug")


urlpatterns = [path("fails/", _fails)]


def test_an_unknown_address_shows_the_apps_not_found_page():
    response = Client().get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in html and '<main id="main">' in html
    assert 'href="/join"' in html  # a student who mistyped the join link can go on


def test_a_join_without_the_csrf_cookie_says_what_to_do_and_joins_nobody():
    workshop = services.workshop_create(name="W", table_count=1)
    client = Client(enforce_csrf_checks=True)
    response = client.post("/join", {"code": workshop.code, "name": "Ana"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "<h1>Please try again</h1>" in html and '<main id="main">' in html
    assert "allow cookies for this site" in html  # no cookie was sent at all
    assert not Player.objects.exists()


def test_a_stale_csrf_token_asks_for_a_reload_not_cookies():
    workshop = services.workshop_create(name="W", table_count=1)
    client = Client(enforce_csrf_checks=True)
    client.get(f"/join?code={workshop.code}")  # the form's page sets the cookie
    assert "csrftoken" in client.cookies
    response = client.post(
        "/join", {"code": workshop.code, "name": "Ana", "csrfmiddlewaretoken": "x" * 64}
    )
    html = response.content.decode()
    assert response.status_code == 403
    assert "this page was out of date" in html and "allow cookies" not in html
    assert not Player.objects.exists()


def test_a_server_error_shows_a_plain_page(settings):
    settings.ROOT_URLCONF = __name__
    response = Client(raise_request_exception=False).get("/fails/")
    html = response.content.decode()
    assert response.status_code == 500
    assert "<h1>Something went wrong</h1>" in html and "<main>" in html
    assert "a bug" not in html and "Traceback" not in html


def test_opening_a_forms_address_shows_a_page_not_a_blank():
    """After a refused PIN the address bar shows /join/rejoin; Enter there was an
    empty 405."""
    for url in ("/join/rejoin", "/logout/"):
        response = Client().get(url, HTTP_ACCEPT="text/html")
        html = response.content.decode()
        assert response.status_code == 405 and "POST" in response["Allow"], url
        assert "<h1>Nothing to open here</h1>" in html and 'href="/join"' in html, url
        assert "Content-Security-Policy" in response.headers
    # A script asking for something else keeps the bare answer.
    assert Client().get("/join/rejoin", HTTP_ACCEPT="application/json").content == b""
