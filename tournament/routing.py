"""Websocket routes (the one routing table lives in barnga/asgi.py)."""

from django.conf import settings
from django.urls import path

from tournament import consumers, consumers_facilitator

websocket_urlpatterns = [
    path("ws/play/", consumers.PlayerConsumer.as_asgi()),
    path(
        "ws/facilitator/<int:workshop_id>/",
        consumers_facilitator.FacilitatorConsumer.as_asgi(),
    ),
]

if settings.BARNGA_BENCH_ECHO:
    # The load test's baseline (`manage.py loadtest --baseline`); off unless asked for.
    from tournament.loadtest.echo import EchoConsumer

    websocket_urlpatterns.append(path("ws/bench/echo/", EchoConsumer.as_asgi()))
