"""Which player a device is: a signed cookie holding the player's token."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse

COOKIE = "barnga_player"
SALT = "barnga.player"
MAX_AGE = 60 * 60 * 24 * 30


def set_player_cookie(response, player) -> None:
    response.set_signed_cookie(
        COOKIE,
        player.token,
        salt=SALT,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,  # HTTPS=1: never sent over plain HTTP
    )


def token_from_request(request) -> str | None:
    return request.get_signed_cookie(COOKIE, default=None, salt=SALT, max_age=MAX_AGE)


def token_from_cookie_value(value: str | None) -> str | None:
    """`request.get_signed_cookie` itself, for websocket scopes: Django decides how it signs."""
    if not value:
        return None
    request = HttpRequest()
    request.COOKIES = {COOKIE: value}
    return token_from_request(request)


def signed_cookie_value(token: str) -> str:
    """What the browser holds for `token` (tests and load clients build cookies with it)."""
    response = HttpResponse()
    response.set_signed_cookie(COOKIE, token, salt=SALT)
    return response.cookies[COOKIE].value
