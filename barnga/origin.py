"""Which pages may open a websocket: the site's own, whatever ALLOWED_HOSTS says.

Channels' AllowedHostsOriginValidator checks the Origin against ALLOWED_HOSTS, and
lets every origin in (and a missing one) when ALLOWED_HOSTS is "*". The demo sets
"*" so that phones on the classroom network reach it at an address nobody knows
beforehand: there any page a student opens could then use their cookie to play in
their name. Here a socket is accepted when its Origin names the host the socket was
opened on (the page is this site's own, whatever its address) and that host is one
Django serves, or when the Origin is an allowed host or a trusted origin (a proxy in
front of another port); a missing or malformed Origin never is.
"""

from __future__ import annotations

from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def _trusted_patterns() -> list[str]:
    # CSRF_TRUSTED_ORIGINS may say "https://*.example.org"; Channels' patterns say
    # ".example.org" for a domain and its subdomains.
    return [o.replace("://*.", "://.") for o in settings.CSRF_TRUSTED_ORIGINS]


class SameSiteOriginValidator(OriginValidator):
    def __init__(self, application):
        hosts = [h for h in settings.ALLOWED_HOSTS if h != "*"]
        if settings.DEBUG and not settings.ALLOWED_HOSTS:
            hosts = ["localhost", "127.0.0.1", "[::1]"]
        super().__init__(application, hosts + _trusted_patterns())

    def same_site(self, origin, host: str) -> bool:
        """The Origin is the socket's own host (ports compared with the scheme's
        default filled in), and Django serves that host."""
        domain, port = split_domain_port(host)
        served = settings.ALLOWED_HOSTS
        if settings.DEBUG and not served:  # what Django itself serves then
            served = [".localhost", "127.0.0.1", "[::1]"]
        if not domain or not validate_host(domain, served):
            return False
        default = DEFAULT_PORTS.get(origin.scheme)
        return (origin.hostname or "") == domain.strip("[]") and (origin.port or default) == (
            int(port) if port else default
        )

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        try:
            origin = urlparse(headers[b"origin"].decode("latin1"))
            host = headers.get(b"host", b"").decode("latin1").lower()
            allowed = self.same_site(origin, host) or self.validate_origin(origin)
        except (KeyError, UnicodeDecodeError, ValueError):  # none, or a port that is not one
            allowed = False
        if allowed:
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
