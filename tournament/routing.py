"""Websocket routes (the one routing table lives in barnga/asgi.py)."""

from django.urls import path

from tournament import consumers

websocket_urlpatterns = [
    path("ws/play/", consumers.PlayerConsumer.as_asgi()),
]
