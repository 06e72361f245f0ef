"""Security headers Django does not set itself: Content-Security-Policy and Permissions-Policy.

Django 5.2 has no CSP support. Our pages need very little: scripts and styles
only from our own static files (no inline <script>, no on*= handlers, no style
attributes: tests/security/test_security_headers.py scans the templates), the
report's charts as data: images, and the websocket to this same host. The
websocket origins are written out (ws:/wss: + the request's validated host)
because older Safari does not count them as 'self'.
"""

from __future__ import annotations

import base64
import hashlib

from django.conf import settings
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin

# htmx inserts this <style> for its request indicators (static/vendor/htmx-*): allowed
# by its hash rather than by allowing inline styles. A test checks it is still htmx's.
HTMX_INDICATOR_STYLE = (
    ".htmx-indicator{opacity:0;visibility: hidden} "
    ".htmx-request .htmx-indicator, .htmx-request.htmx-indicator"
    "{opacity:1;visibility: visible;transition: opacity 200ms ease-in}"
)


def csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
    "accelerometer=(), gyroscope=(), magnetometer=()"
)


def content_security_policy(host: str) -> str:
    directives = {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": f"'self' {csp_hash(HTMX_INDICATOR_STYLE)}",
        "img-src": "'self' data:",
        "font-src": "'self'",
        "connect-src": f"'self' ws://{host} wss://{host}",
        "object-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }
    extra = getattr(settings, "BARNGA_CSP_EXTRA", {})
    for name, value in extra.items():
        directives[name] = f"{directives.get(name, '')} {value}".strip()
    return "; ".join(f"{k} {v}" for k, v in directives.items())


class SecurityHeadersMiddleware(MiddlewareMixin):
    """Adds CSP and Permissions-Policy to every response that has not set its own."""

    def process_response(self, request, response):
        try:
            host = request.get_host()
        except Exception:  # DisallowedHost: Django answers 400 itself
            host = "localhost"
        response.headers.setdefault("Content-Security-Policy", content_security_policy(host))
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class MethodNotAllowedPageMiddleware(MiddlewareMixin):
    """Django answers a GET to a form's address (`/join/rejoin` left in the address
    bar after a refused PIN, then Enter) with an empty 405: a blank page. A page
    asking for HTML gets the app's own, with a way on; the Allow header stays."""

    def process_response(self, request, response):
        if response.status_code != 405 or response.content or request.method == "HEAD":
            return response
        if "text/html" not in request.headers.get("Accept", "text/html"):
            return response
        page = render(request, "405.html", status=405)
        page.headers["Allow"] = response.headers.get("Allow", "")
        return page
