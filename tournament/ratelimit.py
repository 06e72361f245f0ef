"""Fixed-window counters in Django's cache (shared through Redis when REDIS_URL is set)."""

from __future__ import annotations

import time

from django.core.cache import cache


def hit(key: str, *, limit: int, window: int) -> bool:
    """Count one event for `key`; False once more than `limit` happened in this window."""
    bucket = f"rl:{key}:{int(time.time() // window)}"
    if cache.add(bucket, 1, timeout=window + 1):
        return True
    try:
        count = cache.incr(bucket)
    except ValueError:  # expired between add and incr
        cache.add(bucket, 1, timeout=window + 1)
        return True
    return count <= limit


def client_address(request) -> str:
    # Behind the compose proxy the real address is in X-Forwarded-For; trust only
    # the first hop the proxy appended when TRUST_PROXY is on.
    from django.conf import settings

    if getattr(settings, "TRUST_PROXY", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "unknown")
