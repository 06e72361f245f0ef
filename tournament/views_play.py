"""The student's pages: join, rejoin on another device, and the table."""

from __future__ import annotations

import json

from django.conf import settings
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from tournament import names, ratelimit, selectors, services
from tournament.errors import ServiceError
from tournament.identity import set_player_cookie, token_from_request
from tournament.models import Gesture


def current_player(request):
    return selectors.player_by_token(token_from_request(request))


def _join_limited(request, code: str) -> str | None:
    address = ratelimit.client_address(request)
    if not ratelimit.hit(
        f"join:addr:{address}", limit=settings.BARNGA_JOIN_LIMIT_PER_ADDRESS, window=60
    ):
        return "Too many attempts from this device. Wait a minute and try again."
    if code and not ratelimit.hit(
        f"join:ws:{code}", limit=settings.BARNGA_JOIN_LIMIT_PER_WORKSHOP, window=60
    ):
        return "Many people are joining right now. Wait a few seconds and try again."
    return None


@require_http_methods(["GET", "POST"])
def join(request):
    code = names.normalise_code(request.POST.get("code") or request.GET.get("code") or "")
    player = current_player(request)
    if request.method == "GET":
        if player is not None and (not code or player.workshop.code == code):
            return redirect("play")
        return render(request, "play/join.html", {"code": code})
    name = request.POST.get("name", "")
    error = _join_limited(request, code)
    if error is None:
        try:
            player = services.player_join(code=code, name=name)
        except ServiceError as exc:
            error = exc.message
    if error is not None:
        return render(
            request, "play/join.html", {"code": code, "name": name[:30], "error": error}, status=400
        )
    response = redirect("play")
    set_player_cookie(response, player)
    return response


@require_POST
def rejoin(request):
    code = names.normalise_code(request.POST.get("code", ""))
    error = _join_limited(request, code)
    if error is None:
        try:
            player = services.player_rejoin(
                code=code, name=request.POST.get("name", ""), pin=request.POST.get("pin", "")
            )
        except ServiceError as exc:
            error = exc.message
    if error is not None:
        return render(
            request, "play/join.html", {"code": code, "error": error, "pin_error": True}, status=400
        )
    response = redirect("play")
    set_player_cookie(response, player)
    return response


def short_join(request, code: str):
    """The QR code's target: /j/CODE opens the join form with the code filled in."""
    return redirect(f"/join?code={names.normalise_code(code)}")


def play(request):
    player = current_player(request)
    if player is None:
        return redirect("join")
    ctx = selectors.player_screen(player.pk)
    ctx["gestures"] = Gesture.PALETTE
    ctx["emoji_json"] = json.dumps(Gesture.EMOJI, ensure_ascii=False)
    return render(request, "play/page.html", ctx)
