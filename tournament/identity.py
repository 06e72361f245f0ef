"""Which player a device is: a signed cookie holding the player's token."""

from __future__ import annotations

from django.core import signing

COOKIE = "barnga_player"
SALT = "barnga.player"
MAX_AGE = 60 * 60 * 24 * 30


def set_player_cookie(response, player) -> None:
    response.set_signed_cookie(
        COOKIE, player.token, salt=SALT, max_age=MAX_AGE, httponly=True, samesite="Lax"
    )


def token_from_request(request) -> str | None:
    return request.get_signed_cookie(COOKIE, default=None, salt=SALT, max_age=MAX_AGE)


def token_from_cookie_value(value: str | None) -> str | None:
    """The same check as `request.get_signed_cookie`, for websocket scopes."""
    if not value:
        return None
    try:
        return signing.get_cookie_signer(salt=COOKIE + SALT).unsign(value, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
