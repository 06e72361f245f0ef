"""The facilitator's log-in, with password guessing cut off.

A facilitator's account opens every workshop's names, sheets and exports. Failed
log-ins are counted per user name from one client address, and per address (10
minutes); a try is
counted before its password is checked and taken back when it was right, so tries
sent together each see the others (as the rejoin PIN's are, views_play.rejoin).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import views as auth_views

from tournament import ratelimit

WINDOW = 600
TOO_MANY = "Too many failed log-ins. Wait a few minutes and try again."


def _keys(request) -> list[tuple[str, int]]:
    # A user name's count is per address too: counted alone, anyone anywhere could
    # lock a facilitator out of their class by failing ten times in their name.
    name = str(request.POST.get("username", "")).strip().casefold()
    address = ratelimit.client_address(request)
    who = hashlib.sha256(f"{name}\0{address}".encode()).hexdigest()[:32]
    return [
        (f"login:user:{who}", settings.BARNGA_LOGIN_FAIL_LIMIT),
        (f"login:addr:{address}", settings.BARNGA_LOGIN_FAIL_LIMIT_PER_ADDRESS),
    ]


class LoginView(auth_views.LoginView):
    template_name = "login.html"

    def post(self, request, *args, **kwargs):
        keys = _keys(request)
        allowed = [ratelimit.hit(key, limit=limit, window=WINDOW) for key, limit in keys]
        if not all(allowed):
            # Unbound: the password is not even checked (a right one would be no answer).
            form = self.get_form_class()(
                request=request, initial={"username": request.POST.get("username", "")}
            )
            form.cleaned_data = {}  # what add_error expects of a form that was cleaned
            form.add_error(None, TOO_MANY)
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        response = super().post(request, *args, **kwargs)
        if response.status_code == 302:  # logged in: not a failure
            for key, _ in keys:
                ratelimit.undo(key, window=WINDOW)
        return response
