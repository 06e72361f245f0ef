"""Which pages may open a websocket: the site's own, whatever ALLOWED_HOSTS says.

Channels' AllowedHostsOriginValidator checks the Origin against ALLOWED_HOSTS, and
lets every origin in (and a missing one) when ALLOWED_HOSTS is "*". The demo sets
"*" so that phones on the classroom network reach it at an address nobody knows
beforehand: there any page a student opens could then use their cookie to play in
their name. Here a socket is accepted when its Origin names the host the socket was
opened on (the page is this site's own, whatever its address), or an allowed host
or trusted origin (a proxy in front of another port); a missing Origin never is.
"""

from __future__ import annotations

from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings


class SameSiteOriginValidator(OriginValidator):
    def __init__(self, application):
        hosts = [h for h in settings.ALLOWED_HOSTS if h != "*"]
        if settings.DEBUG and not settings.ALLOWED_HOSTS:
            hosts = ["localhost", "127.0.0.1", "[::1]"]
        super().__init__(application, hosts + list(settings.CSRF_TRUSTED_ORIGINS))

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        try:
            origin = urlparse(headers[b"origin"].decode("latin1"))
            host = headers.get(b"host", b"").decode("latin1").lower()
        except (KeyError, UnicodeDecodeError, ValueError):
            origin = None
        if origin is not None and (
            (host and origin.netloc.lower() == host) or self.validate_origin(origin)
        ):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
