"""Websocket routes (the one routing table lives in barnga/asgi.py)."""

websocket_urlpatterns: list = []
