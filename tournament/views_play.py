"""The student's pages: join, rejoin on another device, and the table."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournament import names, ratelimit, selectors, services
from tournament.errors import ServiceError
from tournament.identity import set_player_cookie, token_from_request
from tournament.models import Gesture
from tournament.services.workshops import UNKNOWN_CODE


def current_player(request):
    return selectors.player_by_token(token_from_request(request))


def _join_limited(request, code: str) -> str | None:
    address = ratelimit.client_address(request)
    if not ratelimit.hit(
        f"join:addr:{address}", limit=settings.BARNGA_JOIN_LIMIT_PER_ADDRESS, window=60
    ):
        # Per address: often a whole room behind one network address, not one phone.
        return "Too many join attempts from this network just now. Wait a minute and try again."
    if code and not ratelimit.hit(
        f"join:ws:{code}", limit=settings.BARNGA_JOIN_LIMIT_PER_WORKSHOP, window=60
    ):
        return "Many people are joining right now. Wait a few seconds and try again."
    return None


# Guessing: a join code is 6 of 27 characters and a rejoin PIN 4 digits, so failures
# are counted too. Too many unknown codes from one address, or wrong PINs for one
# name, and the form refuses for the rest of the window (right answers included).
GUESS_WINDOW = 600


def _bad_code_key(request) -> str:
    return f"join:badcode:{ratelimit.client_address(request)}"


def _bad_pin_key(code: str, name: str) -> str:
    who = names.name_key(" ".join(str(name).split()))
    return "rejoin:badpin:" + hashlib.sha256(f"{code}\0{who}".encode()).hexdigest()[:32]


def _guessing(request) -> str | None:
    if ratelimit.count(_bad_code_key(request), window=GUESS_WINDOW) >= (
        settings.BARNGA_JOIN_BAD_CODE_LIMIT
    ):
        # Per address: a room behind one network address shares it.
        return "Too many wrong codes from this network. Check the code on the projector and try again in a few minutes."
    return None


TOO_MANY_PINS = "Too many wrong PINs for this name. Wait a few minutes, or ask the facilitator."


def _count_failure(request, exc: ServiceError) -> None:
    if exc.code == "not_found":
        ratelimit.hit(_bad_code_key(request), limit=10**9, window=GUESS_WINDOW)


NO_CODE = "Enter the join code shown on the projector."


def _join_page(request, *, status: int = 200, name: str = "", rname: str = "", **context):
    """The join page; a name typed back into its fields is cut to what a name may be."""
    context |= {"name": name[: names.NAME_MAX], "rname": rname[: names.NAME_MAX]}
    return render(request, "play/join.html", context | {"name_max": names.NAME_MAX}, status=status)


@require_http_methods(["GET", "POST"])
def join(request):
    code = names.normalise_code(request.POST.get("code") or request.GET.get("code") or "")
    token = token_from_request(request)
    player = selectors.player_by_token(token)
    if request.method == "GET":
        if player is not None and (not code or player.workshop.code == code):
            return redirect("play")
        # A phone whose seat is gone (moved with the PIN, or removed) says so.
        lost = player is None and token is not None
        # A code no workshop has (a link or a QR code mistyped, or an old one) is said
        # at once, not after a name is typed and Join pressed; the form stays, the
        # code in it to correct. Counted as a join's wrong code is: no free oracle.
        if code:
            error = _guessing(request)
            if error is None and not selectors.workshop_code_exists(code):
                ratelimit.hit(_bad_code_key(request), limit=10**9, window=GUESS_WINDOW)
                error = UNKNOWN_CODE
            if error is not None:
                return _join_page(request, code=code, lost_seat=lost, error=error)
        return _join_page(request, code=code, lost_seat=lost)
    if player is not None and player.workshop.code == code:
        # This phone has a seat here already (Back, then Join again): it keeps it,
        # rather than leaving a seated player behind that nobody plays; under another
        # name (a shared phone), the play page says why.
        other = names.name_key(" ".join(request.POST.get("name", "").split())) != player.name_key
        response = redirect("play")
        if other:
            _say_already(response, player)
        return response
    name = request.POST.get("name", "")
    if not code:  # a blank code is no guess: said, not counted against the room
        return _join_page(request, status=400, name=name, error=NO_CODE)
    error = _join_limited(request, code) or _guessing(request)
    if error is None and not request.POST.get("same_name_ok"):
        taken = selectors.name_in_use(code, name)
        if taken is not None:  # nothing is created: they choose
            return _join_page(request, status=409, code=code, name=name, taken=taken)
    if error is None:
        try:
            player = services.player_join(code=code, name=name)
        except ServiceError as exc:
            _count_failure(request, exc)
            error = exc.message
    if error is not None:
        return _join_page(request, status=400, code=code, name=name, error=error)
    response = redirect("play")
    set_player_cookie(response, player)
    return response


@require_POST
def rejoin(request):
    code = names.normalise_code(request.POST.get("code", ""))
    name = request.POST.get("name", "")
    if not code:
        return _join_page(request, status=400, pin_error=NO_CODE, rname=name)
    error = _join_limited(request, code) or _guessing(request)
    # A PIN tried counts before it is checked, and is taken back unless it was wrong:
    # tries sent together (each waiting for the workshop's lock) each see the others.
    pin_key = _bad_pin_key(code, name)
    if error is None and not ratelimit.hit(
        pin_key, limit=settings.BARNGA_REJOIN_BAD_PIN_LIMIT, window=GUESS_WINDOW
    ):
        error = TOO_MANY_PINS
    elif error is None:
        try:
            player = services.player_rejoin(code=code, name=name, pin=request.POST.get("pin", ""))
        except ServiceError as exc:
            _count_failure(request, exc)
            if exc.code != "invalid":  # not a wrong PIN: an unknown code, say
                ratelimit.undo(pin_key, window=GUESS_WINDOW)
            error = exc.message
        else:
            ratelimit.undo(pin_key, window=GUESS_WINDOW)
    if error is not None:
        # The error beside the PIN form, with the name as typed (not above Join).
        return _join_page(request, status=400, code=code, pin_error=error, rname=name)
    response = redirect("play")
    set_player_cookie(response, player)
    return response


# "This phone already has a seat" is the answer to one join: said on the play page
# that answer opens, once. It came as "?already=1" in the address, and stayed: every
# reload (a phone's browser restoring its tab, hours later) said it again.
ALREADY_COOKIE = "barnga_already"
ALREADY_SALT = "barnga.already"
ALREADY_SECONDS = 60  # the redirect's next request; a page never opened forgets it


def _say_already(response, player) -> None:
    response.set_signed_cookie(
        ALREADY_COOKIE,
        str(player.pk),
        salt=ALREADY_SALT,
        max_age=ALREADY_SECONDS,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def _said_already(request, player) -> bool:
    """Whether this page answers a join refused because this phone has `player`'s seat
    (the cookie names that seat: one since moved away or removed says nothing)."""
    value = request.get_signed_cookie(
        ALREADY_COOKIE, default=None, salt=ALREADY_SALT, max_age=ALREADY_SECONDS
    )
    return value == str(player.pk)


def short_join(request, code: str):
    """The QR code's target: /j/CODE opens the join form with the code filled in."""
    return redirect(f"/join?code={names.normalise_code(code)}")


@never_cache  # the seat's hand and rejoin PIN: not for a shared computer's cache
def play(request):
    player = current_player(request)
    if player is None:
        return redirect("join")
    ctx = selectors.player_screen(player.pk)
    # Jinja2 (barnga/jinja2.py), which escaped what it had to: safe to include as it is.
    ctx["screen_html"] = mark_safe(render_to_string("play/_screen.html", ctx))
    ctx["already"] = _said_already(request, player)
    ctx["gestures"] = Gesture.PALETTE
    ctx["emoji_json"] = json.dumps(Gesture.EMOJI, ensure_ascii=False)
    response = render(request, "play/page.html", ctx)
    if ALREADY_COOKIE in request.COOKIES:
        response.delete_cookie(ALREADY_COOKIE, samesite="Lax")
    return response
