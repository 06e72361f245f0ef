"""Websocket routes (the one routing table lives in barnga/asgi.py)."""

from channels.auth import AuthMiddlewareStack
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.urls import path

from tournament import consumers, consumers_facilitator

websocket_urlpatterns = [
    # A phone is its signed cookie: no session and user lookup per connect (each a
    # hop to Channels' single database thread, which queued when a room reconnected).
    path("ws/play/", CookieMiddleware(consumers.PlayerConsumer.as_asgi())),
    # The facilitator is the logged-in user.
    path(
        "ws/facilitator/<int:workshop_id>/",
        AuthMiddlewareStack(consumers_facilitator.FacilitatorConsumer.as_asgi()),
    ),
]

if settings.BARNGA_BENCH_ECHO:
    # The load test's baseline (`manage.py loadtest --baseline`); off unless asked for.
    from tournament.loadtest.echo import EchoConsumer

    websocket_urlpatterns.append(path("ws/bench/echo/", EchoConsumer.as_asgi()))
