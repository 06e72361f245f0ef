"""Websocket routes (the one routing table lives in barnga/asgi.py)."""

from django.urls import path

from tournament import consumers, consumers_facilitator

websocket_urlpatterns = [
    path("ws/play/", consumers.PlayerConsumer.as_asgi()),
    path(
        "ws/facilitator/<int:workshop_id>/",
        consumers_facilitator.FacilitatorConsumer.as_asgi(),
    ),
]
