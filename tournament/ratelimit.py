"""Fixed-window counters in Django's cache (shared through Redis when REDIS_URL is set)."""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

log = logging.getLogger(__name__)


def hit(key: str, *, limit: int, window: int) -> bool:
    """Count one event for `key`; False once more than `limit` happened in this window.

    Fails open: while the cache (Redis) is unreachable every event is allowed, so a
    Redis restart cannot turn a class's joining into server errors.
    """
    try:
        return _hit(key, limit=limit, window=window)
    except Exception:
        log.warning("rate limit %s not counted: the cache is unreachable", key, exc_info=True)
        return True


def _hit(key: str, *, limit: int, window: int) -> bool:
    bucket = f"rl:{key}:{int(time.time() // window)}"
    if cache.add(bucket, 1, timeout=window + 1):
        return True
    try:
        count = cache.incr(bucket)
    except ValueError:  # expired between add and incr
        cache.add(bucket, 1, timeout=window + 1)
        return True
    return count <= limit


def undo(key: str, *, window: int) -> None:
    """Take back one event counted by `hit` in this window (nothing if the window has
    turned since, or the cache is unreachable)."""
    try:
        cache.decr(f"rl:{key}:{int(time.time() // window)}")
    except Exception:  # no such bucket (ValueError), or no cache
        pass


def count(key: str, *, window: int) -> int:
    """Events counted for `key` in this window so far (0 when the cache is unreachable)."""
    try:
        return int(cache.get(f"rl:{key}:{int(time.time() // window)}") or 0)
    except Exception:
        return 0


def client_address(request) -> str:
    # Behind the compose proxy the real address is in X-Forwarded-For; trust only
    # the hops our own proxies appended (PROXY_HOPS of them, counted from the end:
    # what a client wrote before them is its own say) when TRUST_PROXY is on.
    from django.conf import settings

    if getattr(settings, "TRUST_PROXY", False):
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        hops = [h for h in hops if h]
        if hops:
            return hops[max(0, len(hops) - getattr(settings, "PROXY_HOPS", 1))]
    return request.META.get("REMOTE_ADDR", "unknown")
